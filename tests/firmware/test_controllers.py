"""A second display controller without touching app.py (firmware/display.py
is the seam): the whole firmware on UC8151 panels shows, pixel for pixel,
the screens it shows on SSD1680 panels, through a different driver
(firmware/uc8151.py: other commands, BUSY active low, every update a full
refresh) and a different emulation (host/vboard/uc8151.py); player 2's
panel is mounted the other way round (rotation 270) on the second board."""
import json
import os

from tests.support.harness import BOARD_2IN9, RunningFirmware, make_flash


def _play(tmp_path, name, controller, rotations=(90, 90)):
    flash = make_flash(str(tmp_path / name))
    with open(BOARD_2IN9) as f:
        board = json.load(f)
    for player, rotation in zip(board["players"], rotations, strict=True):
        player["panel"]["controller"] = controller
        player["panel"]["rotation"] = rotation
    path = os.path.join(flash, "board.json")
    with open(path, "w") as f:
        json.dump(board, f)
    b = RunningFirmware(flash, board_json=path)
    b.start()
    try:
        shots = []
        b.ok("testmode on")
        for step in ("newgame seed=4 dealer=0", "press 1 draw", "press 0 right", "press 0 draw"):
            b.ok(step)
            b.ok("sync")
            shots.append([b.vb.panel_image(p).tobytes() for p in (0, 1)])
        counts = [b.vb.refresh_counts(p) for p in (0, 1)]
        logs = [b.vb.panel(p).log for p in (0, 1)]
        return shots, counts, logs
    finally:
        b.stop()


def test_uc8151_panels_show_what_ssd1680_panels_show(tmp_path):
    want, ssd_counts, _ = _play(tmp_path, "ssd1680", "SSD1680")
    got, uc_counts, logs = _play(tmp_path, "uc8151", "UC8151", rotations=(90, 270))
    assert logs == [[], []]            # no command the emulation had to ignore
    assert len({s[0] for s in want}) == len(want)    # every step changed the screen
    for step, (a, b) in enumerate(zip(want, got, strict=True)):
        assert a == b, "step %d: the UC8151 panels differ" % step
    # the UC8151 has no partial refresh: every update is a full one (how
    # many depends on when the app drew an intermediate screen)
    for p in (0, 1):
        assert ssd_counts[p]["partial"] > 0 and uc_counts[p]["partial"] == 0
        assert uc_counts[p]["full"] >= 4
