"""okgin replay --chip: a record's positions put on the emulated Pico's flash
through its REPL (okgin.table.files' REPL kind) with the power off, each
resumed and drawn by the firmware as the virtual board resumes it."""
import random
import subprocess

from PIL import Image

from tests.support.chip import ROOT
from tests.support.host import okgin_cmd


def _record(actions, seed=5):
    from okgin.engine import Match
    m = Match(seed=seed, dealer=0)
    rng = random.Random(seed)
    for _ in range(actions):
        m.play(rng.choice(m.legal_actions()))
    return m


def _positions(out):
    return [line for line in out.splitlines() if line.startswith("[")]


def test_replay_on_the_emulated_pico_resumes_every_position_as_the_virtual_board(
        rp2_images, tmp_path):
    rec = tmp_path / "game.okg"
    rec.write_text(_record(2).to_record())
    shots = tmp_path / "shots"
    r = subprocess.run(okgin_cmd("replay", str(rec), "--chip", "--quiet", "--shots", str(shots)),
                       cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    on_chip = _positions(r.stdout)
    assert len(on_chip) == 3 and on_chip[0].startswith("[1/3] hand 1, deal")
    # the same positions, the same status, as on the virtual board
    v = subprocess.run(okgin_cmd("replay", str(rec), "--quiet"), cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert v.returncode == 0, v.stderr
    assert on_chip == _positions(v.stdout)
    assert all("screen=game" in line for line in on_chip)
    imgs = [Image.open(shots / ("%03d.png" % i)).convert("L") for i in (1, 2, 3)]
    assert all(img.getextrema()[0] < 80 for img in imgs)        # ink on every shot
    assert len({img.tobytes() for img in imgs}) == 3             # each position differs
