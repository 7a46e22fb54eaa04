"""The SSD1680 emulation fed with command streams, as a driver would send
them (datasheet semantics; wrong sequences must give wrong or no images)."""
import random

import pytest

from okgin.vboard.ssd1680 import SSD1680, T_FULL, T_PARTIAL

XB, GATES = 16, 296          # the 2.9" panel: 128 sources (16 bytes) x 296 gates


class Clock:
    """A hand-moved clock, so BUSY timing is checked without sleeping."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def panel(speed=0.0, rotation=90, clock=None):
    return SSD1680(sources=128, gates=296, rotation=rotation, speed=speed,
                   clock=clock or Clock())


def cmd(p, c, *data):
    p.feed(bytes([c]), dc=0)
    if data:
        p.feed(bytes(data), dc=1)


def hw_reset(p):
    p.set_reset(0)
    p.set_reset(1)


def init(p, entry=0x03, xwin=(0, XB - 1), ywin=(0, GATES - 1), clock=None):
    """HW reset, SW reset and the usual registers (as in the datasheet's
    reference flow), waiting for BUSY after the resets."""
    hw_reset(p)
    if clock:
        clock.t += 0.02
    cmd(p, 0x12)
    if clock:
        assert p.busy()
        clock.t += 0.02
    assert not p.busy()
    cmd(p, 0x01, 0x27, 0x01, 0x00)
    cmd(p, 0x11, entry)
    cmd(p, 0x44, *xwin)
    cmd(p, 0x45, ywin[0] & 0xFF, ywin[0] >> 8, ywin[1] & 0xFF, ywin[1] >> 8)
    cmd(p, 0x3C, 0x05)
    cmd(p, 0x18, 0x80)


def counters(p, x, y):
    cmd(p, 0x4E, x)
    cmd(p, 0x4F, y & 0xFF, y >> 8)


def write_ram(p, ram_cmd, rows, x=0, y=0):
    """rows: GATES rows of XB bytes, RAM polarity (1 = white), mode 0x03."""
    counters(p, x, y)
    cmd(p, ram_cmd, *b"".join(rows))


def full(p, rows):
    write_ram(p, 0x24, rows)
    write_ram(p, 0x26, rows)
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)


def partial(p, new_rows, shown_rows, seq=0xFF):
    write_ram(p, 0x24, new_rows)
    write_ram(p, 0x26, shown_rows)
    cmd(p, 0x22, seq)
    cmd(p, 0x20)


def random_rows(seed):
    r = random.Random(seed)
    return [bytes(r.getrandbits(8) for _ in range(XB)) for _ in range(GATES)]


def native_rows(p):
    return [bytes(p.ink[g * XB:(g + 1) * XB]) for g in range(GATES)]


WHITE = [b"\xff" * XB] * GATES


def test_full_refresh_shows_bw_ram_exactly():
    p = panel()
    init(p)
    img = random_rows(1)
    full(p, img)
    assert native_rows(p) == img
    assert p.stats["full"] == 1 and p.stats["partial"] == 0
    assert p.stats["ink_seconds"] == pytest.approx(T_FULL)


def test_logical_image_rotation_90_maps_gate_to_x_and_source_to_flipped_y():
    p = panel(rotation=90)
    init(p)
    rows = [bytearray(b"\xff" * XB) for _ in range(GATES)]
    rows[5][0] &= ~0x80          # source 0, gate 5 -> black
    rows[290][15] &= ~0x01       # source 127, gate 290 -> black
    full(p, [bytes(r) for r in rows])
    im = p.image()
    assert im.size == (296, 128) and im.mode == "1"
    black = {(x, y) for x in range(296) for y in range(128) if im.getpixel((x, y)) == 0}
    assert black == {(5, 127), (290, 0)}


@pytest.mark.parametrize("rotation,expected", [
    (0, {(0, 5)}), (180, {(127, 290)}), (270, {(290, 0)})])
def test_other_rotations(rotation, expected):
    p = panel(rotation=rotation)
    init(p)
    rows = [bytearray(b"\xff" * XB) for _ in range(GATES)]
    rows[5][0] &= ~0x80
    full(p, [bytes(r) for r in rows])
    im = p.image()
    black = {(x, y) for x in range(im.size[0]) for y in range(im.size[1]) if im.getpixel((x, y)) == 0}
    assert black == expected


def test_image_bytes_are_the_screen_format_one_is_black():
    p = panel()
    init(p)
    rows = [bytearray(b"\xff" * XB) for _ in range(GATES)]
    rows[0][15] &= ~0x01         # logical (0, 0)
    full(p, [bytes(r) for r in rows])
    data = p.image_bytes()
    assert len(data) == 296 * 128 // 8
    assert data[0] == 0x80 and not any(data[1:])


def test_partial_drives_only_pixels_where_bw_differs_from_red():
    p = panel()
    init(p)
    a, b = random_rows(2), random_rows(3)
    full(p, a)
    partial(p, b, a)
    assert native_rows(p) == b
    assert p.stats["partial"] == 1
    assert p.stats["ink_seconds"] == pytest.approx(T_FULL + T_PARTIAL)


@pytest.mark.parametrize("seq", [0xFF, 0xFC, 0xCF])
def test_partial_sequences_with_display_mode_2(seq):
    p = panel()
    init(p)
    a, b = random_rows(4), random_rows(5)
    full(p, a)
    cmd(p, 0x22, 0xFC)  # leave clock and analog on, as 0xCF relies on
    cmd(p, 0x20)
    partial(p, b, a, seq=seq)
    assert native_rows(p) == b
    assert p.stats["partial"] == 2 if seq != 0xFC else 3


def test_partial_with_stale_previous_ram_shows_a_wrong_image():
    # A driver that forgets to keep 0x26 equal to what the ink shows.
    p = panel()
    init(p)
    a, b, c = random_rows(6), random_rows(7), random_rows(8)
    full(p, a)
    partial(p, b, a)
    write_ram(p, 0x24, c)          # 0x26 still holds a, but the ink shows b
    cmd(p, 0x22, 0xFF)
    cmd(p, 0x20)
    assert native_rows(p) != c


def test_activation_without_update_control_after_reset_is_not_a_full_refresh():
    # POR value of 0x22 is 0xFF (display mode 2): with both RAMs equal,
    # nothing is driven and the ink keeps its old content.
    p = panel()
    init(p)
    img = random_rows(9)
    write_ram(p, 0x24, img)
    write_ram(p, 0x26, img)
    cmd(p, 0x20)
    assert native_rows(p) == WHITE
    assert p.stats["full"] == 0


def test_display_without_clock_analog_or_lut_does_not_change_the_ink():
    p = panel()
    init(p)
    img = random_rows(10)
    write_ram(p, 0x24, img)
    cmd(p, 0x22, 0xC7)    # display mode 1, but no LUT was ever loaded
    cmd(p, 0x20)
    assert native_rows(p) == WHITE
    assert any("LUT" in m for m in p.log)
    cmd(p, 0x22, 0x04)    # display only: clock and analog are off
    cmd(p, 0x20)
    assert native_rows(p) == WHITE


def test_load_lut_then_display_mode_1_without_reload():
    p = panel()
    init(p)
    cmd(p, 0x22, 0xB1)    # clock, temp, LUT, clock off
    cmd(p, 0x20)
    img = random_rows(11)
    write_ram(p, 0x24, img)
    cmd(p, 0x22, 0xC7)
    cmd(p, 0x20)
    assert native_rows(p) == img


def test_custom_lut_via_0x32_counts_as_loaded():
    p = panel()
    init(p)
    cmd(p, 0x32, *([0] * 153))
    img = random_rows(12)
    write_ram(p, 0x24, img)
    cmd(p, 0x22, 0xC7)
    cmd(p, 0x20)
    assert native_rows(p) == img


def _stream(order, rows):
    return bytes(rows[y][x] for (x, y) in order)


@pytest.mark.parametrize("entry", range(8))
def test_data_entry_modes_all_directions_and_both_address_orders(entry):
    """Each mode streams the same picture in its own address order (counters
    starting at the window corner the mode begins from)."""
    img = random_rows(20 + entry)
    dx = 1 if entry & 1 else -1
    dy = 1 if entry & 2 else -1
    xs = list(range(XB))[::dx]
    ys = list(range(GATES))[::dy]
    if entry & 4:   # AM=1: Y counts first
        order = [(x, y) for x in xs for y in ys]
    else:
        order = [(x, y) for y in ys for x in xs]
    p = panel()
    init(p, entry=entry, xwin=(xs[0], xs[-1]), ywin=(ys[0], ys[-1]))
    counters(p, xs[0], ys[0])
    cmd(p, 0x24, *_stream(order, img))
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    assert native_rows(p) == img


def test_ram_window_restricts_and_wraps_the_address_counter():
    p = panel()
    init(p)
    full(p, WHITE)
    # window X bytes 2..3, Y gates 10..12: six bytes fill it exactly, the
    # seventh wraps to the window start
    cmd(p, 0x44, 2, 3)
    cmd(p, 0x45, 10, 0, 12, 0)
    counters(p, 2, 10)
    cmd(p, 0x24, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x77)
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    rows = native_rows(p)
    assert rows[10][2:4] == bytes([0x77, 0x01])
    assert rows[11][2:4] == bytes([0x02, 0x03])
    assert rows[12][2:4] == bytes([0x04, 0x05])
    assert rows[9] == b"\xff" * XB and rows[13] == b"\xff" * XB
    assert rows[10][:2] == b"\xff\xff" and rows[10][4:] == b"\xff" * 12


def test_update_control_1_inverts_bw_ram():
    p = panel()
    init(p)
    img = random_rows(30)
    cmd(p, 0x21, 0x08, 0x00)
    full(p, img)
    assert native_rows(p) == [bytes(b ^ 0xFF for b in r) for r in img]


def test_busy_timing_scales_with_speed_and_ignores_bytes_while_busy():
    clock = Clock()
    p = panel(speed=1.0, clock=clock)
    hw_reset(p)
    assert p.busy()                      # ~10 ms after a HW reset
    clock.t += 0.02
    assert not p.busy()
    init(p, clock=clock)
    a = random_rows(40)
    full(p, a)
    assert p.busy()
    assert p.busy_end() == pytest.approx(clock.t + T_FULL)
    # A driver that does not wait: these bytes are lost.
    b = random_rows(41)
    partial(p, b, a)
    assert p.stats["ignored"] > 0
    clock.t += T_FULL + 0.01
    assert not p.busy()
    assert native_rows(p) == a
    partial(p, b, a)
    assert p.busy()
    clock.t += T_PARTIAL - 0.05
    assert p.busy()
    clock.t += 0.1
    assert not p.busy() and native_rows(p) == b


def test_speed_zero_is_instant_and_reports_refresh_then_ended():
    events = []
    p = panel(speed=0.0)
    p.on_event = lambda *ev: events.append(ev)
    init(p)
    full(p, random_rows(50))
    assert not p.busy()
    assert events == [("refresh", "full", 0.0), ("ended",)]


def test_refresh_event_gives_real_seconds_at_speed_and_ended_when_busy_falls():
    clock = Clock()
    events = []
    p = panel(speed=0.5, clock=clock)
    p.on_event = lambda *ev: events.append(ev)
    init(p, clock=clock)
    full(p, random_rows(51))
    assert events == [("refresh", "full", pytest.approx(T_FULL * 0.5))]
    assert not p.poll_ended()
    clock.t += T_FULL * 0.5
    assert p.poll_ended()
    assert events[-1] == ("ended",)


def test_busy_stuck_fault_keeps_busy_high():
    p = panel()
    init(p)
    p.busy_stuck = True
    assert p.busy()
    full(p, random_rows(60))
    assert native_rows(p) == WHITE      # everything ignored while BUSY is high
    p.busy_stuck = False
    assert not p.busy()


def test_deep_sleep_refuses_everything_until_hw_reset_and_keeps_ram_in_mode_1():
    p = panel()
    events = []
    p.on_event = lambda *ev: events.append(ev)
    init(p)
    a = random_rows(70)
    full(p, a)
    cmd(p, 0x10, 0x01)
    assert p.busy()                      # BUSY stays high in deep sleep
    b = random_rows(71)
    write_ram(p, 0x24, b)                # refused: the controller sleeps
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    assert native_rows(p) == a and p.stats["full"] == 1
    # a driver that forgot the wake-up is told, byte count and event
    assert p.stats["refused"] > len(b) and p.stats["ignored"] == 0
    assert ("refused", 1) in events and "deep sleep" in p.log[-1]
    hw_reset(p)
    assert not p.busy()
    # RAM kept through deep sleep mode 1: a full refresh of it shows a again
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    assert native_rows(p) == a


def test_deep_sleep_mode_2_loses_ram():
    p = panel()
    init(p)
    a = random_rows(72)
    full(p, a)
    cmd(p, 0x10, 0x03)
    hw_reset(p)
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    assert native_rows(p) != a


def test_rst_held_low_ignores_bytes():
    p = panel()
    init(p)
    p.set_reset(0)
    full(p, random_rows(80))
    assert native_rows(p) == WHITE and p.stats["ignored"] > 0


def test_power_on_ram_is_undefined_and_ink_survives_power_loss():
    p = panel()
    init(p)
    a = random_rows(90)
    full(p, a)
    p.power_on()
    assert native_rows(p) == a           # e-paper keeps its image unpowered
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)                          # full refresh of whatever RAM holds
    assert native_rows(p) != a and native_rows(p) != WHITE


def test_unknown_commands_are_logged_and_ignored():
    p = panel()
    init(p)
    cmd(p, 0xE5, 1, 2)
    assert p.stats["unknown"] == 1
    assert any("0xE5" in m for m in p.log)
    img = random_rows(91)
    full(p, img)
    assert native_rows(p) == img


def test_auto_write_fills_ram_with_a_pattern():
    p = panel()
    init(p)
    full(p, random_rows(92))
    cmd(p, 0x47, 0xF7)   # BW RAM: all 1 = white
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    assert native_rows(p) == WHITE


def test_bad_geometry_is_refused():
    with pytest.raises(ValueError, match="rotation"):
        SSD1680(rotation=45)
    with pytest.raises(ValueError, match="fit"):
        SSD1680(sources=200, gates=296)


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(entry=st.integers(0, 7), x0=st.integers(0, XB - 1), x1=st.integers(0, XB - 1),
       y0=st.integers(0, GATES - 1), h=st.integers(1, 12), seed=st.integers(0, 999))
def test_any_window_in_any_mode_receives_its_bytes_in_the_mode_order(entry, x0, x1, y0, h, seed):
    lo_x, hi_x = min(x0, x1), max(x0, x1)
    lo_y, hi_y = y0, min(GATES - 1, y0 + h - 1)
    dx = 1 if entry & 1 else -1
    dy = 1 if entry & 2 else -1
    xs = list(range(lo_x, hi_x + 1))[::dx]
    ys = list(range(lo_y, hi_y + 1))[::dy]
    order = [(x, y) for x in xs for y in ys] if entry & 4 else [(x, y) for y in ys for x in xs]
    r = random.Random(seed)
    data = bytes(r.getrandbits(8) for _ in order)
    p = panel()
    init(p)
    full(p, WHITE)
    cmd(p, 0x11, entry)
    cmd(p, 0x44, xs[0], xs[-1])
    cmd(p, 0x45, ys[0] & 0xFF, ys[0] >> 8, ys[-1] & 0xFF, ys[-1] >> 8)
    counters(p, xs[0], ys[0])
    cmd(p, 0x24, *data)
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)
    expect = [bytearray(b"\xff" * XB) for _ in range(GATES)]
    for (x, y), b in zip(order, data, strict=True):
        expect[y][x] = b
    assert native_rows(p) == [bytes(e) for e in expect]


def test_time_in_each_power_state_follows_the_clock():
    clock = Clock()
    p = panel(speed=1.0, clock=clock)
    hw_reset(p)
    clock.t += 0.02                      # 10 ms of reset, 10 ms idle
    init(p, clock=clock)                 # 10 ms reset, 20 ms SW reset + idle
    full(p, random_rows(3))
    clock.t += 5.0                       # the refresh, then idle
    cmd(p, 0x10, 0x01)
    clock.t += 60.0                      # deep sleep
    s = p.states()
    assert s["refresh"] == pytest.approx(T_FULL)
    assert s["sleep"] == pytest.approx(60.0)
    assert s["busy"] == pytest.approx(0.03, abs=0.005)
    assert sum(s.values()) == pytest.approx(65.06)      # since the panel was made
    p.reset_states()
    clock.t += 1.0
    assert p.states()["sleep"] == pytest.approx(1.0)
