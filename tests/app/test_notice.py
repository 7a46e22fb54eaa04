"""A notice or an error (firmware/screens.py error): its text from the line
under the title bar to the footer, six lines on the 2.9", seven on the
4.2"; and the coach's notices (firmware/coachview.py fits, which picks a
shorter form when the long one does not fit) count the same lines as the
screen draws, so that no notice loses a line nor takes a short form it
does not need, without loading the drawing code. Drawn by the firmware under MicroPython."""
import json
import os
import subprocess

import pytest

from tests.support import micropython
from tests.support.sim import ROOT

SCRIPT = r"""
import sys, json, framebuf
sys.path.insert(0, sys.argv[1])
import text
W, H = int(sys.argv[2]), int(sys.argv[3])
text.size(W, H)
import i18n
i18n.DIR = sys.argv[1] + "/lang/"
i18n.load("en")
import screens, coachview
fb = framebuf.FrameBuffer(bytearray(W * ((H + 7) // 8)), W, H, framebuf.MONO_VLSB)
for n in range(1, 10):
    lines = ["Line %d of the notice" % k for k in range(n)]
    # a title in its bar, and one a little wider than the screen: two lines
    for title in ("Coach", " ".join(["word"] * (W // 40 + 1))):
        text.CHECK = []
        screens.error(fb, title, lines, "OK back")
        drawn = [c for c in text.CHECK if c[3] > 0 and c[1] > 0 and c[1] < screens.FOOT_Y]
        lost = [c for c in text.CHECK if c[3] <= 0]
        # as at a review's end, when the coach has dropped the drawing code
        sys.modules.pop("screens", None)
        fits = coachview.fits(title, lines)
        loads = "screens" in sys.modules
        import screens
        print(json.dumps({"n": n, "long": len(title) > 10, "drawn": len(drawn), "tops": [c[1] for c in drawn],
                          "lost": len(lost), "fits": fits, "loads_screens": loads}))
"""


@pytest.mark.parametrize("w, h, most", [(296, 128, 6), (200, 150, 7)], ids=["2in9", "4in2"])
def test_a_notice_takes_every_line_to_the_footer_and_the_coach_counts_them(w, h, most):
    r = subprocess.run([micropython(), "-c", SCRIPT, os.path.join(ROOT, "firmware"), str(w), str(h)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(recs) == 18
    for rec in recs:
        # the lines shown: every one while they fit, then as many as fit
        head = 2 if rec["long"] else 0     # a title too wide for its bar: the first two lines
        room = most - head
        assert rec["drawn"] == min(rec["n"] + head, most), rec
        assert rec["lost"] == (1 if rec["n"] > room else 0), rec      # the first line with no room
        # the coach's count agrees with the screen: it fits when nothing is lost
        assert rec["fits"] == (rec["lost"] == 0), rec
        # without importing screens: a review's last step counts its notice's
        # lines when the coach has dropped the drawing code, and importing it
        # there, into the heap the review's search left, ran out of heap
        # (tests/firmware/test_memory.py's Korean coach game, 1 in 20 at 184K)
        assert not rec["loads_screens"], rec
        # text lines at multiples of 8 (text.py copies them), the first under the bar
        assert rec["tops"][0] == 16 and all(y % 8 == 0 for y in rec["tops"]), rec
