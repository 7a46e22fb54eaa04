"""The drivers' viper code as source text (docs/memory.md "The viper
text off the heap"): ssd1680.py and ssd1683.py import this module, exec()
their text (a port without viper, and CPython, keep their plain loops)
and drop it at once. A module's constants live as long as any of its
functions (MicroPython keeps one constant table per module), so kept in a
driver the text stayed on the heap for good (~1.9 KB each); here it goes
with this module. Each text defines the functions its driver reads from
the namespace exec() fills."""

# ssd1680.py: the image inverted, or translated byte by byte (rotation 270)
SSD1680 = """
import micropython
@micropython.viper
def invert(dst: ptr8, src: ptr8, n: int):
    # a word at a time (4x fewer turns: 1.9 -> 0.7 ms on the RP2040 for
    # 4736 bytes, before a cursor move's first SPI byte); both are buffers
    # of their own on the heap, so word-aligned
    d = ptr32(dst)
    s = ptr32(src)
    w = n >> 2
    for i in range(w):
        d[i] = s[i] ^ -1
    for i in range(w << 2, n):
        dst[i] = src[i] ^ 0xFF
@micropython.viper
def translate(dst: ptr8, src: ptr8, table: ptr8, n: int):
    for i in range(n):
        dst[i] = table[src[i]]
"""

# ssd1683.py: a band of 8 rows transposed into RAM rows (band; band2 at scale 2)
# band and band2 (scale 2) stay two functions with their own unrolled inner
# loops: one loop for both (a bit loop, the scale tested in it) made the
# same bytes 8x slower at scale 1 and 5x at scale 2 (unix port, whole
# 400x300 frame, medians of 7 in 3 runs: 120-127 us -> 950-1,040; 46-47 ->
# 241-252).
SSD1683 = """
import micropython
@micropython.viper
def band(dst: ptr8, src: ptr8, off: int, spec: int):
    w = spec & 0xFFF
    rows = (spec >> 12) & 0xF
    rev = spec >> 16
    xb = w >> 3
    s = off
    for j in range(xb):
        a0 = src[s]
        a1 = src[s + 1]
        a2 = src[s + 2]
        a3 = src[s + 3]
        a4 = src[s + 4]
        a5 = src[s + 5]
        a6 = src[s + 6]
        a7 = src[s + 7]
        o = j
        for i in range(rows):
            if rev:
                v = ((a0 >> i) & 1) | ((a1 >> i) & 1) << 1 | ((a2 >> i) & 1) << 2 \\
                    | ((a3 >> i) & 1) << 3 | ((a4 >> i) & 1) << 4 | ((a5 >> i) & 1) << 5 \\
                    | ((a6 >> i) & 1) << 6 | ((a7 >> i) & 1) << 7
            else:
                v = ((a0 >> i) & 1) << 7 | ((a1 >> i) & 1) << 6 | ((a2 >> i) & 1) << 5 \\
                    | ((a3 >> i) & 1) << 4 | ((a4 >> i) & 1) << 3 | ((a5 >> i) & 1) << 2 \\
                    | ((a6 >> i) & 1) << 1 | ((a7 >> i) & 1)
            dst[o] = v ^ 0xFF
            o += xb
        s += 8


@micropython.viper
def band2(dst: ptr8, src: ptr8, off: int, spec: int):
    # scale 2: 4 logical columns a RAM byte (each bit twice), each logical
    # row twice (rows 2i and 2i+1 of dst)
    w = spec & 0xFFF
    rows = (spec >> 12) & 0xF
    rev = spec >> 16
    xb = w >> 2
    s = off
    for j in range(xb):
        a0 = src[s]
        a1 = src[s + 1]
        a2 = src[s + 2]
        a3 = src[s + 3]
        o = j
        for i in range(rows):
            if rev:
                v = ((a0 >> i) & 1) * 0x03 | ((a1 >> i) & 1) * 0x0C \
                    | ((a2 >> i) & 1) * 0x30 | ((a3 >> i) & 1) * 0xC0
            else:
                v = ((a0 >> i) & 1) * 0xC0 | ((a1 >> i) & 1) * 0x30 \
                    | ((a2 >> i) & 1) * 0x0C | ((a3 >> i) & 1) * 0x03
            v ^= 0xFF
            dst[o] = v
            dst[o + xb] = v
            o += xb + xb
        s += 4
"""
