"""okgin screenshots draws the README's picture of the web page: the page
after the pictures' scene, its canvases the virtual board's panels
(host/screenshots.py; the committed pictures: tests/sim/test_screenshots.py)."""
from PIL import Image

from tests.support.sim import find_panel


def test_the_command_draws_the_page_with_the_boards_panels(site, tmp_path):
    # (``site``: the web page's set-up, skipped as every page test where
    # npm or chromium is missing)
    from okgin import screenshots
    s = screenshots.play_on_board(str(tmp_path / "flash"))
    try:
        panels = [s.panel(0), s.panel(1)]
    finally:
        s.close()
    assert screenshots.make(str(tmp_path / "out"), only=("web",), say=lambda *a: None) == \
        [str(tmp_path / "out" / "web.png")]
    shot = Image.open(tmp_path / "out" / "web.png")
    found = [find_panel(shot, panels[p]) for p in (0, 1)]
    assert all(found), found
    # side by side, each 200x150 screen at a whole number of pixels
    assert found[0][1] == found[1][1] and found[0][0] < found[1][0] and found[0][2] >= 2
