"""Why an action is refused: the messages of IllegalAction (R6-R8, R14).

Loaded only when a player makes a mistake, so a device playing correctly
never holds these strings in RAM.
"""
from .cards import card_str, action_str
from .melds import min_deadwood

# the codes and phases of engine/hand.py (consts there, so not importable)
KNOCK = 52
DRAW = 104
TAKE = 105
PASS = 106
UPCARD = 0
DRAW_PHASE = 1
OVER = 3


def why_unparsable(text):
    if not isinstance(text, str):
        return "an action is text such as 'draw' or 'discard 7h', got %r" % (text,)
    words = text.strip().lower().split()
    if not words:
        return "empty action (expected take, pass, draw, discard <card> or knock <card>)"
    w = words[0]
    if w in ("take", "pass", "draw"):
        return "'%s' takes no card: %r" % (w, text)
    if w in ("discard", "knock"):
        return "'%s' needs one card, e.g. '%s 7h': %r" % (w, w, text)
    return "unknown action %r (expected take, pass, draw, discard <card> or knock <card>)" % (text,)


# Why an action is not legal, as data: (reason, args) with the cards as
# R14 texts and the player as a seat number. A device says it in its
# players' language (its catalogue's why.<reason>, firmware/i18n.py);
# English, for records, the serial port and the host, is TEXTS below.
TEXTS = {
    "over": "the hand is over",
    "turn": "it is player %d's turn, not player %d's",
    "upcard": "%r is not allowed now: on the first turn take the upcard %s or pass (R6)",
    "both_passed": "both players passed the upcard: draw from the stock (R6)",
    "pass_first": "'pass' is only allowed on the first turn (R6)",
    "draw_first": "%r is not allowed now: draw from the stock or take %s first (R7)",
    "drawn": "%r is not allowed now: you have drawn, discard or knock (R7)",
    "not_held": "you do not hold %s",
    "just_taken": "%s was just taken from the discard pile and may not be discarded this turn (R7)",
    "ace_gin": "cannot knock with %s: deadwood would be %d, and after an ace upcard "
               "only gin ends the hand (R5)",
    "limit": "cannot knock with %s: deadwood would be %d, the knock limit is %d (R8)",
}


def text(reason):
    """The English text of a reason (illegal()'s pair)."""
    return TEXTS[reason[0]] % reason[1]


def refuse(hand, code, player):
    """Raise IllegalAction for code: its text in English, its reason as
    data (``.reason``, for a device to say it in its players' words)."""
    from .cards import IllegalAction
    reason = illegal(hand, code, player)
    e = IllegalAction(text(reason))
    e.reason = reason
    raise e


def why_illegal(hand, code, player):
    """The reason code is not legal for player (None: the player to move),
    in English."""
    return text(illegal(hand, code, player))


def illegal(hand, code, player):
    """Why code is not legal for player, as (reason, args): see TEXTS."""
    ph = hand._phase
    if ph == OVER:
        return ("over", ())
    p = hand._to_move
    if player is not None and player != p:
        return ("turn", (p, player))
    name = action_str(code)
    top = card_str(hand._discard[-1]) if hand._discard else "-"
    if ph == UPCARD:
        return ("upcard", (name, top))
    if ph == DRAW_PHASE:
        if code == TAKE:
            return ("both_passed", ())
        if code == PASS:
            return ("pass_first", ())
        return ("draw_first", (name, top))
    if code in (TAKE, DRAW, PASS):
        return ("drawn", (name,))
    c = code if code < KNOCK else code - KNOCK
    if not (hand._hands[p][c // 13] >> (c % 13)) & 1:
        return ("not_held", (card_str(c),))
    if c == hand._taken and not hand.rules.discard_taken:
        return ("just_taken", (card_str(c),))
    m = list(hand._hands[p])
    m[c // 13] &= ~(1 << (c % 13))
    v = min_deadwood(m[0], m[1], m[2], m[3])
    if hand.knock_limit == 0:
        return ("ace_gin", (card_str(c), v))
    return ("limit", (card_str(c), v, hand.knock_limit))


def rules_problem(r, v):
    """Why v is not a value of the rules option whose row of
    engine/options.py's table (option_row) is ``r``."""
    if r[2] is None:
        return "rules option %s must be yes or no, got %r" % (r[0], v)
    return "rules option %s must be %s%d..%d, got %r" % (
        r[0], "none or " if r[1] is None else "", r[2], r[3], v)


def unknown_option(given, known):
    """``given`` (option names to values) names an option not in ``known``
    (the table's names, engine/options.py)."""
    for k in given:
        if k not in known:
            return "unknown rules option %r (known: %s)" % (k, ", ".join(known))
    return "bad rules options %r" % (given,)
