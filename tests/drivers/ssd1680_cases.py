# SSD1680 driver byte stream, checked on a recording bus (fakes.Bus), under
# MicroPython only (the driver draws with the real framebuf module).
# Run by test_micropython.py; by hand:
#   .venv/bin/micropython tests/drivers/mp_runner.py ssd1680_cases
import framebuf

import fakes
import ssd1680
from display import EPDTimeout

W = 296
H = 128
N = W * H // 8

INIT_90 = [
    ("reset",),
    (0x12, b""),
    (0x01, bytes([0x27, 0x01, 0x00])),        # 296 gates, G0 first
    (0x11, bytes([0x06])),                    # AM=1 (Y first), Y+, X-
    (0x44, bytes([0x0F, 0x00])),              # X from byte 15 down to 0
    (0x45, bytes([0x00, 0x00, 0x27, 0x01])),  # Y 0..295
    (0x3C, bytes([0x05])),
    (0x21, bytes([0x00, 0x80])),
    (0x18, bytes([0x80])),
    (0x4E, bytes([0x0F])),
    (0x4F, bytes([0x00, 0x00])),
]


def make(rotation=90, busy_reads=3, timeout=10000):
    bus = fakes.Bus(busy_reads)
    cs, dc, rst, busy = bus.panel()
    d = ssd1680.SSD1680(fakes.SPI(bus), cs, dc, rst, busy, rotation=rotation,
                        busy_timeout_ms=timeout)
    return bus, d


def sent(bus, cmd, panel=0):
    """Data of every `cmd` sent to a panel, in order."""
    return [c[1] for c in bus.commands[panel] if c[0] == cmd]


def ram_from_stream(data, mode, xwin, ywin):
    """Place a RAM write per the datasheet's address counter rules.

    Returns {(X, Y): byte}. mode is the 0x11 value, xwin/ywin the windows.
    """
    am = mode & 0x04
    xinc = mode & 0x01
    yinc = mode & 0x02
    x, y = xwin[0], ywin[0]
    ram = {}
    for b in data:
        ram[(x, y)] = b
        if am:
            if y == ywin[1]:
                y = ywin[0]
                x = x + 1 if xinc else x - 1
            else:
                y = y + 1 if yinc else y - 1
        else:
            if x == xwin[1]:
                x = xwin[0]
                y = y + 1 if yinc else y - 1
            else:
                x = x + 1 if xinc else x - 1
    return ram


def black_in_ram(ram, source, gate):
    byte = ram[(source // 8, gate)]
    return not (byte >> (7 - source % 8)) & 1   # RAM bit 0 = black


def test_first_show_resets_and_runs_the_init_sequence():
    bus, d = make()
    assert (d.width, d.height) == (296, 128)
    d.show()
    assert bus.commands[0][:len(INIT_90)] == INIT_90


def test_first_show_is_full_even_if_partial_asked():
    bus, d = make()
    d.show(full=False)
    tail = [c[0] for c in bus.commands[0][len(INIT_90):]]
    assert tail == [0x3C, 0x4E, 0x4F, 0x24, 0x4E, 0x4F, 0x26, 0x22, 0x20]
    assert sent(bus, 0x22) == [bytes([0xF7])]
    assert sent(bus, 0x3C)[-1] == bytes([0x05])
    assert sent(bus, 0x24)[0] == sent(bus, 0x26)[0]
    assert len(sent(bus, 0x24)[0]) == N
    assert d.full_count == 1 and d.partial_count == 0


def test_blank_frame_is_all_white_in_ram():
    bus, d = make()
    d.show(full=True)
    assert sent(bus, 0x24)[0] == b"\xff" * N


def check_pixels(rotation, mode, xwin, ywin, to_panel):
    bus, d = make(rotation)
    points = [(0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1), (100, 37), (7, 64)]
    for x, y in points:
        d.fb.pixel(x, y, 1)
    d.show(full=True)
    assert sent(bus, 0x11) == [bytes([mode])]
    assert sent(bus, 0x44) == [bytes(xwin)]
    ram = ram_from_stream(sent(bus, 0x24)[0], mode, xwin,
                          (ywin[0] | ywin[1] << 8, ywin[2] | ywin[3] << 8))
    assert len(ram) == N   # every RAM byte written exactly once
    black = 0
    for byte in ram.values():
        for bit in range(8):
            if not (byte >> bit) & 1:
                black += 1
    assert black == len(points)
    for x, y in points:
        source, gate = to_panel(x, y)
        assert black_in_ram(ram, source, gate), (x, y)


def test_rotation_90_puts_logical_pixels_on_the_right_gate_and_source():
    # Logical (x, y) -> gate x, source 127 - y (the native portrait image
    # turned 90 degrees clockwise).
    check_pixels(90, 0x06, [0x0F, 0x00], [0, 0, 0x27, 0x01],
                 lambda x, y: (H - 1 - y, x))


def test_rotation_270_is_the_same_panel_turned_half_round():
    check_pixels(270, 0x05, [0x00, 0x0F], [0x27, 0x01, 0, 0],
                 lambda x, y: (y, W - 1 - x))


def test_rotation_270_counters_start_at_the_window_start():
    bus, d = make(270)
    d.show()
    assert sent(bus, 0x4E)[0] == bytes([0x00])
    assert sent(bus, 0x4F)[0] == bytes([0x27, 0x01])
    assert sent(bus, 0x45)[0] == bytes([0x27, 0x01, 0x00, 0x00])


def test_text_drawn_in_fb_reaches_ram_inverted():
    bus, d = make()
    d.fb.fill(0)
    d.fb.text("Ah 7c", 10, 10, 1)
    d.show(full=True)
    data = sent(bus, 0x24)[0]
    for i in range(N):
        assert data[i] == d.buf[i] ^ 0xFF


def test_show_leaves_the_drawing_as_it_was_drawn():
    # The RAM image is made in the frame buffer itself (no third buffer):
    # after show(), full or partial, either rotation, the app's drawing is
    # back exactly as drawn, so it can draw on top of it.
    for rotation in (90, 270):
        bus, d = make(rotation=rotation)
        d.fb.text("Ah 7c", 10, 10, 1)
        d.fb.fill_rect(200, 40, 30, 50, 1)
        drawn = bytes(d.buf)
        d.show(full=True)
        assert bytes(d.buf) == drawn
        d.wait()
        d.fb.text("Kd", 100, 90, 1)
        drawn = bytes(d.buf)
        d.show()
        assert bytes(d.buf) == drawn


def test_an_spi_error_mid_update_gives_the_drawing_back():
    bus, d = make()
    d.fb.text("Qs", 0, 0, 1)
    drawn = bytes(d.buf)
    d.spi.fail = True
    try:
        d.show(full=True)
        raise AssertionError("the SPI error was swallowed")
    except OSError:
        pass
    assert bytes(d.buf) == drawn


def test_a_panel_costs_one_frame_buffer_of_heap():
    # docs/memory.md: the frame buffer, nothing more (the image on the panel
    # lives in the controller's RAM 0x26; objects and small buffers on the
    # 64-bit unix port: about 1 KB).
    import gc
    bus = fakes.Bus()
    pins = bus.panel()
    spi = fakes.SPI(bus)
    gc.collect()
    before = gc.mem_alloc()
    d = ssd1680.SSD1680(spi, *pins)
    gc.collect()
    cost = gc.mem_alloc() - before
    assert N <= cost < N + 2048, cost
    d.fb.pixel(0, 0, 1)


def test_show_returns_while_the_panel_is_busy_and_wait_calls_idle():
    bus, d = make(busy_reads=20)
    d.show()
    assert d.busy()
    calls = []
    d.wait(lambda: calls.append(1))
    assert not d.busy()
    assert len(calls) >= 10


def test_partial_sends_the_new_image_then_makes_it_the_base_when_done():
    bus, d = make(busy_reads=5)
    d.fb.text("A", 0, 0, 1)
    d.show(full=True)
    first = bytes(sent(bus, 0x24)[0])
    assert sent(bus, 0x26) == [first]             # a full refresh sets the base too
    d.wait()
    d.fb.text("B", 100, 60, 1)
    second_fb = bytes(d.buf)
    start = len(bus.commands[0])
    d.show()
    part = bus.commands[0][start:]
    # 0x26 still holds the first image: the differential refresh's base
    assert [c[0] for c in part] == [0x3C, 0x4E, 0x4F, 0x24, 0x22, 0x20]
    assert part[0][1] == bytes([0x80])           # border floats
    assert part[3][1] == bytes([b ^ 0xFF for b in second_fb])
    assert part[4][1] == bytes([0xFF])           # display mode 2
    assert ("reset",) not in part
    assert d.busy()                               # nothing more while BUSY is high
    assert len(bus.commands[0]) == start + len(part)
    while d.busy():                               # the app's way: polling
        pass
    # once the update ends, the image shown becomes the base of the next one
    after = bus.commands[0][start + len(part):]
    assert [c[0] for c in after] == [0x4E, 0x4F, 0x26]
    assert after[2][1] == part[3][1]
    assert bytes(d.buf) == second_fb              # the app's drawing is intact
    d.fb.fill(0)
    start = len(bus.commands[0])
    d.show()
    d.wait()
    assert [c[0] for c in bus.commands[0][start:]] == [0x3C, 0x4E, 0x4F, 0x24, 0x22, 0x20,
                                                       0x4E, 0x4F, 0x26]
    assert d.partial_count == 2 and d.full_count == 1


def test_show_while_busy_waits_first_then_refreshes_in_full():
    bus, d = make(busy_reads=50)
    d.show(full=True)
    d.wait()
    d.show()
    d.fb.text("x", 0, 0, 1)   # drawn during the update: its base is gone
    d.show()  # the fake raises if a command is sent while BUSY is high
    assert sent(bus, 0x20) == [b"", b"", b""]
    assert sent(bus, 0x22) == [bytes([0xF7]), bytes([0xFF]), bytes([0xF7])]
    assert d.full_count == 2 and d.partial_count == 1


def test_sleep_waits_then_deep_sleeps_and_busy_reads_false():
    bus, d = make(busy_reads=10)
    d.show()
    d.sleep()
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))
    assert d.busy_pin.value() == 1   # the controller holds BUSY high...
    assert not d.busy()               # ...which is not an update running
    d.wait()                          # returns at once
    d.sleep()                         # already asleep: nothing sent
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))


def test_show_after_sleep_wakes_with_reset_and_keeps_the_base_in_ram():
    bus, d = make()
    d.fb.text("old", 0, 0, 1)
    d.show(full=True)
    d.fb.text("mid", 0, 40, 1)
    d.show()
    d.wait()
    base = bytes(sent(bus, 0x26)[-1])     # the partial's image, after it ended
    assert base == bytes(sent(bus, 0x24)[-1])
    d.sleep()
    # deep sleep mode 1 keeps both RAMs (mode 2 would not)
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))
    d.fb.text("new", 0, 20, 1)
    start = len(bus.commands[0])
    d.show()
    after = bus.commands[0][start:]
    assert after[:len(INIT_90)] == INIT_90
    rest = after[len(INIT_90):]
    assert [c[0] for c in rest] == [0x3C, 0x4E, 0x4F, 0x24, 0x22, 0x20]
    assert rest[4][1] == bytes([0xFF])  # still a fast partial, against 0x26


def test_busy_stuck_high_raises_epdtimeout_then_recovers_with_a_full_reset():
    bus, d = make(busy_reads=10 ** 9, timeout=40)
    d.show()
    try:
        d.wait()
        raise AssertionError("wait() returned while BUSY stayed high")
    except EPDTimeout as e:
        assert isinstance(e, OSError)
        assert "busy" in str(e)
    bus.busy_reads = 3
    bus.panels[0].busy_left = 0   # the panel came back (e.g. reseated)
    start = len(bus.commands[0])
    d.show(full=False)
    after = bus.commands[0][start:]
    assert after[0] == ("reset",)
    assert (0x22, bytes([0xF7])) in after   # content unknown: full refresh


def test_missing_panel_times_out_at_wake_instead_of_hanging():
    bus, d = make(timeout=30)
    bus.panels[0].busy.stuck = True   # BUSY pulled up, no panel driving it
    try:
        d.show()
        raise AssertionError("show() drew on a missing panel")
    except EPDTimeout:
        pass


def test_idle_hook_runs_during_internal_waits():
    bus, d = make(busy_reads=30)
    calls = []
    d.idle = lambda: calls.append(1)
    d.show()
    n = len(calls)
    d.show()   # waits for the first update inside show()
    assert len(calls) > n


def test_two_panels_on_one_bus_get_their_own_commands():
    bus = fakes.Bus()
    spi = fakes.SPI(bus)
    a = ssd1680.SSD1680(spi, *bus.panel())
    b = ssd1680.SSD1680(spi, *bus.panel())
    a.fb.fill(1)
    a.show(full=True)
    b.show(full=True)
    assert sent(bus, 0x24, 0)[0] == b"\x00" * N
    assert sent(bus, 0x24, 1)[0] == b"\xff" * N
    # The fake refuses any write with both or neither CS low.
    assert len(bus.commands[0]) == len(bus.commands[1])


def test_fb_is_a_framebuffer_in_landscape():
    bus, d = make()
    assert isinstance(d.fb, framebuf.FrameBuffer)
    d.fb.pixel(295, 127, 1)
    assert d.fb.pixel(295, 127) == 1
    assert len(d.buf) == N


def test_bad_geometry_is_refused():
    for kw in ({"rotation": 0}, {"height": 100}, {"width": 400}):
        bus = fakes.Bus()
        try:
            ssd1680.SSD1680(fakes.SPI(bus), *bus.panel(), **kw)
            raise AssertionError("accepted %r" % (kw,))
        except ValueError:
            pass


def test_fast_and_plain_image_passes_agree():
    # The viper pass (where the port has it) and the plain fallback must
    # produce the same RAM image.
    import os
    src = bytearray(os.urandom(N))
    table = ssd1680._reversed_inverted()
    a = bytearray(N)
    b = bytearray(N)
    ssd1680._invert(a, src, N)
    ssd1680._invert_py(b, src, N)
    assert a == b and a[0] == src[0] ^ 0xFF
    ssd1680._translate(a, src, table, N)
    ssd1680._translate_py(b, src, table, N)
    assert a == b
    assert table[0x01] == 0x7F and table[0x80] == 0xFE and table[0x00] == 0xFF


def test_busy_times_out_then_show_resets_at_once():
    # The app polls busy() rather than calling wait(): busy() itself raises
    # EPDTimeout once the update has run past busy_timeout_ms (the one
    # timeout path, display.py), and the next show() does not wait out
    # another timeout on the hung controller: it resets it and redraws in
    # full.
    import time
    bus, d = make(busy_reads=10 ** 9, timeout=40)
    d.show()
    t = time.ticks_ms()
    timed_out = None
    while time.ticks_diff(time.ticks_ms(), t) < 200:
        try:
            assert d.busy()
        except EPDTimeout as e:
            timed_out = time.ticks_diff(time.ticks_ms(), t)
            assert "40 ms" in str(e)
            break
        time.sleep_ms(5)
    assert timed_out is not None and timed_out >= 40
    bus.busy_reads = 3           # the panel behaves again after a reset
    start = len(bus.commands[0])
    d.show()
    after = bus.commands[0][start:]
    assert after[0] == ("reset",)
    assert (0x22, bytes([0xF7])) in after
    d.wait()
    assert not d.busy()


def test_wake_gives_up_quickly_even_with_a_long_busy_timeout():
    import time
    bus, d = make(timeout=60000)
    bus.panels[0].busy.stuck = True
    t = time.ticks_ms()
    try:
        d.show()
        raise AssertionError("show() drew on a missing panel")
    except EPDTimeout as e:
        assert "1000 ms" in str(e)
    assert time.ticks_diff(time.ticks_ms(), t) < 5000


def test_auto_sleep_sleeps_when_the_update_is_seen_to_end():
    bus, d = make(busy_reads=5)
    d.auto_sleep = True
    d.fb.text("a", 0, 0, 1)
    d.show()
    while d.busy():          # the app's way: polling, no wait()
        pass
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))
    d.sleep()                # already asleep: nothing more sent
    assert sent(bus, 0x10) == [bytes([0x01])]
    d.fb.text("b", 0, 10, 1)
    start = len(bus.commands[0])
    d.show()
    after = bus.commands[0][start:]
    assert after[:len(INIT_90)] == INIT_90
    assert (0x22, bytes([0xFF])) in after   # still a partial after waking
    d.wait()                 # the wait() way
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))
    assert d.partial_count == 1 and d.full_count == 1


def test_without_auto_sleep_the_controller_stays_awake():
    bus, d = make(busy_reads=5)
    d.show()
    d.wait()
    assert sent(bus, 0x10) == []
    d.show()
    assert bus.names(0).count("reset") == 1
