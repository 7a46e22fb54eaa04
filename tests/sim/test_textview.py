"""The panels as text (host/simui/textview.py), for terminals too small for
their pixels: read back from images the firmware's own drawing code made
under MicroPython (screens.game: random hands, cursors, prompts and
footers), every card, every word must come back, and nothing else."""
import json
import os
import random
import subprocess

import pytest
from PIL import Image

from tests.support import micropython
from tests.support.sim import ROOT

SCRIPT = r"""
import sys, json, framebuf
sys.path.insert(0, sys.argv[1])
import text
# the panel's logical screen (firmware/text.py size: 200x150 on the 4.2"),
# set before screens is imported, as App sets it
W, H = int(sys.argv[3]), int(sys.argv[4])
text.size(W, H)
import i18n, screens
# the language as the firmware loads it: its catalogue and its glyph file
i18n.DIR = sys.argv[1] + "/lang/"
assert i18n.load(sys.argv[2]) == sys.argv[2]
views = json.loads(sys.stdin.read())
# the panels' own frame buffer (firmware/display.py), then as rows
buf = bytearray(W * ((H + 7) // 8))
fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
rows = bytearray((W + 7) // 8 * H)
out = framebuf.FrameBuffer(rows, W, H, framebuf.MONO_HLSB)
for v in views:
    v['groups'] = [tuple(g) for g in v['groups']]
    if isinstance(v['hint'], list):
        v['hint'] = tuple(v['hint'])   # long and short forms
    screens.game(fb, v)
    out.blit(fb, 0, 0)
    print(bytes(rows).hex())
"""


# the panels: the 2.9" (296x128 as drawn) and the 4.2" (a 200x150 screen,
# each pixel a 2x2 block of its 400x300: board.json scale 2)
PANELS = {"2.9": (296, 128, 1), "4.2": (200, 150, 2)}


def _draw(views, code="en", panel="2.9"):
    """The firmware's turn screens of ``views`` in language ``code``, as
    the panel's images (PIL "1", 0 = ink)."""
    w, h, scale = PANELS[panel]
    r = subprocess.run([micropython(), "-c", SCRIPT, os.path.join(ROOT, "firmware"), code, str(w), str(h)],
                       input=json.dumps(views), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [Image.frombytes("1", (w, h), bytes(b ^ 0xFF for b in bytes.fromhex(x)))
            .resize((w * scale, h * scale), Image.Resampling.NEAREST) for x in r.stdout.split()]


RANKS, SUITS = "A23456789TJQK", "cdhs"
SHOWN = dict(zip(SUITS, "\u2663\u2666\u2665\u2660", strict=True))
# words as the catalogue's: descenders (on a header's rule too), the
# suits and signs the firmware draws in text
WORDS = ("Discard", "or", "knock", "Stock", "31", "Take", "the", "upcard?", "P2", "took", "9\u2666,",
         "Deadwood", "43", "Wait:", "to", "play", "GIN!", "\u22649", "jqy", "\u25c0\u25b6", "Q\u2660")
# a bold line, 8 px a character: right of the pile on the 2.9", the
# screen's width on the 4.2" (firmware/screens.py LINES_X, LINES_W)
LINE_CHARS = {"2.9": (296 - 30 - 2 - 1) // 8, "4.2": (200 - 1) // 8}
# the turn screen's lines: 3 right of the pile on the 2.9"; 4 over the
# whole width on the 4.2" (the prompt, the stock, the card, the last move)
ROWS = {"2.9": 3, "4.2": 4}


def _hand(rng):
    deck = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    hand = deck[:rng.choice((10, 11))]
    cut = sorted(rng.sample(range(1, len(hand)), rng.randrange(0, 3)))
    groups, start = [], 0
    for c in cut + [len(hand)]:
        groups.append([hand[start:c], start < c and rng.random() < 0.5])
        start = c
    return deck, hand, groups


def _views(n, rng, panel="2.9"):
    views = []
    for _ in range(n):
        deck, hand, groups = _hand(rng)

        def phrase(k):
            while True:    # a line the panel has room for (the 2.9"'s always)
                s = " ".join(rng.choice(WORDS) for _ in range(k))
                if len(s) <= LINE_CHARS[panel]:
                    return s
        msg = rng.choice(["", phrase(3)])
        views.append({
            "head": "Hand %d | You %d \u00b7 P2 %d /100 gyp" % (rng.randrange(1, 9), rng.randrange(99),
                                                             rng.randrange(99)),
            "testmode": rng.random() < 0.3, "pile": rng.choice([None] + deck[20:30]),
            "lines": [phrase(3), phrase(3), phrase(2), phrase(3)][:ROWS[panel]],
            "groups": groups, "cursor": rng.randrange(-1, len(hand)), "msg": msg,
            # the catalogue's long and short forms (the first that fits)
            "hint": ["\u25c0\u25b6 card  OK discard  KNOCK knock", "\u25c0\u25b6  OK discard  KNOCK knock"],
            "backs": 0})
    return views


def _drawn_lines(v, panel="2.9"):
    """The texts screens.game draws for ``v``: the header as far as it fits
    (the TEST MODE banner takes 9 characters and 10 px), the turn screen's
    lines (a message of one line takes the last)."""
    w = PANELS[panel][0]
    head = v["head"][:(w - 2 - (9 * 8 + 6 + 4 if v["testmode"] else 0)) // 8].rstrip()
    lines = list(v["lines"])
    if v["msg"]:
        assert len(v["msg"]) <= LINE_CHARS[panel]
        lines[-1] = v["msg"]
    return [head] + lines


def _hint(v, panel):
    """The footer's form drawn: the long one where it fits (the 2.9"), else
    the short one."""
    return v["hint"][0] if panel == "2.9" else v["hint"][1]


@pytest.mark.parametrize("panel", sorted(PANELS))
def test_every_card_and_word_of_random_turn_screens_reads_back(panel):
    """On both panels: the whole hand in order on a row of its own (11
    cards: 32 columns on the 4.2" too, whose screen is 25 wide), the card
    under the cursor marked, the pile where the panel shows it (beside the
    prompt on the 2.9"; left of the hand on the 4.2", a row of its own
    over the hand's), every line, the whole footer, nothing made up."""
    from okgin.simui.textview import PanelReader
    rng = random.Random(7)
    views = _views(24, rng, panel)
    reader = PanelReader()
    for v, img in zip(views, _draw(views, panel=panel), strict=True):
        lines = reader.lines(img)
        text = "\n".join(lines)
        hand = [c for cards, _m in v["groups"] for c in cards]
        shown = [c[0] + SHOWN[c[1]] for c in hand]
        rows = [ln for ln in lines if ln.split() and all(len(w) == 2 and w[0] in RANKS and w[1] in SHOWN.values()
                                                        for w in ln.split())]
        assert rows and rows[-1].split() == shown, (rows, shown, text)       # the hand, in order
        if v["cursor"] >= 0:                                          # ^^ under the cursor's card
            under = lines[lines.index(rows[-1]) + 1]
            assert under.strip() == "^^"
            col = under.index("^^")
            assert rows[-1][col:col + 2] == shown[v["cursor"]]
        pile = v["pile"] and v["pile"][0] + SHOWN[v["pile"][1]]
        if panel == "2.9":
            if pile:
                assert lines[1].split()[0] == pile                        # the pile beside the prompt
        else:
            above = lines[lines.index(rows[-1]) - 1]
            if pile:
                assert above.split() == [pile], (above, text)             # the pile over the hand
            else:
                assert above not in rows and "_" not in text, text        # the empty pile is no text
        drawn = _drawn_lines(v, panel)
        for line in drawn:
            assert line in text, (line, text)
        # the footer: each button's icon read as its word, then what it does
        hint = _hint(v, panel)
        assert lines[-1].split() == hint.split(), (lines[-1], hint)
        drawn.append(hint)
        assert ("TEST MODE" in text) == v["testmode"]
        # nothing made up: every word read is one drawn
        words = " ".join(drawn + ["TEST MODE"]).split()
        for word in text.split():
            assert word in words or word in shown or word == "^^" or \
                (v["pile"] and word == v["pile"][0] + SHOWN[v["pile"][1]]), (word, text)


def test_a_korean_turn_screen_reads_back():
    """The catalogue's Korean words, drawn by the firmware in Korean (16x16
    Hangul, the prompt and the message bold), come back as written, a
    Hangul syllable two columns wide as in a terminal; and a reader that
    knows only English's glyphs reads none of them."""
    from okgin.lib import lang
    from okgin.simui.textview import COLS, PanelReader, columns
    t = lang.read("ko")
    rng = random.Random(25)
    views = []
    for msg in ("", t["msg.cant_knock"].format(14, 8)):
        for testmode in (False, True):
            _deck, hand, groups = _hand(rng)
            views.append({
                "head": t["turn.head"].format(3, "P1", 41, "P2", 17, 100), "testmode": testmode,
                "pile": "8h", "lines": [t["turn.discard"], t["turn.status"].format(19, 8),
                                        t["turn.after"].format("7\u2665", 12)],
                "groups": groups, "cursor": rng.randrange(len(hand)), "msg": msg,
                "hint": t["hint.discard"], "backs": 0})
    reader = PanelReader()
    english = PanelReader(langs=["en"])
    for v, img in zip(views, _draw(views, "ko"), strict=True):
        lines = reader.lines(img)
        text = "\n".join(lines)
        assert all(columns(ln) <= COLS for ln in lines), lines
        drawn = [v["lines"][0], v["lines"][1], v["msg"] or v["lines"][2]]
        if not v["testmode"]:
            drawn.append(v["head"])
        for line in drawn:
            assert line in text, (line, text)
        assert (t["banner.test"] in text) == v["testmode"]
        hand = [c[0] + SHOWN[c[1]] for cards, _m in v["groups"] for c in cards]
        assert [ln for ln in lines if ln.split() == hand], (hand, text)
        # the footer: each button's icon read as the word the catalogue
        # names it by, then what it does, in Korean
        footer = lines[-1]
        assert footer.split() == v["hint"].split(), footer
        drawn.append(v["hint"])
        # every Hangul syllable read is one drawn
        hangul = {ch for ch in text if "\uac00" <= ch <= "\ud7a3"}
        assert hangul and hangul <= set("".join(drawn + [v["head"], t["banner.test"]]))
        assert not any("\uac00" <= ch <= "\ud7a3" for ln in english.lines(img) for ch in ln)



def _card(w):
    return len(w) == 2 and w[0] in RANKS and w[1] in SHOWN.values()


def _card_rows(lines):
    """The rows of cards a reading holds, as their tokens (a lay-off's "+"
    among them)."""
    return [ln.split() for ln in lines
            if ln.split() and all(_card(w) or w == "+" for w in ln.split()) and any(_card(w) for w in ln.split())]


def test_the_4in2_screens_read_as_the_2in9_screens():
    """The golden screens of both panels (tests/app/golden: the same games
    drawn on the 2.9" and the 4.2", in English and Korean): every card of the 4.2" is read with
    its suit, the same cards in the same rows as on the 2.9" (the pile, the
    hand, both hands of the showdown: its suits under the ranks, 17 px
    below their tops), and every footer whole, as its catalogue writes it."""
    from okgin.lib import lang
    from okgin.simui.textview import PanelReader
    golden = os.path.join(ROOT, "tests", "app", "golden")
    reader = PanelReader()
    compared = 0
    for code in ("en", "ko"):      # Latin and Hangul (a syllable two columns wide)
        hints = {"".join(v.split()) for k, v in lang.read(code).items() if k.startswith("hint.")}
        for path in sorted(os.listdir(os.path.join(golden, "400x300", code))):
            small = os.path.join(golden, code, path)
            if not os.path.exists(small):
                continue
            big = reader.lines(Image.open(os.path.join(golden, "400x300", code, path)))
            lines = reader.lines(Image.open(small))
            want = _card_rows(lines)
            got = _card_rows(big)
            # the pile: beside the prompt on the 2.9", a row of its own
            # over the hand's on the 4.2"
            if _card(lines[1].split()[0]):
                want.insert(len(want) - 1, lines[1].split()[:1])
            assert got == want, (code, path, "\n".join(big))
            compared += bool(want)
            if "pad" not in path and "menu" not in path and "rules" not in path:
                assert "".join(big[-1].split()) in hints, (code, path, big[-1])
    assert compared >= 2 * 10
