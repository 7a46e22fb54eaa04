"""Headless mode: a script of presses drives the board and the shots are
exactly what the panels show."""
import os
import subprocess

from PIL import Image

from okgin.simui import script
from tests.support.sim import ROOT, env_with, okgin_cmd


def same(a, b):
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def test_shots_are_the_panels_pixel_for_pixel(session, tmp_path):
    steps = script.parse("sync\nshot boot\npress 0 right\nsync\nshot moved\n")
    written = script.run(session, steps, str(tmp_path), out=lambda *a: None)
    assert [os.path.basename(p) for p in written] == [
        "boot.png", "boot-p0.png", "boot-p1.png", "moved.png", "moved-p0.png", "moved-p1.png"]
    for p in (0, 1):
        shot = Image.open(tmp_path / ("moved-p%d.png" % p))
        assert shot.size == (400, 300) and shot.mode == "1"     # the default table's 4.2" panels
        assert same(shot, session.panel(p))
    # the press reached the board: player 0's panel changed
    assert not same(Image.open(tmp_path / "boot-p0.png"), Image.open(tmp_path / "moved-p0.png"))
    both = Image.open(tmp_path / "moved.png")
    assert both.mode == "RGB" and both.width > 2 * 400 * 2 and both.height > 300 * 2


def test_a_refused_serial_line_stops_the_script_at_its_line(session, tmp_path):
    steps = script.parse("shot a\nserial frobnicate\nshot b\n", "s.txt")
    try:
        script.run(session, steps, str(tmp_path), out=lambda *a: None, filename="s.txt")
    except script.ScriptError as e:
        assert str(e).startswith("s.txt:2: the board answered ERR")
    else:
        raise AssertionError("an ERR reply must stop the script")
    assert (tmp_path / "a.png").exists() and not (tmp_path / "b.png").exists()


def test_okgin_sim_headless_end_to_end(tmp_path):
    s = tmp_path / "s.txt"
    s.write_text("sync\nshot first\nserial hello\n")
    shots = tmp_path / "out"
    (tmp_path / "flash").mkdir()
    r = subprocess.run(okgin_cmd() + ["sim", "--headless", "--script", str(s), "--shots", str(shots),
                                      "--flash-dir", str(tmp_path / "flash")],
                       capture_output=True, text=True, env=env_with(), cwd=ROOT, timeout=90)
    assert r.returncode == 0, r.stderr
    assert "shot %s" % (shots / "first.png") in r.stdout
    assert "> hello\nOK okgin " in r.stdout
    for name in ("first.png", "first-p0.png", "first-p1.png"):
        assert (shots / name).exists()
    # the panel has something on it (the firmware drew its first screen)
    assert Image.open(shots / "first-p0.png").convert("L").getextrema()[0] == 0


def test_sync_waits_for_the_ink_to_settle(make_board):
    """At a real e-ink speed a shot after `sync` is taken with both panels
    idle (BUSY low), not in the middle of a refresh."""
    import time
    from okgin.table.session import Session
    s = Session(make_board(speed=0.2))   # full refresh 0.5 s, partial 0.08 s
    try:
        s.start()
        for step in ("boot", "press"):
            if step == "press":
                s.press(0, "right")
            s.sync()
            now = time.monotonic()
            for p in (0, 1):
                end = s.board.panel(p).busy_end()
                assert end is None or end <= now, (step, p)
    finally:
        s.close()


def test_the_coach_in_the_simulator_is_on_the_asking_players_panel_only(session, tmp_path):
    """Hold DRAW (the simulator's long press) on your turn: the coach's
    notice on your panel; the other panel as it was (issue 26)."""
    steps = script.parse("serial testmode on\nserial newgame seed=11 vs=hard dealer=1\nsync\n"
                         "shot before\npress 0 draw long\nsync\nshot coach\n"
                         "press 0 left\nsync\nshot closed\n")
    script.run(session, steps, str(tmp_path), out=lambda *a: None)

    def title_bar(name):
        img = Image.open(tmp_path / name).convert("1")
        return img.crop((0, 0, 200, 12)).tobytes().count(0) > 120
    assert title_bar("coach-p0.png") and not title_bar("before-p0.png")
    assert same(Image.open(tmp_path / "coach-p1.png"), Image.open(tmp_path / "before-p1.png"))
    # a notice, not the error screen: any button closes it, nothing else
    assert same(Image.open(tmp_path / "closed-p0.png"), Image.open(tmp_path / "before-p0.png"))
