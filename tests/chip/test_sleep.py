"""The firmware on batteries, on the emulated Pico (stock MicroPython rp2,
docs/power.md): the chip sleeps between presses (lightsleep) and no press
is lost, the panels sleep after their refreshes and are woken for the next,
auto-off puts the table in DORMANT and any button brings back the same
game (a power cut meanwhile loses nothing), the gauge follows VSYS and USB,
a low battery is told, an empty one saves, says so and sleeps. Time jumps
while the chip sleeps, so minutes of the table's life take seconds here.

One Pico for the module, a copy of the one okgin flash flashed this run
(tests/support/chip.flashed_pico); each test starts from a power cycle
on it."""
import pytest

from okgin.engine import Match, Rules, deadwood
from okgin.lib.presses import Presses

SEC = 1_000_000_000


@pytest.fixture(scope="module")
def table(rp2_images, tmp_path_factory):
    from okgin.benches.chip import _firmware
    from okgin.table.table import open_table
    from tests.support import BOARD_2IN9    # the 2.9" table: the crops below are its 296x128's
    from tests.support.chip import flashed_pico
    flash = flashed_pico(tmp_path_factory.mktemp("pico") / "flash.bin", BOARD_2IN9)
    # its flash as it is (each test power-cycles it), the panels at real speed
    pico = open_table("chip", None, "pico", sync=False, flash=str(flash), board=BOARD_2IN9, speed=1.0)
    chip = pico.chip
    try:
        pico.power_on()
        chip.console_line("READY okgin", 60)
        fw = _firmware(pico, timeout=120)
        yield chip, fw
        fw.close()
    finally:
        pico.stop()


def boot(chip, fw, vbus=True, vsys=4.7):
    chip.set_supply(vbus=vbus, vsys=vsys)
    chip.power_cycle()
    t0 = chip.emulated_ns()
    chip.console_line("READY okgin", 600, since=t0)
    import time
    time.sleep(0.2)
    fw.flush_input()
    fw.cmd("sync")


def status(fw):
    return fw.fields(fw.cmd("status"))


class Game:
    """Test mode's game, seed 7, played on the GPIO buttons with the CPython
    engine as the oracle (docs/protocol.md: the buttons act on the game on
    the panels)."""

    def __init__(self, chip, fw, seed=7):
        self.chip, self.fw = chip, fw
        fw.cmd("testmode on")
        fw.cmd("newgame seed=%d dealer=0" % seed)
        fw.cmd("sync")
        self.m = Match(Rules(), seed=seed, dealer=0)
        self.keys = Presses(shortest=True)

    def act(self, gap_s=0.0):
        m = self.m
        p = m.hand._to_move
        obs = m.observation(p)
        legal = obs["legal"]
        act = "draw" if "draw" in legal else "pass" if "pass" in legal else min(
            (a for a in legal if a.startswith("discard")),
            key=lambda a: deadwood([c for c in obs["hand"] if c != a.split()[1]]))
        for button in self.keys.for_action(p, act, obs["hand"]):
            if gap_s:
                self.chip.wait_emulated(int(gap_s * SEC))
            self.chip.press(p, button)
        m.play(act)
        self.keys.played(p, obs["hand"], m.observation(p)["hand"])
        self.fw.cmd("sync")
        return p

    def in_step(self):
        st = status(self.fw)
        o = self.m.observation(0)
        return (st["stock"], st["discard"], st["to_move"]) == (
            str(o["stock_count"]), o["discard_top"] or "-", str(o["to_move"]))


def test_the_chip_sleeps_between_presses_and_loses_none(table):
    chip, fw = table
    boot(chip, fw, vbus=False, vsys=4.2)
    g = Game(chip, fw)
    chip.reset_power()
    # presses at varied gaps: while the chip is in lightsleep, just after a
    # refresh started, in the middle of one
    for gap in (2.0, 0.05, 0.5, 3.0, 0.01, 1.0, 0.2, 5.0):
        g.act(gap)
        assert g.in_step()
    states = chip.power_states()
    total = sum(states.values())
    deep = sum(v for k, v in states.items() if k.startswith("deep"))
    running = sum(v for k, v in states.items() if k.startswith("run"))
    # most of the time in lightsleep (12 MHz crystal, PLLs off): the old
    # loop's 4 ms polls at 125 MHz spent ~40% running and the rest in WFE
    assert deep > 0.6 * total and running < 0.2 * total, states
    assert chip.wakes < 40 * total            # woken by edges, not by polling


def test_panels_sleep_after_their_refresh_and_wake_for_the_next(table):
    chip, fw = table
    boot(chip, fw, vbus=False, vsys=4.2)
    g = Game(chip, fw)
    mover = g.act()                           # the other player is to move now
    nxt = g.m.hand._to_move
    assert nxt != mover
    panels = chip.pins.panels
    assert panels[mover].asleep and not panels[nxt].asleep   # the awaited panel stays awake
    chip.wait_emulated(40 * SEC)              # no press for longer than HOT_MS
    fw.cmd("sync")
    assert panels[0].asleep and panels[1].asleep
    before = [chip.stats(p)["hw_resets"] for p in (0, 1)]
    g.act()
    assert g.in_step()
    # both were woken (a HW reset each) for the refresh after the move, and
    # no byte went to a sleeping controller
    assert all(chip.stats(p)["hw_resets"] > before[p] for p in (0, 1))
    assert [chip.stats(p)["refused"] for p in (0, 1)] == [0, 0]


def test_auto_off_goes_dormant_and_any_button_wakes_the_same_game(table):
    chip, fw = table
    boot(chip, fw, vbus=False, vsys=4.2)
    fw.cmd("testmode on")
    if status(fw)["screen"] != "menu":
        fw.cmd("press 0 ok long")             # test mode's game: hold OK for the menu
    for _ in range(3):                        # from the top to the last row, Language,
        fw.cmd("press 0 left")                # and up two (Coach after a hand): Auto-off
    for _ in range(3):                        # from 15 min: 60, never, 5
        fw.cmd("press 0 ok")
    g = Game(chip, fw)
    for _ in range(3):
        g.act()
    st = status(fw)
    rec = fw.record()
    ink = [chip.panel_bytes(p) for p in (0, 1)]
    chip.reset_power()
    chip.wait_emulated(8 * 60 * SEC)          # nobody plays for 8 minutes
    states = chip.power_states()
    assert states.get("dormant", 0) > 2.5 * 60, states       # asleep after 5 minutes
    assert all(chip.panel(p).asleep for p in (0, 1))
    assert [chip.panel_bytes(p) for p in (0, 1)] != ink      # the sleeping screen
    assert not chip.led(0) and not chip.led(1)
    chip.press(1, "left")                     # any button: back, and nothing else
    fw.cmd("sync")
    assert status(fw) == st and fw.record() == rec
    assert [chip.panel_bytes(p) for p in (0, 1)] == ink
    assert g.in_step()
    # asleep again, then the power is cut: the game is on flash
    chip.wait_emulated(6 * 60 * SEC)
    assert all(chip.panel(p).asleep for p in (0, 1))
    chip.kill()
    chip.start()
    chip.console_line("READY okgin", 600, since=chip.emulated_ns())
    fw.flush_input()
    fw.cmd("sync")
    fw.cmd("testmode on")
    assert fw.record() == rec
    fw.cmd("press 0 ok long")                 # auto-off back to its default, 15 min
    for _ in range(3):
        fw.cmd("press 0 left")
    fw.cmd("press 0 ok")


def test_the_gauge_follows_vsys_and_usb_and_an_empty_battery_sleeps(table):
    chip, fw = table
    boot(chip, fw, vbus=True, vsys=4.7)
    g = Game(chip, fw)

    def icon():
        """The gauge's bars (0-4), or None when it is not drawn (test mode:
        left of the banner): its outline, nub and cleared margin."""
        img = chip.panel_image(0).convert("L")
        x = 296 - 17 - 76
        black = lambda px, py: img.getpixel((px, py)) == 0   # noqa: E731
        outline = all(black(x, y) and black(x + 12, y) for y in range(1, 9))
        nub = all(black(x + 13, y) and black(x + 14, y) for y in range(3, 7))
        margin = not any(black(x - 2, y) or black(x - 1, y) for y in range(10))
        if not (outline and nub and margin):
            return None
        return sum(1 for i in range(4) if black(x + 2 + 3 * i, 5))
    assert icon() is None                     # on USB: none
    chip.set_supply(vbus=False, vsys=4.2)     # USB unplugged
    chip.wait_emulated(25 * SEC)
    fw.cmd("sync")
    assert icon() == 4                        # fresh cells: four bars
    chip.set_supply(vsys=3.0)                 # running down: the warning, once
    chip.wait_emulated(300 * SEC)
    fw.cmd("sync")
    title = chip.panel_image(1).crop((0, 0, 220, 12)).convert("L").tobytes().count(0)
    assert title > 1000                       # "Battery low": a notice's black title bar
    chip.press(1, "ok")                       # read: any button closes it, on each panel
    chip.press(0, "ok")
    fw.cmd("sync")
    assert g.in_step()
    chip.set_supply(vbus=True)                # USB plugged in: no gauge
    chip.wait_emulated(25 * SEC)
    fw.cmd("sync")
    assert icon() is None
    rec = fw.record()
    chip.set_supply(vbus=False, vsys=2.5)     # below the cut-off
    chip.reset_power()
    chip.wait_emulated(400 * SEC)
    assert chip.power_states().get("dormant", 0) > 100
    assert all(chip.panel(p).asleep for p in (0, 1))
    # still empty: a button wakes it only to find that out, and it sleeps
    # on, the game untouched (hold and release: it polls no more after)
    chip.hold(0, "draw")
    chip.wait_emulated(SEC // 10)
    chip.release(0, "draw")
    chip.wait_emulated(5 * SEC)
    assert all(chip.panel(p).asleep for p in (0, 1))
    chip.set_supply(vbus=True)                # plugged in: a button brings it back
    chip.press(0, "left")
    fw.cmd("sync")
    assert fw.record() == rec and g.in_step()


def test_a_sleeping_table_on_usb_answers_the_host_and_wakes_only_by_a_button(table):
    """Asleep on USB (a lightsleep loop that keeps the port): `sync` and
    `lang` are answered at once, no panel wakes, no turn light comes on;
    the waking press (RIGHT, on a discard: a cursor move) only wakes."""
    chip, fw = table
    boot(chip, fw, vbus=True, vsys=4.7)
    fw.cmd("testmode on")
    if status(fw)["screen"] != "menu":
        fw.cmd("press 0 ok long")
    for _ in range(3):                        # Auto-off (as above): 5 minutes
        fw.cmd("press 0 left")
    for _ in range(3):
        fw.cmd("press 0 ok")
    g = Game(chip, fw)
    while g.m.observation(g.m.hand._to_move)["phase"] != "discard":
        g.act()
    p = g.m.hand._to_move
    fw.cmd("lang lt")
    fw.cmd("sync")
    st, rec = status(fw), fw.record()
    ink = [chip.panel_bytes(q) for q in (0, 1)]
    assert chip.led(p)
    try:
        chip.wait_emulated(6 * 60 * SEC)      # asleep after 5 minutes
        asleep = [chip.panel_bytes(q) for q in (0, 1)]
        assert asleep != ink and all(chip.panel(q).asleep for q in (0, 1))
        for req in ("sync", "lang lt", "sync", "status", "sync"):
            fw.cmd(req, timeout=30)           # answered with no button
            assert not chip.led(0) and not chip.led(1), req
            assert all(chip.panel(q).asleep for q in (0, 1)), req
            assert [chip.panel_bytes(q) for q in (0, 1)] == asleep, req
        chip.press(p, "right")                # the waking press: nothing else
        fw.cmd("sync")
        assert status(fw) == st and fw.record() == rec
        assert [chip.panel_bytes(q) for q in (0, 1)] == ink
        assert chip.led(p)
    finally:
        fw.cmd("lang en")
        fw.cmd("press 0 ok long")             # auto-off back to its default, 15 min
        for _ in range(3):
            fw.cmd("press 0 left")
        fw.cmd("press 0 ok")
