# SSD1683 e-paper driver (4.2" 400x300 black/white panels) on framebuf.
#
# For the Good Display GDEY042T81 and the Waveshare 4.2" e-Paper Module V2,
# both a Solomon SSD1683 with a 400x300 panel (active area 84.8 x 63.6 mm,
# 0.212 mm a pixel): board.json's "controller": "SSD1683". The SSD1683 is
# the SSD1680's sibling (same command family, bigger RAM: 400 sources by 300
# gates). Both refreshes use the panel's OTP waveforms (0x22 loads the LUT;
# no 0x32 upload). Checked against the command table and the virtual
# board's emulation (host/vboard/ssd1683.py), not yet on a real panel.
#
# Sources read (facts, not code; nothing copied):
# - Solomon Systech SSD1683 datasheet (command table: 0x01 MUX = gates-1 in
#   9 bits, 0x11 data entry ID/AM, 0x44/0x45 RAM windows with X in bytes
#   0..49 and Y in gates 0..299, 0x4E/0x4F counters, 0x21 A[7:4] RED RAM
#   option (0 normal, 4 bypass as 0, 8 inverse) and A[3:0] BW RAM option,
#   0x22 sequence bits, 0x10 deep sleep, BUSY high while busy).
# - Good Display's GDEY042T81 demo as carried in GxEPD2
#   (src/gdey/GxEPD2_420_GDEY042T81.*): MUX 0x12B, 0x18 0x80, data entry
#   0x03, a full update with 0x21 [0x40, 0x00] (RED bypassed: mode 1 drives
#   from BW RAM alone), a differential one with 0x21 [0x00, 0x00] and both
#   RAMs set equal after it; measured there: partial 358 ms, fast full
#   1,140 ms (a shorter full waveform than this driver's). The OTP full
#   waveform (0x22 0xF7) was not found timed for this panel in what was
#   read: full refreshes of such modules take 2-4 s, and the emulation
#   uses 3.0 s (and 0.4 s partial). To be measured on a real panel.
#
# Command sequence. A command byte with DC low, its data with DC high, CS
# low around the whole command:
#   wake:    RST low 10 ms, high 10 ms, wait BUSY low
#            0x12 SW reset, wait BUSY low
#            0x01 driver output control [MUX-1 lo, hi, 0x00]  (300 gates, G0 first)
#            0x11 data entry mode [0x03] rotation 0: AM=0 (X first), X+, Y+
#                                 [0x00] rotation 180: AM=0, X-, Y-
#            0x44 RAM X window (bytes)   [0, 49] for 0x03, [49, 0] for 0x00
#            0x45 RAM Y window (gates)   [0, 0, 299 lo, hi] / [299 lo, hi, 0, 0]
#            0x3C border waveform [0x05] (follow LUT, white)
#            0x21 display update ctrl 1 [0x40, 0x00]
#            0x18 temperature sensor [0x80] (internal)
#            0x4E/0x4F RAM counters to the window start; wait BUSY low
#   full:    0x21 [0x40, 0x00], 0x3C [0x05], counters, 0x24 image,
#            counters, 0x26 image (the base of the next partial),
#            0x22 [0xF7], 0x20
#   partial: 0x21 [0x00, 0x00] (RED RAM used: differential against it),
#            0x3C [0x80] (border floats: no flash), counters, 0x24 image,
#            0x22 [0xFF] (display mode 2), 0x20; once BUSY is low,
#            counters, 0x26 the new image
#   sleep:   0x10 [0x01] (deep sleep mode 1, RAMs kept); BUSY stays high
#            and only a HW reset wakes the controller, so the next show()
#            runs the whole wake sequence
# Both updates end with the analog and clock disabled (0x22 bits 0x03).
#
# Orientation. The 4.2" panel is landscape by nature: 400 sources (RAM X,
# 50 bytes, bit 7 = the byte's lowest source) by 300 gates (RAM Y), so
# rotation 0 is the panel as made and 180 the panel mounted upside down
# (not 90/270 as the 2.9" panels, which are portrait by nature). The app
# draws in the same MONO_VLSB frame buffer as on every panel (byte
# k*width + x holds column x, rows 8k..8k+7, bit 0 at the top; text.py
# writes glyph bytes straight into it), whereas a RAM byte is 8 pixels of
# one row: each band of 8 rows is transposed (8x8 bit blocks) into 8 RAM
# rows on its way out, in viper where the port has it. Rotation 180 streams
# the same bands with X and Y counting down and each RAM byte's bit order
# reversed (the transposition takes it for free). RAM 1 is white and
# framebuf 1 is black ink: inverted in the same pass.
#
# Scale (board.json's panel "scale", 1 or 2). At scale 2 the app draws in
# a LOGICAL frame buffer of (width/2) x (height/2) = 200 x 150 with the
# glyphs it draws on every panel, and this driver sends each logical pixel
# as a 2x2 block of the panel's: the band transposer reads 4 logical
# columns for each RAM byte (each bit twice) and writes each of its rows
# twice. So Unifont's 8x16 cells show as 16x32 (capitals 20 px = 4.2 mm)
# and the card ranks 32 px, for a quarter of the frame buffer. What the
# controller's RAM holds (and so the emulations read) is the panel's 400 x
# 300 image either way. .width/.height are the logical size, .scale the
# factor (display.py).
#
# Memory (docs/memory.md): the frame buffer, width x ceil(height/8) bytes
# of the logical size (scale 1: 400 x 38 = 15,200 B, 300 rows are not a
# whole number of 8-row bands; scale 2: 200 x 19 = 3,800 B), allocated once
# in __init__, plus one band of RAM rows of scratch (8 rows, 400 B; 16 at
# scale 2, 800 B). As in ssd1680.py, the image on the panel is kept in the
# controller's RAM 0x26 (written again after each partial update), so the
# MCU keeps no second copy; the one rule for the caller: do not draw into
# fb while busy() is True. A show() that finds the panel busy refreshes in
# full.

import sys

import framebuf

from display import EPDTimeout  # the one timeout of every driver (display.py)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from time import sleep_ms, ticks_diff, ticks_ms
except ImportError:  # CPython (docs tooling): same names, same meaning
    import time as _time

    def sleep_ms(ms):
        _time.sleep(ms / 1000)

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

_DRIVER_OUTPUT = const(0x01)
_DEEP_SLEEP = const(0x10)
_DATA_ENTRY = const(0x11)
_SW_RESET = const(0x12)
_TEMP_SENSOR = const(0x18)
_MASTER_ACTIVATION = const(0x20)
_UPDATE_CONTROL_1 = const(0x21)
_UPDATE_CONTROL_2 = const(0x22)
_WRITE_BW = const(0x24)
_WRITE_RED = const(0x26)
_BORDER = const(0x3C)
_RAM_X_WINDOW = const(0x44)
_RAM_Y_WINDOW = const(0x45)
_RAM_X_COUNTER = const(0x4E)
_RAM_Y_COUNTER = const(0x4F)

_SEQ_FULL = const(0xF7)     # clock, analog, temp, LUT, mode 1, display, off
_SEQ_PARTIAL = const(0xFF)  # the same with display mode 2 (differential)
_RED_BYPASS = const(0x40)   # 0x21 A: RED RAM read as 0 (full update)
_RED_NORMAL = const(0x00)   # 0x21 A: RED RAM as written (partial update)
_WAKE_TIMEOUT_MS = const(1000)   # a reset takes ms: else the panel is missing
_BORDER_FULL = const(0x05)
_BORDER_PARTIAL = const(0x80)
MAX_WIDTH = const(400)      # sources
MAX_HEIGHT = const(300)     # gates

# One band: up to 8 VLSB bytes per column in, 8 RAM rows of width/8 bytes
# out, inverted. spec = width | rows << 12 | reverse << 16 (viper takes at
# most four arguments). Compiled through exec() so a port without viper,
# and CPython, fall back to the plain loop (as ssd1680.py does); the
# viper text is natives.SSD1683.


def _band_py(dst, src, off, spec):
    w = spec & 0xFFF
    rows = (spec >> 12) & 0xF
    rev = spec >> 16
    xb = w >> 3
    for j in range(xb):
        s = off + 8 * j
        for i in range(rows):
            v = 0
            for b in range(8):
                if src[s + b] >> i & 1:
                    v |= (1 << b) if rev else (0x80 >> b)
            dst[i * xb + j] = v ^ 0xFF


def _band2_py(dst, src, off, spec):
    # scale 2, as band2: the logical width w makes w/4 RAM bytes a row
    w = spec & 0xFFF
    rows = (spec >> 12) & 0xF
    rev = spec >> 16
    xb = w >> 2
    for j in range(xb):
        s = off + 4 * j
        for i in range(rows):
            v = 0
            for b in range(4):
                if src[s + b] >> i & 1:
                    v |= (3 << 2 * b) if rev else (0xC0 >> 2 * b)
            dst[2 * i * xb + j] = dst[(2 * i + 1) * xb + j] = v ^ 0xFF


_band = _band_py
_band2 = _band2_py
try:
    # the viper text is a module of its own (natives.py), dropped once
    # compiled: kept here, it stayed on the heap with this module's code
    import natives
    _fast = {}  # type: dict
    exec(natives.SSD1683, _fast)
    _band = _fast["band"]
    _band2 = _fast["band2"]
except Exception:  # no native emitter here: keep the plain loops
    pass
natives = _fast = None   # not kept: the module goes with the text
sys.modules.pop("natives", None)


class SSD1683:
    BUSY_ACTIVE = 1     # BUSY is high while the controller works

    def __init__(self, spi, cs, dc, rst, busy, width=400, height=300, rotation=0,
                 busy_timeout_ms=10000, scale=1):
        # width, height: the panel's pixels (board.json); the app draws in
        # width/scale x height/scale
        if rotation not in (0, 180):
            raise ValueError("rotation must be 0 or 180 on an SSD1683 panel, not %r" % (rotation,))
        if width % 8 or not 8 <= width <= MAX_WIDTH or not 8 <= height <= MAX_HEIGHT:
            raise ValueError("panel size %dx%d is not possible on an SSD1683" % (width, height))
        if scale not in (1, 2) or width % scale or height % scale:
            raise ValueError("scale %r is not possible on a %dx%d SSD1683 panel" % (scale, width, height))
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy_pin = busy
        self.scale = scale
        self._pw = width          # the panel's own size
        self._ph = height
        width //= scale           # the logical size the app draws in
        height //= scale
        self.width = width
        self.height = height
        self.rotation = rotation
        self.busy_timeout_ms = busy_timeout_ms
        self.idle = None          # run while an internal wait spins
        self.full_count = 0
        self.partial_count = 0
        self.last_update_ms = 0   # how long the last update kept BUSY high
        self.auto_sleep = False   # deep sleep as soon as an update is seen to end
        self._xb = self._pw // 8  # RAM bytes a row
        # The frame buffer (allocated once) and one band of RAM rows.
        self.buf = bytearray(width * ((height + 7) // 8))
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self._rows = bytearray(8 * scale * self._xb)
        self._base_due = False    # after a partial: 0x26 is to get the image shown
        self._one = bytearray(1)
        self._val = bytearray(1)
        self._four = bytearray(4)
        self._two = memoryview(self._four)[:2]     # views made once: no
        self._three = memoryview(self._four)[:3]   # allocation per update
        self._awake = False       # False: the next show() starts with a HW reset
        self._known = False       # False: panel content unknown, next show is full
        self._started = None      # no update running (ticks_ms() may be 0)
        cs.value(1)
        dc.value(0)
        rst.value(1)

    # -- the bus and BUSY (as in ssd1680.py, written again: a board loads
    # one driver, and a shared base module costs heap on every board) ------
    def _command(self, cmd, data=None):
        self._one[0] = cmd
        self.dc.value(0)
        self.cs.value(0)
        self.spi.write(self._one)
        if data is not None:
            self.dc.value(1)
            self.spi.write(data)
        self.cs.value(1)

    def _command1(self, cmd, value):
        self._val[0] = value
        self._command(cmd, self._val)

    def _command2(self, cmd, a, b):
        f = self._four
        f[0] = a
        f[1] = b
        self._command(cmd, self._two)

    def _set_counters(self):
        # Back to the start of the window before each RAM write.
        if self.rotation == 0:
            self._command1(_RAM_X_COUNTER, 0)
            y = 0
        else:
            self._command1(_RAM_X_COUNTER, self._xb - 1)
            y = self._ph - 1
        self._command2(_RAM_Y_COUNTER, y & 0xFF, y >> 8)

    def _write_ram(self, cmd):
        # One RAM write (CS low throughout), band by band: each band of the
        # frame buffer transposed into up to 8 RAM rows of the scratch (16
        # at scale 2: each logical row twice, each pixel two sources wide).
        self._set_counters()
        self._one[0] = cmd
        self.dc.value(0)
        self.cs.value(0)
        self.spi.write(self._one)
        self.dc.value(1)
        w = self.width
        sc = self.scale
        band = _band2 if sc == 2 else _band
        per = sc * self._xb       # RAM bytes a logical row makes
        rows = self._rows
        rev = 1 if self.rotation == 180 else 0
        buf = self.buf
        mv = memoryview(rows)
        left = self.height
        off = 0
        while left > 0:
            n = 8 if left > 8 else left
            band(rows, buf, off, w | n << 12 | rev << 16)
            self.spi.write(rows if n == 8 else mv[:n * per])
            off += w
            left -= 8
        self.cs.value(1)

    def _wake(self):
        self.rst.value(0)
        sleep_ms(10)
        self.rst.value(1)
        sleep_ms(10)
        wake_ms = min(_WAKE_TIMEOUT_MS, self.busy_timeout_ms)
        self._wait_busy(self.idle, wake_ms)
        self._command(_SW_RESET)
        sleep_ms(2)
        self._wait_busy(self.idle, wake_ms)
        gates = self._ph - 1
        f = self._four
        f[0] = gates & 0xFF
        f[1] = gates >> 8
        f[2] = 0x00  # GD=0, SM=0, TB=0: gates scanned G0 first
        self._command(_DRIVER_OUTPUT, self._three)
        last_x = self._xb - 1
        if self.rotation == 0:
            self._command1(_DATA_ENTRY, 0x03)
            self._command2(_RAM_X_WINDOW, 0, last_x)
            f[0] = 0
            f[1] = 0
            f[2] = gates & 0xFF
            f[3] = gates >> 8
        else:
            self._command1(_DATA_ENTRY, 0x00)
            self._command2(_RAM_X_WINDOW, last_x, 0)
            f[0] = gates & 0xFF
            f[1] = gates >> 8
            f[2] = 0
            f[3] = 0
        self._command(_RAM_Y_WINDOW, f)
        self._command1(_BORDER, _BORDER_FULL)
        self._command2(_UPDATE_CONTROL_1, _RED_BYPASS, 0x00)
        self._command1(_TEMP_SENSOR, 0x80)
        self._set_counters()
        self._wait_busy(self.idle, wake_ms)
        self._awake = True

    def _wait_ready(self):
        self._wait_busy(self.idle, self.busy_timeout_ms)

    # -- public API (display.py) ----------------------------------------------
    def show(self, full=False):
        """Start updating the panel from fb and return; busy() until done.

        full=False refreshes only the pixels that changed; the first update
        after power-up, a reset or an error is always full.
        """
        try:
            still = self.busy()
        except EPDTimeout:
            still = False   # hung: busy() forgot the controller, reset below
        if still:
            self._known = False   # fb was drawn into during the update
            self._wait_ready()
        if not self._awake:
            self._wake()
        if not self._known:
            full = True
        if full:
            self._command2(_UPDATE_CONTROL_1, _RED_BYPASS, 0x00)
            self._command1(_BORDER, _BORDER_FULL)
            self._write_ram(_WRITE_BW)
            self._write_ram(_WRITE_RED)   # the base of the next partial
            self._command1(_UPDATE_CONTROL_2, _SEQ_FULL)
            self.full_count += 1
        else:
            self._command2(_UPDATE_CONTROL_1, _RED_NORMAL, 0x00)
            self._command1(_BORDER, _BORDER_PARTIAL)
            self._write_ram(_WRITE_BW)
            self._command1(_UPDATE_CONTROL_2, _SEQ_PARTIAL)
            self.partial_count += 1
        self._command(_MASTER_ACTIVATION)
        self._started = ticks_ms()
        self._base_due = not full
        self._known = True

    def busy(self):
        """True while the panel is updating (never while in deep sleep).
        Raises EPDTimeout once an update has kept BUSY high for longer than
        busy_timeout_ms; the next show() then resets the controller."""
        if not self._awake:
            return False   # deep sleep holds BUSY high: not "updating"
        if self.busy_pin.value() == 1:
            if self._started is not None and ticks_diff(ticks_ms(), self._started) > self.busy_timeout_ms:
                self._timed_out(self.busy_timeout_ms)
            return True
        if self._started is not None:
            self._finished()
        return False

    def _finished(self):
        # First sight of BUSY low after an update: after a partial one the
        # image now on the panel (still in fb: nothing draws while busy)
        # becomes the base in 0x26.
        self.last_update_ms = ticks_diff(ticks_ms(), self._started)
        self._started = None
        if self._base_due and self._known:
            self._write_ram(_WRITE_RED)
        if self.auto_sleep:
            self._command1(_DEEP_SLEEP, 0x01)
            self._awake = False

    def wait(self, idle=None):
        """Block until BUSY is low, calling idle() meanwhile; raises
        EPDTimeout after busy_timeout_ms (the next show() resets)."""
        if self._awake:
            self._wait_busy(idle, self.busy_timeout_ms)

    def _wait_busy(self, idle, timeout_ms):
        start = ticks_ms()
        while self.busy_pin.value() == 1:
            if ticks_diff(ticks_ms(), start) > timeout_ms:
                self._timed_out(timeout_ms)
            if idle is not None:
                idle()
            sleep_ms(1)
        if self._started is not None:
            self._finished()

    def _timed_out(self, ms):
        # Hung or gone: forget what it shows; the next show() resets it.
        self._awake = False
        self._known = False
        self._started = None
        raise EPDTimeout("e-paper panel busy for more than %d ms" % ms)

    def sleep(self):
        """Finish the running update, then put the controller in deep sleep."""
        if not self._awake:
            return
        self._wait_ready()
        if self._awake:  # auto_sleep may have done it when the update ended
            self._command1(_DEEP_SLEEP, 0x01)
            self._awake = False


Display = SSD1683   # the name hal.py builds every driver by (display.py)
