"""okgin screenshots (host/screenshots.py): the README's pictures are drawn
by a command from the checkout's firmware, and the committed ones show
what that firmware draws now (a change of the screens without `make
screenshots` fails here). The panels are compared pixel for pixel; the
frames around them (Tk's and chromium's labels and buttons) are the
machine's and are not."""
import os
import shutil
import subprocess

import pytest
from PIL import Image

from okgin import screenshots
from tests.support.sim import ROOT, env_with, find_panel, okgin_cmd

IMG = os.path.join(ROOT, "docs", "img")


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    """The board's panels after the pictures' scene, on the default table."""
    s = screenshots.play_on_board(str(tmp_path_factory.mktemp("flash")))
    try:
        return [s.panel(0), s.panel(1)]
    finally:
        s.close()


AGAIN = "run `make screenshots` (okgin screenshots) and commit docs/img"


def test_the_committed_pictures_show_what_the_firmware_draws_now(scene):
    """docs/img/sim.png and web.png show both players' panels exactly as the
    virtual board draws them after the scene, and text.txt is the text view
    of those panels."""
    for name in ("sim.png", "web.png"):
        shot = Image.open(os.path.join(IMG, name))
        for p in (0, 1):
            assert find_panel(shot, scene[p]) is not None, \
                "docs/img/%s does not show player %d's panel as the firmware draws it: %s" % (name, p + 1, AGAIN)
    with open(os.path.join(IMG, "text.txt"), encoding="utf-8") as f:
        assert f.read() == screenshots.text_view(scene), "docs/img/text.txt is stale: " + AGAIN
    # the scene is a turn in play: player 1 to discard, the opponent's move shown
    text = screenshots.text_view(scene)
    assert "P1" in text and "P2" in text and any(s in text for s in "\u2663\u2666\u2665\u2660")


def test_the_command_draws_the_window_and_the_text_view(scene, tmp_path):
    """okgin screenshots --only sim,text writes a window whose panels are
    the board's (at a whole scale), and the text view the committed one is."""
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed (apt install xvfb) - the window needs an X server")
    pytest.importorskip("tkinter")
    r = subprocess.run(okgin_cmd() + ["screenshots", "--only", "sim,text", "--out", str(tmp_path)],
                       cwd=ROOT, env=env_with(), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["sim.png", "text.txt"]
    shot = Image.open(tmp_path / "sim.png")
    found = [find_panel(shot, scene[p]) for p in (0, 1)]
    assert all(found), found
    assert found[0][1] == found[1][1] and found[0][0] < found[1][0]       # side by side
    assert (tmp_path / "text.txt").read_text(encoding="utf-8") == screenshots.text_view(scene)


def test_a_bad_option_is_one_line(tmp_path):
    for args, says in ((["--only", "sim,photo"], "--only: the pictures are sim, web, text, not photo"),
                       (["--board", "nowhere.json"], "board definition")):
        r = subprocess.run(okgin_cmd() + ["screenshots", "--out", str(tmp_path)] + args,
                           cwd=ROOT, env=env_with(), capture_output=True, text=True, timeout=120)
        assert r.returncode == 1 and r.stderr.startswith("okgin: ") and says in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    assert os.listdir(tmp_path) == []
