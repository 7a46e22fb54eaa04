"""The turn screen: what a player's buttons do during a turn (R6-R8) and
what their panel shows, both from that player's observation alone (the
other player's hidden cards never reach this code). The app calls
``press(app, p, button)`` for a turn's buttons and ``view(app, p)`` for the
screen (firmware/screens.py draws it); the view of a position, which a
cursor move does not change, is built once per position (``base``).
"""
from engine import deadwood

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


def show_card(card):
    """A card in on-screen text: ten as "10" like the big glyphs (R14's
    "T" stays in records and on the serial port)."""
    if card and card[0] == "T":
        return "10" + card[1:]
    return card or "-"


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
            app.msg[p] = "Wait: %s to play" % app.name(p, 1 - p)
        return
    phase = obs["phase"]
    if phase == "upcard":            # R6
        if button == "take":
            app.play(p, "take", obs["hand"])
        elif button == "draw":
            app.play(p, "pass", obs["hand"])
        else:
            app.msg[p] = "TAKE the upcard or DRAW=pass"
        return
    if phase == "draw":              # R7
        if button == "draw":
            app.play(p, "draw", obs["hand"])
        elif button == "take":
            app.play(p, "take", obs["hand"])
        else:
            app.msg[p] = "DRAW from stock or TAKE pile"
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
            app.msg[p] = "%s was just taken: not now (R7)" % show_card(c)
        else:
            app.play(p, "discard " + c, obs["hand"])
    elif button == "knock":
        if ("knock " + c) in obs["legal"]:
            app.confirm[p] = True
        else:
            rest = [x for x in obs["hand"] if x != c]
            app.msg[p] = "Can't knock: deadwood %d > %d" % (
                deadwood(rest), obs["knock_limit"])
    else:
        app.msg[p] = "Now discard: OK, or KNOCK"


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
    b = [h, h.stock_count, h.discard_top, h.to_move, obs, groups, order,
         _head(app, p, obs), _last_move(app, p, obs), _just_taken(p, obs), {}]
    for k in ("history", "discard", "opponent_known"):
        obs.pop(k, None)   # read above; not kept
    app.bases[p] = b
    return b


def _head(app, p, obs):
    games = obs["games"]
    if len(games) > 1:
        # Hollywood (R17): each game's score, mine first
        out = []
        for g in games:
            sc = g["scores"]
            out.append("%d-%d" % (sc[p], sc[1 - p]))
        return "Hand %d | %s /%d" % (obs["hand_no"], " ".join(out), obs["target"])
    sc = obs["scores"]
    return "Hand %d | %s %d %s %d /%d" % (
        obs["hand_no"], app.name(p, p), sc[p], app.name(p, 1 - p),
        sc[1 - p], obs["target"])


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
    for h in hist[max(j, i - 2):i]:
        w = h.split()
        act = w[1]
        card = w[2] if len(w) > 2 else ""
        if act == "take":
            words.append("took " + show_card(card))
        elif act == "draw":
            words.append("drew")
        elif act == "pass":
            words.append("passed")
        elif act == "discard":
            words.append("discarded " + show_card(card))
        else:
            words.append(act + " " + card)
    if not words:
        return ""
    return app.name(p, 1 - p) + " " + ", ".join(words)


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
    if computer_seat:
        lines.append("Computer (%s)" % app.vs)
        hint = "computer's seat"
    elif not my_turn:
        lines.append("Waiting for %s" % opp)
        hint = "hold OK: menu"
    elif phase == "upcard":
        lines.append("Take the upcard?")
        hint = "TAKE:take it  DRAW:pass"
    elif phase == "draw" and "take" not in obs["legal"]:
        lines.append("Both passed: draw")    # R6: not the upcard
        hint = "DRAW:stock"
    elif phase == "draw":
        lines.append("Draw or take %s" % show_card(pile))
        hint = "DRAW:stock  TAKE:pile"
    else:
        cursor = app.cursor[p] % len(order)
        c = order[cursor]
        dw = b[_B_DW].get(c)
        if dw is None:   # each card once per position
            dw = b[_B_DW][c] = deadwood([x for x in hand if x != c])
        if app.confirm[p]:
            lines.append(("GIN with %s?" if dw == 0 else "Knock with %s?") % show_card(c))
            hint = "KNOCK/OK:confirm  other:cancel"
        else:
            lines.append("Discard or knock")
            hint = "</>:card OK:discard KNOCK:knock"
    lim = "gin only" if limit == 0 else "<=%d" % limit
    doubled = obs["multiplier"] > 1
    lines.append("Stock %d  Knock %s%s" % (obs["stock_count"], lim,
                                            "  Spades x2" if doubled else ""))
    if computer_seat:
        lines.append("Holds %d cards" % len(hand))
    elif cursor >= 0 and ("discard " + c) not in obs["legal"] \
            and ("knock " + c) not in obs["legal"]:
        lines.append("%s just taken: keep it (R7)" % show_card(c))
    elif cursor >= 0:
        if dw == 0:
            lines.append("Discard %s: GIN!" % show_card(c))
        elif dw <= limit:
            lines.append("Discard %s: dw %d, can knock" % (show_card(c), dw))
        else:
            lines.append("Discard %s: deadwood %d" % (show_card(c), dw))
    else:
        lines.append("Deadwood %d" % obs["deadwood"])
    last = b[_B_LAST]
    if not last and doubled:
        last = "Spade upcard: this hand counts x2"   # R15, at the deal
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
