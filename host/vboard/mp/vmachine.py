# vmachine: machine.Pin / machine.SPI for the okgin virtual board.
#
# Runs inside the micropython unix port, whose `machine` has no Pin or SPI.
# Mirrors the rp2 port's API as far as the firmware can use it; the pin
# levels and SPI bytes go over a socket (OKGIN_VBOARD_LINK) to the host,
# which emulates the panels and buttons (host/vboard/link.py describes the
# messages). Never shipped to a real board.
import os
import socket
import struct
import select
import time
import machine as _m

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_Y = const(0x59)
_T = const(0x54)

# What the unix port already has, so `import vmachine as machine` works.
PinBase = _m.PinBase
Signal = _m.Signal
idle = _m.idle
time_pulse_us = _m.time_pulse_us
mem8 = _m.mem8
mem16 = _m.mem16
mem32 = _m.mem32

PWRON_RESET = const(1)
WDT_RESET = const(3)

_link = None


class _Link:
    def __init__(self):
        self.addr = os.getenv("OKGIN_VBOARD_LINK")
        if not self.addr:
            raise OSError("vmachine: OKGIN_VBOARD_LINK is not set; start the firmware "
                          "with `okgin board` (host.vboard.VirtualBoard)")
        # Buffers allocated once: pin reads/writes run at 1 kHz.
        self.rx = bytearray(9)
        self.p3 = bytearray(3)
        self.p4 = bytearray(4)
        self.a5 = bytearray(5)
        self.s6 = bytearray(6)
        self.y1 = b"Y"
        self.bits = 0
        self.seq = 0
        self.s = None
        self._open()

    def _open(self):
        addr = self.addr
        if addr.startswith("unix:"):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            path = addr[5:].encode()
            import sys
            if sys.platform == "darwin":   # BSD sockaddr_un has a length byte
                sa = struct.pack("BB", len(path) + 2, socket.AF_UNIX) + path + b"\0"
            else:
                sa = struct.pack("<H", socket.AF_UNIX) + path + b"\0"
            s.connect(sa)
        else:
            host, port = addr[4:].rsplit(":", 1)
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.connect(socket.getaddrinfo(host, int(port))[0][-1])
            s.setsockopt(6, 1, 1)   # IPPROTO_TCP, TCP_NODELAY: no Nagle delay on a sync
        self.poll = select.poll()
        self.poll.register(s, select.POLLIN)
        s.write(struct.pack("<BI", 0x48, int(os.getenv("OKGIN_VBOARD_TOKEN") or "0")))
        self.s = s
        self.dirty = True

    def _drop(self):
        # An exception (Ctrl-C) in the middle of a message: the stream is out
        # of step, so start a new connection at the next use.
        try:
            self.s.close()
        except Exception:
            pass
        self.s = None

    def _recv(self):
        rx = self.rx
        self.s.readinto(rx)
        self.bits = rx[5] | rx[6] << 8 | rx[7] << 16 | rx[8] << 24
        seq = rx[1] | rx[2] << 8 | rx[3] << 16 | rx[4] << 24
        if seq != self.seq:
            # Tell the host the firmware has seen this state (vb.press waits for it).
            self.seq = seq
            a = self.a5
            a[0] = 0x41
            a[1] = seq & 0xFF
            a[2] = (seq >> 8) & 0xFF
            a[3] = (seq >> 16) & 0xFF
            a[4] = seq >> 24
            self.s.write(a)
        return rx[0]

    def inputs(self):
        if self.s is None:
            self._open()
        try:
            if self.dirty:
                # Writes went out unacknowledged: ask for the levels after them.
                self.dirty = False
                self.s.write(self.y1)
                while self._recv() != _Y:
                    pass
            else:
                # Apply whatever the host pushed (usually nothing: one poll
                # syscall, no allocation).
                while True:
                    got = False
                    for _ in self.poll.ipoll(0):
                        got = True
                    if not got:
                        break
                    self._recv()
        except BaseException:
            self._drop()
            raise
        return self.bits

    def _send(self, buf):
        if self.s is None:
            self._open()
        try:
            self.s.write(buf)
        except BaseException:
            self._drop()
            raise
        self.dirty = True

    def pin_mode(self, pin, mode, pull):
        b = self.p4
        b[0] = 0x4D
        b[1] = pin
        b[2] = mode & 0xFF
        b[3] = pull & 0xFF
        self._send(b)

    def pin_out(self, pin, v):
        b = self.p3
        b[0] = 0x50
        b[1] = pin
        b[2] = v
        self._send(b)

    def spi_init(self, bus, sck, mosi, firstbit):
        self._send(bytes((0x42, bus, sck, mosi, firstbit)))

    def spi_write(self, bus, buf):
        n = len(buf)
        h = self.s6
        h[0] = 0x53
        h[1] = bus
        h[2] = n & 0xFF
        h[3] = (n >> 8) & 0xFF
        h[4] = (n >> 16) & 0xFF
        h[5] = n >> 24
        if self.s is None:
            self._open()
        try:
            self.s.write(h)
            self.s.write(buf)
        except BaseException:
            self._drop()
            raise
        self.dirty = True

    def reset(self):
        self._send(b"R")
        while True:            # the host ends this process
            self.s.readinto(self.rx)


def _get_link():
    global _link
    if _link is None:
        _link = _Link()
    return _link


def _pin_id(id):
    if isinstance(id, Pin):
        return id._id
    if isinstance(id, str):
        if id == "LED":
            return 25
        if id.startswith("GP") and id[2:].isdigit():
            id = int(id[2:])
        else:
            raise ValueError("unknown named pin \"%s\"" % id)
    if not isinstance(id, int) or not 0 <= id <= 29:
        raise ValueError("invalid pin")
    return id


class Pin(PinBase):
    IN = const(0)
    OUT = const(1)
    OPEN_DRAIN = const(2)
    ALT = const(3)
    PULL_UP = const(1)
    PULL_DOWN = const(2)
    IRQ_FALLING = const(4)
    IRQ_RISING = const(8)

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=None, alt=None):
        self._id = _pin_id(id)
        self._link = _get_link()
        self._mode = -1
        self._v = 0
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, drive=None, alt=None):
        if value is not None:
            # rp2: the level is set before the pin becomes an output.
            self._v = 1 if value else 0
            self._link.pin_out(self._id, self._v)
        if mode != -1 or pull != -1:
            if mode != -1:
                self._mode = mode
            if mode in (0, 1, 2) and pull == -1:
                pull = 0   # rp2: a mode given without pull clears the pull
            self._link.pin_mode(self._id, mode, pull)

    def value(self, v=None):
        if v is None:
            if self._mode == 1:
                return self._v       # an output reads back what it drives
            return (self._link.inputs() >> self._id) & 1
        v = 1 if v else 0
        self._v = v
        self._link.pin_out(self._id, v)

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def toggle(self):
        self.value(1 - self._v)

    def irq(self, handler=None, trigger=12, hard=False):
        raise NotImplementedError("vmachine: Pin.irq is not emulated; poll pin.value()")

    def __repr__(self):
        return "Pin(GPIO%d, mode=%s)" % (self._id, ("IN", "OUT", "OPEN_DRAIN", "ALT")[self._mode]
                                         if self._mode >= 0 else "UNSET")


# rp2 pin muxing of the two hardware SPI buses.
_SPI_PINS = (
    ((2, 6, 18, 22), (3, 7, 19, 23), (0, 4, 16, 20)),
    ((10, 14, 26), (11, 15, 27), (8, 12, 28)),
)


class SPI:
    MSB = const(0)
    LSB = const(1)

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 *, sck=None, mosi=None, miso=None):
        if id not in (0, 1):
            raise ValueError("SPI(%s) doesn't exist" % (id,))
        self._id = id
        self._on = False
        self._sck = (18, 10)[id]
        self._mosi = (19, 11)[id]
        self._miso = (16, 8)[id]
        self.init(baudrate, polarity, phase, bits, firstbit, sck=sck, mosi=mosi, miso=miso)

    def init(self, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
             *, sck=None, mosi=None, miso=None):
        pins = _SPI_PINS[self._id]
        for name, p, ok in (("SCK", sck, pins[0]), ("MOSI", mosi, pins[1]), ("MISO", miso, pins[2])):
            if p is not None and _pin_id(p) not in ok:
                raise ValueError("bad %s pin" % name)
        if bits != 8:
            raise ValueError("vmachine: only 8-bit SPI words are emulated")
        if sck is not None:
            self._sck = _pin_id(sck)
        if mosi is not None:
            self._mosi = _pin_id(mosi)
        if miso is not None:
            self._miso = _pin_id(miso)
        self._baud = baudrate
        self._mode = (polarity, phase)
        self._first = firstbit
        _get_link().spi_init(self._id, self._sck, self._mosi, 1 if firstbit else 0)
        self._on = True

    def deinit(self):
        self._on = False

    def write(self, buf):
        if not self._on:
            raise OSError("SPI bus is deinitialised")
        _get_link().spi_write(self._id, buf)

    def read(self, n, write=0):
        # MISO is not wired to anything on this board: it reads low.
        self.write(bytes((write,)) * n)
        return bytes(n)

    def readinto(self, buf, write=0):
        self.write(bytes((write,)) * len(buf))
        for i in range(len(buf)):
            buf[i] = 0

    def write_readinto(self, wbuf, rbuf):
        self.write(wbuf)
        for i in range(len(rbuf)):
            rbuf[i] = 0

    def __repr__(self):
        return "SPI(%d, baudrate=%d, polarity=%d, phase=%d, bits=8, sck=%d, mosi=%d, miso=%d)" % (
            self._id, self._baud, self._mode[0], self._mode[1], self._sck, self._mosi, self._miso)


def reset():
    """Hard reset: the host restarts this micropython process (the flash dir
    and the panels' ink survive)."""
    _get_link().reset()


def soft_reset():
    # The unix port cannot re-run main.py by itself; the host restarts it.
    reset()


def reset_cause():
    return PWRON_RESET if os.getenv("OKGIN_VBOARD_CAUSE") != "wdt" else WDT_RESET


def unique_id():
    """8 bytes, stable for a given flash directory (like the Pico's flash ID)."""
    h = os.getenv("OKGIN_VBOARD_UID") or "e661000000000000"
    return bytes(int(h[i:i + 2], 16) for i in range(0, 16, 2))


_freq = 125000000


def freq(hz=None):
    global _freq
    if hz is None:
        return _freq
    _freq = hz


def lightsleep(ms=None):
    if ms is not None:
        time.sleep_ms(ms)


def deepsleep(ms=None):
    lightsleep(ms)
    reset()


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def bootloader():
    raise NotImplementedError("vmachine: the virtual board has no bootloader; use `okgin flash`")
