"""SSD1680 e-paper controller emulation (host side, CPython).

Decodes the byte stream a driver sends over SPI (DC low = command byte, DC
high = data byte for the last command) the way the SSD1680 datasheet
describes it, keeps the controller's two RAMs and registers, and keeps a
separate *panel image*: what the ink shows. The ink changes only when a
master activation (0x20) runs a display update, and keeps its content when
the controller is reset or loses power, as e-paper does.

Faithful on purpose, so a driver bug shows here as it would on a real panel:
- bytes sent while BUSY is high or while RST is held low are ignored
  (counted in ``stats["ignored"]``); bytes sent in deep sleep are refused
  (``stats["refused"]``, and a ("refused", n) event): the controller only
  listens again after a HW reset, so a driver that forgets to wake it
  loses the update, and the tests fail on any refused byte;
- display update control 2 (0x22) starts at its power-on value 0xFF
  (display mode 2, differential); a display needs the clock and analog
  enabled and a LUT loaded (0x22 bit 0x10, or one written with 0x32);
- display mode 1 (full) makes the ink equal to BW RAM (0x24); mode 2
  (partial) drives only pixels where BW RAM differs from RED RAM (0x26,
  "previous"), the rest keep what the ink shows, so a driver that does not
  keep 0x26 equal to the ink gets a wrong image;
- power-on RAM content is undefined (a fixed pseudo-random pattern here),
  and deep sleep mode 2 loses RAM.

Power (docs/power.md): ``states()`` gives the seconds the controller has
spent in each state by its clock: "refresh" (a display update drives the
panel), "busy" (a reset or a LUT load), "idle" (awake, waiting for
commands, analog off) and "sleep" (deep sleep).

Geometry. RAM is 176 sources (X, in bytes of 8 pixels, bit 7 = lowest
source) by 296 gates (Y). The panel shows sources 0..sources-1 (128 on the
2.9" module) and gates 0..gates-1. Source-output mode (0x21 B[7]) is
recorded but not modelled: RAM X byte 0 is always the panel's first column.
The logical image is the native portrait image (source = x to the right,
gate = y down) turned by ``rotation``: logical (x, y) is at
rotation  0: source x,           gate y
rotation 90: source sources-1-y, gate x          (Adafruit-GFX rotation 1)
rotation 180: source sources-1-x, gate gates-1-y
rotation 270: source y,           gate gates-1-x
"""
import random
import threading
import time

RAM_XBYTES = 22          # 176 sources
RAM_GATES = 296

# Nominal durations at speed 1.0 (seconds). Full/partial from common 2.9"
# SSD1680 modules (2-4 s full, 0.3-0.5 s partial).
T_FULL = 2.5
T_PARTIAL = 0.4
T_RESET = 0.010
T_LUT = 0.020            # an activation that loads LUT/temperature only
T_AUTOWRITE = 0.005

POR_UPDATE_2 = 0xFF      # datasheet: 0x22 power-on value

# Parameter counts of commands that take a fixed number of data bytes;
# those not listed take none (0x12, 0x20, 0x7F) or stream (0x24, 0x26, 0x32).
_NPARAMS = {
    0x01: 3, 0x03: 1, 0x04: 3, 0x0C: 5, 0x10: 1, 0x11: 1, 0x14: 1, 0x15: 1,
    0x18: 1, 0x1A: 2, 0x1B: 0, 0x1C: 3, 0x21: 2, 0x22: 1, 0x2C: 1, 0x2F: 0,
    0x37: 10, 0x3C: 1, 0x3F: 1, 0x44: 2, 0x45: 4, 0x46: 1, 0x47: 1, 0x4E: 1,
    0x4F: 2, 0x2B: 2, 0x2D: 0, 0x2E: 0, 0x27: 0, 0x28: 0, 0x29: 0, 0x31: 0,
    0x34: 0, 0x35: 0, 0x36: 0, 0x38: 0, 0x39: 0, 0x41: 0,
}
_STREAM = (0x24, 0x26, 0x32)
_NAMES = {
    0x01: "driver output control", 0x10: "deep sleep", 0x11: "data entry mode",
    0x12: "SW reset", 0x18: "temperature sensor", 0x20: "master activation",
    0x21: "display update control 1", 0x22: "display update control 2",
    0x24: "write RAM BW", 0x26: "write RAM RED", 0x32: "write LUT",
    0x3C: "border waveform", 0x44: "RAM X window", 0x45: "RAM Y window",
    0x4E: "RAM X counter", 0x4F: "RAM Y counter",
}


class SSD1680:
    """One controller plus its panel. Thread-safe (one lock per panel).

    ``speed`` scales BUSY durations (0 = instant, 1 = real time).
    ``on_event(kind, *args)`` is called with ("refresh", "full"|"partial",
    seconds) when a display update starts and ("ended",) when BUSY falls
    after it. ``busy_stuck = True`` injects a fault: BUSY never falls.
    """

    BUSY_ACTIVE = 1      # the BUSY pin's level while busy() (UC8151: 0)
    # The controller's RAM and refresh times (the SSD1683, its bigger
    # sibling, changes these: host/vboard/ssd1683.py)
    MODEL = "SSD1680"
    RAM_XBYTES = RAM_XBYTES
    RAM_GATES = RAM_GATES
    T_FULL = T_FULL
    T_PARTIAL = T_PARTIAL

    def __init__(self, sources=128, gates=296, rotation=90, speed=0.0,
                 clock=time.monotonic, seed=0x1680, name="panel"):
        if rotation not in (0, 90, 180, 270):
            raise ValueError("rotation must be 0, 90, 180 or 270, not %r" % (rotation,))
        ram_x = 8 * self.RAM_XBYTES
        if sources % 8 or not 8 <= sources <= ram_x or not 1 <= gates <= self.RAM_GATES:
            raise ValueError("panel %dx%d does not fit an %s (%dx%d)"
                             % (sources, gates, self.MODEL, ram_x, self.RAM_GATES))
        self.sources = sources
        self.gates = gates
        self.rotation = rotation
        self.speed = float(speed)
        self.clock = clock
        self.name = name
        self.on_event = None
        self.busy_stuck = False
        self.lock = threading.RLock()
        self._rng = random.Random(seed)
        self.log = []            # human-readable notes on odd input, newest last
        self.stats = {}
        self.reset_stats()
        # The ink: native rows of sources/8 bytes, RAM polarity (1 = white).
        # A new panel is white; power loss and resets keep it.
        self._xb = sources // 8
        self.ink = bytearray(b"\xff" * (self._xb * gates))
        self.busy_until = 0.0
        self.asleep = 0
        self._busy_kind = "busy"
        self.reset_states()
        self.power_on()

    # -- counters --------------------------------------------------------
    def reset_stats(self):
        with self.lock:
            self.stats = {"full": 0, "partial": 0, "ink_seconds": 0.0,
                          "commands": 0, "data_bytes": 0, "ignored": 0,
                          "unknown": 0, "hw_resets": 0, "sw_resets": 0,
                          "sleeps": 0, "activations": 0, "refused": 0}

    # -- time per power state ----------------------------------------------
    def reset_states(self):
        with self.lock:
            self._states = {"refresh": 0.0, "busy": 0.0, "idle": 0.0, "sleep": 0.0}
            self._since = self.clock()

    def _account(self):
        """Book the time since the last change to the states it passed
        through (a BUSY period may have ended on its own meanwhile)."""
        now = self.clock()
        t = self._since
        if now <= t:
            return
        st = self._states
        if self.asleep:
            st["sleep"] += now - t
        else:
            end = min(now, self.busy_until) if self.busy_until > t else t
            if self.busy_stuck:
                end = now
            st[self._busy_kind] += end - t
            st["idle"] += now - end
        self._since = now

    def states(self):
        """{state: seconds} since power-on or reset_states()."""
        with self.lock:
            self._account()
            return dict(self._states)

    def _note(self, msg):
        self.log.append(msg)
        del self.log[:-200]

    # -- power, reset pin --------------------------------------------------
    def power_on(self):
        """Power-on reset: registers to defaults, RAM content undefined."""
        with self.lock:
            self._account()
            self.bw = bytearray(self._rng.getrandbits(8) for _ in range(self.RAM_XBYTES * self.RAM_GATES))
            self.red = bytearray(self._rng.getrandbits(8) for _ in range(self.RAM_XBYTES * self.RAM_GATES))
            self.rst_low = False
            self.asleep = 0
            self.busy_until = 0.0
            self._refresh_end = None
            self._registers_por()

    def _registers_por(self):
        self.cmd = None
        self.params = bytearray()
        self.mux = self.RAM_GATES - 1
        self.scan = 0              # 0x01 B: GD, SM, TB bits
        self.entry = 0x03          # X+, Y+, X first
        self.xstart, self.xend = 0, self.RAM_XBYTES - 1
        self.ystart, self.yend = 0, self.RAM_GATES - 1
        self.xc, self.yc = 0, 0
        self.upd1 = (0x00, 0x00)
        self.upd2 = POR_UPDATE_2
        self.border = 0xC0
        self.temp_sensor = 0x48
        self.clock_on = False
        self.analog_on = False
        self.lut = False
        self._ram = None           # RAM being written by 0x24/0x26

    def set_reset(self, level):
        """The RST pin (active low). Rising edge = HW reset."""
        with self.lock:
            if not level:
                self.rst_low = True
                return
            if self.rst_low:
                self._account()
                self.rst_low = False
                self.stats["hw_resets"] += 1
                if self.asleep == 2:   # deep sleep mode 2 does not keep RAM
                    self.bw = bytearray(self._rng.getrandbits(8) for _ in range(len(self.bw)))
                    self.red = bytearray(self._rng.getrandbits(8) for _ in range(len(self.red)))
                self.asleep = 0
                self._registers_por()
                self._busy_for(T_RESET)

    # -- BUSY ----------------------------------------------------------------
    def busy(self):
        """Level of the BUSY pin (True = high)."""
        with self.lock:
            if self.busy_stuck or self.asleep:
                return True   # datasheet: BUSY stays high in deep sleep
            return self.clock() < self.busy_until

    def _busy_for(self, nominal, kind="busy"):
        self._account()
        self._busy_kind = kind
        self.busy_until = self.clock() + nominal * self.speed

    def busy_end(self):
        """When BUSY falls (clock time), or None if it is not pending."""
        with self.lock:
            if self.busy_stuck or self.asleep:
                return None
            return self.busy_until

    def poll_ended(self):
        """Fire ("ended",) if a display update's BUSY time is over."""
        with self.lock:
            if self._refresh_end is None or self.busy_stuck:
                return False
            if self.clock() < self._refresh_end:
                return False
            self._refresh_end = None
        self._emit("ended")
        return True

    def _emit(self, *ev):
        cb = self.on_event
        if cb is not None:
            cb(*ev)

    # -- the SPI byte stream -------------------------------------------------
    def feed(self, data, dc):
        """Bytes clocked in with CS low; dc = level of the DC pin."""
        events: "list[tuple]" = []
        with self.lock:
            if self.asleep and not self.rst_low:
                # deep sleep: only a HW reset wakes the controller
                self.stats["refused"] += len(data)
                self._note("refused %d byte(s) in deep sleep (no HW reset before them)" % len(data))
                self._ram = None
                events.append(("refused", len(data)))
            elif self.rst_low or self.busy():
                self.stats["ignored"] += len(data)
                why = "RST low" if self.rst_low else "BUSY high"
                self._note("ignored %d byte(s) while %s" % (len(data), why))
                # Anything sent now is lost; a RAM write in progress stops.
                self._ram = None
                return
            elif not dc:
                for b in data:
                    self._command(b, events)
                    if self.asleep or self.busy():
                        break
            else:
                self.stats["data_bytes"] += len(data)
                self._data(data, events)
        for ev in events:
            self._emit(*ev)

    def _command(self, c, events):
        self.stats["commands"] += 1
        self.cmd = c
        self.params = bytearray()
        self._ram = None
        if c == 0x12:
            self.stats["sw_resets"] += 1
            self._registers_por()
            self._busy_for(T_RESET)
        elif c == 0x20:
            self._activate(events)
        elif c == 0x24:
            self._ram = self.bw
        elif c == 0x26:
            self._ram = self.red
        elif c == 0x32 or c == 0x7F or c in _NPARAMS:
            pass
        else:
            self.stats["unknown"] += 1
            self._note("unknown command 0x%02X ignored" % c)

    def _data(self, data, events):
        c = self.cmd
        if c is None:
            self._note("%d data byte(s) before any command ignored" % len(data))
            return
        if self._ram is not None:
            self._write_ram(data)
            return
        if c == 0x32:
            self.params.extend(data)
            if len(self.params) >= 153:
                self.lut = True
            return
        n = _NPARAMS.get(c)
        if n is None:
            self._note("%d data byte(s) for command 0x%02X ignored" % (len(data), c))
            return
        for b in data:
            if len(self.params) >= n:
                self._note("extra data byte 0x%02X for command 0x%02X ignored" % (b, c))
                continue
            self.params.append(b)
            self._param(c, self.params)

    def _param(self, c, p):
        """Apply a command's parameters as they arrive (the register updates
        byte by byte on the chip, too)."""
        n = len(p)
        if c == 0x01:
            if n >= 2:
                self.mux = (p[0] | (p[1] & 1) << 8)
            if n == 3:
                self.scan = p[2] & 0x07
        elif c == 0x10:
            mode = p[0] & 0x03
            if mode:
                self._account()
                self.stats["sleeps"] += 1
                self.asleep = 2 if mode == 3 else 1
                self.clock_on = self.analog_on = False
        elif c == 0x11:
            self.entry = p[0] & 0x07
        elif c == 0x18:
            self.temp_sensor = p[0]
        elif c == 0x21:
            self.upd1 = (p[0], p[1] if n > 1 else 0x00)
        elif c == 0x22:
            self.upd2 = p[0]
        elif c == 0x3C:
            self.border = p[0]
        elif c == 0x44:
            if n == 1:
                self.xstart = p[0] & 0x3F
            else:
                self.xend = p[1] & 0x3F
        elif c == 0x45:
            if n == 2:
                self.ystart = p[0] | (p[1] & 1) << 8
            elif n == 4:
                self.yend = p[2] | (p[3] & 1) << 8
        elif c == 0x4E:
            self.xc = p[0] & 0x3F
        elif c == 0x4F:
            if n == 2:
                self.yc = p[0] | (p[1] & 1) << 8
        elif c in (0x46, 0x47):
            self._auto_write(self.red if c == 0x46 else self.bw, p[0])

    def _auto_write(self, ram, a):
        # Regular-pattern fill: A[7] first value, A[6:4] step height (gates),
        # A[2:0] step width (sources); steps alternate the value.
        heights = tuple(min(v, self.RAM_GATES) for v in (8, 16, 32, 64, 128, 256, 296, 296))
        widths = tuple(min(v, 8 * self.RAM_XBYTES) for v in (8, 16, 32, 64, 128, 176, 176, 176))
        h = heights[(a >> 4) & 7]
        w = widths[a & 7] // 8
        first = (a >> 7) & 1
        for y in range(self.RAM_GATES):
            for x in range(self.RAM_XBYTES):
                v = first ^ ((y // h) & 1) ^ ((x // w) & 1)
                ram[y * self.RAM_XBYTES + x] = 0xFF if v else 0x00
        self._busy_for(T_AUTOWRITE)

    def _write_ram(self, data):
        """Write bytes at the address counter, advancing it per 0x11 and the
        0x44/0x45 window: the counter moves from start towards end; after
        the end it wraps to start and the other counter steps once."""
        e = self.entry
        dx = 1 if e & 1 else -1
        dy = 1 if e & 2 else -1
        y_first = bool(e & 4)
        xs, xe, ys, ye = self.xstart, self.xend, self.ystart, self.yend
        x, y = self.xc, self.yc
        ram = self._ram
        if ram is None:
            return
        for b in data:
            if 0 <= x < self.RAM_XBYTES and 0 <= y < self.RAM_GATES:
                ram[y * self.RAM_XBYTES + x] = b
            if y_first:
                if y == ye:
                    y = ys
                    x = xs if x == xe else (x + dx) % 64
                else:
                    y = (y + dy) % 512
            else:
                if x == xe:
                    x = xs
                    y = ys if y == ye else (y + dy) % 512
                else:
                    x = (x + dx) % 64
        self.xc, self.yc = x, y

    def _effective(self, ram, option):
        # 0x21 A nibble: 0 normal, 4 bypass as 0, 8 inverse.
        if option & 0x4:
            return bytearray(len(ram))
        if option & 0x8:
            return bytearray(b ^ 0xFF for b in ram)
        return ram

    def _activate(self, events):
        self.stats["activations"] += 1
        s = self.upd2
        if s & 0x80:
            self.clock_on = True
        if s & 0x40 and self.clock_on:
            self.analog_on = True
        if s & 0x10 and self.clock_on:
            self.lut = True
        nominal = T_LUT if s & 0x30 else T_RESET
        kind = None
        if s & 0x04:
            if not (self.clock_on and self.analog_on and self.lut):
                self._note("display update 0x%02X without %s: the ink does not change" % (
                    s, "clock" if not self.clock_on else "analog" if not self.analog_on else "a LUT"))
            else:
                kind = "partial" if s & 0x08 else "full"
                self._display(kind == "partial")
                nominal = self.T_PARTIAL if kind == "partial" else self.T_FULL
        if s & 0x02:
            self.analog_on = False
        if s & 0x01:
            self.clock_on = False
        self._busy_for(nominal, "refresh" if kind else "busy")
        if kind:
            self.stats[kind] += 1
            self.stats["ink_seconds"] += nominal
            self._refresh_end = self.busy_until
            events.append(("refresh", kind, nominal * self.speed))
            if self.speed == 0 and not self.busy_stuck:
                self._refresh_end = None
                events.append(("ended",))

    def _display(self, differential):
        bw = self._effective(self.bw, self.upd1[0] & 0x0F)
        red = self._effective(self.red, self.upd1[0] >> 4)
        xb = self._xb
        ink = self.ink
        tb = self.scan & 1
        for g in range(min(self.gates, self.mux + 1)):
            r = (self.mux - g) if tb else g
            o = r * self.RAM_XBYTES
            i = g * xb
            if not differential:
                ink[i:i + xb] = bw[o:o + xb]
                continue
            for k in range(xb):
                new = bw[o + k]
                changed = new ^ red[o + k]
                if changed:
                    ink[i + k] = (ink[i + k] & ~changed & 0xFF) | (new & changed)

    # -- what the ink shows --------------------------------------------------
    def native_image(self):
        """PIL image mode "1", sources x gates (portrait), as the ink shows."""
        from PIL import Image
        with self.lock:
            return Image.frombytes("1", (self.sources, self.gates), bytes(self.ink))

    def image(self):
        """PIL image mode "1" in the logical orientation (black = 0)."""
        from PIL import Image
        im = self.native_image()
        t = getattr(Image, "Transpose", Image)   # Pillow < 9.1 has the bare constants
        # Counter-clockwise turns: the native top-right corner (source 127,
        # gate 0) becomes the logical top-left for rotation 90.
        if self.rotation == 90:
            return im.transpose(t.ROTATE_90)
        if self.rotation == 180:
            return im.transpose(t.ROTATE_180)
        if self.rotation == 270:
            return im.transpose(t.ROTATE_270)
        return im

    def image_bytes(self):
        """Logical image, rows top to bottom, 1 bit per pixel MSB first,
        1 = black (the format of the firmware's `screen` answer)."""
        return bytes(b ^ 0xFF for b in self.image().tobytes())
