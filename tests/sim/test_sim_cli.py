"""`okgin sim` as a user starts it: a game started from the command line, a
game that survives closing the simulator, --fresh, and no display."""
import os
import subprocess

from okgin.engine import Match
from okgin.table.session import clear_saved_state
from tests.support.sim import ROOT, env_with, okgin_cmd


def sim(args, tmp_path, script, **kw):
    s = tmp_path / "s.txt"
    s.write_text(script)
    return subprocess.run(okgin_cmd() + ["sim", "--headless", "--script", str(s), "--shots", str(tmp_path / "shots")]
                          + args, capture_output=True, text=True, env=env_with(), cwd=ROOT, timeout=90, **kw)


def status(stdout):
    line = [ln for ln in stdout.splitlines() if ln.startswith("OK screen=")][-1]
    return dict(w.split("=", 1) for w in line.split()[1:])


def test_seed_and_vs_start_a_game_against_the_computer_without_test_mode(tmp_path):
    r = sim(["--seed", "5", "--vs", "easy", "--flash-dir", str(tmp_path / "f")], tmp_path, "sync\nserial status\n")
    assert r.returncode == 0, r.stderr
    st = status(r.stdout)
    assert st["screen"] == "game" and st["vs"] == "easy" and st["testmode"] == "0"
    assert st["hand_no"] == "1"


def test_a_game_survives_closing_the_simulator(tmp_path):
    flash = str(tmp_path / "f")
    r = sim(["--seed", "9", "--flash-dir", flash], tmp_path, "sync\nserial status\n")
    assert r.returncode == 0, r.stderr
    first = status(r.stdout)
    assert first["screen"] == "game" and first["vs"] == "human"
    # next start, no game options: the firmware resumes the saved game
    r = sim(["--flash-dir", flash], tmp_path, "sync\nserial status\n")
    assert r.returncode == 0, r.stderr
    again = status(r.stdout)
    for k in ("screen", "hand_no", "dealer", "to_move", "phase", "discard", "knock_limit", "scores"):
        assert again[k] == first[k], k
    # --fresh forgets it
    r = sim(["--flash-dir", flash, "--fresh"], tmp_path, "sync\nserial status\n")
    assert r.returncode == 0, r.stderr
    assert status(r.stdout)["screen"] == "menu"


def test_fresh_removes_only_the_saved_game_and_settings(tmp_path):
    for name in ("game.okg", "game.tmp", "settings.json", "notes.txt"):
        (tmp_path / name).write_text("x")
    assert sorted(clear_saved_state(str(tmp_path))) == ["game.okg", "game.tmp", "settings.json"]
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


def test_without_display_or_terminal_it_says_what_to_do(tmp_path):
    env = env_with()
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    (tmp_path / "f").mkdir()
    r = subprocess.run(okgin_cmd() + ["sim", "--flash-dir", str(tmp_path / "f")], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip() == "okgin: no display and no terminal: use --headless --script FILE"


def test_a_display_that_cannot_be_opened_falls_back_to_the_terminal(tmp_path):
    env = env_with(DISPLAY=":4242")  # nothing listens there
    (tmp_path / "f").mkdir()
    r = subprocess.run(okgin_cmd() + ["sim", "--flash-dir", str(tmp_path / "f")], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert lines[0].startswith("okgin: no window (") and lines[0].endswith("); using the terminal")
    assert lines[1] == "okgin: no display and no terminal: use --headless --script FILE"


def test_a_script_can_power_cycle_and_the_game_resumes(tmp_path):
    r = sim(["--seed", "21", "--flash-dir", str(tmp_path / "f")], tmp_path,
            "sync\nserial status\nshot before\npowercycle\nsync\nserial status\nshot after\n")
    assert r.returncode == 0, r.stderr
    before, after = [dict(w.split("=", 1) for w in ln.split()[1:])
                     for ln in r.stdout.splitlines() if ln.startswith("OK screen=")]
    assert before == after and before["screen"] == "game"
    from PIL import Image
    for p in (0, 1):
        a = Image.open(tmp_path / "shots" / ("before-p%d.png" % p))
        b = Image.open(tmp_path / "shots" / ("after-p%d.png" % p))
        assert a.tobytes() == b.tobytes()  # the same screens after the restart


def test_sync_waits_for_the_computer_to_move(tmp_path):
    """After `sync` it is never the computer's turn: scripts against the
    computer see the position the human has to play."""
    seen_dealers = set()
    for seed in (1, 2, 3, 4):
        r = sim(["--seed", str(seed), "--vs", "easy", "--flash-dir", str(tmp_path / ("f%d" % seed))], tmp_path,
                "sync\nserial status\npress 0 draw\nsync\nserial status\n")
        assert r.returncode == 0, r.stderr
        for ln in r.stdout.splitlines():
            if ln.startswith("OK screen="):
                st = dict(w.split("=", 1) for w in ln.split()[1:])
                assert st["to_move"] == "0", st
        seen_dealers.add(status(r.stdout)["dealer"])
        if len(seen_dealers) == 2:
            break
    assert seen_dealers == {"0", "1"}  # the computer moved first at least once


def test_two_simulators_cannot_share_a_flash_dir(tmp_path):
    import fcntl
    flash = tmp_path / "f"
    flash.mkdir()
    with open(flash / ".okgin-lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running simulator holds it
        r = sim(["--flash-dir", str(flash)], tmp_path, "sync\n")
    assert r.returncode == 1
    assert r.stderr.startswith("okgin: the flash directory %s is in use by " % flash)
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.strip().endswith("(pid %d): close it, or use another flash directory" % os.getpid())


def test_bench_startup_prints_its_figures():
    r = subprocess.run(okgin_cmd() + ["sim", "--bench-startup", "1", "--headless", "--speed", "0"],
                       capture_output=True, text=True, env=env_with(), cwd=ROOT, timeout=90)
    assert r.returncode == 0, r.stderr
    assert "start-up, median of 1 cold boots (speed 0, headless):" in r.stdout
    for mark in ("ready", "first frame", "settled"):
        assert any(ln.split()[:len(mark.split())] == mark.split() and ln.rstrip().endswith(")")
                   for ln in r.stdout.splitlines()), mark


def test_a_mistyped_flash_dir_is_not_made_quietly(tmp_path):
    """Bad input loses nothing: a flash directory that does not exist
    would start a new table and hide the saved game, so okgin sim says so
    and makes nothing; --fresh (or a new game) asks for a new one."""
    (tmp_path / "okgin-flash").mkdir()
    r = sim(["--flash-dir", str(tmp_path / "okgin-flsh")], tmp_path, "sync\n")
    assert r.returncode == 1
    assert r.stderr.startswith("okgin: --flash-dir %s does not exist (mistyped?" % (tmp_path / "okgin-flsh"))
    assert not (tmp_path / "okgin-flsh").exists()
    r = sim(["--flash-dir", str(tmp_path / "new"), "--fresh"], tmp_path, "sync\n")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "new").is_dir()


def test_a_new_game_from_the_command_line_keeps_the_one_in_progress(tmp_path):
    flash = tmp_path / "f"
    r = sim(["--seed", "9", "--vs", "easy", "--flash-dir", str(flash)], tmp_path,
            "sync\npress 0 draw\nsync\nserial status\n")
    assert r.returncode == 0, r.stderr
    playing = (flash / "game.okg").read_bytes()
    assert len(playing.splitlines()) > 4           # header, rules, match, the moves
    # the README's first example, on the same flash: a new game, its deal
    # random; the computer may already have moved (in about 1 deal of 4,000
    # it takes the upcard and knocks at once: seed 820583258, hand 2)...
    r = sim(["--vs", "hard", "--flash-dir", str(flash)], tmp_path, "sync\nserial status\n")
    assert r.returncode == 0, r.stderr
    record = (flash / "game.okg").read_text()
    new = Match.from_record(record)
    assert new.players == ("human", "hard") and new.seed != 9
    moves = [ln.split() for ln in record.splitlines() if ln[:1].isdigit()]
    assert all(w[1] == "1" for w in moves), "the player has moved in a game just started: %r" % moves
    st = status(r.stdout)
    assert st["vs"] == "hard" and st["hand_no"] == str(new.hand_no) and \
        st["scores"] == "%d,%d" % tuple(new.scores)
    # ...and the old one kept whole, the user told where and which it was
    kept = [p for p in os.listdir(flash) if p.startswith("replaced-")]
    assert len(kept) == 1 and (flash / kept[0]).read_bytes() == playing
    said = [ln for ln in r.stderr.splitlines() if kept[0] in ln]
    assert len(said) == 1 and "against easy, hand 1, 0-0" in said[0], r.stderr
    # put back, it is the game that was being played
    os.replace(flash / kept[0], flash / "game.okg")
    r = sim(["--flash-dir", str(flash)], tmp_path, "sync\nserial status\n")
    assert status(r.stdout)["vs"] == "easy" and (flash / "game.okg").read_bytes().startswith(playing)
