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
import screens
views = json.loads(sys.stdin.read())
buf = bytearray(296 * 128 // 8)
fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_HLSB)
for v in views:
    v['groups'] = [tuple(g) for g in v['groups']]
    screens.game(fb, v)
    print(bytes(buf).hex())
"""

RANKS, SUITS = "A23456789TJQK", "cdhs"
SHOWN = dict(zip(SUITS, "\u2663\u2666\u2665\u2660", strict=True))
WORDS = ("Discard", "or", "knock", "Stock", "31", "Take", "the", "upcard?", "P2", "took", "9d,",
         "Deadwood", "43", "Wait:", "to", "play", "GIN!", "<=9")


def _views(n, rng):
    views = []
    for _ in range(n):
        deck = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        hand = deck[:rng.choice((10, 11))]
        cut = sorted(rng.sample(range(1, len(hand)), rng.randrange(0, 3)))
        groups, start = [], 0
        for c in cut + [len(hand)]:
            groups.append([hand[start:c], start < c and rng.random() < 0.5])
            start = c

        def phrase(k):
            return " ".join(rng.choice(WORDS) for _ in range(k))
        views.append({
            "head": "Hand %d | You %d P2 %d /100" % (rng.randrange(1, 9), rng.randrange(99), rng.randrange(99)),
            "testmode": rng.random() < 0.3, "pile": rng.choice([None] + deck[20:30]),
            "lines": [phrase(3), phrase(3), phrase(2), phrase(3)],
            "groups": groups, "cursor": rng.randrange(-1, len(hand)), "msg": phrase(4),
            "hint": "</>:card OK:discard KNOCK:knock", "backs": 0})
    return views


def test_every_card_and_word_of_random_turn_screens_reads_back():
    from okgin.simui.textview import PanelReader
    rng = random.Random(7)
    views = _views(24, rng)
    r = subprocess.run([micropython(), "-c", SCRIPT, os.path.join(ROOT, "firmware")],
                       input=json.dumps(views), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    reader = PanelReader()
    for v, hexbuf in zip(views, r.stdout.split(), strict=True):
        ink = bytes.fromhex(hexbuf)
        img = Image.frombytes("1", (296, 128), bytes(b ^ 0xFF for b in ink))   # 0 = ink
        lines = reader.lines(img)
        text = "\n".join(lines)
        hand = [c for cards, _m in v["groups"] for c in cards]
        shown = [c[0] + SHOWN[c[1]] for c in hand]
        rows = [ln for ln in lines if ln.split() and all(len(w) == 2 and w[1] in SHOWN.values()
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
        for line in [v["head"][:27 if v["testmode"] else 37]] + v["lines"] + [v["msg"], v["hint"]]:
            assert line in text, (line, text)
        assert ("TEST MODE" in text) == v["testmode"]
        # nothing made up: every word read is one drawn
        drawn = " ".join([v["head"], v["msg"], v["hint"], "TEST MODE"] + v["lines"]).split()
        for word in text.split():
            assert word in drawn or word in shown or word == "^^" or \
                (v["pile"] and word == v["pile"][0] + SHOWN[v["pile"][1]]), (word, text)
