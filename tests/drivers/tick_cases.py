# Both panel drivers time a refresh from the ticks_ms() it started at. A
# refresh started when ticks_ms() is exactly 0 (it wraps, and a board can
# boot there) must time out like any other: the drivers once tested the
# start time for truth and so waited for ever on a stuck panel (issue 29,
# item 7). Run under MicroPython by test_micropython.py; by hand:
#   .venv/bin/micropython tests/drivers/mp_runner.py tick_cases
import fakes
import ssd1680
import uc8151
from display import EPDTimeout


def _times_out(d, mod, clock, busy_pin, stuck):
    real = mod.ticks_ms
    mod.ticks_ms = clock
    try:
        clock.t = 0
        d.show(full=True)
        busy_pin.set(stuck)       # BUSY stays asserted: the panel never ends
        assert d.busy()
        clock.advance(d.busy_timeout_ms + 1)
        try:
            d.busy()
        except EPDTimeout:
            return True
        return False
    finally:
        mod.ticks_ms = real


class _Wire:
    """An SPI bus that takes every byte (the byte stream is ssd1680_cases'
    business; here only BUSY and the clock matter)."""

    def write(self, data):
        pass


def _panel(driver, ready_level):
    busy = fakes.Pin(ready_level)       # the test sets BUSY
    d = driver(_Wire(), fakes.Pin(1), fakes.Pin(0), fakes.Pin(1), busy, busy_timeout_ms=500)
    return d, busy


def test_ssd1680_times_out_a_refresh_started_at_tick_zero():
    d, busy = _panel(ssd1680.SSD1680, 0)       # SSD1680: BUSY high = busy
    assert _times_out(d, ssd1680, fakes.Clock(0), busy, 1), "no EPDTimeout after 501 ms"


def test_uc8151_times_out_a_refresh_started_at_tick_zero():
    d, busy = _panel(uc8151.UC8151, 1)         # UC8151: BUSY_N low = busy
    assert _times_out(d, uc8151, fakes.Clock(0), busy, 0), "no EPDTimeout after 501 ms"
