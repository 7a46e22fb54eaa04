"""UC8151 (IL0373) e-paper controller emulation (host side, CPython): the
virtual board's second display controller (board.json "controller":
"UC8151", firmware/uc8151.py).

The ink, the BUSY timing, the events and the images are those of any
e-paper panel and come from the SSD1680 emulation; what differs, and is
emulated here from the IL0373 command table, is the command set:
- 0x00 PSR: resolution (RES bits 7:6: 96x230, 96x252, 128x296, 160x296),
  LUT from OTP or registers (bit 5), black/white or black/white/red (bit 4),
  gate scan up (bit 3: data row r on gate r, else on gate n-1-r), source
  shift right (bit 2: data column c on source c, else on source n-1-c),
  booster on (bit 1), bit 0 low = soft reset of the registers;
- 0x61 TRES sets the resolution (sources, gates) instead of PSR's RES;
- 0x50 CDI bit 4 (DDX): 1 = data bit 1 is white (power-on), 0 = black;
- 0x04 PON / 0x02 POF power the booster; 0x12 DRF refreshes the panel and
  needs it powered and the booster on;
- 0x10 DTM1 (old data in black/white mode, black/white in BWR mode) and
  0x13 DTM2 (new data; red in BWR mode) stream gate rows from the first;
  the refresh draws the new data in black/white mode (the OTP waveform is a
  full one), DTM1 in BWR mode (this panel has no red);
- 0x07 DSLP with the check code 0xA5: deep sleep until a hardware reset.
BUSY_N is low while the controller works (``BUSY_ACTIVE = 0``); bytes sent
meanwhile or in reset are ignored, and in deep sleep refused, as on the
SSD1680.
"""
from .ssd1680 import SSD1680, T_FULL, T_RESET

T_POWER = 0.040          # PON / POF: the booster ramps (nominal, speed 1)

# Parameter counts; streams (DTM1, DTM2, the five LUTs) take any number.
_NPARAMS = {
    0x00: 1, 0x01: 5, 0x03: 1, 0x06: 3, 0x07: 1, 0x30: 1, 0x40: 0, 0x41: 1,
    0x42: 3, 0x50: 1, 0x51: 1, 0x60: 1, 0x61: 3, 0x82: 1, 0x90: 7, 0xE5: 1,
    0x02: 0, 0x04: 0, 0x05: 0, 0x11: 0, 0x12: 0, 0x91: 0, 0x92: 0,
}
_STREAM = (0x10, 0x13, 0x20, 0x21, 0x22, 0x23, 0x24)
_RES = ((96, 230), (96, 252), (128, 296), (160, 296))
POR_PSR = 0x0F           # 96x230, OTP LUT, BWR, scan up, shift right, booster on
POR_CDI = 0xD7           # DDX = 1: data bit 1 is white


class UC8151(SSD1680):
    """One UC8151 controller plus its panel (see the module docstring)."""

    BUSY_ACTIVE = 0

    def power_on(self):
        with self.lock:
            self._account()
            n = 20 * 296            # RAM for the largest resolution, 160x296
            self.old = bytearray(self._rng.getrandbits(8) for _ in range(n))
            self.new = bytearray(self._rng.getrandbits(8) for _ in range(n))
            self.rst_low = False
            self.asleep = 0
            self.busy_until = 0.0
            self._refresh_end = None
            self._registers_por()

    def _registers_por(self):
        self.cmd = None
        self.params = bytearray()
        self.psr = POR_PSR
        self.tres = None
        self.cdi = POR_CDI
        self.powered = False
        self._ram = None
        self._pos = 0

    def set_reset(self, level):
        with self.lock:
            if not level:
                self.rst_low = True
                return
            if self.rst_low:
                self._account()
                self.rst_low = False
                self.stats["hw_resets"] += 1
                self.asleep = 0
                self._registers_por()
                self._busy_for(T_RESET)

    def busy(self):
        """True while the controller works (its BUSY_N pin is low)."""
        with self.lock:
            if self.busy_stuck:
                return True
            if self.asleep:
                return False
            return self.clock() < self.busy_until

    def busy_end(self):
        with self.lock:
            if self.busy_stuck or self.asleep:
                return None
            return self.busy_until

    def resolution(self):
        """(sources, gates) the controller scans: TRES, else PSR's RES."""
        return self.tres or _RES[self.psr >> 6]

    # -- commands ----------------------------------------------------------
    def _command(self, c, events):
        self.stats["commands"] += 1
        self.cmd = c
        self.params = bytearray()
        self._ram = None
        if c == 0x10 or c == 0x13:
            self._ram = self.old if c == 0x10 else self.new
            self._pos = 0
        elif c == 0x04:
            self.powered = True
            self._busy_for(T_POWER)
        elif c == 0x02:
            self.powered = False
            self._busy_for(T_POWER)
        elif c == 0x12:
            self._refresh(events)
        elif c in _NPARAMS or c in _STREAM:
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
            ram, pos = self._ram, self._pos
            n = min(len(data), len(ram) - pos)
            ram[pos:pos + n] = data[:n]
            self._pos = pos + len(data)
            return
        if c in _STREAM:
            return            # LUT bytes: the OTP waveform is what is emulated
        n = _NPARAMS.get(c, 0)
        for b in data:
            if len(self.params) >= n:
                self._note("extra data byte 0x%02X for command 0x%02X ignored" % (b, c))
                continue
            self.params.append(b)
            if len(self.params) == n:
                self._param(c, self.params)

    def _param(self, c, p):
        if c == 0x00:
            self.psr = p[0]
            if not p[0] & 0x01:          # RST_N low: soft reset
                self.stats["sw_resets"] += 1
                self._registers_por()
                self.psr = p[0] | 0x01
        elif c == 0x61:
            self.tres = (p[0] & 0xF8, (p[1] & 0x01) << 8 | p[2])
        elif c == 0x50:
            self.cdi = p[0]
        elif c == 0x07:
            if p[0] == 0xA5:
                self._account()
                self.stats["sleeps"] += 1
                self.asleep = 1
                self.powered = False
            else:
                self._note("deep sleep needs the check code 0xA5, got 0x%02X: ignored" % p[0])

    def _refresh(self, events):
        self.stats["activations"] += 1
        if not (self.powered and self.psr & 0x02):
            self._note("display refresh without %s: the ink does not change"
                       % ("power (PON)" if not self.powered else "the booster (PSR bit 1)"))
            self._busy_for(T_RESET)
            return
        self._draw()
        self._busy_for(T_FULL, "refresh")
        self.stats["full"] += 1
        self.stats["ink_seconds"] += T_FULL
        self._refresh_end = self.busy_until
        events.append(("refresh", "full", T_FULL * self.speed))
        if self.speed == 0 and not self.busy_stuck:
            self._refresh_end = None
            events.append(("ended",))

    def _draw(self):
        sources, gates = self.resolution()
        if (sources, gates) != (self.sources, self.gates):
            self._note("resolution %dx%d is not the panel's %dx%d" % (
                sources, gates, self.sources, self.gates))
        rb = sources // 8                      # bytes per data row
        data = self.new if self.psr & 0x10 else self.old    # BW: new; BWR: its B/W
        flip = 0x00 if self.cdi & 0x10 else 0xFF             # DDX=1: 1 = white
        up, right = self.psr & 0x08, self.psr & 0x04
        xb, ink = self._xb, self.ink
        n = min(rb, xb)
        for r in range(min(gates, self.gates)):
            g = r if up else self.gates - 1 - r
            row = data[r * rb:r * rb + rb]
            if right:       # data column c on source c
                out = bytes(b ^ flip for b in row[:n])
            else:           # on source sources-1-c: bytes and bits reversed
                out = bytes(_REVERSED[b] ^ flip for b in reversed(row[rb - n:]))
            ink[g * xb:g * xb + n] = out


_REVERSED = bytes(int("{:08b}".format(b)[::-1], 2) for b in range(256))
