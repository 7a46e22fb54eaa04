"""On batteries (docs/power.md), on the virtual board: the gauge on the
status line, the low-battery warning, the cut-off (saved, said on the ink,
asleep, nothing lost across a power cut), auto-off's sleeping screen woken
by any button into the same game, and the menu's auto-off setting. The
emulated Pico's own tests (tests/chip/test_sleep.py) cover the same on the
rp2 port, with its clocks and DORMANT."""
import json
import os
import time

from tests.support.harness import RunningFirmware, golden_check
from tests.support.real_game import boot, new_real_game, play, put, saved


def icon_pixels(img, testmode=False):
    # the gauge: right end of the status line (left of the TEST MODE banner)
    x = 296 - 19 - (76 if testmode else 0)
    box = img.crop((x, 0, x + 19, 10))
    return box.convert("L").tobytes().count(0)      # black pixels


def on_batteries(b, vsys):
    """The table on batteries at vsys volts: powered up again, so the first
    reading sees them. That reading waits for panels that are not busy
    (firmware/power.py tick: never while a panel refreshes), so it comes on
    a main-loop turn after the boot's refresh; the port's ``sync``, sent at
    once, waits for it (protocol.py settled) and for what it draws."""
    b.vb.set_supply(vbus=False, vsys=vsys)
    b.power_cut_and_boot()


def test_the_gauge_shows_on_batteries_only_and_counts_down(flash):
    b = boot(flash)
    try:
        m = new_real_game(b, flash)
        st = b.status()
        assert icon_pixels(b.vb.panel_image(0)) == 0         # on USB: no gauge
        on_batteries(b, 4.2)
        b.ok("sync")
        full = b.vb.panel_image(0)
        assert icon_pixels(full) > 40 and b.status() == st   # full: four bars
        golden_check(full.crop((0, 0, 296, 17)), "battery_full")    # a new game's status line
        on_batteries(b, 3.45)
        b.ok("sync")
        half = icon_pixels(b.vb.panel_image(1))
        assert 20 < half < icon_pixels(full)
        b.vb.set_supply(vbus=True)
        b.power_cut_and_boot()
        b.ok("sync")
        assert icon_pixels(b.vb.panel_image(1)) == 0          # USB again
        assert saved(flash).decode() == m.to_record()
    finally:
        b.stop()


def test_a_low_battery_is_told_once_on_both_panels(flash):
    b = boot(flash)
    try:
        m = new_real_game(b, flash)
        on_batteries(b, 3.0)
        b.ok("sync")
        warned = b.vb.panel_image(0)
        assert warned.crop((0, 0, 296, 12)).tobytes().count(0) > 100   # a notice's title bar
        assert b.vb.panel_image(1).tobytes() == warned.tobytes()       # on both panels
        golden_check(warned, "battery_low")
        b.vb.press(0, "draw")                 # any button closes the notice: nothing played
        b.ok("sync")
        assert saved(flash).decode() == m.to_record()
        assert icon_pixels(b.vb.panel_image(0)) > 0           # the game, and its gauge
    finally:
        b.stop()


def test_below_the_cut_off_the_game_is_saved_said_and_asleep(flash):
    b = boot(flash)
    try:
        m = play(b, new_real_game(b, flash), 4)
        rec = saved(flash)
        on_batteries(b, 2.6)
        # on batteries the table sleeps DORMANT (no serial port to sync
        # on): the panels are watched until both are in deep sleep
        end = time.monotonic() + 60
        while not all(b.vb.panel(p).asleep for p in (0, 1)) and time.monotonic() < end:
            time.sleep(0.05)
        for p in (0, 1):
            assert b.vb.panel(p).asleep                      # deep sleep, after...
        empty = b.vb.panel_image(0)
        golden_check(empty, "battery_empty")                 # ...saying so on the ink
        assert b.vb.panel_image(1).tobytes() == empty.tobytes()
        # a button while still empty: it stays asleep, the ink unchanged
        before = [b.vb.stats(p)["full"] + b.vb.stats(p)["partial"] for p in (0, 1)]
        b.vb.press(1, "draw")
        time.sleep(0.5)
        assert [b.vb.stats(p)["full"] + b.vb.stats(p)["partial"] for p in (0, 1)] == before
        # new batteries: power comes back and the game is where it was
        b.vb.set_supply(vsys=4.3)
        b.power_cut_and_boot()
        b.ok("sync")
        assert saved(flash) == rec
        from tests.support.real_game import same_game
        assert same_game(b, m), (b.status(), m.to_record()[-200:])
    finally:
        b.stop()


def test_auto_off_sleeps_and_any_button_wakes_the_same_game(flash):
    # settings.json "auto_off_s": the host hook for a short idle time (the
    # menu offers 5, 15 or 60 minutes)
    put(flash, "settings.json", json.dumps({"auto_off_s": 2}))
    b = boot(flash)
    try:
        m = play(b, new_real_game(b, flash), 3)
        st = b.status()
        game = [b.vb.panel_image(p).tobytes() for p in (0, 1)]
        time.sleep(4)
        asleep = b.vb.panel_image(0)
        assert asleep.tobytes() != game[0]
        golden_check(asleep, "sleeping")
        assert all(b.vb.panel(p).asleep for p in (0, 1))
        assert not b.vb.led(0) and not b.vb.led(1)
        b.vb.press(1, "right")                # wakes it: the press does nothing else
        b.ok("sync")
        assert b.status() == st and saved(flash).decode() == m.to_record()
        assert [b.vb.panel_image(p).tobytes() for p in (0, 1)] == game
    finally:
        b.stop()


def test_a_power_cut_while_asleep_loses_nothing(flash):
    put(flash, "settings.json", json.dumps({"auto_off_s": 1}))
    b = boot(flash)
    try:
        m = play(b, new_real_game(b, flash), 5)
        time.sleep(3)
        assert all(b.vb.panel(p).asleep for p in (0, 1))
        b.power_cut_and_boot()
        b.ok("sync")
        from tests.support.real_game import same_game
        assert same_game(b, m) and saved(flash).decode() == m.to_record()
    finally:
        b.stop()


def test_the_menu_sets_auto_off(tboard):
    rows = 8                                  # below Owner lock, with no game to resume
    for _ in range(rows):
        tboard.press(0, "right")
    for want in (60, 0, 5, 15):               # from the default, 15 min
        tboard.press(0, "ok")
        with open(os.path.join(tboard.flash, "settings.json")) as f:
            assert json.load(f)["auto_off"] == want
    golden_check(tboard.panel(0), "menu_auto_off")


def test_a_sync_at_boot_answers_after_the_first_battery_reading(flash):
    """The first battery reading after a boot comes on a main-loop turn
    after the one that reads the port (never while a panel refreshes); a
    ``sync`` waiting in the port when the firmware starts is read before
    it, and answers only once the reading is taken and the gauge it draws
    is on the ink (protocol.py settled): the order a loaded machine gives
    by chance, here every time."""
    b = RunningFirmware(flash)
    try:
        b.start()
        b.ok("sync")
        assert icon_pixels(b.vb.panel_image(0)) == 0          # on USB: no gauge
        b.vb.set_supply(vbus=False, vsys=4.2)
        b.table.cut()
        b.table.power_on()
        b.connect()
        b.write(b"sync\n")                                    # before the firmware runs
        line = b.readline(20)
        while not line.startswith("READY"):
            line = b.readline(20)
        assert b.readline(60) == "OK"
        assert icon_pixels(b.vb.panel_image(0)) > 40          # full: four bars, on the ink
        assert icon_pixels(b.vb.panel_image(1)) > 40
    finally:
        b.stop()
