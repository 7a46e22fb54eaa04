# A stand-in for the virtual board's `vmachine`, for hal_cases.py only: the
# machine.Pin / machine.SPI constructor API, recording how hal configures
# each pin and what goes over the bus. The real vmachine lives in
# host/vboard/ and drives the SSD1680 emulation.

PINS = {}
BUSES = []
RESETS = []


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        if not isinstance(id, int) or isinstance(id, bool) or not 0 <= id <= 29:
            raise ValueError("invalid pin %r" % (id,))
        self.id = id
        self.mode = mode
        self.pull = pull
        # An input with a pull-up reads 1 until something pulls it down.
        self.v = 1 if pull == Pin.PULL_UP else 0
        if value is not None:
            self.v = value
        PINS[id] = self

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = 1 if v else 0


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.pins = (sck, mosi, miso)
        self.writes = []
        BUSES.append(self)

    def write(self, buf):
        selected = [p.id for p in PINS.values() if p.mode == Pin.OUT and p.id in CS and p.v == 0]
        self.writes.append((tuple(selected), bytes(buf)))


CS = set()


def reset():
    RESETS.append(1)
