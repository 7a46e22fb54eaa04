# SSD1680 e-paper driver (2.9" 296x128 black/white panels) on framebuf.
#
# Written for the Waveshare 2.9" e-Paper Module V2 (interface switch, if
# any, on 4-line SPI) and the WeAct Studio 2.9" B/W module, both SSD1680
# with 296x128 panels. Both refreshes use the panel's OTP waveforms (0x22
# loads the LUT; no 0x32 upload). Checked here against the datasheet
# command set and the virtual board's emulation, not yet on a real panel:
# if partial refreshes on a Waveshare V2 flash like full ones, its OTP
# mode-2 waveform is the suspect (some drivers upload their own partial LUT
# for that module and update with 0x22 0xCC).
#
# The driver takes already-made Pin/SPI objects (hal.py makes them) and only
# calls spi.write(), pin.value() and pin.value(x), so the virtual board's
# pins and SPI work the same way.
#
# Command sequence (SSD1680 datasheet rev 1.0, section 7 command table).
# Every command is sent with DC low, its data bytes with DC high, CS low
# around the whole command:
#   wake:    RST low 10 ms, high 10 ms, wait BUSY low
#            0x12 SW reset, wait BUSY low
#            0x01 driver output control  [MUX-1 lo, MUX-1 hi, 0x00]   (MUX = width, 296 gates)
#            0x11 data entry mode        [0x06] rotation 90: AM=1 (Y first), Y+, X-
#                                        [0x05] rotation 270: AM=1, Y-, X+
#            0x44 RAM X window (bytes)   [15, 0] for 0x06, [0, 15] for 0x05
#            0x45 RAM Y window (gates)   [0, 0, 295 lo, hi] for 0x06, [295 lo, hi, 0, 0] for 0x05
#            0x3C border waveform        [0x05]  (follow LUT, white)
#            0x21 display update ctrl 1  [0x00, 0x80] (RAM as is, sources S8..S167)
#            0x18 temperature sensor     [0x80]  (internal)
#            0x4E/0x4F RAM counters      to the window start
#            wait BUSY low
#   full:    0x3C [0x05], counters, 0x24 image, counters, 0x26 image (the base
#            the next partial refresh compares against), 0x22 [0xF7], 0x20
#   partial: 0x3C [0x80] (border floats: no border flash), counters, 0x24 new
#            image, 0x22 [0xFF] (display mode 2 = differential: against 0x26,
#            which holds the image on the panel), 0x20; once BUSY is low,
#            counters, 0x26 the new image (the base of the next partial)
#   sleep:   0x10 [0x01] (deep sleep mode 1, which keeps both RAMs). BUSY
#            stays high in deep sleep and only a HW reset wakes the
#            controller, so the next show() runs the whole wake sequence;
#            neither a HW nor a SW reset touches the RAMs (datasheet), so a
#            partial refresh still has its base in 0x26 after a sleep.
# Both updates end with the analog and clock disabled (bits 0x03 of 0x22),
# so a board that stops mid-game does not leave the panel driven.
#
# Orientation. The panel is 128 sources (RAM X, 16 bytes, bit 7 = lowest
# source of the byte) by 296 gates (RAM Y). The logical frame buffer is
# landscape width x height, MONO_VLSB: byte k*width + x holds column x,
# rows 8k..8k+7, bit 0 at the top. With rotation 90 a logical pixel (x, y)
# lies on gate x and source height-1-y, so byte k*width + x is exactly RAM
# byte (X = bytes-1-k, Y = x) with the same bit order: streaming the buffer
# with Y counting first and X counting down (mode 0x06) needs no rotation in
# Python. Rotation 270 (pixel on gate width-1-x, source y) streams in the
# same order with mode 0x05 but each byte's bits reversed (a table pass).
# RAM bit 1 is white; framebuf colour 1 is black ink, so the image is
# inverted on the way (XOR 0xFF, in viper where available).
#
# Memory (docs/memory.md): one 4736-byte buffer per panel, allocated once
# in __init__: the frame buffer the app draws in. The image on the panel is
# kept where a partial refresh needs it, in the controller's RAM 0x26: after
# each partial update the new image is written there too (as GxEPD2 and
# other single-buffer drivers do), so the MCU needs no copy of it. Hence the
# one rule for the caller: do not draw into fb while busy() is True (the
# frame buffer is still the image being shown). A show() that finds the
# panel busy cannot know what the panel ends up showing, so it refreshes in
# full. show() turns the frame buffer into RAM polarity in place, sends it
# and turns it back; the pass is its own inverse (XOR 0xFF; bit reversal +
# XOR for rotation 270), so no scratch buffer is needed.

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
# BUSY after a HW or SW reset lasts milliseconds; a panel still busy after
# this long is missing or dead, and show() should say so soon.
_WAKE_TIMEOUT_MS = const(1000)
_BORDER_FULL = const(0x05)
_BORDER_PARTIAL = const(0x80)


# The per-update pass over the image (4736 bytes) in viper where the port
# has a native emitter (rp2 on RP2040 and RP2350, the unix port): ~7 us on
# a PC against ~450 us in bytecode (or a framebuf palette blit, which goes
# pixel by pixel). Compiled through exec() so a port without viper, and
# CPython, fall back to plain loops instead of failing to import, and so
# mypy does not trip over the viper-only ptr8 annotations; the viper text
# is natives.SSD1680.


def _invert_py(dst, src, n):
    for i in range(n):
        dst[i] = src[i] ^ 0xFF


def _translate_py(dst, src, table, n):
    for i in range(n):
        dst[i] = table[src[i]]


_invert = _invert_py
_translate = _translate_py
try:
    # the viper text is a module of its own (natives.py), dropped once
    # compiled: kept here, it stayed on the heap with this module's code
    import natives
    _fast = {}  # type: dict
    exec(natives.SSD1680, _fast)
    _invert = _fast["invert"]
    _translate = _fast["translate"]
except Exception:  # no native emitter here: keep the plain loops
    pass
natives = _fast = None   # not kept: the module goes with the text
sys.modules.pop("natives", None)


def _reversed_inverted():
    # Table for rotation 270: bit order reversed and ink inverted in one go.
    t = bytearray(256)
    for b in range(256):
        r = 0
        for i in range(8):
            if b & (1 << i):
                r |= 0x80 >> i
        t[b] = r ^ 0xFF
    return t


class SSD1680:
    BUSY_ACTIVE = 1     # BUSY is high while the controller works

    def __init__(self, spi, cs, dc, rst, busy, width=296, height=128, rotation=90,
                 busy_timeout_ms=10000, scale=1):
        if rotation not in (90, 270):
            raise ValueError("rotation must be 90 or 270, not %r" % (rotation,))
        if scale != 1:   # display.py: the 2.9" panels draw at their own size
            raise ValueError("scale %r: the %s driver draws at scale 1" % (scale, "SSD1680"))
        if height % 8 or not 8 <= height <= 176 or not 8 <= width <= 296:
            raise ValueError("panel size %dx%d is not possible on an SSD1680" % (width, height))
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy_pin = busy
        self.scale = 1
        self.width = width
        self.height = height
        self.rotation = rotation
        self.busy_timeout_ms = busy_timeout_ms
        # Called while an internal wait (wake-up, a show() that finds the panel
        # still busy) spins, so the app can keep polling buttons there too.
        self.idle = None
        self.full_count = 0
        self.partial_count = 0
        self.last_update_ms = 0   # how long the last update kept BUSY high
        # Deep sleep (0x10 01) as soon as an update is seen to end, in busy()
        # or wait(); the next show() wakes the controller (HW reset, init,
        # both RAMs rewritten), which costs ~25 ms per update. Off by
        # default; the app may call sleep() itself when idle instead.
        self.auto_sleep = False
        n = width * height // 8
        self._xbytes = height // 8
        # One buffer, allocated once (see Memory above): what the app draws.
        self.buf = bytearray(n)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self._base_due = False   # after a partial: 0x26 is to get the image shown
        self._table = _reversed_inverted() if rotation == 270 else None
        self._one = bytearray(1)   # command byte
        self._val = bytearray(1)   # one-byte parameter
        self._four = bytearray(4)
        self._two = memoryview(self._four)[:2]     # views made once: no
        self._three = memoryview(self._four)[:3]   # allocation per update
        self._awake = False      # False: the next show() starts with a HW reset
        self._known = False      # False: panel content unknown, next show is full
        self._started = None   # no update running (ticks_ms() may be 0)
        cs.value(1)
        dc.value(0)
        rst.value(1)

    # -- low level ------------------------------------------------------
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

    def _set_counters(self):
        # Address counters back to the start of the window before each RAM
        # write (they are left at its end by the previous write).
        gates = self.width - 1
        if self.rotation == 90:
            self._command1(_RAM_X_COUNTER, self._xbytes - 1)
            y = 0
        else:
            self._command1(_RAM_X_COUNTER, 0)
            y = gates
        f = self._four
        f[0] = y & 0xFF
        f[1] = y >> 8
        self._command(_RAM_Y_COUNTER, self._two)

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
        gates = self.width - 1
        f = self._four
        f[0] = gates & 0xFF
        f[1] = gates >> 8
        f[2] = 0x00  # GD=0, SM=0, TB=0: gates scanned G0 first
        self._command(_DRIVER_OUTPUT, self._three)
        last_x = self._xbytes - 1
        if self.rotation == 90:
            self._command1(_DATA_ENTRY, 0x06)
            f[0] = last_x
            f[1] = 0
            self._command(_RAM_X_WINDOW, self._two)
            f[0] = 0
            f[1] = 0
            f[2] = gates & 0xFF
            f[3] = gates >> 8
        else:
            self._command1(_DATA_ENTRY, 0x05)
            f[0] = 0
            f[1] = last_x
            self._command(_RAM_X_WINDOW, self._two)
            f[0] = gates & 0xFF
            f[1] = gates >> 8
            f[2] = 0
            f[3] = 0
        self._command(_RAM_Y_WINDOW, f)
        self._command1(_BORDER, _BORDER_FULL)
        f[0] = 0x00
        f[1] = 0x80
        self._command(_UPDATE_CONTROL_1, self._two)
        self._command1(_TEMP_SENSOR, 0x80)
        self._set_counters()
        self._wait_busy(self.idle, wake_ms)
        self._awake = True

    def _wait_ready(self):
        self._wait_busy(self.idle, self.busy_timeout_ms)

    def _flip(self):
        # Frame buffer <-> RAM image, in place: inverted (RAM 1 = white), and
        # bit-reversed for rotation 270. Its own inverse, so a second call
        # gives the app its drawing back.
        b = self.buf
        if self._table is None:
            _invert(b, b, len(b))
        else:
            _translate(b, b, self._table, len(b))

    # -- public API (docs/architecture.md "Drivers") ----------------------
    def show(self, full=False):
        """Start updating the panel from fb and return; busy() until done.

        full=False refreshes only the pixels that changed (fast, may leave
        faint ghosting); the first update after power-up, a reset or an
        error is always full because the panel's content is unknown.
        """
        try:
            still = self.busy()
        except EPDTimeout:
            still = False   # hung: busy() forgot the controller, reset below
        if still:
            # the frame buffer was drawn into during the update: what the
            # panel ends up showing is no longer here for 0x26
            self._known = False
            self._wait_ready()
        if not self._awake:
            self._wake()
        if not self._known:
            full = True
        img = self.buf
        self._flip()   # img is now the RAM image; flipped back below
        try:
            self._command1(_BORDER, _BORDER_FULL if full else _BORDER_PARTIAL)
            self._set_counters()
            self._command(_WRITE_BW, img)
            if full:
                # the base the next partial refresh compares against
                self._set_counters()
                self._command(_WRITE_RED, img)
                self._command1(_UPDATE_CONTROL_2, _SEQ_FULL)
                self.full_count += 1
            else:
                # 0x26 holds the image on the panel; it gets this one when
                # the update has ended (_finished)
                self._command1(_UPDATE_CONTROL_2, _SEQ_PARTIAL)
                self.partial_count += 1
            self._command(_MASTER_ACTIVATION)
            self._started = ticks_ms()
            self._base_due = not full   # 0x26 gets this image when it is shown
            self._known = True
        finally:
            self._flip()

    def busy(self):
        """True while the panel is updating (never while in deep sleep).
        Raises EPDTimeout once an update has kept BUSY high for longer than
        busy_timeout_ms; the next show() then resets the controller."""
        # In deep sleep the SSD1680 holds BUSY high; that is not "updating".
        if not self._awake:
            return False
        if self.busy_pin.value() == 1:
            if self._started is not None and ticks_diff(ticks_ms(), self._started) > self.busy_timeout_ms:
                self._timed_out(self.busy_timeout_ms)
            return True
        if self._started is not None:
            self._finished()
        return False

    def _finished(self):
        # First sight of BUSY low after an update: after a partial one, the
        # image now on the panel (still in the frame buffer: nothing draws
        # while busy) becomes the base in 0x26 for the next one.
        self.last_update_ms = ticks_diff(ticks_ms(), self._started)
        self._started = None
        if self._base_due and self._known:   # not after a timeout or a redraw
            self._flip()
            try:
                self._set_counters()
                self._command(_WRITE_RED, self.buf)
            finally:
                self._flip()
        if self.auto_sleep:
            self._command1(_DEEP_SLEEP, 0x01)
            self._awake = False

    def wait(self, idle=None):
        """Block until BUSY is low, calling idle() meanwhile.

        Raises EPDTimeout after busy_timeout_ms; the panel is then re-reset
        and fully redrawn by the next show().
        """
        if self._awake:  # asleep or never woken: nothing is running
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
        # The controller is hung (or gone): forget what it shows, so the
        # next show() resets it and refreshes in full.
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


Display = SSD1680   # the name hal.py builds every driver by (display.py)
