"""`okgin stats`: the table's statistics read over the serial port, from
the simulator's virtual board when no port is given (a fresh clone too),
as a table or JSON; a bad port is one error line."""
import json
import os
import subprocess

from tests.support.host import ROOT, okgin_cmd


def _run(*args, env=None):
    return subprocess.run(okgin_cmd("stats", *args), cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env)


def test_a_fresh_clone_reads_the_simulators_board(tmp_path):
    # no simulator flash yet: okgin stats makes it, boots it, and reads zeros
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    r = _run("--json", env=env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["games"] == 0 and d["last"] == [] and set(d["by"]) == {"human", "easy", "normal", "hard"}
    assert os.path.isdir(os.path.join(str(tmp_path), "okgin", "sim-flash"))
    r = _run(env=env)
    assert r.returncode == 0 and r.stdout.startswith("okgin statistics: 0 games")
    assert "vs hard (You-CPU)" in r.stdout and "last games, newest first: -" in r.stdout


def test_the_table_shows_what_the_board_counted(tmp_path):
    import stats   # the firmware's module writes the file as the board does
    d = stats.fresh()
    d["games"] = 3
    d["by"]["hard"]["games"] = [1, 2]
    d["by"]["hard"]["hands"] = [9, 14]
    d["by"]["human"]["gins"] = [0, 1]
    d["biggest"] = [74, 1, "hard"]
    d["last"] = [["hard", 1, 61, 328, 1], ["human", 0, 454, 120, 3]]
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "stats.json").write_text(json.dumps(d))
    r = _run("--flash-dir", str(flash))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "okgin statistics: 3 games"
    hard = [ln for ln in lines if ln.startswith("vs hard")][0].split()
    assert hard[3:7] == ["1-2", "9-14", "0-0", "0-0"]
    assert "biggest hand: 74 points, CPU (vs hard)" in lines
    assert "  vs hard    CPU won 328-61" in lines
    assert "  2 players  P1 won 454-120 (Hollywood: 3 games)" in lines


def test_a_port_that_is_not_there_is_one_error_line():
    r = _run("--port", "/dev/okgin-nonexistent")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("okgin: cannot open /dev/okgin-nonexistent")
    assert len(r.stderr.strip().splitlines()) == 1
