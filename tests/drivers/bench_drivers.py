# Driver timings on the micropython binary (prints figures, asserts nothing):
#   .venv/bin/micropython tests/drivers/bench_drivers.py
# The unix port on a PC is many times faster than a Pico (RP2040 at 125 MHz);
# read these as relative costs (rotation 90 vs 270, full vs partial) and as
# an upper bound on allocations, not as device times.
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
ROOT = HERE.rsplit("/", 2)[0] if HERE.count("/") >= 2 else "."
sys.path.insert(0, ROOT + "/firmware")
sys.path.insert(0, HERE)

import gc  # noqa: E402
import time  # noqa: E402

import buttons  # noqa: E402
import fakes  # noqa: E402
import ssd1680  # noqa: E402


class NullSPI:
    def write(self, buf):
        pass


class Out:
    def value(self, v=None):
        return 0


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def bench_show(rotation, full, n=30):
    d = ssd1680.SSD1680(NullSPI(), Out(), Out(), Out(), Out(), rotation=rotation)
    d.show(full=True)
    times = []
    for i in range(n):
        d.fb.pixel(i, i, 1)
        t = time.ticks_us()
        d.show(full=full)
        times.append(time.ticks_diff(time.ticks_us(), t))
    return median(times)


def bench_alloc(rotation):
    d = ssd1680.SSD1680(NullSPI(), Out(), Out(), Out(), Out(), rotation=rotation)
    d.show(full=True)
    gc.collect()
    before = gc.mem_free()
    for _ in range(10):
        d.show()
    return (before - gc.mem_free()) // 10


def bench_poll(n=2000):
    pins = [{name: fakes.Pin() for name in buttons.NAMES} for _ in range(2)]
    b = buttons.Buttons(pins)
    times = []
    for _ in range(n):
        t = time.ticks_us()
        b.poll()
        times.append(time.ticks_diff(time.ticks_us(), t))
    return median(times)


print("image pass: %s" % ("viper" if ssd1680._invert is not ssd1680._invert_py else "bytecode"))
print("ssd1680 show() full, rotation 90:     %5d us (median, null SPI)" % bench_show(90, True))
print("ssd1680 show() partial, rotation 90:  %5d us" % bench_show(90, False))
print("ssd1680 show() partial, rotation 270: %5d us (byte-reversal pass)" % bench_show(270, False))
print("ssd1680 show() heap per call, rot 90:  %4d bytes" % bench_alloc(90))
print("ssd1680 show() heap per call, rot 270: %4d bytes" % bench_alloc(270))
def bench_plain(n=10):
    src = bytearray(4736)
    dst = bytearray(4736)
    times = []
    for _ in range(n):
        t = time.ticks_us()
        ssd1680._invert_py(dst, src, len(src))
        times.append(time.ticks_diff(time.ticks_us(), t))
    return median(times)


print("image pass without viper (fallback):  %5d us" % bench_plain())
print("buttons poll(), 12 buttons:           %5d us (median)" % bench_poll())
print("SPI bytes per full or partial update: %d (2 x 4736 + commands);"
      " at 4 MHz that is %.1f ms on the wire" % (2 * 4736 + 30, (2 * 4736 + 30) * 8 / 4000.0))


# The 4.2" SSD1683 (firmware/ssd1683.py): one RAM write of a whole 400x300
# image is the band transposer over every band, at scale 1 (a 400x300 frame
# buffer) and at scale 2 (200x150, each pixel sent as a 2x2 block), with
# the viper passes and with the plain-Python fallbacks; and a show() (two
# RAM writes for a full update, one for a partial) on a null SPI.
import ssd1683  # noqa: E402


def bench_ram_write(scale, fast, n=9):
    d = ssd1683.SSD1683(NullSPI(), Out(), Out(), Out(), Out(), scale=scale)
    for i in range(0, d.width, 3):
        d.fb.pixel(i, (i * 7) % d.height, 1)
    keep = ssd1683._band, ssd1683._band2
    if not fast:
        ssd1683._band, ssd1683._band2 = ssd1683._band_py, ssd1683._band2_py
    times = []
    try:
        for _ in range(n):
            t = time.ticks_us()
            d._write_ram(0x24)
            times.append(time.ticks_diff(time.ticks_us(), t))
    finally:
        ssd1683._band, ssd1683._band2 = keep
    return median(times)


def bench_show_4in2(scale, full, n=9):
    d = ssd1683.SSD1683(NullSPI(), Out(), Out(), Out(), Out(), scale=scale)
    d.show(full=True)
    times = []
    for i in range(n):
        d.fb.pixel(i, i, 1)
        t = time.ticks_us()
        d.show(full=full)
        times.append(time.ticks_diff(time.ticks_us(), t))
    return median(times)


fast = ssd1683._band is not ssd1683._band_py
print("ssd1683 band pass: %s" % ("viper" if fast else "bytecode"))
for sc in (1, 2):
    print("ssd1683 one 400x300 RAM write, scale %d: %6d us %s, %7d us plain Python (median)"
          % (sc, bench_ram_write(sc, True), "viper" if fast else "bytecode", bench_ram_write(sc, False)))
for sc in (1, 2):
    print("ssd1683 show() scale %d: full %6d us, partial %6d us (null SPI)"
          % (sc, bench_show_4in2(sc, True), bench_show_4in2(sc, False)))
