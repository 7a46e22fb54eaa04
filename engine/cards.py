"""Cards and actions as ints and their text form (R1, R2, R14).

A card is ``suit * 13 + rank`` with suits ``c d h s`` = 0..3 and ranks
``A..K`` = 0..12. Hot code works on four 13-bit suit masks (bit ``rank`` set
when the card is held) so every value stays a small int on a 32-bit board.
"""
if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Iterable, Optional, Sequence

RANKS = "A23456789TJQK"
SUITS = "cdhs"

# R2: ace 1, 2..10 face value, J/Q/K 10. Indexed by rank.
RANK_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


# Sum of values of a suit mask = _VLO[m & 127] + _VHI[m >> 7]: two tiny
# tables (ranks A-7, ranks 8-K) instead of one 8 KB table, written out as
# literals so no code runs to build them (tests/engine/test_cards_tables.py
# checks them against RANK_VALUE).
_VLO = b'\x00\x01\x02\x03\x03\x04\x05\x06\x04\x05\x06\x07\x07\x08\t\n\x05\x06\x07\x08\x08\t\n\x0b\t\n\x0b\x0c\x0c\r\x0e\x0f\x06\x07\x08\t\t\n\x0b\x0c\n\x0b\x0c\r\r\x0e\x0f\x10\x0b\x0c\r\x0e\x0e\x0f\x10\x11\x0f\x10\x11\x12\x12\x13\x14\x15\x07\x08\t\n\n\x0b\x0c\r\x0b\x0c\r\x0e\x0e\x0f\x10\x11\x0c\r\x0e\x0f\x0f\x10\x11\x12\x10\x11\x12\x13\x13\x14\x15\x16\r\x0e\x0f\x10\x10\x11\x12\x13\x11\x12\x13\x14\x14\x15\x16\x17\x12\x13\x14\x15\x15\x16\x17\x18\x16\x17\x18\x19\x19\x1a\x1b\x1c'
_VHI = b"\x00\x08\t\x11\n\x12\x13\x1b\n\x12\x13\x1b\x14\x1c\x1d%\n\x12\x13\x1b\x14\x1c\x1d%\x14\x1c\x1d%\x1e&'/\n\x12\x13\x1b\x14\x1c\x1d%\x14\x1c\x1d%\x1e&'/\x14\x1c\x1d%\x1e&'/\x1e&'/(019"


# The 52 card texts, in card order. As a tuple of 52 str literals they cost
# about 2.1 KB of device heap (each literal a 64-byte str object, plus the
# tuple); built here from one string, interned as qstrs, they cost about
# 1.2 KB: the tuple holds qstrs (no object each) and the 52 short qstrs.
_CS = "Ac2c3c4c5c6c7c8c9cTcJcQcKcAd2d3d4d5d6d7d8d9dTdJdQdKdAh2h3h4h5h6h7h8h9hThJhQhKhAs2s3s4s5s6s7s8s9sTsJsQsKs"


def _texts() -> "tuple[str, ...]":
    out = [""] * 52
    for c in range(52):
        # MicroPython interns an attribute name as a qstr; once it exists, a
        # str built by + with the same text is that qstr, not a new object.
        # (On CPython this is a harmless no-op.)
        getattr(None, _CS[2 * c] + _CS[2 * c + 1], None)
        out[c] = _CS[2 * c] + _CS[2 * c + 1]
    return tuple(out)


CARD_STRS = _texts()
del _texts


def card_str(c: int) -> str:
    """R14 text form of card int c, e.g. 0 -> 'Ac', 51 -> 'Ks'. Never
    allocates (tests/engine/test_micropython.py)."""
    return CARD_STRS[c]


def strs(cards: "Iterable[int]") -> list[str]:
    """Texts of an iterable of card ints. The one helper every list of card
    texts goes through: on the device each comprehension is a function of its
    own, and each function costs heap while its module loads."""
    return [CARD_STRS[c] for c in cards]


def meld_strs(melds: "Iterable[Iterable[int]]") -> list[list[str]]:
    """Texts of a list of melds (lists of card ints)."""
    out = []
    for x in melds:
        out.append(strs(x))
    return out


def run_cards(s: int, lo: int, hi: int) -> list[int]:
    """Card ints of the run lo..hi (ranks, inclusive) in suit s."""
    return list(range(s * 13 + lo, s * 13 + hi + 1))


def set_cards(r: int, bits: int) -> list[int]:
    """Card ints of the set of rank r in the suits of the 4-bit mask bits."""
    out = []
    for s in range(4):
        if (bits >> s) & 1:
            out.append(s * 13 + r)
    return out


def parse_card(text: "str | int") -> int:
    """Card int from its text form, case-insensitive ('ah', 'AH', 'Ah').

    Raises ValueError with a clear message on anything else.
    """
    if not isinstance(text, str):
        if isinstance(text, int) and 0 <= text < 52:
            return text
        raise ValueError("not a card: %r" % (text,))
    t = text
    if len(t) != 2:
        t = text.strip()
        if len(t) == 3 and t[:2] == "10":  # people write 10h; R14 says Th
            t = "T" + t[2]
        if len(t) != 2:
            raise ValueError("not a card: %r (write rank then suit, e.g. 7h, Tc, As)" % (text,))
    # the R14 form first: no case conversion (each would be a new string)
    r = RANKS.find(t[0])
    if r < 0:
        r = RANKS.find(t[0].upper())
    s = SUITS.find(t[1])
    if s < 0:
        s = SUITS.find(t[1].lower())
    if r < 0 or s < 0:
        raise ValueError("not a card: %r (rank one of A23456789TJQK, suit one of cdhs)" % (text,))
    return s * 13 + r


def to_ints(cards: "Iterable[str | int]") -> list[int]:
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


def masks_of(cards: "Iterable[int]") -> list[int]:
    """Four suit masks from card ints."""
    m = [0, 0, 0, 0]
    for c in cards:
        m[c // 13] |= 1 << (c % 13)
    return m


def cards_of(masks: "Sequence[int]") -> list[int]:
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


# ---- actions (R14): the codes of engine/hand.py's fast path, as text ----
class IllegalAction(ValueError):
    """Bad or illegal action text; the state is unchanged. ``reason``: why
    a well-formed action is not legal, as data (engine/explain.py's
    illegal(): ("limit", ("7h", 12, 10))), or None."""
    reason: "Optional[tuple[str, tuple[Any, ...]]]" = None


def action_str(code: int) -> str:
    """R14 text form of an action code: 0..51 discard card c, 52..103 knock
    with c - 52, 104 draw, 105 take, 106 pass (literals: cards.py needs no
    const() for four numbers)."""
    if code < 52:
        return "discard " + card_str(code)
    if code < 104:
        return "knock " + card_str(code - 52)
    if code == 104:
        return "draw"
    if code == 105:
        return "take"
    if code == 106:
        return "pass"
    raise ValueError("bad action code %r" % (code,))
