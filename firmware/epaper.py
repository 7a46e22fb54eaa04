# What every e-paper driver shares (display.py has the contract): the frame
# buffer, commands over SPI with CS and DC, and BUSY: polled by busy(),
# waited for by wait(), one timeout for both. A driver subclasses EPaper and
# writes its controller's commands: _wake() (reset and registers), show(),
# _finished() (what to do once an update is seen to end) and _deep_sleep().

import framebuf

from display import EPDTimeout

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

# BUSY after a hardware or software reset lasts milliseconds; a panel still
# busy after this long is missing or dead, and show() should say so soon.
WAKE_TIMEOUT_MS = 1000


class EPaper:
    BUSY_ACTIVE = 1     # the BUSY pin's level while the controller works

    def __init__(self, spi, cs, dc, rst, busy, width, height, rotation, busy_timeout_ms):
        if rotation not in (90, 270):
            raise ValueError("rotation must be 90 or 270, not %r" % (rotation,))
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy_pin = busy
        self.width = width
        self.height = height
        self.rotation = rotation
        self.busy_timeout_ms = busy_timeout_ms
        # Called while an internal wait (wake-up, a show() that finds the panel
        # still busy) spins, so the app can keep polling buttons there too.
        self.idle = None
        self.full_count = 0
        self.partial_count = 0
        self.last_update_ms = 0   # how long the last update kept BUSY active
        # Deep sleep as soon as an update is seen to end, in busy() or wait();
        # the next show() wakes the controller (HW reset, init). Off by
        # default; the app may call sleep() itself when idle instead.
        self.auto_sleep = False
        self._xbytes = height // 8
        # One buffer, allocated once (docs/memory.md): what the app draws.
        self.buf = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
        self._one = bytearray(1)   # command byte
        self._val = bytearray(1)   # one-byte parameter
        self._awake = False        # False: the next show() starts with a HW reset
        self._started = 0          # ticks_ms of the running update's start, or 0
        cs.value(1)
        dc.value(0)
        rst.value(1)

    # -- the bus ----------------------------------------------------------
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

    def _hw_reset(self):
        self.rst.value(0)
        sleep_ms(10)
        self.rst.value(1)
        sleep_ms(10)
        self._wait_busy(self.idle, min(WAKE_TIMEOUT_MS, self.busy_timeout_ms))

    # -- BUSY -------------------------------------------------------------
    def busy(self):
        """True while the panel is updating (never while in deep sleep).
        Raises EPDTimeout once an update has kept BUSY active for longer
        than busy_timeout_ms; the next show() then resets the controller."""
        if not self._awake:
            return False
        if self.busy_pin.value() == self.BUSY_ACTIVE:
            if self._started and ticks_diff(ticks_ms(), self._started) > self.busy_timeout_ms:
                self._timed_out(self.busy_timeout_ms)
            return True
        if self._started:
            self._end()
        return False

    def wait(self, idle=None):
        """Block until the update ends, calling idle() meanwhile. Raises
        EPDTimeout after busy_timeout_ms; the panel is then reset and fully
        redrawn by the next show()."""
        if self._awake:  # asleep or never woken: nothing is running
            self._wait_busy(idle, self.busy_timeout_ms)

    def _wait_busy(self, idle, timeout_ms):
        start = ticks_ms()
        while self.busy_pin.value() == self.BUSY_ACTIVE:
            if ticks_diff(ticks_ms(), start) > timeout_ms:
                self._timed_out(timeout_ms)
            if idle is not None:
                idle()
            sleep_ms(1)
        if self._started:
            self._end()

    def _timed_out(self, ms):
        # The controller is hung (or gone): the next show() resets it.
        self._awake = False
        self._started = 0
        raise EPDTimeout("e-paper panel busy for more than %d ms" % ms)

    def _end(self):
        # First sight of BUSY inactive after an update.
        self.last_update_ms = ticks_diff(ticks_ms(), self._started)
        self._started = 0
        self._finished()
        if self.auto_sleep:
            self._deep_sleep()
            self._awake = False

    # -- a driver's own steps ----------------------------------------------
    def _finished(self):
        """Once an update is seen to end (before an auto_sleep)."""

    def _deep_sleep(self):
        raise NotImplementedError

    def sleep(self):
        """Finish the running update, then put the controller in deep sleep."""
        if not self._awake:
            return
        self.wait()
        if self._awake:  # auto_sleep may have done it when the update ended
            self._deep_sleep()
            self._awake = False
