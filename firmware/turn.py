"""The turn screen: what a player's buttons do during a turn (R6-R8) and
what their panel shows, both from that player's observation alone (the
other player's hidden cards never reach this code). The app calls
``press(app, p, button)`` for a turn's buttons and ``view(app, p)`` for the
screen (firmware/screens.py draws it); the view of a position, which a
cursor move does not change, is built once per position (``base``).
"""
from engine import deadwood
from i18n import t, card as show_card
import text
from text import width

try:
    from micropython import const
except ImportError:  # CPython (tests, mypy)
    def const(x):
        return x

# history entries a turn screen needs: the opponent's last turn and whether
# the card under the cursor was just taken (_last_move, _just_taken)
_RECENT = const(6)
# A position's view (base): what a turn screen shows that a cursor move
# does not change, built once per position instead of per button
_B_HAND = const(0)     # the engine's Hand and three of its public fields:
_B_STOCK = const(1)    # the position the view was built for
_B_TOP = const(2)
_B_TURN = const(3)
_B_OBS = const(4)      # the observation, without its history and piles
_B_GROUPS = const(5)   # engine.arrange.arrange(hand)
_B_ORDER = const(6)    # the cards as the cursor walks them
_B_HEAD = const(7)
_B_LAST = const(8)     # the opponent's last turn in words
_B_TAKEN = const(9)    # the card p just took (R7), or None
_B_DW = const(10)      # card -> deadwood of the hand without it
_B_STATUS = const(11)  # the stock and knock limit line, in words
# the observation's fields a position's view keeps (_B_OBS)
_KEEP = ("hand", "to_move", "phase", "legal", "discard_top", "stock_count", "knock_limit",
         "multiplier", "deadwood")


def _fit(keys, args=(), less=0):
    """The first of a catalogue's forms (``keys``: the long one first)
    that fits the turn screen's line, each looked up only when the one
    before does not fit: a 2.9" table asks for no form it does not draw
    (the texts looked up stay on the heap, i18n's cache). The last when
    none fits (the fit test fails on it)."""
    lw = text.LINES_W   # the panel's (text.size); screens may be dropped now
    for k in keys:
        s = t(k, *args)
        if width(s) <= lw - less:   # less: 1 for a bold line
            return s
    return s


def _narrow():
    return text.NARROW


def _hints(key, short):
    """A footer's text, and on a narrow screen its short form too (the
    footer draws the first that fits)."""
    return (t(key), t(short)) if _narrow() else t(key)

def press(app, p, button):
    """A button of player p during a turn (not the menu's, not a notice's,
    not the showdown's: the app dispatches those)."""
    b = base(app, p)
    obs = b[_B_OBS]
    app.msg[p] = ""
    if obs["to_move"] != p:
        if button in ("left", "right"):
            _move_cursor(app, p, obs, button)
        else:
            app.msg[p] = t("msg.wait", app.name(p, 1 - p))
        return
    phase = obs["phase"]
    if phase == "upcard":            # R6
        if button == "take":
            app.play(p, "take", obs["hand"])
        elif button == "draw":
            app.play(p, "pass", obs["hand"])
        else:
            app.msg[p] = t("msg.upcard")
        return
    if phase == "draw":              # R7
        if button == "draw":
            app.play(p, "draw", obs["hand"])
        elif button == "take":
            app.play(p, "take", obs["hand"])
        else:
            app.msg[p] = t("msg.draw")
        return
    # discard phase: cursor, discard, knock (R7, R8)
    order = b[_B_ORDER]
    i = app.cursor[p] % len(order)
    c = order[i]
    if button in ("left", "right"):
        app.confirm[p] = False
        _move_cursor(app, p, obs, button)
    elif app.confirm[p]:
        app.confirm[p] = False
        if button in ("knock", "ok"):
            app.play(p, "knock " + c, obs["hand"])
    elif button == "ok":
        if c == b[_B_TAKEN] and ("discard " + c) not in obs["legal"]:
            app.msg[p] = t("msg.just_taken", show_card(c))
        else:
            app.play(p, "discard " + c, obs["hand"])
    elif button == "knock":
        if ("knock " + c) in obs["legal"]:
            app.confirm[p] = True
        else:
            rest = [x for x in obs["hand"] if x != c]
            app.msg[p] = t("msg.cant_knock", deadwood(rest), obs["knock_limit"])
    else:
        app.msg[p] = t("msg.discard_now")


def _just_taken(p, obs):
    h = obs["history"]
    if h:
        w = h[-1].split()
        if len(w) == 3 and w[0] == str(p) and w[1] == "take":
            return w[2]
    return None


def _move_cursor(app, p, obs, button):
    n = len(obs["hand"])
    if not n:
        return
    d = 1 if button == "right" else -1
    app.cursor[p] = (app.cursor[p] + d) % n


def base(app, p):
    """p's view of the position (the _B_ fields), built when the
    position has changed: the observation, the hand's arrangement, the
    header and the last move stay the same while p moves the cursor.
    On the RP2040 building them took ~45 ms of a cursor move's 100
    (docs/emulated-pico.md); every action clears them (App.touch), and
    the engine's public fields are checked too."""
    m = app.match
    h = m.hand
    b = app.bases[p]
    if b is not None and b[_B_HAND] is h and b[_B_STOCK] == h.stock_count \
            and b[_B_TOP] == h.discard_top and b[_B_TURN] == h.to_move:
        return b
    app.bases[p] = b = None   # the old view goes first
    obs = m.observation(p, _RECENT)
    if app.vs != "human" and p == 1:
        groups = []   # the computer's panel shows only the public side
    else:
        from engine.arrange import arrange
        groups = arrange(obs["hand"])
    order = []
    for g, _m in groups:
        order.extend(g)
    limit = obs["knock_limit"]
    status = t("turn.status_gin", obs["stock_count"]) if limit == 0 else \
        t("turn.status", obs["stock_count"], limit)
    if obs["multiplier"] > 1:
        # a spade upcard: this hand counts twice (R15); the short form
        # where the mark leaves the line no room
        mark = " \u00b7 \u2660\u00d72"
        status += mark
        if width(status) > text.LINES_W:
            status = (t("turn.status_gin_short", obs["stock_count"]) if limit == 0 else
                      t("turn.status_short", obs["stock_count"], limit)) + mark
    b = [h, h.stock_count, h.discard_top, h.to_move, None, groups, order,
         _head(app, p, obs), _last_move(app, p, obs), _just_taken(p, obs), {}, status]
    # what press() and view() read of the observation, in a dict of its
    # own: the rest (the history, the last hand's result with both hands,
    # the games...) was read above, and a dict keeps its table's size
    # when keys are popped (docs/memory.md "The turn views' observation")
    keep = {}
    for k in _KEEP:
        keep[k] = obs[k]
    b[_B_OBS] = keep
    obs = None
    app.bases[p] = b
    return b


def _head(app, p, obs):
    """The head line, long and short (screens.header draws the first that
    fits beside a TEST MODE banner, or at all: three-digit scores)."""
    games = obs["games"]
    n = obs["hand_no"]
    if len(games) > 1:
        # Hollywood (R17): each game's score, mine first
        out = []
        for g in games:
            sc = g["scores"]
            out.append("%d-%d" % (sc[p], sc[1 - p]))
        out = " ".join(out)
        keys = ("turn.head_hollywood", "turn.head_hollywood_short", "turn.head_hollywood_tiny")
        args = (n, out, obs["target"])
    else:
        sc = obs["scores"]
        keys = ("turn.head", "turn.head_short", "turn.head_tiny", "turn.head_mini")
        args = (n, app.name(p, p), sc[p], app.name(p, 1 - p), sc[1 - p], obs["target"])
    # the tiny forms only where they may be drawn (a narrow screen)
    return tuple([t(k, *args) for k in keys[:None if _narrow() else 2]])


def _last_move(app, p, obs):
    """The opponent's last turn in words, both halves when it had two
    ("CPU took 7h, discarded 3c"): what a player across the table sees."""
    hist = obs["history"]
    me = str(p)
    i = len(hist)
    while i and hist[i - 1].split()[0] == me:
        i -= 1            # skip my own moves since
    j = i
    while j and hist[j - 1].split()[0] != me:
        j -= 1            # the opponent's moves of that turn
    words = []
    took = ""
    for h in hist[max(j, i - 2):i]:
        w = h.split()
        act = w[1]
        card = w[2] if len(w) > 2 else ""
        if act == "take":
            words.append(t("turn.took", show_card(card)))
            took = card
        elif act == "draw":
            words.append(t("turn.drew"))
        elif act == "pass":
            words.append(t("turn.passed"))
        elif act == "discard":
            words.append(t("turn.discarded", show_card(card)))
        else:
            words.append(t("turn.knocked"))
    if not words:
        return ""
    # without the name when both halves and a long one ("Kompyuta") would
    # not fit: the opponent is the only other player; then with the
    # shorter verb for "took" a catalogue may give (a narrow screen)
    name = app.name(p, 1 - p)
    s = _fit(("turn.last", "turn.last_short"), (name, ", ".join(words)))
    if took and len(words) > 1 and width(s) > text.LINES_W:
        # still too long: the shorter verb for "took" a catalogue may give
        words[0] = t("turn.took_short", show_card(took))
        s = t("turn.last_short", name, ", ".join(words))
    return s


def follow_draw(app, p, before):
    """Put p's cursor on the card p just drew or took (``before``: p's hand
    before the action): the quick decision is about that card. From p's
    own cards, not an observation (which would build history and legal
    moves)."""
    hand = app.match.hand.hands[p]
    new = [c for c in hand if c not in before]
    if new:
        from engine.arrange import order as arranged
        order = arranged(hand)
        if new[0] in order:
            app.cursor[p] = order.index(new[0])


def view(app, p):
    """What p's turn screen shows (firmware/screens.py game() draws it)."""
    b = base(app, p)
    obs = b[_B_OBS]
    hand = obs["hand"]
    computer_seat = app.vs != "human" and p == 1
    groups = b[_B_GROUPS]
    order = b[_B_ORDER]
    my_turn = obs["to_move"] == p
    phase = obs["phase"]
    pile = obs["discard_top"]
    limit = obs["knock_limit"]
    lines = []
    cursor = -1
    opp = app.name(p, 1 - p)
    # three lines: the prompt; the stock and the knock limit; then the
    # card under the cursor, or the opponent's last turn, or the deadwood
    if computer_seat:
        lines.append(t("turn.computer", t("level." + app.vs)))
        hint = t("hint.computer")
    elif not my_turn:
        lines.append(t("turn.waiting", opp))
        hint = _hints("hint.waiting", "hint.waiting_short")
    elif phase == "upcard":
        lines.append(t("turn.upcard"))
        hint = t("hint.upcard")
    elif phase == "draw" and "take" not in obs["legal"]:
        lines.append(t("turn.both_passed"))    # R6: not the upcard
        hint = t("hint.draw_only")
    elif phase == "draw":
        lines.append(_fit(("turn.draw_or_take", "turn.draw_or_take_short"), (show_card(pile),), 1))
        hint = t("hint.draw")
    else:
        cursor = app.cursor[p] % len(order)
        c = order[cursor]
        dw = b[_B_DW].get(c)
        if dw is None:   # each card once per position
            dw = b[_B_DW][c] = deadwood([x for x in hand if x != c])
        if app.confirm[p]:
            lines.append(t("turn.confirm_gin" if dw == 0 else "turn.confirm_knock", show_card(c)))
            hint = _hints("hint.confirm", "hint.confirm_short")
        else:
            lines.append(t("turn.discard"))
            hint = _hints("hint.discard", "hint.discard_short")
    doubled = obs["multiplier"] > 1
    lines.append(b[_B_STATUS])
    last = b[_B_LAST]
    own = text.NARROW and not computer_seat   # the last move has its own line
    if computer_seat:
        lines.append(t("turn.holds", len(hand)))
    elif cursor >= 0 and ("discard " + c) not in obs["legal"] \
            and ("knock " + c) not in obs["legal"]:
        lines.append(_fit(("turn.keep_taken", "turn.keep_taken_short"), (show_card(c),)))
    elif cursor >= 0:
        if dw == 0:
            lines.append(t("turn.after_gin", show_card(c)))
        elif dw <= limit:
            # the short form when a 10 or a two-digit deadwood would not
            # fit: never a card or a number cut (tests/app/test_fit.py)
            lines.append(_fit(("turn.after_knock", "turn.after_knock_short", "turn.after_knock_tiny"),
                              (show_card(c), dw)))
        else:
            lines.append(t("turn.after", show_card(c), dw))
    elif last and not own:
        lines.append(last)
    elif doubled:
        lines.append(_fit(("turn.doubled", "turn.doubled_short")))   # R15, at the deal
    else:
        lines.append(t("turn.deadwood", obs["deadwood"]))
    if own:
        lines.append(last)
    v = {
        "base": b,
        "head": b[_B_HEAD],
        "testmode": app.testmode,
        "pile": pile,
        "lines": lines,
        "groups": groups,
        "cursor": cursor,
        "msg": app.msg[p],
        "hint": hint,
        "backs": len(hand) if computer_seat else 0,
    }
    return v
