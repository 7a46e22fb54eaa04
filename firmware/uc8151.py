# UC8151 (IL0373) e-paper driver: 2.9" 296x128 black/white panels with the
# controller's own waveforms (e.g. GoodDisplay GDEW029T5, Waveshare's 2.9"
# e-Paper (D), the panel of Pimoroni's Badger 2040). The table's second
# display controller (display.py): board.json's "controller": "UC8151".
#
# Full refreshes only: the waveforms in the controller's OTP drive every
# pixel through a full flash; a partial refresh on this controller needs a
# waveform table of our own for the exact panel, which is not guessed here.
# show(full=False) is therefore a full refresh (counted in full_count).
# Checked against the IL0373/UC8151 command table and the virtual board's
# emulation (host/vboard/uc8151.py), not yet on a real panel.
#
# Command sequence (IL0373 datasheet, command table). A command byte with
# DC low, its data bytes with DC high, CS low around the whole command.
# BUSY_N is LOW while the controller works (the SSD1680's BUSY is high).
#   wake:  RST low 10 ms, high 10 ms, wait BUSY_N high
#          0x00 PSR  [0x9F] resolution 128x296, LUT from OTP, black/white,
#                    gate scan up (G0 first), source shift right (S0 first),
#                    booster on, no soft reset ([0x93]: both scans reversed,
#                    for rotation 270: the panel turned half a turn)
#          0x61 TRES [128, 296 >> 8, 296 & 0xFF] sources, gates
#          0x50 CDI  [0x97] border white, data polarity DDX=1: 1 = white
#          0x06 BTST [0x17, 0x17, 0x17] booster soft start
#   show:  0x04 PON, wait BUSY_N high; 0x13 DTM2 + the image (gate rows of
#          16 bytes, bit 7 = the row's first source); 0x12 DRF: refresh
#          (BUSY_N low for the 2-4 s of the waveform)
#   end:   when BUSY_N is seen high again, 0x02 POF (the booster off: the
#          panel is not left driven between updates)
#   sleep: 0x02 POF, then 0x07 DSLP [0xA5] (the check code); only a
#          hardware reset wakes it, so the next show() runs the wake
#
# Orientation. The controller's RAM is gate rows of 128 sources. With
# rotation 90 a logical pixel (x, y) lies on gate x and source 127-y, so
# row x, byte j is the frame buffer's byte (15-j)*296 + x with the same bit
# order: each row is gathered from the MONO_VLSB buffer with a stride of 296
# and inverted to RAM polarity on the way (128 bytes of scratch for 8 rows,
# no second frame buffer). Rotation 270 sends the same rows with both scans reversed
# (PSR), so it costs nothing.

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

_PSR = const(0x00)
_POF = const(0x02)
_PON = const(0x04)
_BTST = const(0x06)
_DSLP = const(0x07)
_DTM2 = const(0x13)
_DRF = const(0x12)
_CDI = const(0x50)
_TRES = const(0x61)

_PSR_90 = const(0x9F)     # RES 128x296 | B/W | UD scan up | SHL shift right | booster | no reset
_PSR_270 = const(0x93)    # the same with UD and SHL cleared: both scans reversed
_CDI_WHITE = const(0x97)  # border white, DDX=1 (1 = white), interval 10 hsync
_SLEEP_CHECK = const(0xA5)
_WAKE_TIMEOUT_MS = const(1000)   # a reset or power-on takes ms: else the panel is missing
_ROWS = const(8)          # gate rows per SPI write: 128 bytes of scratch


# The bus and BUSY handling below is the SSD1680 driver's, written again
# rather than shared through a base class: a board loads one driver, and a
# base module cost every board about 1.4 KB of heap (docs/memory.md).
class UC8151:
    BUSY_ACTIVE = 0     # BUSY_N is low while the controller works

    def __init__(self, spi, cs, dc, rst, busy, width=296, height=128, rotation=90,
                 busy_timeout_ms=10000, scale=1):
        if rotation not in (90, 270):
            raise ValueError("rotation must be 90 or 270, not %r" % (rotation,))
        if scale != 1:   # display.py: the 2.9" panels draw at their own size
            raise ValueError("scale %r: the %s driver draws at scale 1" % (scale, "UC8151"))
        if (width, height) != (296, 128):
            raise ValueError("panel size %dx%d: the UC8151 driver drives 296x128 panels"
                             % (width, height))
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
        self.idle = None          # run while an internal wait spins
        self.full_count = 0
        self.partial_count = 0    # stays 0: every update is a full one
        self.last_update_ms = 0
        self.auto_sleep = False   # deep sleep as soon as an update ends
        self._xbytes = height // 8
        self.buf = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        # _ROWS gate rows on their way out (no second frame buffer)
        self._rows = bytearray(_ROWS * self._xbytes)
        self._one = bytearray(1)
        self._val = bytearray(1)
        self._three = bytearray(3)
        self._awake = False       # False: the next show() starts with a HW reset
        self._started = None   # no update running (ticks_ms() may be 0)
        cs.value(1)
        dc.value(0)
        rst.value(1)

    # -- the bus and BUSY (as in ssd1680.py) --------------------------------
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

    def _wait_busy(self, idle, timeout_ms):
        start = ticks_ms()
        while self.busy_pin.value() == 0:
            if ticks_diff(ticks_ms(), start) > timeout_ms:
                self._timed_out(timeout_ms)
            if idle is not None:
                idle()
            sleep_ms(1)
        if self._started is not None:
            self._finished()

    def _timed_out(self, ms):
        # Hung or missing: the next show() resets the controller.
        self._awake = False
        self._started = None
        raise EPDTimeout("e-paper panel busy for more than %d ms" % ms)

    # -- the UC8151's own commands ------------------------------------------
    def _wake(self):
        self.rst.value(0)
        sleep_ms(10)
        self.rst.value(1)
        sleep_ms(10)
        self._wait_busy(self.idle, min(_WAKE_TIMEOUT_MS, self.busy_timeout_ms))
        self._command1(_PSR, _PSR_90 if self.rotation == 90 else _PSR_270)
        t = self._three
        t[0] = self.height          # sources
        t[1] = self.width >> 8      # gates
        t[2] = self.width & 0xFF
        self._command(_TRES, t)
        self._command1(_CDI, _CDI_WHITE)
        t[0] = t[1] = t[2] = 0x17
        self._command(_BTST, t)
        self._awake = True
    def _send_image(self):
        # Gate rows in order, each gathered from the landscape MONO_VLSB
        # buffer (row x, byte j = buf[(15 - j) * 296 + x]) and inverted,
        # _ROWS rows per SPI write.
        self._command(_DTM2)
        self.dc.value(1)
        self.cs.value(0)
        buf = self.buf
        rows = self._rows
        w = self.width
        xb = self._xbytes
        k = 0
        for x in range(w):
            i = (xb - 1) * w + x
            for _ in range(xb):
                rows[k] = buf[i] ^ 0xFF
                k += 1
                i -= w
            if k == len(rows):
                self.spi.write(rows)
                k = 0
        if k:
            self.spi.write(memoryview(rows)[:k])
        self.cs.value(1)

    # -- public API (display.py) ------------------------------------------
    def show(self, full=False):
        """Start a (full) refresh from fb and return; busy() until done."""
        try:
            still = self.busy()
        except EPDTimeout:
            still = False   # hung: busy() forgot the controller, reset below
        if still:
            self._wait_busy(self.idle, self.busy_timeout_ms)
        if not self._awake:
            self._wake()
        self._command(_PON)
        self._wait_busy(self.idle, min(_WAKE_TIMEOUT_MS, self.busy_timeout_ms))
        self._send_image()
        self._command(_DRF)
        self._started = ticks_ms()
        self.full_count += 1

    def busy(self):
        """True while the panel is updating. Raises EPDTimeout once an
        update has kept BUSY_N low for longer than busy_timeout_ms."""
        if not self._awake:
            return False
        if self.busy_pin.value() == 0:
            if self._started is not None and ticks_diff(ticks_ms(), self._started) > self.busy_timeout_ms:
                self._timed_out(self.busy_timeout_ms)
            return True
        if self._started is not None:
            self._finished()
        return False

    def _finished(self):
        # first sight of BUSY_N high after an update
        self.last_update_ms = ticks_diff(ticks_ms(), self._started)
        self._started = None
        self._command(_POF)   # the booster off: the panel is not left driven
        if self.auto_sleep:
            self._command1(_DSLP, _SLEEP_CHECK)
            self._awake = False

    def wait(self, idle=None):
        """Block until BUSY_N is high, calling idle() meanwhile; raises
        EPDTimeout after busy_timeout_ms."""
        if self._awake:
            self._wait_busy(idle, self.busy_timeout_ms)

    def sleep(self):
        """Finish the running update, then put the controller in deep sleep."""
        if not self._awake:
            return
        self.wait()         # ends with POF once an update has run
        if self._awake:
            self._command1(_DSLP, _SLEEP_CHECK)
            self._awake = False


Display = UC8151   # the name hal.py builds every driver by (display.py)
