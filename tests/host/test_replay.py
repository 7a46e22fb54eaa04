"""okgin replay: every position of a record drawn by the real firmware."""
import random
import subprocess

from PIL import Image

from tests.support.host import ROOT, okgin_cmd


def _record(actions, seed=5, players=None):
    from okgin.engine import Match
    m = Match(seed=seed, dealer=0, players=players)
    rng = random.Random(seed)
    for _ in range(actions):
        m.play(rng.choice(m.legal_actions()))
    return m


def test_replay_saves_one_shot_per_position_showing_the_game(tmp_path):
    m = _record(6)
    rec = tmp_path / "game.okg"
    rec.write_text(m.to_record())
    shots = tmp_path / "shots"
    r = subprocess.run(okgin_cmd("replay", str(rec), "--shots", str(shots), "--quiet"),
                       cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    files = sorted(p.name for p in shots.iterdir())
    assert files == ["%03d.png" % i for i in range(1, 8)]   # the deal + 6 actions
    lines = [l for l in r.stdout.splitlines() if l.startswith("[")]
    assert lines[0].startswith("[1/7] hand 1, deal")
    last = m.observation(0)["history"][-1].split(" ", 1)
    assert ("player %s: %s" % tuple(last)) in lines[-1]
    imgs = [Image.open(shots / f).convert("L") for f in files]
    assert all(img.getextrema()[0] < 80 for img in imgs)    # ink on every shot
    assert len({img.tobytes() for img in imgs}) == len(imgs)  # each position differs


def test_a_game_against_the_computer_replays_as_one(tmp_path):
    """The record says who played seat 1, so the replay
    shows the computer's seat as the table did (its cards face down), and
    the computer does not move on its own during the replay."""
    shots = {}
    for players in (("human", "easy"), ("human", "human")):
        m = _record(4, players=players)
        rec = tmp_path / ("%s.okg" % players[1])
        rec.write_text(m.to_record())
        out = tmp_path / players[1]
        r = subprocess.run(okgin_cmd("replay", str(rec), "--shots", str(out), "--quiet"),
                           cwd=ROOT, capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, r.stderr
        lines = [l for l in r.stdout.splitlines() if l.startswith("[")]
        assert len(lines) == 5 and all(l.endswith("vs=%s)" % players[1]) for l in lines)
        assert r.stdout.splitlines()[0] == "%s: %s" % (rec, "two players" if players[1] == "human"
                                                       else "against the computer (easy), "
                                                            "which plays seat 1")
        shots[players[1]] = Image.open(out / "005.png")
    # seat 1's half of the shot: the computer's face-down cards, not a hand
    w, h = shots["easy"].size
    right = (w // 2, 0, w, h)
    assert shots["easy"].crop(right).tobytes() != shots["human"].crop(right).tobytes()


def _replay(rec, *args):
    return subprocess.run(okgin_cmd("replay", str(rec), "--quiet", *args), cwd=ROOT, capture_output=True,
                          text=True, timeout=180)


def test_a_damaged_line_ends_the_good_part_as_on_the_table(tmp_path):
    """One damaged line in the middle: the table resumes the lines before
    it (firmware/recover.py), and so does the replay, saying which line."""
    lines = _record(5).to_record().splitlines()
    lines[5] = lines[5].replace(lines[5].split()[3], "Kh" if "Kh" not in lines[5] else "Qh")   # a card changed
    rec = tmp_path / "bad.okg"
    rec.write_text("\n".join(lines) + "\n")
    r = _replay(rec)
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == ("okgin replay: %s: line 6: damaged line %r (its check does not match); "
                                "replaying the 5 lines before it, as the table resumes this record "
                                "(docs/reliability.md)" % (rec, lines[5][:60]))
    assert len([ln for ln in r.stdout.splitlines() if ln.startswith("[")]) == 3   # the deal + 2 actions


def test_the_last_line_changed_is_damage_and_cut_is_cut_short(tmp_path):
    lines = _record(4).to_record().splitlines()
    changed = lines[:-1] + [lines[-1][:-1] + ("0" if lines[-1][-1] != "0" else "1")]
    (tmp_path / "changed.okg").write_text("\n".join(changed) + "\n")
    r = _replay(tmp_path / "changed.okg")
    assert r.returncode == 0 and "(its check does not match)" in r.stderr and "cut short" not in r.stderr
    torn = lines[:-1] + [lines[-1][:-5]]                                   # the write stopped mid-line
    (tmp_path / "torn.okg").write_text("\n".join(torn))
    r = _replay(tmp_path / "torn.okg")
    assert r.returncode == 0 and "the record was cut short" in r.stderr, r.stderr


def test_a_record_without_a_usable_header_is_a_one_line_error_naming_the_line(tmp_path):
    text = _record(3).to_record().splitlines()
    text[2] = text[2].replace("seed=", "seed=1")
    rec = tmp_path / "bad.okg"
    rec.write_text("\n".join(text) + "\n")
    r = _replay(rec)
    assert r.returncode == 1
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("okgin: %s: not a valid game record" % rec) and "line 3" in err


def test_missing_record_file_is_a_one_line_error(tmp_path):
    r = subprocess.run(okgin_cmd("replay", str(tmp_path / "nope.okg")), cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr.startswith("okgin: cannot read record")
