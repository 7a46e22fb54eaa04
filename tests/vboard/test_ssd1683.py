"""The SSD1683 emulation (the 4.2" 400x300 panel) fed with command streams,
as firmware/ssd1683.py sends them: the RAM windows and counters over the
whole 400x300 RAM, full and differential updates with the RED RAM option of
0x21, BUSY for a 4.2" panel's refresh times, deep sleep that only a HW
reset ends. Wrong sequences must give wrong or no images."""
import random

import pytest

from okgin.vboard.pins import EMULATIONS
from okgin.vboard.ssd1683 import SSD1683, T_FULL, T_PARTIAL

XB, GATES = 50, 300          # 400 sources (50 bytes) x 300 gates


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def panel(speed=0.0, rotation=0, clock=None):
    return SSD1683(sources=400, gates=300, rotation=rotation, speed=speed,
                   clock=clock or Clock())


def cmd(p, c, *data):
    p.feed(bytes([c]), dc=0)
    if data:
        p.feed(bytes(data), dc=1)


def hw_reset(p):
    p.set_reset(0)
    p.set_reset(1)


def init(p, entry=0x03, xwin=(0, XB - 1), ywin=(0, GATES - 1), clock=None):
    """The driver's wake sequence (firmware/ssd1683.py)."""
    hw_reset(p)
    if clock:
        clock.t += 0.02
    cmd(p, 0x12)
    if clock:
        assert p.busy()
        clock.t += 0.02
    assert not p.busy()
    cmd(p, 0x01, 0x2B, 0x01, 0x00)
    cmd(p, 0x11, entry)
    cmd(p, 0x44, *xwin)
    cmd(p, 0x45, ywin[0] & 0xFF, ywin[0] >> 8, ywin[1] & 0xFF, ywin[1] >> 8)
    cmd(p, 0x3C, 0x05)
    cmd(p, 0x21, 0x40, 0x00)
    cmd(p, 0x18, 0x80)


def write_ram(p, ram_cmd, data, x=0, y=0):
    cmd(p, 0x4E, x)
    cmd(p, 0x4F, y & 0xFF, y >> 8)
    cmd(p, ram_cmd, *data)


def full(p, img):
    cmd(p, 0x21, 0x40, 0x00)
    write_ram(p, 0x24, img)
    write_ram(p, 0x26, img)
    cmd(p, 0x22, 0xF7)
    cmd(p, 0x20)


def partial(p, img, upd1=0x00):
    cmd(p, 0x21, upd1, 0x00)
    write_ram(p, 0x24, img)
    cmd(p, 0x22, 0xFF)
    cmd(p, 0x20)


def image(seed=5):
    rng = random.Random(seed)
    return bytes(rng.getrandbits(8) for _ in range(XB * GATES))


def test_a_full_update_shows_the_whole_400x300_ram():
    p = panel()
    init(p)
    img = image()
    full(p, img)
    assert bytes(p.ink) == img
    assert p.stats["full"] == 1 and p.log == []
    im = p.image()
    assert im.size == (400, 300)
    # logical (x, y) = source x, gate y; RAM bit 0 = black = PIL 0
    for x, y in ((0, 0), (399, 0), (0, 299), (399, 299), (123, 211)):
        bit = img[y * XB + x // 8] >> (7 - x % 8) & 1
        assert im.getpixel((x, y)) == (255 if bit else 0), (x, y)


def test_the_counters_wrap_in_the_window_and_step_the_other_axis():
    # X-, Y- (rotation 180): from (49, 299) down to (0, 0), row by row
    p = panel(rotation=180)
    init(p, entry=0x00, xwin=(XB - 1, 0), ywin=(GATES - 1, 0))
    img = image(7)
    cmd(p, 0x21, 0x40, 0x00)
    write_ram(p, 0x24, img, x=XB - 1, y=GATES - 1)
    assert (p.xc, p.yc) == (XB - 1, GATES - 1)      # wrapped to the start
    assert p.bw[(GATES - 1) * XB + XB - 1] == img[0]
    assert p.bw[(GATES - 1) * XB + XB - 2] == img[1]
    assert p.bw[(GATES - 2) * XB + XB - 1] == img[XB]
    assert p.bw[0] == img[-1]
    # a window of part of the RAM: only it is written
    p = panel()
    init(p, xwin=(10, 19), ywin=(100, 109))
    before = bytes(p.bw)
    write_ram(p, 0x24, bytes(100), x=10, y=100)
    for i in range(XB * GATES):
        inside = 100 <= i // XB <= 109 and 10 <= i % XB <= 19
        assert p.bw[i] == (0 if inside else before[i]), (i % XB, i // XB)


def test_partial_drives_only_what_differs_from_red_ram():
    p = panel()
    init(p)
    a = image(1)
    full(p, a)
    b = bytearray(a)
    b[1000:1100] = bytes(100)
    partial(p, b)                     # RED RAM still holds a: the base
    assert bytes(p.ink) == bytes(b)
    assert p.stats["partial"] == 1


def test_a_partial_with_red_ram_bypassed_shows_a_wrong_image():
    # A driver that leaves 0x21 at the full update's "RED bypass as 0"
    # compares against zeros (black): a pixel newly inked black does not
    # count as changed and is never driven.
    p = panel()
    init(p)
    a = b"\xff" * (XB * GATES)       # all white
    full(p, a)
    b = bytearray(a)
    b[5000:5050] = bytes(50)          # a black line
    partial(p, b, upd1=0x40)
    assert bytes(p.ink) == a != bytes(b)
    partial(p, b)                     # RED RAM as written: right
    assert bytes(p.ink) == bytes(b)


def test_busy_lasts_a_4in2_panel_s_refresh_times():
    clock = Clock()
    p = panel(speed=1.0, clock=clock)
    init(p, clock=clock)
    full(p, image())
    assert p.busy()
    clock.t += T_FULL - 0.01
    assert p.busy()
    cmd(p, 0x24, 0x00)                # lost: BUSY is high
    assert p.stats["ignored"] == 2
    clock.t += 0.02
    assert not p.busy()
    partial(p, image(2))
    clock.t += T_PARTIAL - 0.01
    assert p.busy()
    clock.t += 0.02
    assert not p.busy()
    assert (T_FULL, T_PARTIAL) == (3.0, 0.4)
    st = p.states()
    assert st["refresh"] == pytest.approx(T_FULL + T_PARTIAL)


def test_deep_sleep_refuses_everything_until_a_hw_reset_and_keeps_ram():
    p = panel()
    init(p)
    a = image(3)
    full(p, a)
    cmd(p, 0x10, 0x01)
    assert p.asleep and p.busy()      # BUSY stays high in deep sleep
    full(p, image(4))
    assert p.stats["refused"] > 0 and bytes(p.ink) == a
    cmd(p, 0x12)                      # not even a SW reset wakes it
    assert p.asleep
    init(p)                           # HW reset: awake, RAM kept (mode 1)
    assert not p.asleep and bytes(p.red) == a
    b = bytearray(a)
    b[:50] = bytes(50)
    partial(p, b)
    assert bytes(p.ink) == bytes(b)


def test_a_panel_bigger_than_the_ram_is_refused():
    with pytest.raises(ValueError, match="does not fit an SSD1683 .400x300."):
        SSD1683(sources=408, gates=300)
    with pytest.raises(ValueError, match="does not fit"):
        SSD1683(sources=400, gates=304)


def test_registered_for_board_json():
    assert EMULATIONS["SSD1683"] is SSD1683
