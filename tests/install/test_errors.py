"""The bad inputs users give, to the installed okgin (tests/install/
conftest.py: a clean environment, a folder outside the checkout, and no
OpenSpiel: the wheel does not install it, so its absence is real): each
command stops with its exit status and one line that names the fix, never
a traceback.

Exit status 1 is a command's own error: exactly one line, `okgin: ...`.
Exit status 2 is a command-line mistake, argparse's: the usage, then one
line `okgin X: error: ...`.
"""
import os
import stat

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def readonly(tmp_path_factory):
    """A folder nobody here can write to: a mode 0555 folder, or for root
    (whom modes do not stop) /sys, which the kernel keeps read-only."""
    if os.geteuid() == 0:
        return "/sys"
    d = tmp_path_factory.mktemp("readonly")
    d.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    return str(d)


def one_line(r, status, *words):
    """r stopped with status and one line holding every word."""
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert r.returncode == status, (r.returncode, r.stdout[-1000:], r.stderr[-1000:])
    lines = r.stderr.strip().splitlines()
    if status == 1:
        assert len(lines) == 1 and lines[0].startswith("okgin: "), r.stderr
    else:
        assert lines[0].startswith("usage: okgin") and ": error: " in lines[-1], r.stderr
    for w in words:
        assert w in lines[-1], (w, lines[-1])
    return lines[-1]


def test_output_folders_missing_or_read_only(installed, readonly):
    run, cwd = installed
    one_line(run("okgin", "uf2", "-o", "nowhere/okgin.uf2"), 1, "nowhere", "does not exist")
    one_line(run("okgin", "uf2", "-o", os.path.join(readonly, "okgin.uf2")), 1,
             readonly, "not writable", "-o ~/okgin.uf2")
    assert not (cwd / "okgin.uf2.tmp").exists()
    one_line(run("okgin", "web", "--build", os.path.join(readonly, "site")), 1, readonly, "can write to")
    one_line(run("okgin", "hardware", "build", "--out", os.path.join(readonly, "case"), "--no-renders"),
             1, readonly, "can write to")
    (cwd / "s.txt").write_text("sync\nshot a\n")
    one_line(run("okgin", "sim", "--headless", "--script", "s.txt", "--shots", os.path.join(readonly, "shots")),
             1, readonly, "can write to")
    one_line(run("okgin", "tourney", "hard", "greedy", "--games", "1", "--json",
                 os.path.join(readonly, "t.json")), 1, readonly)
    one_line(run("okgin", "hil", "--sim", "-k", "handshake", "--junit", os.path.join(readonly, "j.xml")),
             1, readonly)


def test_a_missing_extra_is_named_in_help_and_in_one_line(installed):
    run, cwd = installed
    r = run("python", "-c", "import pyspiel")
    assert r.returncode == 1 and "No module named 'pyspiel'" in r.stderr     # really absent
    line = one_line(run("okgin", "tourney", "hard", "openspiel", "--games", "2"), 1, "pip install open_spiel")
    assert "OpenSpiel" in line
    assert "openspiel needs OpenSpiel" in run("okgin", "tourney", "--help").stdout


def test_no_board_and_wrong_ports(installed):
    run, cwd = installed
    for cmd in (["flash"], ["hil"], ["stats"]):
        one_line(run("okgin", *cmd, "--port", "/dev/ttyNOPE"), 1, "/dev/ttyNOPE", "no such port")
    r = run("okgin", "flash")
    if r.returncode == 0 or "no MicroPython board found" not in r.stderr:
        pytest.skip("a board is plugged in here")
    one_line(r, 1, "no MicroPython board found", "--port")


def test_records_scripts_and_board_files_that_are_not_right(installed):
    run, cwd = installed
    (cwd / "junk.okg").write_text("garbage\nmore\n")
    one_line(run("okgin", "replay", "junk.okg", "--quiet"), 1, "junk.okg", "not a valid game record")
    one_line(run("okgin", "replay", "missing.okg"), 1, "missing.okg")
    # a record damaged after its start: the valid lines are replayed, the damage said
    from okgin.engine import Match
    with open(os.path.join(ROOT, "tests", "firmware", "fixtures", "v1-vs-easy.okg")) as f:
        lines = Match.from_record(f.read()).to_record().splitlines()     # with each line's check
    lines[6] = lines[6].replace(" Kh ", " Kd ")          # 4 1 discard Kh: a byte changed
    (cwd / "damaged.okg").write_text("\n".join(lines) + "\n")
    r = run("okgin", "replay", "damaged.okg", "--quiet")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "line 7: damaged line" in r.stdout + r.stderr
    one_line(run("okgin", "sim", "--headless"), 1, "--script FILE", "okgin sim --help")
    one_line(run("okgin", "sim", "--headless", "--script", "missing.txt"), 1, "missing.txt")
    (cwd / "s.txt").write_text("sync\n")
    (cwd / "bad.txt").write_text("sync\npress 0 jump\n")
    one_line(run("okgin", "sim", "--headless", "--script", "bad.txt"), 1, "bad.txt:2", "jump")
    (cwd / "board.json").write_text('{"bad": 1}')
    one_line(run("okgin", "sim", "--headless", "--script", "s.txt", "--board", "board.json"), 1, "board.json")
    one_line(run("okgin", "uf2", "--board", "nope.json"), 1, "nope.json", "not found")
    one_line(run("okgin", "board", "--board", "nope.json"), 1, "nope.json", "not found")
    one_line(run("okgin", "stats", "--flash-dir", "nowhere"), 1, "nowhere", "does not exist")


def test_bad_option_values_and_names(installed):
    run, cwd = installed
    one_line(run("okgin", "sim", "--lang", "xx"), 2, "the table speaks en")
    one_line(run("okgin", "tourney", "hard", "greedy", "--games", "abc"), 2, "--games", "'abc'")
    one_line(run("okgin", "tourney", "hard", "greedy", "--games", "0"), 1, "--games", "at least 1")
    one_line(run("okgin", "tourney", "hard", "bogus"), 1, "'bogus'", "choose from")
    one_line(run("okgin", "bench", "bogus"), 2, "'bogus'", "engine")
    one_line(run("okgin", "faults", "--rows", "bogus"), 1, "'bogus'", "damage")
    one_line(run("okgin", "simm"), 2, "did you mean okgin sim?")
    one_line(run("okgin", "sim", "--vss", "hard"), 2, "did you mean --vs?")
    one_line(run("okgin", "glyphs", "--hex", "nope.hex"), 1, "nope.hex", "unifont")
