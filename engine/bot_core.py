"""Fast deadwood search for the computer players (issue 5).

The engine's public ``deadwood``/``best_melds`` take card strings and are
written for clarity; a bot calls the search hundreds of times per decision on
a microcontroller, so it gets its own integer path here: cards are ints 0..51
(``suit * 13 + rank``, as in the engine), melds are bit masks over positions in
a sorted hand (at most 15 cards, so always small ints), and the search is a
branch and bound that can also drop ``free`` cards at no cost (the best ten of
eleven after a draw, or an opponent's best ten of everything they have seen).

Runs unchanged on CPython and MicroPython; allocates only small lists.
"""

RANKS = "A23456789TJQK"
SUITS = "cdhs"
# R2: ace 1, two..ten face value, J Q K 10 (index = card int).
VAL = bytes([min(r + 1, 10) for s in range(4) for r in range(13)])


def card_int(text):
    """``"7h"`` -> 32 (R14: rank then suit, case-insensitive)."""
    return SUITS.index(text[1].lower()) * 13 + RANKS.index(text[0].upper())


def card_str(c):
    return RANKS[c % 13] + SUITS[c // 13]


# Search state shared by the recursive helper (one search at a time): best
# deadwood so far, the meld mask and drop mask that reached it.
_R = [0, 0, 0]
# Per-rank scratch for the set finder, allocated once.
_RMASK = [0] * 13
_RCNT = [0] * 13


def _melds_by_low(cards):
    """R3 melds of a sorted hand, as masks grouped by their lowest position.

    Grouping by the lowest position lets the search decide position i once:
    either i is deadwood (or dropped) or it starts one of these melds, whose
    other positions are all higher.
    """
    n = len(cards)
    by_low = [None] * n
    # Runs: positions i..j hold consecutive ranks of one suit (sorted by
    # suit then rank, so a run is a stretch of consecutive ints that does
    # not cross a suit boundary: rank 0 starts a new suit). R2: no wrap.
    i = 0
    while i < n:
        j = i
        while j + 1 < n and cards[j + 1] == cards[j] + 1 and cards[j + 1] % 13:
            j += 1
        a = i
        while a <= j - 2:
            lst = by_low[a]
            if lst is None:
                lst = by_low[a] = []
            b = a + 2
            while b <= j:
                lst.append(((1 << (b + 1)) - 1) ^ ((1 << a) - 1))
                b += 1
            a += 1
        i = j + 1
    # Sets: 3 or 4 of a rank (R3), every 3-subset of a 4-set too. One pass
    # collects each rank's positions as a mask; most ranks have fewer than 3.
    rmask = _RMASK
    cnt = _RCNT
    for r in range(13):
        rmask[r] = 0
        cnt[r] = 0
    for k in range(n):
        r = cards[k] % 13
        rmask[r] |= 1 << k
        cnt[r] += 1
    for r in range(13):
        if cnt[r] < 3:
            continue
        mask = rmask[r]
        pos = [k for k in range(n) if (mask >> k) & 1]
        if cnt[r] == 3:
            combos = (pos,)
        else:
            p0, p1, p2, p3 = pos
            combos = (pos, (p0, p1, p2), (p0, p1, p3), (p0, p2, p3), (p1, p2, p3))
        for combo in combos:
            m = 0
            for k in combo:
                m |= 1 << k
            low = combo[0]
            lst = by_low[low]
            if lst is None:
                lst = by_low[low] = []
            lst.append(m)
    return by_low


def _search(cards, by_low, n, i, used, acc, free, keep, drop):
    while i < n and (used >> i) & 1:
        i += 1
    if i == n:
        if acc < _R[0]:
            _R[0] = acc
            _R[1] = used
            _R[2] = drop
        return
    bit = 1 << i
    melds = by_low[i]
    if melds is not None:
        for m in melds:
            if not (m & used):
                _search(cards, by_low, n, i + 1, used | m, acc, free, keep, drop)
                if _R[0] == 0:
                    return
    if free and not (bit & keep):
        _search(cards, by_low, n, i + 1, used, acc, free - 1, keep, drop | bit)
    v = acc + VAL[cards[i]]
    if v < _R[0]:
        _search(cards, by_low, n, i + 1, used, v, free, keep, drop)


def solve(cards, free=0, keep=-1):
    """Minimum deadwood (R3) of ``cards`` (a sorted list of ints), dropping
    up to ``free`` cards at no cost, never the card ``keep``.

    Afterwards ``last_melded()`` / ``last_dropped()`` give the positions (as
    masks over ``cards``) of one best arrangement.
    """
    n = len(cards)
    _R[0] = 1000
    _R[1] = 0
    _R[2] = 0
    keepmask = 0
    if keep >= 0:
        for k in range(n):
            if cards[k] == keep:
                keepmask = 1 << k
    _search(cards, _melds_by_low(cards), n, 0, 0, 0, free, keepmask, 0)
    return _R[0]


def last_melded():
    return _R[1]


def last_dropped():
    return _R[2]


def deadwood_ints(cards):
    """Minimum deadwood of an unsorted collection of card ints."""
    return solve(sorted(cards))


def with_card(cards, c):
    """A new sorted list: ``cards`` (sorted) plus ``c``."""
    out = list(cards)
    k = 0
    n = len(out)
    while k < n and out[k] < c:
        k += 1
    out.insert(k, c)
    return out


def without_card(cards, c):
    out = list(cards)
    out.remove(c)
    return out


def meld_groups(cards, used):
    """Split the melded positions of one arrangement back into melds, as
    lists of card ints, so lay-offs can be checked against them."""
    groups = []
    by_low = _melds_by_low(cards)
    n = len(cards)
    _split(cards, by_low, n, 0, used, [], groups)
    return groups


def _split(cards, by_low, n, i, left, cur, out):
    # Re-find a partition of the mask ``left`` into melds (exists: it came
    # from a search); first found is fine.
    while i < n and not (left >> i) & 1:
        i += 1
    if i == n:
        out.extend(cur)
        return True
    melds = by_low[i]
    if melds is None:
        return False
    for m in melds:
        if (m & left) == m:
            grp = [cards[k] for k in range(n) if (m >> k) & 1]
            cur.append(grp)
            if _split(cards, by_low, n, i + 1, left & ~m, cur, out):
                return True
            cur.pop()
    return False


class Prng:
    """Wichmann-Hill generator: three 15-bit LCGs, so every intermediate
    stays a small int on a 32-bit board (no heap big ints in the bots' hot
    loops) and the sequence is the same on CPython and MicroPython."""

    def __init__(self, seed=0):
        seed = int(seed) & 0x3FFFFFFF
        self.a = seed % 30268 + 1
        self.b = (seed // 30268) % 30306 + 1
        self.c = (seed // 917000000 + seed % 7919) % 30322 + 1
        for _ in range(3):
            self.next()

    def next(self):
        self.a = (171 * self.a) % 30269
        self.b = (172 * self.b) % 30307
        self.c = (170 * self.c) % 30323
        return (self.a ^ (self.b << 15) ^ self.c) & 0x3FFFFFFF

    def below(self, n):
        return self.next() % n
