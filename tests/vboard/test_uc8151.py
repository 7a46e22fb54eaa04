"""The UC8151 emulation fed with command streams as a driver would send
them (IL0373 command table): a right sequence shows the image, a wrong one
(no power-on, the wrong data polarity or scan, red/white mode, a bad deep
sleep code, bytes while BUSY_N is low) shows it wrong or not at all."""
import random

from okgin.vboard.pins import EMULATIONS
from okgin.vboard.uc8151 import UC8151

SOURCES, GATES = 128, 296
XB = SOURCES // 8


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def panel(speed=0.0, clock=None):
    return UC8151(sources=SOURCES, gates=GATES, rotation=90, speed=speed, clock=clock or Clock())


def cmd(p, c, *data):
    p.feed(bytes([c]), dc=0)
    if data:
        p.feed(bytes(data), dc=1)


def setup(p, psr=0x9F, cdi=0x97, clock=None):
    p.set_reset(0)
    p.set_reset(1)
    if clock:                             # wait out the reset's busy time
        assert p.busy()
        clock.t += 0.02
    cmd(p, 0x00, psr)
    cmd(p, 0x61, SOURCES, GATES >> 8, GATES & 0xFF)
    cmd(p, 0x50, cdi)


def refresh(p, image, power=True):
    if power:
        cmd(p, 0x04)
    cmd(p, 0x13, *image)
    cmd(p, 0x12)


def image():
    rng = random.Random(5)
    return bytes(rng.getrandbits(8) for _ in range(XB * GATES))


def test_the_image_shows_as_sent_with_power_on_and_white_as_one():
    p = panel()
    setup(p)
    img = image()
    refresh(p, img)
    assert bytes(p.ink) == img            # ink in RAM polarity: 1 = white
    assert p.stats["full"] == 1 and p.log == []


def test_no_power_on_no_refresh():
    p = panel()
    setup(p)
    before = bytes(p.ink)
    refresh(p, image(), power=False)
    assert bytes(p.ink) == before and p.stats["full"] == 0
    assert "PON" in p.log[-1]


def test_data_polarity_scan_and_shift_follow_psr_and_cdi():
    img = image()
    p = panel()
    setup(p, cdi=0x87)                    # DDX = 0: a data 1 is black
    refresh(p, img)
    assert bytes(p.ink) == bytes(b ^ 0xFF for b in img)
    p = panel()
    setup(p, psr=0x93)                    # gate scan down, source shift left
    refresh(p, img)
    rev = bytes(int("{:08b}".format(b)[::-1], 2) for b in range(256))
    rows = [img[r * XB:(r + 1) * XB] for r in range(GATES)]
    want = b"".join(bytes(rev[b] for b in reversed(row)) for row in reversed(rows))
    assert bytes(p.ink) == want


def test_red_white_mode_draws_the_old_data_not_the_new():
    p = panel()
    setup(p, psr=0x8F)                    # KW/R bit clear: black/white/red mode
    before = bytes(p.ink)
    cmd(p, 0x10, *bytes(XB * GATES))      # DTM1: its black/white data, all black
    refresh(p, image())
    assert bytes(p.ink) == bytes(XB * GATES) != before


def test_busy_n_is_low_while_it_works_and_bytes_then_are_lost():
    clock = Clock()
    p = panel(speed=1.0, clock=clock)
    assert p.BUSY_ACTIVE == 0
    setup(p, clock=clock)
    cmd(p, 0x04)
    assert p.busy()
    clock.t += 0.1
    cmd(p, 0x13, *image())
    cmd(p, 0x12)
    assert p.busy()
    cmd(p, 0x13, 0x00)                    # during the refresh
    assert p.stats["ignored"] == 2
    clock.t += 3.0
    assert not p.busy()


def test_deep_sleep_needs_its_check_code_and_a_reset_to_wake():
    p = panel()
    setup(p)
    cmd(p, 0x07, 0x00)
    assert not p.asleep and "0xA5" in p.log[-1]
    cmd(p, 0x07, 0xA5)
    assert p.asleep
    before = bytes(p.ink)
    refresh(p, image())
    assert bytes(p.ink) == before and p.stats["refused"] > 0 and p.stats["ignored"] == 0
    setup(p)                              # a hardware reset wakes it
    refresh(p, image())
    assert bytes(p.ink) == image()


def test_every_firmware_controller_has_an_emulation():
    from display import DRIVERS
    assert sorted(DRIVERS) == sorted(EMULATIONS)
