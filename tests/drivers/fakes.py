# Test doubles for the driver tests, runnable on CPython and MicroPython.
#
# These are recorders, not an SSD1680 emulation: they log exactly what the
# driver puts on the wire (CS/DC/RST levels and SPI bytes) and refuse
# framing mistakes a real panel would punish (bytes sent with no CS low, two
# panels selected at once). The BUSY fake follows the datasheet's behaviour
# of the pin only: high after a reset or 0x20 until the work is done, high
# forever in deep sleep.


def repo_root():
    here = __file__.replace("\\", "/")
    parts = here.split("/")
    # .../tests/drivers/fakes.py -> ...
    root = "/".join(parts[:-3])
    return root or "."


class Clock:
    """A ticks_ms() whose time only moves when the test says so."""

    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t

    def advance(self, ms):
        self.t += ms


class Pin:
    """An input pin the test drives: value() reads what set() wrote."""

    def __init__(self, v=1):
        self.v = v
        self.reads = 0

    def set(self, v):
        self.v = v

    def value(self, v=None):
        if v is None:
            self.reads += 1
            return self.v
        self.v = v


class WireError(AssertionError):
    pass


class Bus:
    """One SPI bus with panels on it; records each panel's commands.

    panel(i) returns the (cs, dc, rst, busy) pins for panel i.
    commands[i] is a list of (cmd, bytes) and ("reset",) entries.
    """

    def __init__(self, busy_reads=3):
        self.busy_reads = busy_reads   # reads BUSY stays high after 0x20
        self.panels = []
        self.commands = []
        self.writes = 0

    def panel(self):
        i = len(self.panels)
        p = _Panel(self, i)
        self.panels.append(p)
        self.commands.append([])
        return p.cs, p.dc, p.rst, p.busy

    def write(self, data):
        selected = [p for p in self.panels if p.cs.v == 0]
        if len(selected) != 1:
            raise WireError("SPI write with %d panels selected" % len(selected))
        p = selected[0]
        if p.rst.v == 0:
            raise WireError("SPI write while the panel is held in reset")
        self.writes += 1
        log = self.commands[p.index]
        data = bytes(data)
        if p.dc.v == 0:
            for b in data:
                log.append((b, b""))
                p.command(b)
        else:
            if not log or log[-1][0] == "reset":
                raise WireError("data bytes with no command before them")
            cmd, old = log[-1]
            log[-1] = (cmd, old + data)
            p.data(cmd, log[-1][1])

    def names(self, i):
        """Command ids of panel i, e.g. ["reset", 0x12, 0x01, ...]."""
        return [c[0] for c in self.commands[i]]


class _OutPin:
    def __init__(self, panel, name, v):
        self.panel = panel
        self.name = name
        self.v = v

    def value(self, v=None):
        if v is None:
            return self.v
        old = self.v
        self.v = 1 if v else 0
        if self.name == "rst" and old == 0 and self.v == 1:
            self.panel.reset()
        if self.name == "cs" and old == 0 and self.v == 1:
            self.panel.deselect()


class _BusyPin:
    def __init__(self, panel):
        self.panel = panel
        self.reads = 0
        self.stuck = False    # a missing panel: pulled up, reads busy forever

    def value(self, v=None):
        if v is not None:
            raise WireError("the driver drove the BUSY input")
        self.reads += 1
        p = self.panel
        if self.stuck or p.asleep:
            return 1
        if p.busy_left > 0:
            p.busy_left -= 1
            return 1
        return 0


class _Panel:
    def __init__(self, bus, index):
        self.bus = bus
        self.index = index
        self.cs = _OutPin(self, "cs", 1)
        self.dc = _OutPin(self, "dc", 0)
        self.rst = _OutPin(self, "rst", 1)
        self.busy = _BusyPin(self)
        self.asleep = False
        self.busy_left = 0
        self.pending = None

    def reset(self):
        self.bus.commands[self.index].append(("reset",))
        self.asleep = False
        self.busy_left = 2

    def command(self, cmd):
        if self.asleep:
            raise WireError("command 0x%02x sent in deep sleep (needs HW reset)" % cmd)
        if self.busy_left > 0:
            raise WireError("command 0x%02x sent while BUSY is high" % cmd)
        self.pending = cmd
        if cmd == 0x12:
            self.busy_left = 2
        elif cmd == 0x20:
            self.busy_left = self.bus.busy_reads

    def data(self, cmd, data):
        pass

    def deselect(self):
        # Deep sleep takes effect once its data byte is in.
        log = self.bus.commands[self.index]
        if log and log[-1][0] == 0x10 and log[-1][1][:1] in (b"\x01", b"\x03"):
            self.asleep = True


class SPI:
    def __init__(self, bus):
        self.bus = bus
        self.fail = False   # True: the next write raises, as a broken bus would

    def write(self, data):
        if self.fail:
            self.fail = False
            raise OSError(5)  # EIO
        self.bus.write(data)
