"""The headless script format: every command parses, every mistake is named
with its file and line, and a bad script stops before the board boots."""
import subprocess

import pytest

from okgin.simui import script
from okgin.simui.script import ScriptError
from tests.support.sim import ROOT, env_with, okgin_cmd

GOOD = """\
# a comment line
press 0 right
press 1 OK long      # buttons are case-insensitive
hold 0 left
release 0 left

wait 250
sync
shot start_1
serial testmode on
powercycle
"""


def test_every_command_parses_with_its_line_number():
    steps = script.parse(GOOD, "s.txt")
    assert steps == [
        (2, "press", (0, "right", False)),
        (3, "press", (1, "ok", True)),
        (4, "hold", (0, "left", False)),
        (5, "release", (0, "left", False)),
        (7, "wait", (250,)),
        (8, "sync", ()),
        (9, "shot", ("start_1",)),
        (10, "serial", ("testmode on",)),
        (11, "powercycle", ()),
    ]


@pytest.mark.parametrize("line, message", [
    ("pres 0 ok", "unknown command 'pres'"),
    ("press 2 ok", "player must be 0 or 1"),
    ("press 0 jump", "unknown button 'jump'"),
    ("press 0", "expected 'press PLAYER BUTTON [long]'"),
    ("press 0 ok short", "expected 'long' after the button"),
    ("hold 0 ok long", "expected 'hold PLAYER BUTTON'"),
    ("wait", "expected 'wait MILLISECONDS'"),
    ("wait -5", "expected 'wait MILLISECONDS'"),
    ("wait 1.5", "expected 'wait MILLISECONDS'"),
    ("sync now", "'sync' takes no arguments"),
    ("shot ../../etc/passwd", "expected 'shot NAME'"),
    ("shot", "expected 'shot NAME'"),
    ("serial", "expected 'serial LINE'"),
    ("serial " + "x" * 201, "at most 200 ASCII characters"),
])
def test_bad_lines_are_named_with_file_and_line(line, message):
    with pytest.raises(ScriptError) as e:
        script.parse("press 0 ok\n# fine so far\n" + line + "\n", "game.txt")
    assert str(e.value).startswith("game.txt:3: ")
    assert message in str(e.value)


def test_a_bad_script_fails_cleanly_before_the_board_boots(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("press 0 ok\nshot x\npress 0 sideways\n")
    shots = tmp_path / "shots"
    r = subprocess.run(okgin_cmd() + ["sim", "--headless", "--script", str(bad), "--shots", str(shots)],
                       capture_output=True, text=True, env=env_with(), cwd=ROOT, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip() == "okgin: %s:3: unknown button 'sideways' (one of left, right, ok, draw, take, knock): press 0 sideways" % bad
    assert "Traceback" not in r.stderr
    assert not shots.exists()  # nothing ran


@pytest.mark.parametrize("argv, message", [
    (["--script", "x.txt"], "--script needs --headless"),
    (["--headless"], "--headless needs --script FILE"),
    (["--headless", "--script", "/nonexistent/s.txt"], "cannot read script /nonexistent/s.txt"),
    (["--headless", "--script", "/dev/null", "--flash-dir", "/etc/hostname"], "--flash-dir /etc/hostname is not a directory"),
    (["--headless", "--script", "/dev/null", "--board", "/nonexistent/board.json"], "board definition /nonexistent/board.json not found"),
])
def test_option_mistakes_get_one_clear_line(argv, message):
    r = subprocess.run(okgin_cmd() + ["sim"] + argv, capture_output=True, text=True,
                       env=env_with(), cwd=ROOT, timeout=60)
    assert r.returncode == 1
    assert message in r.stderr and "Traceback" not in r.stderr


def test_bad_option_values_are_refused_by_the_parser():
    for argv in (["--speed", "fast"], ["--scale", "0"], ["--seed", "-1"], ["--vs", "god"]):
        r = subprocess.run(okgin_cmd() + ["sim"] + argv, capture_output=True, text=True,
                           env=env_with(), cwd=ROOT, timeout=60)
        assert r.returncode == 2, argv
        assert "error:" in r.stderr and "Traceback" not in r.stderr


def test_help_is_short_and_has_examples():
    r = subprocess.run(okgin_cmd() + ["sim", "--help"], capture_output=True, text=True,
                       env=env_with(), cwd=ROOT, timeout=60)
    assert r.returncode == 0
    assert "examples:" in r.stdout and "okgin sim --vs hard" in r.stdout
    assert "player 1 (seat 0)  A/D left/right" in r.stdout
    # a screenful and a half: the help carries the script format itself
    # since issue 39 (a pip user has no docs/simulator.md)
    assert len(r.stdout.splitlines()) < 72


def test_a_missing_micropython_is_one_clear_line(tmp_path):
    s = tmp_path / "s.txt"
    s.write_text("sync\n")
    (tmp_path / "f").mkdir()
    r = subprocess.run(okgin_cmd() + ["sim", "--headless", "--script", str(s), "--flash-dir", str(tmp_path / "f")],
                       capture_output=True, text=True, env=env_with(OKGIN_MICROPYTHON="/nonexistent/micropython"),
                       cwd=ROOT, timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith("okgin: ") and "micropython" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
