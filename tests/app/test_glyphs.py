"""Glyphs that read (issue 37): the cut glyph files (okgin glyphs) and
the firmware's own drawing of them (firmware/text.py under the MicroPython
unix port).

- Lines are stacked 16 px apart with no leading, so a glyph's top row
  stays blank: no ink of one line touches the line above (Unifont draws
  the caron of Ž and Š in row 0; host/lib/lang.py lower_accent moves it).
- Bold keeps every gap of 1 px: Hangul's vowels are strokes 1 px apart
  (ㅔ, ㅖ), and a bold that filled them made 에 read as 어; bold still adds
  ink to every glyph that has any."""
import json
import os
import subprocess

import pytest

from okgin.lib import lang
from tests.support.harness import ROOT

CODES = lang.codes()
FW = os.path.join(ROOT, "firmware")

DRAW = r"""
import sys, json
sys.path.insert(0, %(fw)r)
import framebuf, text
text.load(%(fnt)r)
W = 24
out = {}
for ch in %(chars)r:
    row = []
    for bold in (False, True):
        buf = bytearray(W * 2)
        fb = framebuf.FrameBuffer(buf, W, 16, framebuf.MONO_VLSB)
        text.draw(fb, ch, 4, 0, 20, 1, bold)
        row.append(buf.hex())
    out[ch] = row
print(json.dumps(out))
"""


def _pixels(hexbuf, w=24):
    b = bytes.fromhex(hexbuf)
    return {(x, y) for y in range(16) for x in range(w) if b[(y >> 3) * w + x] >> (y & 7) & 1}


@pytest.mark.parametrize("code", CODES)
def test_no_glyph_has_ink_in_its_top_row(code):
    glyphs, _note = lang.read_fnt(lang.path(code, "fnt"))
    bad = sorted(ch for ch, (w, rows) in glyphs.items() if any(rows[:w // 8]))
    assert not bad, "%s.fnt: ink in the top row (touches the line above): %s" % (code, " ".join(bad))


@pytest.mark.parametrize("code", CODES)
def test_bold_keeps_every_one_pixel_gap(code, tmp_path):
    from okgin.vboard.vboard import find_micropython
    glyphs, _note = lang.read_fnt(lang.path(code, "fnt"))
    chars = "".join(sorted(ch for ch in glyphs if ch != " "))
    script = tmp_path / "bold.py"
    script.write_text(DRAW % {"fw": FW, "fnt": lang.path(code, "fnt"), "chars": chars},
                      encoding="utf-8")
    r = subprocess.run([find_micropython(), str(script)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    drawn = json.loads(r.stdout.strip().splitlines()[-1])
    filled, thin = [], []
    for ch, (reg, bold) in drawn.items():
        g = _pixels(reg)
        b = _pixels(bold)
        assert g <= b, "%r: bold lost ink" % ch
        if g and b == g:
            thin.append(ch)
        # a 1-px gap: blank, with ink left and right of it in the same row
        gaps = {(x, y) for (x, y) in g if (x + 2, y) in g and (x + 1, y) not in g}
        if any((x + 1, y) in b for (x, y) in gaps):
            filled.append(ch)
    assert not filled, "%s: bold fills a 1-px gap of %s" % (code, " ".join(sorted(filled)))
    assert not thin, "%s: bold adds no ink to %s" % (code, " ".join(sorted(thin)))
