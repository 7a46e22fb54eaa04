# SSD1683 driver byte stream (the 4.2" 400x300 panel), checked on a
# recording bus (fakes.Bus), under MicroPython only (the driver draws with
# the real framebuf module). Run by test_micropython.py; by hand:
#   .venv/bin/micropython tests/drivers/mp_runner.py ssd1683_cases
import framebuf

import fakes
import ssd1683
from display import EPDTimeout

W = 400
H = 300
N = W * H // 8            # RAM bytes of one image: 50 x 300
FB = W * ((H + 7) // 8)   # the MONO_VLSB frame buffer: 38 bands of 400

INIT_0 = [
    ("reset",),
    (0x12, b""),
    (0x01, bytes([0x2B, 0x01, 0x00])),        # 300 gates, G0 first
    (0x11, bytes([0x03])),                    # AM=0 (X first), X+, Y+
    (0x44, bytes([0x00, 0x31])),              # X bytes 0..49
    (0x45, bytes([0x00, 0x00, 0x2B, 0x01])),  # Y 0..299
    (0x3C, bytes([0x05])),
    (0x21, bytes([0x40, 0x00])),              # RED RAM bypassed (read as 0)
    (0x18, bytes([0x80])),
    (0x4E, bytes([0x00])),
    (0x4F, bytes([0x00, 0x00])),
]
FULL = [0x21, 0x3C, 0x4E, 0x4F, 0x24, 0x4E, 0x4F, 0x26, 0x22, 0x20]
PARTIAL = [0x21, 0x3C, 0x4E, 0x4F, 0x24, 0x22, 0x20]


def make(rotation=0, busy_reads=3, timeout=10000, scale=1):
    bus = fakes.Bus(busy_reads)
    cs, dc, rst, busy = bus.panel()
    d = ssd1683.SSD1683(fakes.SPI(bus), cs, dc, rst, busy, rotation=rotation,
                        busy_timeout_ms=timeout, scale=scale)
    return bus, d


def sent(bus, cmd, panel=0):
    return [c[1] for c in bus.commands[panel] if c[0] == cmd]


def ram_from_stream(data, mode, xwin, ywin):
    """Place a RAM write per the datasheet's address counter rules (AM=0:
    X first); returns the RAM (50 bytes a gate row) and how many times
    each byte was written."""
    xinc = mode & 0x01
    yinc = mode & 0x02
    x, y = xwin[0], ywin[0]
    ram = bytearray(N)
    times = bytearray(N)
    for b in data:
        ram[y * 50 + x] = b
        times[y * 50 + x] += 1
        if x == xwin[1]:
            x = xwin[0]
            y = y + 1 if yinc else y - 1
        else:
            x = x + 1 if xinc else x - 1
    return ram, times


def black_in_ram(ram, source, gate):
    byte = ram[gate * 50 + source // 8]
    return not (byte >> (7 - source % 8)) & 1   # RAM bit 0 = black


def test_first_show_resets_and_runs_the_init_sequence():
    bus, d = make()
    assert (d.width, d.height, d.rotation) == (400, 300, 0)
    d.show()
    assert bus.commands[0][:len(INIT_0)] == INIT_0


def test_first_show_is_full_even_if_partial_asked():
    bus, d = make()
    d.show(full=False)
    assert [c[0] for c in bus.commands[0][len(INIT_0):]] == FULL
    assert sent(bus, 0x22) == [bytes([0xF7])]
    assert sent(bus, 0x21)[-1] == bytes([0x40, 0x00])
    assert sent(bus, 0x24)[0] == sent(bus, 0x26)[0]
    assert len(sent(bus, 0x24)[0]) == N
    assert d.full_count == 1 and d.partial_count == 0


def test_blank_frame_is_all_white_in_ram():
    bus, d = make()
    d.show(full=True)
    assert sent(bus, 0x24)[0] == b"\xff" * N


def check_pixels(rotation, mode, xwin, ywin, to_panel):
    bus, d = make(rotation)
    # the corners, the last (half) band's rows 296..299, byte edges
    points = [(0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1), (100, 37), (7, 64),
              (8, 296), (215, 299), (399, 150)]
    for x, y in points:
        d.fb.pixel(x, y, 1)
    d.show(full=True)
    assert sent(bus, 0x11) == [bytes([mode])]
    assert sent(bus, 0x44) == [bytes(xwin)]
    ram, times = ram_from_stream(sent(bus, 0x24)[0], mode, xwin,
                                 (ywin[0] | ywin[1] << 8, ywin[2] | ywin[3] << 8))
    assert times == b"\x01" * N   # every RAM byte written exactly once
    black = 0
    for byte in ram:
        for bit in range(8):
            if not (byte >> bit) & 1:
                black += 1
    assert black == len(points)
    for x, y in points:
        source, gate = to_panel(x, y)
        assert black_in_ram(ram, source, gate), (x, y)


def test_rotation_0_is_the_panel_as_made():
    # Logical (x, y) -> source x, gate y: the 4.2" panel is landscape.
    check_pixels(0, 0x03, [0x00, 0x31], [0, 0, 0x2B, 0x01], lambda x, y: (x, y))


def test_rotation_180_is_the_panel_mounted_upside_down():
    check_pixels(180, 0x00, [0x31, 0x00], [0x2B, 0x01, 0, 0],
                 lambda x, y: (W - 1 - x, H - 1 - y))


def test_rotation_180_counters_start_at_the_window_start():
    bus, d = make(180)
    d.show()
    assert sent(bus, 0x4E)[0] == bytes([0x31])
    assert sent(bus, 0x4F)[0] == bytes([0x2B, 0x01])
    assert sent(bus, 0x45)[0] == bytes([0x2B, 0x01, 0x00, 0x00])


def test_text_drawn_in_fb_reaches_ram_as_rows_inverted():
    bus, d = make()
    d.fb.text("Ah 7c", 10, 10, 1)
    d.fb.fill_rect(200, 290, 30, 10, 1)
    d.show(full=True)
    data = sent(bus, 0x24)[0]
    for y in range(H):
        for x in range(W):
            ink = (data[y * 50 + x // 8] >> (7 - x % 8)) & 1 == 0
            assert ink == (d.fb.pixel(x, y) == 1), (x, y)


def test_show_leaves_the_drawing_as_it_was_drawn():
    for rotation in (0, 180):
        bus, d = make(rotation=rotation)
        d.fb.text("Ah 7c", 10, 10, 1)
        drawn = bytes(d.buf)
        d.show(full=True)
        assert bytes(d.buf) == drawn
        d.wait()
        d.fb.text("Kd", 100, 290, 1)
        drawn = bytes(d.buf)
        d.show()
        d.wait()
        assert bytes(d.buf) == drawn


def test_a_panel_costs_one_frame_buffer_and_a_band_of_heap():
    # docs/memory.md: the frame buffer (15,200 B) and one band of 8 RAM rows
    # (400 B) of scratch; objects and small buffers about 1 KB more on the
    # 64-bit unix port.
    import gc
    bus = fakes.Bus()
    pins = bus.panel()
    spi = fakes.SPI(bus)
    gc.collect()
    before = gc.mem_alloc()
    d = ssd1683.SSD1683(spi, *pins)
    gc.collect()
    cost = gc.mem_alloc() - before
    assert FB + 400 <= cost < FB + 400 + 2048, cost
    assert len(d.buf) == FB == 15200


def test_partial_sends_the_new_image_then_makes_it_the_base_when_done():
    bus, d = make(busy_reads=5)
    d.fb.text("A", 0, 0, 1)
    d.show(full=True)
    first = bytes(sent(bus, 0x24)[0])
    assert sent(bus, 0x26) == [first]             # a full refresh sets the base too
    d.wait()
    d.fb.text("B", 300, 200, 1)
    start = len(bus.commands[0])
    d.show()
    part = bus.commands[0][start:]
    assert [c[0] for c in part] == PARTIAL
    assert part[0][1] == bytes([0x00, 0x00])     # RED RAM read: differential
    assert part[1][1] == bytes([0x80])           # border floats
    assert part[5][1] == bytes([0xFF])           # display mode 2
    assert part[4][1] != first
    assert d.busy()
    assert len(bus.commands[0]) == start + len(part)
    while d.busy():
        pass
    after = bus.commands[0][start + len(part):]
    assert [c[0] for c in after] == [0x4E, 0x4F, 0x26]
    assert after[2][1] == part[4][1]
    start = len(bus.commands[0])
    d.show(full=True)                            # back to RED bypassed
    assert bus.commands[0][start] == (0x21, bytes([0x40, 0x00]))
    assert d.partial_count == 1 and d.full_count == 2


def test_show_while_busy_waits_first_then_refreshes_in_full():
    bus, d = make(busy_reads=50)
    d.show(full=True)
    d.wait()
    d.show()
    d.fb.text("x", 0, 0, 1)
    d.show()  # the fake raises if a command is sent while BUSY is high
    assert sent(bus, 0x22) == [bytes([0xF7]), bytes([0xFF]), bytes([0xF7])]


def test_sleep_then_show_wakes_with_reset_and_keeps_the_base():
    bus, d = make()
    d.fb.text("old", 0, 0, 1)
    d.show(full=True)
    d.fb.text("mid", 0, 40, 1)
    d.show()
    d.wait()
    d.sleep()
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))   # mode 1: RAMs kept
    assert d.busy_pin.value() == 1 and not d.busy()
    d.wait()
    d.sleep()
    assert sent(bus, 0x10) == [bytes([0x01])]
    d.fb.text("new", 0, 20, 1)
    start = len(bus.commands[0])
    d.show()
    after = bus.commands[0][start:]
    assert after[:len(INIT_0)] == INIT_0
    assert [c[0] for c in after[len(INIT_0):]] == PARTIAL


def test_busy_stuck_high_raises_epdtimeout_then_recovers_with_a_full_reset():
    bus, d = make(busy_reads=10 ** 9, timeout=40)
    d.show()
    try:
        d.wait()
        raise AssertionError("wait() returned while BUSY stayed high")
    except EPDTimeout as e:
        assert "busy" in str(e)
    bus.busy_reads = 3
    bus.panels[0].busy_left = 0
    start = len(bus.commands[0])
    d.show(full=False)
    after = bus.commands[0][start:]
    assert after[0] == ("reset",)
    assert (0x22, bytes([0xF7])) in after


def test_missing_panel_times_out_at_wake():
    bus, d = make(timeout=60000)
    bus.panels[0].busy.stuck = True
    try:
        d.show()
        raise AssertionError("show() drew on a missing panel")
    except EPDTimeout as e:
        assert "1000 ms" in str(e)


def test_auto_sleep_sleeps_when_the_update_is_seen_to_end():
    bus, d = make(busy_reads=5)
    d.auto_sleep = True
    d.show()
    while d.busy():
        pass
    assert bus.commands[0][-1] == (0x10, bytes([0x01]))


def test_two_panels_on_one_bus_get_their_own_commands():
    bus = fakes.Bus()
    spi = fakes.SPI(bus)
    a = ssd1683.SSD1683(spi, *bus.panel())
    b = ssd1683.SSD1683(spi, *bus.panel())
    a.fb.fill(1)
    a.show(full=True)
    b.show(full=True)
    assert sent(bus, 0x24, 0)[0] == b"\x00" * N
    assert sent(bus, 0x24, 1)[0] == b"\xff" * N


def test_fb_is_a_vlsb_framebuffer_in_landscape():
    bus, d = make()
    assert isinstance(d.fb, framebuf.FrameBuffer)
    d.fb.pixel(399, 299, 1)
    assert d.buf[37 * 400 + 399] == 0x08   # band 37, row 299 = bit 3


def test_bad_geometry_is_refused():
    for kw in ({"rotation": 90}, {"rotation": 270}, {"width": 404}, {"width": 396 + 1},
               {"height": 304}, {"width": 0}):
        bus = fakes.Bus()
        try:
            ssd1683.SSD1683(fakes.SPI(bus), *bus.panel(), **kw)
            raise AssertionError("accepted %r" % (kw,))
        except ValueError:
            pass


def test_fast_and_plain_band_passes_agree():
    import os
    src = bytearray(os.urandom(W * 2))
    for rows in (8, 4):
        for rev in (0, 1):
            a = bytearray(8 * 50)
            b = bytearray(8 * 50)
            spec = W | rows << 12 | rev << 16
            ssd1683._band(a, src, W, spec)
            ssd1683._band_py(b, src, W, spec)
            assert a[:rows * 50] == b[:rows * 50], (rows, rev)
    # one column's byte 0x01 (row 0 inked at x=0) -> RAM row 0, byte 0 bit 7
    src = bytearray(W)
    src[0] = 0x01
    a = bytearray(8 * 50)
    ssd1683._band(a, src, 0, W | 8 << 12)
    assert a[0] == 0x7F and a[50] == 0xFF
    ssd1683._band(a, src, 0, W | 8 << 12 | 1 << 16)
    assert a[0] == 0xFE


# -- scale 2 (board.json, the 4.2" table): the app draws 200x150, the panel shows each
# logical pixel as a 2x2 block -----------------------------------------------

def test_scale_2_draws_in_a_logical_quarter_and_says_so():
    bus, d = make(scale=2)
    assert (d.width, d.height, d.scale) == (200, 150, 2)
    assert len(d.buf) == 200 * 19 == 3800     # 150 rows: 18 bands and 6 rows
    d.show()
    # the controller is set up for the whole panel all the same
    assert bus.commands[0][:len(INIT_0)] == INIT_0
    assert len(sent(bus, 0x24)[0]) == N


def check_blocks(rotation, mode, xwin, ywin, to_panel):
    # every logical pixel lands as a 2x2 block of the panel's, in every
    # corner, at byte edges and in the last (short) band; nothing else inked
    bus, d = make(rotation, scale=2)
    points = [(0, 0), (199, 0), (0, 149), (199, 149), (3, 7), (4, 8), (100, 37),
              (50, 144), (151, 147), (77, 148)]
    for x, y in points:
        d.fb.pixel(x, y, 1)
    d.show(full=True)
    assert sent(bus, 0x11) == [bytes([mode])]
    ram, times = ram_from_stream(sent(bus, 0x24)[0], mode, xwin,
                                 (ywin[0] | ywin[1] << 8, ywin[2] | ywin[3] << 8))
    assert times == b"\x01" * N
    black = 0
    for byte in ram:
        for bit in range(8):
            if not (byte >> bit) & 1:
                black += 1
    assert black == 4 * len(points), black
    for x, y in points:
        for dx in (0, 1):
            for dy in (0, 1):
                source, gate = to_panel(2 * x + dx, 2 * y + dy)
                assert black_in_ram(ram, source, gate), (x, y, dx, dy)
    assert sent(bus, 0x26)[0] == sent(bus, 0x24)[0]


def test_scale_2_rotation_0_a_logical_pixel_is_a_2x2_block():
    check_blocks(0, 0x03, [0x00, 0x31], [0, 0, 0x2B, 0x01], lambda x, y: (x, y))


def test_scale_2_rotation_180_a_logical_pixel_is_a_2x2_block():
    check_blocks(180, 0x00, [0x31, 0x00], [0x2B, 0x01, 0, 0],
                 lambda x, y: (W - 1 - x, H - 1 - y))


def test_scale_2_text_reaches_ram_at_twice_its_size():
    for rotation in (0, 180):
        bus, d = make(rotation, scale=2)
        d.fb.text("Ah 7c", 10, 10, 1)
        d.fb.fill_rect(150, 140, 30, 10, 1)
        drawn = bytes(d.buf)
        d.show(full=True)
        assert bytes(d.buf) == drawn
        data = sent(bus, 0x24)[0]
        for y in range(H):
            for x in range(W):
                # the stream is in the logical order both ways round
                ink = (data[y * 50 + x // 8] >> (7 - x % 8 if rotation == 0 else x % 8)) & 1 == 0
                assert ink == (d.fb.pixel(x // 2, y // 2) == 1), (rotation, x, y)


def test_scale_2_partial_update_sends_the_doubled_image_and_keeps_it_as_base():
    bus, d = make(busy_reads=5, scale=2)
    d.fb.text("A", 0, 0, 1)
    d.show(full=True)
    d.wait()
    d.fb.text("B", 150, 100, 1)
    d.show()
    while d.busy():
        pass
    part = sent(bus, 0x24)[-1]
    assert sent(bus, 0x26)[-1] == part
    bus2, d2 = make(scale=2)
    d2.fb.text("A", 0, 0, 1)
    d2.fb.text("B", 150, 100, 1)
    d2.show(full=True)
    assert sent(bus2, 0x24)[0] == part


def test_scale_2_costs_a_quarter_of_the_frame_buffer():
    import gc
    bus = fakes.Bus()
    pins = bus.panel()
    spi = fakes.SPI(bus)
    gc.collect()
    before = gc.mem_alloc()
    d = ssd1683.SSD1683(spi, *pins, scale=2)
    gc.collect()
    cost = gc.mem_alloc() - before
    # 3,800 B of frame buffer and 16 RAM rows (800 B) of scratch
    assert 3800 + 800 <= cost < 3800 + 800 + 2048, cost
    assert d.scale == 2


def test_bad_scale_is_refused():
    for kw in ({"scale": 3}, {"scale": 0}, {"scale": 2, "height": 299}, {"scale": 4}):
        bus = fakes.Bus()
        try:
            ssd1683.SSD1683(fakes.SPI(bus), *bus.panel(), **kw)
            raise AssertionError("accepted %r" % (kw,))
        except ValueError:
            pass


def test_scale_2_fast_and_plain_band_passes_agree():
    import os
    w = W // 2
    src = bytearray(os.urandom(w * 2))
    for rows in (8, 6, 1):
        for rev in (0, 1):
            a = bytearray(16 * 50)
            b = bytearray(16 * 50)
            spec = w | rows << 12 | rev << 16
            ssd1683._band2(a, src, w, spec)
            ssd1683._band2_py(b, src, w, spec)
            assert a[:2 * rows * 50] == b[:2 * rows * 50], (rows, rev)
    # logical column 0, row 0 inked -> RAM rows 0 and 1, byte 0, bits 7 and 6
    src = bytearray(w)
    src[0] = 0x01
    a = bytearray(16 * 50)
    ssd1683._band2(a, src, 0, w | 8 << 12)
    assert a[0] == 0x3F and a[50] == 0x3F and a[100] == 0xFF and a[1] == 0xFF
    ssd1683._band2(a, src, 0, w | 8 << 12 | 1 << 16)
    assert a[0] == 0xFC and a[50] == 0xFC
