"""The coach (docs/bots.md, "The coach"): the hard level's suggestion for a
decision with its reason, and after a hand the player's costliest decision
by the hard level's measure.

    from engine.coach import advice
    a = advice(match.observation(0), seed)
    # {"action": "discard 3s", "why": [("keep_meld", ["7h", "7c", "7d"], 0),
    #                                  ("discard_safe", ["3s", "Kd"], 0)]}

The review after a hand is engine/review.py's (``review``, ``Review``).

A reason is data, not words: a list of clauses ``(code, cards, n)``, most
important first, where ``code`` is one of ``REASONS`` (a key for the
catalogue the table's texts are translated in), ``cards`` the cards it
names (R14 texts, the subject first) and ``n`` a number the clause needs
(a deadwood count, a percentage) or 0. ``REASONS`` lists them, each with
what it means.

Everything is read from the player's own observation, as the hard level
reads it (``engine.bots``): the coach never sees the opponent's hidden
cards, and its suggestion is the move the hard computer would make there,
with the same seed. Integers only, so the device and a host agree.
"""
from .bots import (Bot, View, _action_card, SAMPLES as _SAMPLES, _UNDERCUT_BONUS,
                         _POT_WEIGHT_HARD, _DANGER_WEIGHT_HARD)
from .bots_core import best, card_int
from .cards import card_str, masks_of, cards_of
from .melds import best_arrangement

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Mapping

# The reason codes, with what each clause says (cards: the subject first;
# n: the number it quotes). The texts themselves are the catalogue's (coach.<code>);
# the meanings stay comments: on the device a dict of them was ~2 KB of heap.
REASONS = (
    # drawing (R6, R7): the subject is the top card of the pile
    "take_knock",        # take it: then you can knock with n deadwood
    "take_meld",         # take it: it makes a meld with the other cards named
    "take_better",       # take it: it helps more than a stock card would on average
    "draw_no_meld",      # leave it: it joins none of your cards
    "draw_better",       # leave it: a stock card helps more on average
    "draw_own",          # leave it: it is your own discard
    # knocking (R8, R11, R13): the subject is the knock card
    "knock_gin",         # knock with it: gin
    "knock",             # knock with it: n deadwood, and an undercut is unlikely
    "knock_game",        # knock with it: this hand probably wins the game
    "hold_undercut",     # do not knock yet: an undercut is likely (n%)
    "hold_game",         # do not knock yet: an undercut would give them the game
    "hold_late",         # do not knock yet: near the end of the stock it is not worth it
    # discarding: the subject is the card to throw or to keep
    "discard_high",      # throw it: it is the most deadwood you can shed
    "discard_far",       # throw it: none of your cards outside your melds is near it
    "discard_instead",   # throw it instead
    "discard_safe",      # throw it: the opponent is less likely to use it than the other named
    "keep_meld",         # keep it: it is in a meld with the other cards named
    "keep_near",         # keep it: with the other cards named it can still make a meld
    "avoid_feed",        # do not throw it: the opponent probably collects it (the other cards named)
)


def _near_cards(c: int, cards: "list[int]") -> "list[int]":
    """The cards of ``cards`` a meld with ``c`` could use: its rank, or its
    suit within two ranks."""
    out = []
    for x in cards:
        if x != c and (x % 13 == c % 13 or (x // 13 == c // 13 and -2 <= x - c <= 2)):
            out.append(x)
    return out


def _meld_of(c: int, cards: "list[int]") -> "list[int]":
    """The meld holding ``c`` in a least-deadwood arrangement of ``cards``
    (``c`` first), or [] when it is deadwood there."""
    for meld in best_arrangement(masks_of(cards))[1]:
        if c in meld:
            rest = [x for x in meld if x != c]
            return [c] + rest
    return []


def _loose(cards: "list[int]") -> "list[int]":
    """The cards of ``cards`` outside the melds of a least-deadwood
    arrangement."""
    melded = []
    for meld in best_arrangement(masks_of(cards))[1]:
        melded += meld
    return [c for c in cards if c not in melded]


def _texts(cards: "list[int]") -> "list[str]":
    return [card_str(c) for c in cards]


def _bot(seed: int) -> Bot:
    return Bot("hard", seed)


def advice(obs: "Mapping[str, Any]", seed: int = 0) -> "dict[str, Any]":
    """The hard level's move for this observation (``Hand.observation(p)``
    or ``Match.observation(p)`` of the player to move) and why, as
    ``{"action": ..., "why": [(code, cards, n), ...]}``. ``seed`` seeds the
    knock decision's samples as the computer's would be (the device uses
    ``move_seed(game_seed, moves)``). ValueError when it is not the
    player's turn."""
    action = _bot(seed).choose(obs)
    legal = obs["legal"]
    if len(legal) == 1:
        return {"action": action, "why": []}
    v = View(obs)
    # a fresh bot with the same seed: its knock samples are the ones the
    # decision drew, so the reason is the decision's own
    b = _bot(seed)
    if v.phase == "upcard" or v.phase == "draw":
        why = _why_draw(b, v, action == "take")
    else:
        why = _why_discard(b, v, action, _taken(obs))
    return {"action": action, "why": why}


def _taken(obs: "Mapping[str, Any]") -> int:
    """The card the player to move took from the pile this turn (R7), or
    -1 (a stock card, which the history does not name)."""
    history = obs.get("history") or ()
    if history:
        w = history[-1].split()
        if len(w) == 3 and w[1] == "take" and w[0] == str(obs["player"]):
            return card_int(w[2])
    return -1


# ----- drawing -------------------------------------------------------------------
def _draw_figures(b: Bot, v: View) -> "tuple[int, int, int, bool]":
    """(deadwood after taking and the best discard, take score, draw score,
    the top card lies in a meld then), hard's take judgement."""
    top = v.top
    hm = v.hm
    now = best(hm)
    after = list(hm)
    after[top // 13] |= 1 << (top % 13)
    dw_take = best(after, 1, top)
    hand = cards_of(after)
    melded = dw_take < now and bool(_meld_of(top, _best_ten(hand, top)))
    take, draw = b._take_or_draw(v, now, after, melded)
    return dw_take, take, draw, melded


def _best_ten(cards: "list[int]", keep: int) -> "list[int]":
    """The ten of eleven ``cards`` with the least deadwood, never dropping
    ``keep`` (R7)."""
    low = 1000
    out = cards
    for c in cards:
        if c == keep:
            continue
        rest = [x for x in cards if x != c]
        d = best(masks_of(rest))
        if d < low:
            low = d
            out = rest
    return out


def _why_draw(b: Bot, v: View, took: bool) -> "list[tuple[str, list[str], int]]":
    top = v.top
    if top < 0:
        return []
    t = card_str(top)
    if v.my_discards[top]:
        return [("draw_own", [t], 0)]
    dw_take, take, draw, melded = _draw_figures(b, v)
    mine = cards_of(v.hm)
    if took:
        if dw_take <= v.limit:
            return [("take_knock", [t], dw_take)]
        if melded:
            return [("take_meld", _texts(_meld_of(top, _best_ten(mine + [top], top))), 0)]
        return [("take_better", [t], 0)]
    if not _near_cards(top, mine):
        return [("draw_no_meld", [t], 0)]
    return [("draw_better", [t], 0)]


# ----- knocking and discarding ------------------------------------------------------
def _hold_reason(b: Bot, v: View, kc: int) -> "tuple[str, list[str], int]":
    """Why hard does not knock with ``kc`` though it may (the clauses of
    ``Bot._knock_pays``, in its order)."""
    rest = list(v.hm)
    rest[kc // 13] ^= 1 << (kc % 13)
    kdw = best(rest)
    undercuts, points = b._knock_samples(v, kc, kdw)
    k = card_str(kc)
    if v.scores is not None and v.scores[1 - v.me] + _UNDERCUT_BONUS * v.mult >= v.target \
            and undercuts:
        return ("hold_game", [k], 0)
    if v.stock <= 6:
        return ("hold_late", [k], 0)
    return ("hold_undercut", [k], (undercuts * 100) // _SAMPLES)


def _greedy(b: Bot, v: View) -> int:
    """The discard that leaves the least deadwood (ties: the higher card)."""
    cards = [_action_card(a) for a in v.legal if a[0] == "d"]
    return b._lowest(v.hm, cards)[0]


def _parts(b: Bot, v: View, c: int) -> "tuple[int, int, int]":
    """Hard's score of throwing ``c`` in its parts (1/64 point): the
    deadwood kept, the promise of the next draws (subtracted), the danger
    of feeding the opponent (added): ``Bot._judge``'s arithmetic."""
    rest = list(v.hm)
    rest[c // 13] ^= 1 << (c % 13)
    dw = best(rest)
    melds, swaps, n = b._outlook(v, rest, dw)
    return dw * 64, (_POT_WEIGHT_HARD * 16 * melds) // n, \
        (_DANGER_WEIGHT_HARD * b._danger(v, c)) >> 12


def _why_discard(b: Bot, v: View, action: str,
                 taken: int) -> "list[tuple[str, list[str], int]]":
    c = _action_card(action)
    knock_cards = [_action_card(a) for a in v.legal if a[0] == "k"]
    if action[0] == "k":
        rest = list(v.hm)
        rest[c // 13] ^= 1 << (c % 13)
        kdw = best(rest)
        if kdw == 0:
            return [("knock_gin", [card_str(c)], 0)]
        undercuts, points = b._knock_samples(v, c, kdw)
        if v.scores is not None and undercuts * 4 <= _SAMPLES * 3 and \
                v.scores[v.me] * _SAMPLES + points * v.mult >= v.target * _SAMPLES:
            return [("knock_game", [card_str(c)], kdw)]
        return [("knock", [card_str(c)], kdw)]
    # at most two clauses: the first of (why it does not knock, why it does
    # not throw the card with the least deadwood, a meld the card just
    # taken made), then the card to throw and why
    first = None
    if knock_cards:
        first = _hold_reason(b, v, b._lowest(v.hm, knock_cards)[0])
    mine = cards_of(v.hm)
    g = _greedy(b, v)
    dw_g, promise_g, danger_g = _parts(b, v, g) if g >= 0 else (0, 0, 0)
    dw_c, promise_c, danger_c = _parts(b, v, c)
    if g == c or g < 0 or dw_g == dw_c:
        # the least deadwood: say so, or that it is the safer of equals
        last = ("discard_high", [card_str(c)], 0)
        for x in mine:
            if x != c and ("discard " + card_str(x)) in v.legal and _parts(b, v, x)[0] == dw_c \
                    and b._danger(v, x) > b._danger(v, c):
                last = ("discard_safe", [card_str(c), card_str(x)], 0)
                break
    else:
        # hard keeps g: for the opponent's sake (the danger weighs more
        # than the promise), or for its promise
        near = _near_cards(g, [x for x in mine if x != c])
        if danger_g - danger_c > promise_c - promise_g or not near:
            choice = ("avoid_feed", _texts([g] + _near_cards(g, v.opp_known)), 0)
            last = ("discard_safe", [card_str(c), card_str(g)], 0)
        else:
            choice = ("keep_near", _texts([g] + near), 0)
            rest = [x for x in mine if x != c]
            far = not _near_cards(c, _loose(rest))
            last = ("discard_far" if far else "discard_instead", [card_str(c)], 0)
        if first is None:
            first = choice
    if first is None and taken >= 0 and taken != c:
        # the card just taken from the pile, in a meld: it stays
        meld = _meld_of(taken, [x for x in mine if x != c])
        if meld:
            first = ("keep_meld", _texts(meld), 0)
    return [first, last] if first is not None else [last]


