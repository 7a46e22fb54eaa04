"""The expert level (docs/bots.md, "Expert"): the hard level checked by
search. For the laptop and the browser, never the Pico: a decision plays a
few hundred hands to their end, far beyond the chip's budget, so
``engine.bots.LEVELS`` (the levels the firmware offers) does not name it;
``engine.bot("expert")`` loads it.

For each decision with a choice:

1. Hard's move (``bots.Bot("hard", seed)``, the same seed), and a few other
   candidates: the other draw, or the discards leaving least deadwood and
   the lowest knock.
2. ``_DEALS`` deals of the unseen cards consistent with what this player
   saw: the opponent holds the cards it took from the pile and still holds,
   the rest of its hand is drawn from the unseen cards (redrawn a few times
   while a card it threw or declined would meld with two of them), and the
   cards left, shuffled, are the stock.
3. Each candidate, in each deal, is played to the hand's end by a cheap
   policy for both players (take a card that melds, knock as soon as
   allowed, throw the highest loose card near no other), scored in points
   for this player (R11, lay-offs R10, the hand's multiplier). Every
   candidate meets the same deals and the same tie-breaks (common random
   numbers), so what differs is the move, not the luck.
4. Hard's move stands unless another candidate scores more than
   ``_MARGIN`` points a hand better on average AND its paired differences
   to hard's are above zero by two standard errors: one deal swings by ~20
   points where sensible moves differ by 1-4, and the best of several noisy
   means is otherwise mostly noise.

Same decisions on CPython and MicroPython (the web page runs it on the
WebAssembly port): integer arithmetic, lists in a fixed order, and the
engine's own generator (engine/prng.py).
"""
from .bots import Bot, View, _action_card
from .bots_core import VAL, best, card_int, layoff_value, LOOSE, RUNS, SET3
from .cards import card_str, masks_of
from .prng import Prng

try:
    from micropython import const
except ImportError:  # CPython
    def const(x: int) -> int:
        return x

if 0:  # for type checkers only: mpy-cross compiles none of it
    from typing import Any, Mapping, Optional

_DEALS = const(32)      # deals of the unseen cards a decision
_MARGIN = const(1)      # points a hand a candidate must beat hard's move by
_EXTRA = const(4)       # discards searched besides hard's (least deadwood first)
_TRIES = const(8)       # redraws of the opponent's hidden cards (consistency)
_TURNS = const(60)      # discards after which a playout counts as a draw
_GIN_BONUS = const(25)  # R11 (the observation does not carry the rules' values)
_UNDERCUT_BONUS = const(10)

# action codes, as the engine's fast path (engine/hand.py)
_KNOCK = const(52)
_DRAW = const(104)
_TAKE = const(105)
_PASS = const(106)

# phases of a playout
_UP = const(0)
_DRAWING = const(1)
_DISCARD = const(2)


def expert(seed: "Optional[int]" = None) -> "Expert":
    return Expert(seed)


def _code(action: str) -> int:
    if action == "draw":
        return _DRAW
    if action == "take":
        return _TAKE
    if action == "pass":
        return _PASS
    c = _action_card(action)
    return c if action[0] == "d" else _KNOCK + c


def _melds_with(m: "list[int]", c: int) -> bool:
    """Card ``c`` makes a meld (R3) with two cards of the suit masks ``m``."""
    s = c // 13
    r = c % 13
    bit = 1 << r
    n = 0
    for t in range(4):
        if t != s and m[t] & bit:
            n += 1
    if n >= 2:
        return True
    x = m[s] | bit
    t = x & (x >> 1) & (x >> 2)
    return bool((t | (t << 1) | (t << 2)) & bit)


def _near(loose: "list[int]", s: int, r: int) -> bool:
    """Another loose card of rank ``r``, or of suit ``s`` within two ranks."""
    bit = 1 << r
    for t in range(4):
        if t != s and loose[t] & bit:
            return True
    return bool(loose[s] & ((bit << 1) | (bit << 2) | (bit >> 1) | (bit >> 2)))


class Expert:
    """``choose(observation) -> action`` like the engine's other levels."""

    def __init__(self, seed: "Optional[int]" = None) -> None:
        self.level = "expert"
        seed = 0 if seed is None else seed
        self.hard = Bot("hard", seed)
        self.rng = Prng(seed ^ 0x2D5A1)
        self.searched = 0       # decisions searched (for the bench and tests)
        self.overruled = 0      # of them, decisions where hard's move was overruled
        self.last: "Optional[tuple[list[int], list[int], list[int]]]" = None

    def __repr__(self) -> str:
        return "bot('expert')"

    def choose(self, obs: "Mapping[str, Any]") -> str:
        move = self.hard.choose(obs)     # checks the observation too
        legal = obs["legal"]
        if len(legal) < 2:
            return move
        v = View(obs)
        cands = self._candidates(v, move)
        if len(cands) < 2:
            return move
        self.searched += 1
        best_i = self._search(v, obs, cands)
        if best_i:
            self.overruled += 1
        return cands[best_i]

    # ----- candidates ---------------------------------------------------
    def _candidates(self, v: View, move: str) -> "list[str]":
        """Hard's move first, then the others worth searching."""
        out = [move]
        legal = v.legal
        if v.phase != "discard":
            for a in legal:
                if a != move:
                    out.append(a)
            return out
        ranked = []
        knock = None
        for a in legal:
            c = _action_card(a)
            rest = list(v.hm)
            rest[c // 13] ^= 1 << (c % 13)
            key = (best(rest), -VAL[c], c)
            if a[0] == "k":
                if knock is None or key < knock[0]:
                    knock = (key, a)
            else:
                ranked.append((key, a))
        if knock is not None and knock[1] != move:
            out.append(knock[1])
        ranked.sort()
        n = 0
        for _key, a in ranked:
            if n >= _EXTRA:
                break
            if a != move:
                out.append(a)
                n += 1
        return out

    # ----- the search ---------------------------------------------------
    def _search(self, v: View, obs: "Mapping[str, Any]", cands: "list[str]") -> int:
        """Index in ``cands`` of the move to play (0: hard's)."""
        rng = self.rng
        k = len(cands)
        codes = [_code(a) for a in cands]
        # the state now: this player 0, the opponent 1
        dealer_me = obs.get("dealer", 0) == v.me
        pile = [card_int(c) for c in obs.get("discard", ())]
        known = masks_of(v.opp_known)
        cold = []
        for c in range(52):
            if v.cold[c] and not (known[c // 13] >> (c % 13)) & 1:
                cold.append(c)
        unseen = bytearray(v.unseen)
        n = len(unseen)
        hidden = v.hidden if v.hidden <= n else n
        phase = _DISCARD if v.phase == "discard" else (_UP if v.phase == "upcard" else _DRAWING)
        no_take = phase == _DRAWING and "take" not in v.legal
        # in the upcard phase (R6) the non-dealer speaks first: a pass by
        # the non-dealer hands the upcard to the dealer
        up_first = phase == _UP and not dealer_me
        taken = -1
        if phase == _DISCARD:
            # R7: the card just taken from the pile may not be thrown now
            hist = obs.get("history", ())
            if hist:
                last = hist[-1].split()
                if len(last) > 2 and last[1] == "take":
                    taken = card_int(last[2])
        sums = [0] * k
        dsum = [0] * k          # paired differences to hard's move
        dsq = [0] * k
        opp = [0, 0, 0, 0]
        for _ in range(_DEALS):
            # the opponent's hidden cards: redrawn while a card it threw or
            # declined would meld with two of them (it showed no use for it)
            for _try in range(_TRIES):
                for s in range(4):
                    opp[s] = known[s]
                for i in range(hidden):
                    j = i + rng.below(n - i)
                    u = unseen[j]
                    unseen[j] = unseen[i]
                    unseen[i] = u
                    opp[u // 13] |= 1 << (u % 13)
                ok = True
                for c in cold:
                    if _melds_with(opp, c):
                        ok = False
                        break
                if ok:
                    break
            stock = unseen[hidden:]
            rng.shuffle(stock)
            seed = rng.next()
            base = 0
            for i in range(k):
                hands = [list(v.hm), list(opp)]
                pts = self._playout(hands, list(pile), stock, phase, up_first,
                                    no_take, taken, codes[i], v.limit, v.mult,
                                    Prng(seed))
                sums[i] += pts
                if i == 0:
                    base = pts
                else:
                    d = pts - base
                    dsum[i] += d
                    dsq[i] += d * d
        self.last = (sums, dsum, dsq)     # for the tests
        return pick(sums, dsum, dsq, _DEALS)

    def _playout(self, hands: "list[list[int]]", pile: "list[int]", stock: bytearray,
                 phase: int, up_first: bool, no_take: bool, taken: int, code: int,
                 limit: int, mult: int, rng: Prng) -> int:
        """Play the hand to its end from this player's move ``code`` (player
        0 to move), the cheap policy for both players; this player's points
        (negative when the opponent scores)."""
        p = 0
        si = 0
        ns = len(stock)
        turns = 0
        while True:
            m = hands[p]
            if phase == _DISCARD:
                if code < 0:
                    code = _policy_discard(m, taken, limit, rng)
                if code >= _KNOCK:
                    pts = _showdown(hands, p, code - _KNOCK) * mult
                    return pts if p == 0 else -pts
                m[code // 13] &= ~(1 << (code % 13))
                pile.append(code)
                turns += 1
                # R9: a hand with two stock cards left is a draw
                if ns - si <= 2 or turns > _TURNS:
                    return 0
                p = 1 - p
                phase = _DRAWING
                taken = -1
            else:
                if code < 0:
                    if not no_take and pile and _melds_with(m, pile[-1]):
                        code = _TAKE
                    else:
                        code = _PASS if phase == _UP else _DRAW
                if code == _TAKE:
                    c = pile.pop()
                    m[c // 13] |= 1 << (c % 13)
                    taken = c
                    phase = _DISCARD
                elif code == _DRAW:
                    c = stock[si]
                    si += 1
                    m[c // 13] |= 1 << (c % 13)
                    taken = -1
                    no_take = False
                    phase = _DISCARD
                else:                       # a pass of the upcard (R6)
                    p = 1 - p
                    if up_first:
                        up_first = False
                    else:
                        phase = _DRAWING    # both passed: a stock draw
                        no_take = True
            code = -1


def pick(sums: "list[int]", dsum: "list[int]", dsq: "list[int]", n: int) -> int:
    """The candidate to play, from its points summed over ``n`` deals
    (``sums``) and the sum and sum of squares of its paired differences to
    candidate 0, hard's move (``dsum``, ``dsq``): 0 unless another beats it
    by more than ``_MARGIN`` points a hand on average and by two standard
    errors of the differences; of those, the best sum."""
    best_i = 0
    for i in range(1, len(sums)):
        s = dsum[i]
        # mean above _MARGIN, and mean^2 * n > 4 * var, which with the
        # sample variance is S^2 (n + 3) > 4 n Q: integers, no rounding
        if s > _MARGIN * n and s * s * (n + 3) > 4 * n * dsq[i] and sums[i] > sums[best_i]:
            best_i = i
    return best_i


def _least_left(m: "list[int]", taken: int, high: bool) -> "tuple[int, int]":
    """(deadwood, card): the card of suit masks ``m`` (not ``taken``)
    whose discard leaves least deadwood; of equals the first met (suits in
    order, low ranks first), or with ``high`` the one of highest value
    (of those, the last met); -1: no card. ``m`` is left as it was."""
    low = 1000
    pick = -1
    for s in range(4):
        x = m[s]
        r = 0
        while x >> r:
            bit = 1 << r
            c = s * 13 + r
            if x & bit and c != taken:
                m[s] = x ^ bit
                d = best(m)
                m[s] = x
                if d < low or (high and d == low and VAL[c] >= VAL[pick]):
                    low = d
                    pick = c
            r += 1
    return low, pick


def _policy_discard(m: "list[int]", taken: int, limit: int, rng: Prng) -> int:
    """The playout policy's discard or knock for the eleven cards ``m``:
    knock as soon as allowed (R8, the card leaving least deadwood), else
    the highest loose card near no other, else the highest loose card
    (ties at random); never ``taken`` (R7)."""
    dw = best(m)
    if dw - 10 <= limit and best(m, 1, taken) <= limit:
        low, kc = _least_left(m, taken, True)
        if low <= limit:
            return _KNOCK + kc
        best(m)
    loose = [LOOSE[0], LOOSE[1], LOOSE[2], LOOSE[3]]
    if taken >= 0:
        loose[taken // 13] &= ~(1 << (taken % 13))
    top = -1
    n = 0
    pick = -1
    for s in range(4):
        x = loose[s]
        r = 0
        while x >> r:
            if (x >> r) & 1:
                # a card near no other loose card goes first
                key = VAL[s * 13 + r] + (0 if _near(loose, s, r) else 16)
                if key > top:
                    top = key
                    pick = s * 13 + r
                    n = 1
                elif key == top:
                    # reservoir: each tied card equally likely
                    n += 1
                    if rng.below(n) == 0:
                        pick = s * 13 + r
            r += 1
    if pick >= 0:
        return pick
    # every card in a meld (or only the taken one loose): least deadwood left
    return _least_left(m, taken, False)[1]


def _showdown(hands: "list[list[int]]", p: int, c: int) -> int:
    """Points to player ``p`` knocking with card ``c`` (negative: the
    defender's): gin (R11) with no lay-offs, else the defender lays off
    (R10) and an undercut costs the knocker."""
    m = hands[p]
    m[c // 13] &= ~(1 << (c % 13))
    kdw = best(m)
    runs = [RUNS[0], RUNS[1], RUNS[2], RUNS[3]]
    set3 = SET3[0]
    dd = best(hands[1 - p])
    if kdw == 0:
        return _GIN_BONUS + dd
    dd -= layoff_value(LOOSE, runs, set3)
    if dd <= kdw:
        return -(_UNDERCUT_BONUS + kdw - dd)
    return dd - kdw


# for a reader: the action text of a code (tests)
def action_text(code: int) -> str:
    if code == _DRAW:
        return "draw"
    if code == _TAKE:
        return "take"
    if code == _PASS:
        return "pass"
    return ("knock " if code >= _KNOCK else "discard ") + card_str(code % _KNOCK)
