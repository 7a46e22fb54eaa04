"""Cards as ints and their text form (R1, R2, R14).

A card is ``suit * 13 + rank`` with suits ``c d h s`` = 0..3 and ranks
``A..K`` = 0..12. Hot code works on four 13-bit suit masks (bit ``rank`` set
when the card is held) so every value stays a small int on a 32-bit board.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

RANKS = "A23456789TJQK"
SUITS = "cdhs"
NCARDS = const(52)
FULL_SUIT = const(0x1FFF)

# R2: ace 1, 2..10 face value, J/Q/K 10. Indexed by rank.
RANK_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _mask_values(lo, n):
    # value sum of every subset of ranks lo..lo+n-1, as bytes (max 85 < 256)
    out = bytearray(1 << n)
    for m in range(1 << n):
        t = 0
        for i in range(n):
            if (m >> i) & 1:
                t += RANK_VALUE[lo + i]
        out[m] = t
    return bytes(out)


# Sum of values of a suit mask = _VLO[m & 127] + _VHI[m >> 7]; two tiny
# tables instead of one 8 KB table (memory on the device).
_VLO = _mask_values(0, 7)
_VHI = _mask_values(7, 6)


def mask_value(m):
    """Sum of the R2 values of the ranks in a 13-bit suit mask."""
    return _VLO[m & 127] + _VHI[m >> 7]


def card_value(c):
    return RANK_VALUE[c % 13]


def card_str(c):
    """R14 text form of card int c, e.g. 0 -> 'Ac', 51 -> 'Ks'."""
    return RANKS[c % 13] + SUITS[c // 13]


def parse_card(text):
    """Card int from its text form, case-insensitive ('ah', 'AH', 'Ah').

    Raises ValueError with a clear message on anything else.
    """
    if not isinstance(text, str):
        if isinstance(text, int) and 0 <= text < 52:
            return text
        raise ValueError("not a card: %r" % (text,))
    t = text.strip()
    if len(t) == 3 and t[:2] == "10":  # people write 10h; R14 says Th
        t = "T" + t[2]
    if len(t) != 2:
        raise ValueError("not a card: %r (write rank then suit, e.g. 7h, Tc, As)" % (text,))
    r = RANKS.find(t[0].upper())
    s = SUITS.find(t[1].lower())
    if r < 0 or s < 0:
        raise ValueError("not a card: %r (rank one of A23456789TJQK, suit one of cdhs)" % (text,))
    return s * 13 + r


def to_ints(cards):
    """Card ints from an iterable of card strings or ints; ValueError on
    a bad card or a repeated one."""
    out = []
    seen = [0, 0, 0, 0]
    for x in cards:
        c = parse_card(x)
        s = c // 13
        b = 1 << (c % 13)
        if seen[s] & b:
            raise ValueError("card %s given twice" % card_str(c))
        seen[s] |= b
        out.append(c)
    return out


def masks_of(cards):
    """Four suit masks from card ints."""
    m = [0, 0, 0, 0]
    for c in cards:
        m[c // 13] |= 1 << (c % 13)
    return m


def cards_of(masks):
    """Sorted card ints from four suit masks."""
    out = []
    for s in range(4):
        m = masks[s]
        r = 0
        while m:
            if m & 1:
                out.append(s * 13 + r)
            m >>= 1
            r += 1
    return out


def count_bits(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n
