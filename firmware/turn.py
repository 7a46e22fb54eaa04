"""The turn screen: what a player's buttons do during a turn (R6-R8) and
what their panel shows, both from that player's observation alone (the
other player's hidden cards never reach this code). The app calls
``press(app, p, button)`` for a turn's buttons and ``view(app, p)`` for the
screen (firmware/screens.py draws it); the view of a position, which a
cursor move does not change, is built once per position (``base``).
"""
from engine import deadwood
from i18n import t, card as show_card
from text import first_fit

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
        from screens import LINES_W
        status = first_fit(LINES_W, (
            status + mark,
            (t("turn.status_gin_short", obs["stock_count"]) if limit == 0 else
             t("turn.status_short", obs["stock_count"], limit)) + mark))
    b = [h, h.stock_count, h.discard_top, h.to_move, obs, groups, order,
         _head(app, p, obs), _last_move(app, p, obs), _just_taken(p, obs), {}, status]
    for k in ("history", "discard", "opponent_known"):
        obs.pop(k, None)   # read above; not kept
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
        return (t("turn.head_hollywood", n, out, obs["target"]),
                t("turn.head_hollywood_short", n, out, obs["target"]),
                t("turn.head_hollywood_tiny", n, out, obs["target"]))
    sc = obs["scores"]
    args = (n, app.name(p, p), sc[p], app.name(p, 1 - p), sc[1 - p], obs["target"])
    return (t("turn.head", *args), t("turn.head_short", *args), t("turn.head_tiny", *args),
            t("turn.head_mini", *args))


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
    short = ""
    if took and len(words) > 1:
        short = ", ".join([t("turn.took_short", show_card(took))] + words[1:])
    words = ", ".join(words)
    # the panel's line (screens is sized at run time): on a narrow one the
    # last move has a line of its own, the screen's width
    from screens import LINES_W
    forms = (t("turn.last", app.name(p, 1 - p), words),
             t("turn.last_short", app.name(p, 1 - p), words))
    if short:
        forms += (t("turn.last_short", app.name(p, 1 - p), short),)
    return first_fit(LINES_W, forms)


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
        hint = (t("hint.waiting"), t("hint.waiting_short"))
    elif phase == "upcard":
        lines.append(t("turn.upcard"))
        hint = t("hint.upcard")
    elif phase == "draw" and "take" not in obs["legal"]:
        lines.append(t("turn.both_passed"))    # R6: not the upcard
        hint = t("hint.draw_only")
    elif phase == "draw":
        from screens import LINES_W
        lines.append(first_fit(LINES_W - 1, (t("turn.draw_or_take", show_card(pile)),   # bold
                                             t("turn.draw_or_take_short", show_card(pile)))))
        hint = t("hint.draw")
    else:
        cursor = app.cursor[p] % len(order)
        c = order[cursor]
        dw = b[_B_DW].get(c)
        if dw is None:   # each card once per position
            dw = b[_B_DW][c] = deadwood([x for x in hand if x != c])
        if app.confirm[p]:
            lines.append(t("turn.confirm_gin" if dw == 0 else "turn.confirm_knock", show_card(c)))
            hint = (t("hint.confirm"), t("hint.confirm_short"))
        else:
            lines.append(t("turn.discard"))
            hint = (t("hint.discard"), t("hint.discard_short"))
    doubled = obs["multiplier"] > 1
    lines.append(b[_B_STATUS])
    last = b[_B_LAST]
    from screens import ROWS
    own = ROWS > 3 and not computer_seat   # the last move has its own line
    if computer_seat:
        lines.append(t("turn.holds", len(hand)))
    elif cursor >= 0 and ("discard " + c) not in obs["legal"] \
            and ("knock " + c) not in obs["legal"]:
        from screens import LINES_W
        lines.append(first_fit(LINES_W, (t("turn.keep_taken", show_card(c)),
                                         t("turn.keep_taken_short", show_card(c)))))
    elif cursor >= 0:
        if dw == 0:
            lines.append(t("turn.after_gin", show_card(c)))
        elif dw <= limit:
            # the short form when a 10 or a two-digit deadwood would not
            # fit: never a card or a number cut (tests/app/test_fit.py)
            from screens import LINES_W
            lines.append(first_fit(LINES_W, (t("turn.after_knock", show_card(c), dw),
                                             t("turn.after_knock_short", show_card(c), dw),
                                             t("turn.after_knock_tiny", show_card(c), dw))))
        else:
            lines.append(t("turn.after", show_card(c), dw))
    elif last and not own:
        lines.append(last)
    elif doubled:
        from screens import LINES_W       # R15, at the deal
        lines.append(first_fit(LINES_W, (t("turn.doubled"), t("turn.doubled_short"))))
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
