# hal.Hardware built from the committed board-2in9.json (the 2.9" table:
# SSD1680 panels, 296x128 frame buffers), under MicroPython, on a
# recording stand-in for vmachine (tests/drivers/vm). Checks that every pin
# gets the mode board.json implies and that the parts are wired to the
# right GPIOs. Run by test_micropython.py.
import sys

import fakes

sys.path.insert(0, fakes.repo_root() + "/tests/drivers/vm")

import boarddef  # noqa: E402
import vmachine  # noqa: E402

BOARD = boarddef.load(fakes.repo_root() + "/hardware/board-2in9.json")


def build():
    vmachine.PINS.clear()
    del vmachine.BUSES[:]
    import hal
    for p in BOARD["players"]:
        vmachine.CS.add(p["panel"]["cs"])
    return hal.Hardware(BOARD)


def test_spi_bus_uses_the_board_pins_and_rate():
    build()
    spi = vmachine.BUSES[-1]
    s = BOARD["spi"]
    assert spi.id == s["id"] and spi.baudrate == s["baudrate"]
    assert (spi.polarity, spi.phase) == (0, 0)
    assert tuple(p.id for p in spi.pins) == (s["sck"], s["mosi"], s["miso"])


def test_buttons_are_pulled_up_inputs_and_low_means_pressed():
    hw = build()
    for player in range(2):
        for name, gpio in BOARD["players"][player]["buttons"].items():
            pin = vmachine.PINS[gpio]
            assert (pin.mode, pin.pull) == (vmachine.Pin.IN, vmachine.Pin.PULL_UP), name
    gpio = BOARD["players"][1]["buttons"]["draw"]
    vmachine.PINS[gpio].value(0)
    hw.buttons.poll()
    vmachine.PINS[gpio].value(1)
    import time
    time.sleep_ms(BOARD["timing"]["debounce_ms"] + 5)
    hw.buttons.poll()
    assert hw.buttons.get() == (1, "draw", "short")
    assert hw.buttons.get() is None


def test_panels_and_leds_on_their_pins():
    hw = build()
    assert len(hw.displays) == 2 and len(hw.leds) == 2
    for player in range(2):
        panel = BOARD["players"][player]["panel"]
        d = hw.displays[player]
        assert (d.width, d.height, d.rotation) == (panel["width"], panel["height"], panel["rotation"])
        assert d.busy_timeout_ms == BOARD["timing"]["busy_timeout_ms"]
        assert vmachine.PINS[panel["cs"]].mode == vmachine.Pin.OUT
        assert vmachine.PINS[panel["cs"]].value() == 1   # deselected at rest
        assert vmachine.PINS[panel["busy"]].mode == vmachine.Pin.IN
        led = vmachine.PINS[BOARD["players"][player]["led"]]
        assert led.mode == vmachine.Pin.OUT and led.value() == 0
        assert hw.leds[player] is led


def test_show_talks_to_the_right_panel():
    hw = build()
    spi = vmachine.BUSES[-1]
    for player in range(2):
        vmachine.PINS[BOARD["players"][player]["panel"]["busy"]].value(0)
    hw.displays[1].show(full=True)
    cs1 = BOARD["players"][1]["panel"]["cs"]
    assert spi.writes and all(sel == (cs1,) for sel, _ in spi.writes)
    assert (0x20,) in [tuple(data) for _, data in spi.writes]


def test_entropy_is_a_small_int_that_varies():
    hw = build()
    seen = set()
    for _ in range(8):
        n = hw.entropy()
        assert isinstance(n, int) and 0 <= n < (1 << 30)
        seen.add(n)
    assert len(seen) > 1


def test_random_bytes_are_fresh_deal_keys():
    """A hand's deal key (issue 40): 16 bytes, never the same twice, and a
    table's menu deals from them."""
    hw = build()
    keys = {hw.random_bytes(16) for _ in range(16)}
    assert len(keys) == 16 and all(type(k) is bytes and len(k) == 16 for k in keys)
    assert getattr(hw, "seed", None) is None    # newgame.game_args: a table's games are fresh


def test_reset_goes_to_the_board():
    hw = build()
    n = len(vmachine.RESETS)
    hw.reset()
    assert len(vmachine.RESETS) == n + 1


def test_both_panels_and_the_buttons_cost_two_frame_buffers_and_a_little():
    # docs/memory.md: the heap budget. One buffer per panel (what the app
    # draws; the image on the panel stays in the controller's RAM), plus the
    # pin, SPI and driver objects (here the recording stand-ins for
    # vmachine's); a second buffer per panel (+9.5 KB) or per-button objects
    # would show here.
    import gc
    import hal  # noqa: F401  (its code is not what is measured, nor the
    import ssd1680  # noqa: F401  driver's, which hal imports when it builds)
    gc.collect()
    before = gc.mem_alloc()
    hw = build()
    gc.collect()
    cost = gc.mem_alloc() - before
    frame = 296 * 128 // 8
    assert 2 * frame <= cost < 2 * frame + 8192, cost
    assert len(hw.displays) == 2
