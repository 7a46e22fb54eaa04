"""The panels as text (host/simui/textview.py), for terminals too small for
their pixels: read back from images the firmware's own drawing code made
under MicroPython (screens.game: random hands, cursors, prompts and
footers), every card, every word must come back, and nothing else."""
import json
import os
import random
import subprocess

from PIL import Image

from tests.support import micropython
from tests.support.sim import ROOT

SCRIPT = r"""
import sys, json, framebuf
sys.path.insert(0, sys.argv[1])
import i18n, screens
# the language as the firmware loads it: its catalogue and its glyph file
i18n.DIR = sys.argv[1] + "/lang/"
assert i18n.load(sys.argv[2]) == sys.argv[2]
views = json.loads(sys.stdin.read())
# the panels' own frame buffer (firmware/display.py), then as rows
buf = bytearray(296 * 128 // 8)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_VLSB)
rows = bytearray(296 * 128 // 8)
out = framebuf.FrameBuffer(rows, 296, 128, framebuf.MONO_HLSB)
for v in views:
    v['groups'] = [tuple(g) for g in v['groups']]
    screens.game(fb, v)
    out.blit(fb, 0, 0)
    print(bytes(rows).hex())
"""


def _draw(views, code="en"):
    """The firmware's turn screens of ``views`` in language ``code``, as
    panel images (PIL "1", 0 = ink)."""
    r = subprocess.run([micropython(), "-c", SCRIPT, os.path.join(ROOT, "firmware"), code],
                       input=json.dumps(views), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return [Image.frombytes("1", (296, 128), bytes(b ^ 0xFF for b in bytes.fromhex(h)))
            for h in r.stdout.split()]


RANKS, SUITS = "A23456789TJQK", "cdhs"
SHOWN = dict(zip(SUITS, "\u2663\u2666\u2665\u2660", strict=True))
# words as the catalogue's: descenders (on a header's rule too), the
# suits and signs the firmware draws in text
WORDS = ("Discard", "or", "knock", "Stock", "31", "Take", "the", "upcard?", "P2", "took", "9\u2666,",
         "Deadwood", "43", "Wait:", "to", "play", "GIN!", "\u22649", "jqy", "\u25c0\u25b6", "Q\u2660")
LINE_CHARS = (296 - 30 - 2 - 1) // 8     # a bold line right of the pile, 8 px a character


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


def _views(n, rng):
    views = []
    for _ in range(n):
        deck, hand, groups = _hand(rng)

        def phrase(k):
            return " ".join(rng.choice(WORDS) for _ in range(k))
        msg = rng.choice(["", phrase(3)])
        views.append({
            "head": "Hand %d | You %d \u00b7 P2 %d /100 gyp" % (rng.randrange(1, 9), rng.randrange(99),
                                                             rng.randrange(99)),
            "testmode": rng.random() < 0.3, "pile": rng.choice([None] + deck[20:30]),
            "lines": [phrase(3), phrase(3), phrase(2)],
            "groups": groups, "cursor": rng.randrange(-1, len(hand)), "msg": msg,
            "hint": "\u25c0\u25b6 card  OK discard  KNOCK knock", "backs": 0})
    return views


def _drawn_lines(v):
    """The texts screens.game draws for ``v``: the header as far as it fits
    (the TEST MODE banner takes 9 characters and 10 px), the three lines
    right of the pile (a message of one line takes the last), the footer."""
    head = v["head"][:(296 - 2 - (9 * 8 + 6 + 4 if v["testmode"] else 0)) // 8]
    lines = list(v["lines"])
    if v["msg"]:
        assert len(v["msg"]) <= LINE_CHARS
        lines[2] = v["msg"]
    return [head] + lines


def test_every_card_and_word_of_random_turn_screens_reads_back():
    from okgin.simui.textview import PanelReader
    rng = random.Random(7)
    views = _views(24, rng)
    reader = PanelReader()
    for v, img in zip(views, _draw(views), strict=True):
        lines = reader.lines(img)
        text = "\n".join(lines)
        hand = [c for cards, _m in v["groups"] for c in cards]
        shown = [c[0] + SHOWN[c[1]] for c in hand]
        rows = [ln for ln in lines if ln.split() and all(len(w) == 2 and w[0] in RANKS and w[1] in SHOWN.values()
                                                        for w in ln.split())]
        assert rows and rows[-1].split() == shown, (rows, shown)       # the hand, in order
        if v["cursor"] >= 0:                                          # ^^ under the cursor's card
            under = lines[lines.index(rows[-1]) + 1]
            assert under.strip() == "^^"
            col = under.index("^^")
            assert rows[-1][col:col + 2] == shown[v["cursor"]]
        first = lines[1].split()
        if v["pile"]:
            assert first[0] == v["pile"][0] + SHOWN[v["pile"][1]]      # the pile beside the prompt
        drawn = _drawn_lines(v)
        for line in drawn:
            assert line in text, (line, text)
        # the footer: each button's icon read as its word, then what it does
        assert lines[-1].split() == v["hint"].split(), (lines[-1], v["hint"])
        drawn.append(v["hint"])
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
