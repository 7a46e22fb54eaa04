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
