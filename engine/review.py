"""The coach's review of a hand (docs/bots.md, "The coach"): player p's
costliest decision by the hard level's measure, worked out one decision per
``step()`` so the device's main loop stays live after a hand.

    from engine.review import review, Review
    r = review(match.last_hand, 0, game_seed)
    # {"move": 7, "played": "discard 9h", "better": "discard Kc",
    #  "cost": 3, "why": [...]}  or None
    # (on the device: Review(hand, 0, game_seed), one decision per step())

A module of its own, apart from engine.coach's ``advice``: holding DRAW on
the table loads only the advice's code (about 2 KB less heap on the 64-bit
virtual board, at the moment of a game when the heap is lowest:
docs/memory.md "The coach's moment").
"""
from .bots import Bot, View, _action_card, SAMPLES as _SAMPLES, move_seed
from .bots_core import best
from .cards import action_str
from .coach import advice, _bot, _draw_figures

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Optional
    from .hand import Hand


def _take_cost(b: Bot, v: View, took: bool) -> int:
    """What a take (``took``) costs against a draw, or a draw against a
    take, by hard's measure (1/64 point; negative: it was the better)."""
    if v.top < 0 or v.my_discards[v.top]:
        return 0
    _, take, draw, _ = _draw_figures(b, v)
    return (take - draw) if took else (draw - take)


def _judged(b: Bot, v: View, c: int) -> int:
    """Hard's score of throwing ``c`` from its eleven cards (1/64 point,
    lower is better)."""
    rest = list(v.hm)
    rest[c // 13] ^= 1 << (c % 13)
    return b._judge(v, rest, best(rest), c)


def _discard_cost(b: Bot, v: View, played: str, better: str) -> int:
    """What ``played`` costs against hard's ``better`` in a discard phase,
    by hard's measure (1/64 point)."""
    if played == better:
        return 0
    p = _action_card(played)
    h = _action_card(better)
    if better[0] == "k" or played[0] == "k":
        # a knock against a discard: the knock's expected points (R11)
        ek = _knock_value(b, v, h if better[0] == "k" else p)
        if better[0] == "k" and played[0] == "k":
            return ek - _knock_value(b, v, p)
        return ek if better[0] == "k" else -ek
    return _judged(b, v, p) - _judged(b, v, h)


def _knock_value(b: Bot, v: View, kc: int) -> int:
    """A knock's expected points by hard's samples (1/64 point): for gin
    the bonus on top, and never less than it (R11: gin is not undercut)."""
    rest = list(v.hm)
    rest[kc // 13] ^= 1 << (kc % 13)
    kdw = best(rest)
    undercuts, points = b._knock_samples(v, kc, kdw)
    value = (points * 64) // _SAMPLES
    if kdw == 0:
        return 25 * 64 + (value if value > 0 else 0)
    return value


# ----- after a hand ----------------------------------------------------------------
class Review:
    """Player ``p``'s costliest decision in the ended (or current) hand
    ``hand`` by the hard level's measure, worked out one decision of p's
    per ``step()`` (about a hard decision's time each: on the device the
    main loop stays live between steps). The hand is replayed from its own
    record of moves; each of p's decisions is judged from p's observation
    then, as ``advice`` judges it (seeded ``move_seed(game_seed, moves)``,
    as the computer would be). ``least``: the smallest cost worth telling,
    1/64 point.

    ``result`` once ``step()`` has returned True: ``{"move": i (1-based, in
    the hand), "played": ..., "better": hard's move, "cost": points
    (rounded), "why": hard's reason for its move (as ``advice``)}``, or None
    when no decision of p's cost ``least`` or more."""

    def __init__(self, hand: "Hand", p: int, game_seed: int = 0, least: int = 64) -> None:
        from .hand import Hand as _Hand
        self.h = _Hand(hand.rules, hand.dealer, hand._stock, hand.seed)
        self.log = hand._log
        self.p = p
        self.seed = game_seed
        self.j = 0
        self.top = least - 1
        self.worst: "Optional[tuple[int, str, str, int, Any, int]]" = None
        self.result: "Optional[dict[str, Any]]" = None
        self.done = False

    def step(self) -> bool:
        """Judge the next decision of p's (moves of the other player and
        forced ones are replayed on the way); True once the hand is done."""
        if self.done:
            return True
        h = self.h
        log = self.log
        while self.j < len(log):
            j = self.j
            code = log[j] & 127
            mine = log[j] >> 7 == self.p and len(h.legal_codes()) > 1
            if mine:
                self._judge(h, j, code)
            h.apply(code)
            self.j = j + 2
            if mine:
                return False
        self.done = True
        if self.worst is not None:
            move, played, better, cost, obs, seed = self.worst
            self.worst = None
            self.result = {"move": move, "played": played, "better": better,
                           "cost": (cost + 32) >> 6, "why": advice(obs, seed)["why"]}
        return True

    def _judge(self, h: "Hand", j: int, code: int) -> None:
        obs = h.observation(self.p)
        seed = move_seed(self.seed, len(obs["history"]))
        better = _bot(seed).choose(obs)
        played = action_str(code)
        if played == better:
            return
        v = View(obs)
        b = _bot(seed)
        if v.phase == "discard":
            cost = _discard_cost(b, v, played, better)
        else:
            cost = _take_cost(b, v, played == "take")
        if cost > self.top:
            self.top = cost
            self.worst = (j // 2 + 1, played, better, cost, obs, seed)


def review(hand: "Hand", p: int, game_seed: int = 0,
           least: int = 64) -> "Optional[dict[str, Any]]":
    """``Review(hand, p, game_seed, least).result``, worked out at once."""
    r = Review(hand, p, game_seed, least)
    while not r.step():
        pass
    return r.result
