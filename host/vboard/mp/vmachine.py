# vmachine: machine.Pin / machine.SPI for the okgin virtual board.
#
# Runs inside the micropython unix port, whose `machine` has no Pin or SPI.
# Mirrors what the firmware and the host's tools use of the rp2 port's API
# (Pin(gpio, mode, pull, value=), value, call, irq; SPI: constructor with
# rp2's pin checks, write; ADC(pin).read_u16; reset, unique_id, freq,
# lightsleep); the pin levels and SPI bytes
# go over a socket (OKGIN_VBOARD_LINK) to the host, which emulates the panels
# and buttons (host/vboard/link.py describes the messages). Never shipped to
# a real board.
#
# Lean on purpose (docs/memory.md): it is loaded from source into the same
# heap as the firmware, whose budget is 176K here (docs/memory.md), yet a Pico has none of
# it. So: module-level state instead of a link object, pin state in two
# bytearrays instead of per-instance attributes (a Pin holds only its GPIO
# number; like rp2's static pin objects, two Pins on one GPIO share state),
# no method the firmware never calls.
import os
import socket
import select

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_Y = const(0x59)
_D = const(0x44)

_s = None          # the link socket, opened at first use (and after an error)
_poll = None
_rest = []         # lightsleep's poll object (the link and stdin), made at first use
_rx = bytearray(9)          # host -> micropython: kind, seq:u32, bits:u32
_b = bytearray(6)           # outgoing message header, reused (1 kHz pin traffic)
_b3 = memoryview(_b)[:3]    # P pin level
_b4 = memoryview(_b)[:4]    # M pin mode pull
# bits, seq, dirty (writes not yet confirmed by a sync), and whether the
# levels changed since lightsleep last looked (what a pin IRQ latches on a Pico)
_st = [0, 0, True, False]
_MODE = bytearray(b"\xff" * 30)   # per GPIO: mode, 0xff = unset
_V = bytearray(30)                # per GPIO: the level an output drives


def _open():
    global _s, _poll
    addr = os.getenv("OKGIN_VBOARD_LINK")
    if not addr:
        raise OSError("vmachine: OKGIN_VBOARD_LINK is not set; start the firmware "
                      "with `okgin board` (host.vboard.VirtualBoard)")
    if addr.startswith("unix:"):
        # AF_UNIX: the unix port has it (the rp2 stubs it is checked against do not)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # type: ignore[attr-defined]
        path = addr[5:].encode()
        import sys
        if sys.platform == "darwin":   # BSD sockaddr_un has a length byte
            s.connect(bytes((len(path) + 2, socket.AF_UNIX)) + path + b"\0")  # type: ignore[attr-defined]
        else:
            s.connect(bytes((socket.AF_UNIX, 0)) + path + b"\0")  # type: ignore[attr-defined]
    else:
        host, port = addr[4:].rsplit(":", 1)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(socket.getaddrinfo(host, int(port))[0][-1])
        s.setsockopt(6, 1, 1)   # IPPROTO_TCP, TCP_NODELAY: no Nagle delay on a sync
    _poll = select.poll()
    _poll.register(s, select.POLLIN)
    t = int(os.getenv("OKGIN_VBOARD_TOKEN") or "0")
    s.write(bytes((0x48, t & 255, (t >> 8) & 255, (t >> 16) & 255, t >> 24)))
    _s = s
    _st[2] = True


def _send(buf, data=None):
    # An exception (Ctrl-C) in the middle of a message leaves the stream out
    # of step: drop the connection and open a new one at the next use.
    if _s is None:
        _open()
    try:
        _s.write(buf)
        if data is not None:
            _s.write(data)
    except BaseException:
        _drop()
        raise
    _st[2] = True


def _drop():
    global _s
    try:
        _s.close()
    except Exception:
        pass
    _s = None
    _rest.clear()


def _recv():
    rx = _rx
    _s.readinto(rx)
    if rx[0] == _D:
        return _D      # an ADC answer: its value is in rx[5:9], not pin levels
    bits = rx[5] | rx[6] << 8 | rx[7] << 16 | rx[8] << 24
    if bits != _st[0]:
        _st[3] = True
    _st[0] = bits
    seq = rx[1] | rx[2] << 8 | rx[3] << 16 | rx[4] << 24
    if seq != _st[1]:
        # Tell the host the firmware has seen this state (vb.press waits for it).
        _st[1] = seq
        _s.write(b"A" + rx[1:5])
    return rx[0]


def _inputs():
    if _s is None:
        _open()
    try:
        if _st[2]:
            # Writes went out unacknowledged: ask for the levels after them.
            _st[2] = False
            _s.write(b"Y")
            while _recv() != _Y:
                pass
        else:
            # Apply whatever the host pushed (usually nothing: one poll
            # syscall, no allocation).
            got = True
            while got:
                got = False
                for _ in _poll.ipoll(0):
                    got = True
                if got:
                    _recv()
    except BaseException:
        _drop()
        raise
    return _st[0]


def _drive(i, v):
    # An output level: kept for read-back, and sent as "P" <pin> <level>.
    _V[i] = v
    b = _b
    b[0] = 0x50
    b[1] = i
    b[2] = v
    _send(_b3)


def _pin_id(id):
    if isinstance(id, Pin):
        return id._id
    if not isinstance(id, int) or not 0 <= id <= 29:
        raise ValueError("invalid pin")
    return id


class Pin:
    IN = const(0)
    OUT = const(1)
    OPEN_DRAIN = const(2)
    ALT = const(3)
    PULL_UP = const(1)
    PULL_DOWN = const(2)

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self._id = i = _pin_id(id)
        b = _b
        if value is not None:
            # rp2: the level is set before the pin becomes an output.
            _drive(i, 1 if value else 0)
        if mode != -1 or pull != -1:
            if mode != -1:
                _MODE[i] = mode
            if mode in (0, 1, 2) and pull == -1:
                pull = 0   # rp2: a mode given without pull clears the pull
            b[0] = 0x4D
            b[1] = i
            b[2] = mode & 0xFF
            b[3] = pull & 0xFF
            _send(_b4)

    def value(self, v=None):
        i = self._id
        if v is None:
            if _MODE[i] == 1:
                return _V[i]       # an output reads back what it drives
            return (_inputs() >> i) & 1
        _drive(i, 1 if v else 0)

    __call__ = value

    IRQ_FALLING = const(4)
    IRQ_RISING = const(8)

    def irq(self, handler=None, trigger=12, hard=False):
        # A level change the host pushes ends lightsleep() below: that is
        # all the firmware asks of an IRQ here (the handler is not called).
        pass


class ADC:
    """rp2's ADC on GPIO 26-29: read_u16() is what the host's board model
    puts on that pin (VSYS/3 on the Pico's GP29), asked over the link."""

    def __init__(self, pin):
        self._id = _pin_id(pin)

    def read_u16(self):
        _inputs()          # every write before it is applied
        _send(bytes((_D, self._id)))
        try:
            while _recv() != _D:
                pass
        except BaseException:
            _drop()
            raise
        rx = _rx
        return rx[5] | rx[6] << 8


def lightsleep(ms=None):
    """Like rp2's: sleep ms, ended early by an input change the host
    pushes (the rp2 port wakes on a pin IRQ) or a byte on the serial port
    (USB's interrupt); with no ms, until an input changes (DORMANT with a
    GPIO wake on a Pico: the serial port sleeps too)."""
    if _s is None:
        _open()
    try:
        if _st[2]:
            _inputs()
        if _st[3]:
            # a level changed since the last sleep (maybe read meanwhile
            # for another pin): on a Pico its IRQ is pending, the WFI
            # returns at once
            _st[3] = False
            return
        if not _rest:
            import sys
            p = select.poll()
            p.register(_s, select.POLLIN)
            p.register(sys.stdin, select.POLLIN)
            _rest.append(p)
        for t in (_poll if ms is None else _rest[0]).ipoll(-1 if ms is None else ms):
            if t[0] is _s:
                _recv()
        _st[3] = False
    except BaseException:
        _drop()
        raise


# rp2's pin muxing of the two hardware SPI buses, bit n = GPIO n may be
# used: SCK, MOSI, MISO of SPI0 ({2,6,18,22}, {3,7,19,23}, {0,4,16,20}),
# then of SPI1 ({10,14,26}, {11,15,27}, {8,12,28}).
_SPI_OK = (0x440044, 0x880088, 0x110011, 0x4004400, 0x8008800, 0x10001100)


class SPI:
    MSB = const(0)
    LSB = const(1)

    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 *, sck=None, mosi=None, miso=None):
        if id not in (0, 1):
            raise ValueError("SPI(%s) doesn't exist" % (id,))
        if bits != 8:
            raise ValueError("vmachine: only 8-bit SPI words are emulated")
        got = bytearray(b"\x12\x13\x10" if id == 0 else b"\x0a\x0b\x08")  # rp2's defaults
        k = 0
        for p in (sck, mosi, miso):
            if p is not None:
                p = _pin_id(p)
                if not (_SPI_OK[id * 3 + k] >> p) & 1:
                    raise ValueError("bad %s pin" % ("SCK", "MOSI", "MISO")[k])
                got[k] = p
            k += 1
        self._id = id
        _send(bytes((0x42, id, got[0], got[1], 1 if firstbit else 0)))

    def write(self, buf):
        n = len(buf)
        h = _b
        h[0] = 0x53
        h[1] = self._id
        h[2] = n & 0xFF
        h[3] = (n >> 8) & 0xFF
        h[4] = (n >> 16) & 0xFF
        h[5] = n >> 24
        _send(h, buf)


def reset():
    """Hard reset: the host restarts this micropython process (the flash dir
    and the panels' ink survive)."""
    _send(b"R")
    while True:            # the host ends this process
        _s.readinto(_rx)


def kbd_intr(c):
    """micropython.kbd_intr for the virtual board: Ctrl-C on its port
    interrupts (c == 3) or is a plain byte (-1). The host switches the pty's
    ISIG, as the Pico's USB stack would stop looking for it."""
    _send(bytes((0x4B, 1 if c == 3 else 0)))
    # Returns once the switch is made, as on a Pico: the host applies K
    # before it answers the sync. Unacknowledged, a loaded host made it
    # after the firmware had printed READY (or taken the owner's lock), and
    # the client's next Ctrl-C met the old setting.
    _inputs()


def unique_id():
    """8 bytes, stable for a given flash directory (like the Pico's flash ID)."""
    import binascii
    return binascii.unhexlify(os.getenv("OKGIN_VBOARD_UID") or "e661000000000000")


def freq():
    return 125000000
