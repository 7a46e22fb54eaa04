"""A tiny seeded PRNG giving the same numbers on CPython and MicroPython.

A 30-bit linear congruential generator (x = a*x + c mod 2**30, full period:
a = 1 mod 4, c odd) computed in 15-bit halves, so no intermediate value ever
reaches 2**30: on a 32-bit board every number stays a small int (MicroPython
small ints are 31-bit signed there) and nothing is allocated per step.
Outputs use the high bits, the good ones in an LCG.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x: int) -> int:
        return x

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any

_MASK15 = const(0x7FFF)
_MASK30 = const(0x3FFFFFFF)
_A_HI = const(908)      # a = 1103515245 mod 2**30 = 29773421 = 908 * 2**15 + 20077
_A_LO = const(20077)
_C = const(12345)


class Prng:
    """Seeded generator. Any int seed is reduced to 30 bits (seed & 2**30-1)."""

    def __init__(self, seed: int) -> None:
        if type(seed) is not int:
            raise ValueError("a seed is an int, got %r" % (seed,))
        self.x = seed & _MASK30
        for _ in range(4):  # decorrelate nearby seeds (1, 2, 3...)
            self.next()

    def next(self) -> int:
        """Next 30-bit value."""
        x = self.x
        xl = x & _MASK15
        xh = x >> 15
        lo = _A_LO * xl + _C                       # < 2**30
        hi = ((_A_HI * xl) & _MASK15) + ((_A_LO * xh) & _MASK15) + (lo >> 15)
        x = ((hi & _MASK15) << 15) | (lo & _MASK15)
        self.x = x
        return x

    def below(self, n: int) -> int:
        """Uniform-ish int in 0..n-1 for n <= 2**15, from the top 15 bits."""
        return ((self.next() >> 15) * n) >> 15

    def shuffle(self, items: "bytearray | list[Any]") -> None:
        """Fisher-Yates in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1


def shuffle_key(items: "bytearray | list[Any]", key: bytes) -> None:
    """Fisher-Yates in place, driven by a wide key (bytes, 8 to 32 of
    them: a table's fresh entropy, docs/reliability.md "Deals"). The draws
    are the bytes of SHA-256(key + block number), one byte per draw with
    the bytes that would bias it skipped: uniform if the key is, and no
    key of fewer bits than it has gives the same deal. No int here grows
    past 2**16 (small ints on a 32-bit board); hashlib.sha256 is in every
    MicroPython this table runs on (rp2, unix, the web page's
    WebAssembly port)."""
    from hashlib import sha256
    if type(key) is not bytes or not 8 <= len(key) <= 32:
        raise ValueError("a deal key is 8 to 32 bytes")
    block = b""
    k = 0          # next byte of block
    n = 0          # blocks made
    i = len(items) - 1
    while i > 0:
        m = i + 1
        lim = 256 - 256 % m     # bytes at or above lim would favour low j
        while True:
            if k == len(block):
                block = sha256(key + bytes((n & 255, n >> 8))).digest()
                n += 1
                k = 0
            b = block[k]
            k += 1
            if b < lim:
                break
        j = b % m
        items[i], items[j] = items[j], items[i]
        i -= 1


def key_hex(key: bytes) -> str:
    """A deal key as the record writes it (lowercase hex)."""
    return "".join("%02x" % b for b in key)


def key_from_hex(s: str) -> bytes:
    """A record's deal key (ValueError unless 16 to 64 lowercase hex
    digits, an even number)."""
    if not 16 <= len(s) <= 64 or len(s) & 1:
        raise ValueError("a deal key is 16 to 64 hex digits, got %d" % len(s))
    out = bytearray()
    for i in range(0, len(s), 2):
        hi = "0123456789abcdef".find(s[i])
        lo = "0123456789abcdef".find(s[i + 1])
        if hi < 0 or lo < 0:
            raise ValueError("a deal key is lowercase hex digits, got %r" % s[i:i + 2])
        out.append(hi << 4 | lo)
    return bytes(out)
