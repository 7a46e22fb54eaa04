"""Rules math, apart from game state: melds, deadwood, lay-offs (R3, R10).

Why this is fast and exact: once the sets (R3) are chosen, only runs are
left, and runs never cross suits. In one suit, the best use of runs is to
meld every maximal stretch of 3 or more consecutive ranks, which is three
bit operations on the 13-bit suit mask. So the minimum deadwood is the
minimum, over the few possible choices of sets (a rank held in 3 or 4
suits: no set, the set, or for four of a kind each 3-card subset), of the
per-suit leftovers. A random 10-card hand usually has no such rank at all.
"""
from .cards import _VLO, _VHI, masks_of, to_ints, cards_of, meld_strs, run_cards, set_cards

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Iterable, Sequence
    # a choice of sets: the four suit masks left, and the sets as (rank, suit bits)
    Choice = tuple[int, int, int, int, list[tuple[int, int]]]


def _suit_dw(m: int) -> int:
    # deadwood of one suit once sets are removed: all cards outside stretches
    # of >= 3 consecutive ranks
    t = m & (m >> 1) & (m >> 2)
    x = m & ~(t | (t << 1) | (t << 2))
    return _VLO[x & 127] + _VHI[x >> 7]


def _dw_sets(a: int, b: int, c: int, d: int, s3: int) -> int:
    low = s3 & -s3
    rest = s3 ^ low
    nl = ~low
    if rest:
        best = _dw_sets(a, b, c, d, rest)
        v = _dw_sets(a & nl, b & nl, c & nl, d & nl, rest)
    else:
        best = _suit_dw(a) + _suit_dw(b) + _suit_dw(c) + _suit_dw(d)
        v = (_suit_dw(a & nl) + _suit_dw(b & nl) + _suit_dw(c & nl)
             + _suit_dw(d & nl))
    if v < best:
        best = v
    if a & b & c & d & low:
        # four of a kind: also each 3-card set, the fourth card kept free
        for keep in range(4):
            w = (a if keep == 0 else a & nl, b if keep == 1 else b & nl,
                 c if keep == 2 else c & nl, d if keep == 3 else d & nl)
            if rest:
                v = _dw_sets(w[0], w[1], w[2], w[3], rest)
            else:
                v = _suit_dw(w[0]) + _suit_dw(w[1]) + _suit_dw(w[2]) + _suit_dw(w[3])
            if v < best:
                best = v
    return best


def min_deadwood(a: int, b: int, c: int, d: int) -> int:
    """Minimum deadwood (R3) of the cards in suit masks a, b, c, d."""
    s3 = (a & b & (c | d)) | (c & d & (a | b))
    if s3:
        return _dw_sets(a, b, c, d, s3)
    return _suit_dw(a) + _suit_dw(b) + _suit_dw(c) + _suit_dw(d)


def _choices(a: int, b: int, c: int, d: int, s3: int, sets: "list[tuple[int, int]]",
             out: "list[Choice]") -> None:
    # every choice of sets: appends (a, b, c, d, sets) with the set cards
    # removed from the masks; sets is a list of (rank, suit bits)
    if not s3:
        out.append((a, b, c, d, sets))
        return
    low = s3 & -s3
    rest = s3 ^ low
    nl = ~low
    r = 0
    while not (low >> r) & 1:
        r += 1
    _choices(a, b, c, d, rest, sets, out)
    bits = ((a & low) and 1) | ((b & low) and 2) | ((c & low) and 4) | ((d & low) and 8)
    _choices(a & nl, b & nl, c & nl, d & nl, rest, sets + [(r, bits)], out)
    if bits == 15:
        for keep in range(4):
            _choices(a if keep == 0 else a & nl, b if keep == 1 else b & nl,
                     c if keep == 2 else c & nl, d if keep == 3 else d & nl,
                     rest, sets + [(r, 15 ^ (1 << keep))], out)


def set_choices(m: "Sequence[int]") -> "list[Choice]":
    out: "list[Choice]" = []
    a, b, c, d = m[0], m[1], m[2], m[3]
    # ranks held in at least three suits
    _choices(a, b, c, d, (a & b & (c | d)) | (c & d & (a | b)), [], out)
    return out


def discard_deadwoods(m: "Sequence[int]") -> "list[tuple[int, int]]":
    """For suit masks m (usually 11 cards): list of (card, deadwood of the
    rest once that card is discarded), one entry per card held, in card
    order. One pass over the set choices instead of one search per card."""
    # best[card]: 1 + the least deadwood seen without that card (0: none
    # yet); a 52-byte bytearray, not a dict growing entry by entry
    best = bytearray(52)
    for a, b, c, d, _ in set_choices(m):
        w = (a, b, c, d)
        ds = (_suit_dw(a), _suit_dw(b), _suit_dw(c), _suit_dw(d))
        base = ds[0] + ds[1] + ds[2] + ds[3]
        for s in range(4):
            ms = w[s]
            r = 0
            x = ms
            while x:
                if x & 1:
                    v = base - ds[s] + _suit_dw(ms ^ (1 << r)) + 1
                    card = s * 13 + r
                    if best[card] == 0 or v < best[card]:
                        best[card] = v
                x >>= 1
                r += 1
    out: "list[Any]" = cards_of(m)   # turned into the pairs in place
    for i in range(len(out)):
        out[i] = (out[i], best[out[i]] - 1)
    return out


def _runs_of(s: int, m: int, out: "list[list[int]]") -> None:
    # melds of one suit after sets: maximal stretches of >= 3 ranks
    t = m & (m >> 1) & (m >> 2)
    x = t | (t << 1) | (t << 2)
    r = 0
    while r < 13:
        if (x >> r) & 1:
            lo = r
            while r < 13 and (x >> r) & 1:
                r += 1
            out.append(run_cards(s, lo, r - 1))
        else:
            r += 1


def best_arrangement(m: "Sequence[int]") -> "tuple[int, list[list[int]]]":
    """(deadwood, melds as lists of card ints) with minimum deadwood."""
    choices = set_choices(m)   # never empty: no sets is a choice
    best = choices[0]
    bestv = 999
    for ch in choices:
        v = _suit_dw(ch[0]) + _suit_dw(ch[1]) + _suit_dw(ch[2]) + _suit_dw(ch[3])
        if v < bestv:
            bestv = v
            best = ch
    melds: "list[list[int]]" = []
    for r, bits in best[4]:
        melds.append(set_cards(r, bits))
    masks = best[:4]
    for s in range(4):
        _runs_of(s, masks[s], melds)
    return bestv, melds


def _masks(cards: "Iterable[str | int]") -> list[int]:
    # suit masks of 0..11 cards (strings or ints); ValueError otherwise
    cs = to_ints(cards)
    if len(cs) > 11:
        raise ValueError("deadwood is defined here for 0..11 cards, got %d" % len(cs))
    return masks_of(cs)


def deadwood(cards: "Iterable[str | int]") -> int:
    """Minimum deadwood (R3) of 0..11 cards (strings like '7h' or ints)."""
    m = _masks(cards)
    return min_deadwood(m[0], m[1], m[2], m[3])


def best_melds(cards: "Iterable[str | int]") -> "list[list[str]] | list[list[int]]":
    """An arrangement achieving the minimum deadwood: a list of melds, each
    a list of cards (strings if strings were given, else ints); the cards in
    no meld are the deadwood."""
    cards = list(cards)
    _, melds = best_arrangement(_masks(cards))
    if cards and isinstance(cards[0], str):
        return meld_strs(melds)
    return melds
