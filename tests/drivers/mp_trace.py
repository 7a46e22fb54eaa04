# Records the wire traffic of the real SSD1680 driver through a random
# sequence of drawings and updates, for test_emulator_trace.py to replay
# into the virtual board's SSD1680 emulation:
#   micropython tests/drivers/mp_trace.py <seed> <steps> <rotation> [auto]
# ("auto": the driver's auto_sleep on, deep sleep after every update)
# Output lines: "R <level>" (RST pin), "W <dc> <hex>" (an SPI write with CS
# low), "C <hex>" (an update has finished: the frame buffer, MONO_VLSB).
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
ROOT = HERE.rsplit("/", 2)[0] if HERE.count("/") >= 2 else "."
sys.path.insert(0, ROOT + "/firmware")

import random  # noqa: E402
from binascii import hexlify  # noqa: E402

import ssd1680  # noqa: E402


class Wire:
    def __init__(self):
        self.cs = 1
        self.dc = 0


class OutPin:
    def __init__(self, wire, name):
        self.wire = wire
        self.name = name
        self.v = 1

    def value(self, v=None):
        if v is None:
            return self.v
        v = 1 if v else 0
        if self.name == "rst" and v != self.v:
            print("R %d" % v)
        self.v = v
        setattr(self.wire, self.name, v)


class Busy:
    # The emulator runs at speed 0: every update is over at once. The real
    # BUSY behaviour is tested on the recording bus (ssd1680_cases.py).
    def value(self, v=None):
        return 0


class SPI:
    def __init__(self, wire):
        self.wire = wire

    def write(self, data):
        assert self.wire.cs == 0, "SPI write with CS high"
        sys.stdout.write("W %d " % self.wire.dc)
        sys.stdout.write(hexlify(data))
        sys.stdout.write("\n")


seed, steps, rotation = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
random.seed(seed)
w = Wire()
d = ssd1680.SSD1680(SPI(w), OutPin(w, "cs"), OutPin(w, "dc"), OutPin(w, "rst"), Busy(),
                    rotation=rotation)
d.auto_sleep = len(sys.argv) > 4 and sys.argv[4] == "auto"
fb = d.fb
for _step in range(steps):
    for _ in range(random.randint(1, 4)):
        kind = random.randint(0, 3)
        x, y = random.randint(-10, 300), random.randint(-10, 130)
        c = random.randint(0, 1)
        if kind == 0:
            fb.fill_rect(x, y, random.randint(1, 80), random.randint(1, 60), c)
        elif kind == 1:
            fb.text("Ah 10c Ks", x, y, c)
        elif kind == 2:
            fb.line(x, y, random.randint(0, 295), random.randint(0, 127), c)
        else:
            fb.pixel(x, y, c)
    op = random.randint(0, 9)
    if op == 0:
        d.sleep()
    d.show(full=(op == 1))
    d.wait()
    sys.stdout.write("C ")
    sys.stdout.write(hexlify(d.buf))
    sys.stdout.write("\n")
print("END")
