"""Fast deadwood search for the computer players (docs/bots.md).

The engine's public ``deadwood``/``best_melds`` take card strings; a bot
calls the search hundreds of times per decision on a microcontroller, so it
gets its own integer path here (the engine's internal one has no "drop the
best k cards" variant and may change): cards are ints 0..51 (``suit * 13 +
rank``, as in the engine), a hand is four 13-bit suit masks (always small
ints), and the search can also drop ``free`` cards at no cost (the best ten
of eleven after a draw, or an opponent's best ten of all they have seen).

Runs unchanged on CPython and MicroPython; allocates only small lists.
"""

# The engine's card texts, suit masks and suit-mask value tables (value of
# a mask = _VLO[m & 127] + _VHI[m >> 7]): loaded once on the device, not
# twice (engine/cards.py; the computer's code is loaded per move, and the
# heap is tight then: docs/memory.md).
from .cards import RANKS, SUITS, _VLO, _VHI

if 0:  # for type checkers only: mpy-cross compiles none of it
    from typing import Sequence

# R2: ace 1, two..ten face value, J Q K 10 (index = card int).
VAL = bytes([min(r + 1, 10) for s in range(4) for r in range(13)])


def card_int(text: str) -> int:
    """``"7h"`` -> 32 (R14: rank then suit, case-insensitive)."""
    return SUITS.index(text[1].lower()) * 13 + RANKS.index(text[0].upper())


# ----- suit masks: the fast path -------------------------------------------
# A hand as four 13-bit masks (bit r of mask s: rank r of suit s held). Once
# the sets are chosen (R3), the best use of runs in a suit is every maximal
# stretch of three or more ranks, so the search only enumerates set choices
# (a rank held in 3 suits: set or not; in 4: none, all four, or any three).
# With ``free`` drops the best arrangement drops its highest loose cards, and
# maximal runs leave the fewest loose cards, so this stays exact.

# Best arrangement of the last ``best()`` call: loose masks after drops,
# run masks, ranks of 3-card sets (they take a fourth card, R10), the
# ranks of all sets, and the deadwood. Reused lists: nothing allocated.
LOOSE = [0, 0, 0, 0]
RUNS = [0, 0, 0, 0]
SET3 = [0]
_B = [0, 0, 0]       # best value, free, keep card
_T = [0, 0, 0, 0]    # scratch loose masks at a leaf


def _leaf(a: int, b: int, c: int, d: int, set3: int) -> None:
    t = a & (a >> 1) & (a >> 2)
    ra = t | (t << 1) | (t << 2)
    t = b & (b >> 1) & (b >> 2)
    rb = t | (t << 1) | (t << 2)
    t = c & (c >> 1) & (c >> 2)
    rc = t | (t << 1) | (t << 2)
    t = d & (d >> 1) & (d >> 2)
    rd = t | (t << 1) | (t << 2)
    la = a & ~ra
    lb = b & ~rb
    lc = c & ~rc
    ld = d & ~rd
    v = (_VLO[la & 127] + _VHI[la >> 7] + _VLO[lb & 127] + _VHI[lb >> 7]
         + _VLO[lc & 127] + _VHI[lc >> 7] + _VLO[ld & 127] + _VHI[ld >> 7])
    free = _B[1]
    if free and v:
        # drop the highest loose cards (never the kept one, R7)
        keep = _B[2]
        lt = _T
        lt[0] = la
        lt[1] = lb
        lt[2] = lc
        lt[3] = ld
        r = 12
        while free and r >= 0 and v:
            bit = 1 << r
            for s in range(4):
                if lt[s] & bit and s * 13 + r != keep and free:
                    lt[s] ^= bit
                    v -= r + 1 if r < 10 else 10
                    free -= 1
            r -= 1
        # one by one: a 4-tuple unpack would allocate on MicroPython
        la = lt[0]
        lb = lt[1]
        lc = lt[2]
        ld = lt[3]
    if v < _B[0]:
        _B[0] = v
        LOOSE[0] = la
        LOOSE[1] = lb
        LOOSE[2] = lc
        LOOSE[3] = ld
        RUNS[0] = ra
        RUNS[1] = rb
        RUNS[2] = rc
        RUNS[3] = rd
        SET3[0] = set3


def _sets(a: int, b: int, c: int, d: int, s3: int, set3: int) -> None:
    if not s3:
        _leaf(a, b, c, d, set3)
        return
    low = s3 & -s3
    rest = s3 ^ low
    _sets(a, b, c, d, rest, set3)             # this rank: no set
    if _B[0] == 0:
        return
    nl = ~low
    if a & b & c & d & low:
        _sets(a & nl, b & nl, c & nl, d & nl, rest, set3)    # all four
        for k in range(4):                                  # any three
            _sets(a if k == 0 else a & nl, b if k == 1 else b & nl,
                  c if k == 2 else c & nl, d if k == 3 else d & nl, rest, set3 | low)
    else:
        _sets(a & nl, b & nl, c & nl, d & nl, rest, set3 | low)


def best(m: "Sequence[int]", free: int = 0, keep: int = -1) -> int:
    """Minimum deadwood (R3) of the hand in suit masks ``m`` (a list of 4),
    dropping up to ``free`` loose cards at no cost but never card ``keep``.
    The arrangement is left in LOOSE, RUNS and SET3."""
    a = m[0]
    b = m[1]
    c = m[2]
    d = m[3]
    _B[0] = 1000
    _B[1] = free
    _B[2] = keep
    s3 = (a & b & (c | d)) | (c & d & (a | b))
    if s3:
        _sets(a, b, c, d, s3, 0)
    else:
        _leaf(a, b, c, d, 0)
    return _B[0]


def highest_loose() -> int:
    """Value of the highest loose card of the last ``best()`` arrangement."""
    hi = 0
    for s in range(4):
        x = LOOSE[s]
        if x:
            r = 12
            while not (x >> r) & 1:
                r -= 1
            v = r + 1 if r < 10 else 10
            if v > hi:
                hi = v
    return hi


def layoff_value(loose: "Sequence[int]", runs: "Sequence[int]", set3: int) -> int:
    """Deadwood the defender removes by laying the ``loose`` cards (suit
    masks) off on the knocker's melds (R10): a fourth card on a 3-card set,
    or run extensions at either end, one after another."""
    saved = 0
    for s in range(4):
        x = loose[s]
        if not x:
            continue
        # the fourth card of a set
        hit = x & set3
        if hit:
            saved += _VLO[hit & 127] + _VHI[hit >> 7]
            x ^= hit
        run = runs[s]
        if run:
            # grow the run ends into held cards until nothing touches
            while True:
                grow = x & ((run << 1) | (run >> 1)) & 0x1FFF
                if not grow:
                    break
                saved += _VLO[grow & 127] + _VHI[grow >> 7]
                x ^= grow
                run |= grow
    return saved


class Prng:
    """Wichmann-Hill generator: three 15-bit LCGs, so every intermediate
    stays a small int on a 32-bit board (no heap big ints in the bots' hot
    loops) and the sequence is the same on CPython and MicroPython."""

    def __init__(self, seed: int = 0) -> None:
        seed = int(seed) & 0x3FFFFFFF
        self.a = seed % 30268 + 1
        self.b = (seed // 30268) % 30306 + 1
        self.c = (seed // 917000000 + seed % 7919) % 30322 + 1
        for _ in range(3):
            self.next()

    def next(self) -> int:
        self.a = (171 * self.a) % 30269
        self.b = (172 * self.b) % 30307
        self.c = (170 * self.c) % 30323
        return (self.a ^ (self.b << 15) ^ self.c) & 0x3FFFFFFF

    def below(self, n: int) -> int:
        return self.next() % n
