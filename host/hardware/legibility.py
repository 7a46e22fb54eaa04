"""Legibility from the seats: how big, seen from each player's eyes, is
every kind of glyph a player must read on their panel.

For each class of glyph (card rank, suit, the prompt, the opponent's last
move, the footer, the scores, Hangul, accented Latin) this module

1. measures the glyphs' ink height in pixels from the glyph sources the
   firmware draws them from (firmware/font.py for the card faces,
   firmware/lang/<code>.fnt for text, read with okgin.lib.lang);
2. finds at what scale the firmware draws them, in the firmware's own
   pixels: the golden screens tests/app/golden/<lang>/*.png, which
   tests/app/test_fit.py keeps equal to what the firmware draws. The
   glyphs are looked for in those images at 1x, 2x, 3x and 4x; a class
   none of whose glyphs is found at any scale fails (a new layout that
   draws them otherwise must say where they are);
3. turns the height into millimetres with the panel's pixel pitch (its
   active area in board.json, from the panel's datasheet) and into the
   angle it subtends from every eye point of the seat model
   (host/hardware/seats.py), on the panel as it stands in the built case
   (its centre and the direction of a glyph's height on the glass, so the
   panel's tilt foreshortens it as it does for the eye).

It reports, per class, the median eye point's figure and the figure at the
90th-percentile eye point (the one 90% of the eye points do better than:
the far ones), and fails a class below its goal (GOALS: issue 36 from
ISO 9241-303 / ANSI/HFES 100: 16 arcmin the least for a character a
person must read, 20-22 preferred).

The same code weighs other routes (another panel, bigger glyphs, the panel
moved to the player's edge of the table): ``table()`` takes the heights,
the pitch and the panel's place; docs/legibility.md is its output.
"""
import math
import os
import statistics

# arcmin: (at the median eye point, at the 90th-percentile eye point)
GOALS = {"rank": (30.0, 22.0), "text": (20.0, 15.0)}
SCALES = (4, 3, 2, 1)


class Glyph:
    """One glyph's bitmap: rows of 0/1 ints, top down."""

    def __init__(self, ch, rows):
        self.ch = ch
        self.rows = [list(r) for r in rows]
        ink = [y for y, r in enumerate(self.rows) if any(r)]
        cols = [x for r in self.rows for x, v in enumerate(r) if v]
        self.box = (min(cols), min(ink), max(cols) + 1, max(ink) + 1) if ink else None

    @property
    def height(self):
        return 0 if self.box is None else self.box[3] - self.box[1]

    def pattern(self, k, bold=False):
        """The glyph's ink box at scale k, with one scaled pixel of the
        background round it (none on the right of a bold glyph: its second
        stroke is drawn one pixel further right), as rows of '0'/'1'
        strings; None for a glyph with no ink."""
        if self.box is None:
            return None
        x0, y0, x1, y1 = self.box
        w = len(self.rows[0])
        rows = self.rows
        if bold:
            rows = [[1 if r[x] or (x > 0 and r[x - 1]) else 0 for x in range(w)] + [r[w - 1]] for r in rows]
            x1 += 1
            w += 1
        grid = [[0] * (w + 2) for _ in range(len(rows) + 2)]
        for y, r in enumerate(rows):
            for x, v in enumerate(r):
                grid[y + 1][x + 1] = v
        right = 0 if bold else 1
        cut = [row[x0:x1 + 1 + right] for row in grid[y0:y1 + 2]]
        return ["".join("1" if v else "0" for v in row for _ in range(k)) for row in cut for _ in range(k)]


def _bits(data, w, h):
    bpr = (w + 7) // 8
    return [[(data[y * bpr + x // 8] >> (7 - x % 8)) & 1 for x in range(w)] for y in range(h)]


def card_glyphs(root):
    """firmware/font.py's rank and suit glyphs, read from the module's text
    (it is MicroPython data; executed here with nothing imported)."""
    src = open(os.path.join(root, "firmware", "font.py"), encoding="utf-8").read()
    ns: dict = {}
    exec(compile(src, "font.py", "exec"), ns)
    ranks = [Glyph(c, _bits(b, ns["RANK_W"], ns["RANK_H"])) for c, b in zip(ns["RANK_ORDER"], ns["RANKS"], strict=True)]
    suits = [Glyph(c, _bits(b, ns["SUIT_W"], ns["SUIT_H"])) for c, b in zip(ns["SUIT_ORDER"], ns["SUITS"], strict=True)]
    mini = [Glyph(c, _bits(b, 8, 8)) for c, b in zip(ns["SUIT_ORDER"], ns["MINI_SUITS"], strict=True)]
    return {"ranks": ranks, "suits": suits, "mini_suits": mini}


def text_glyphs(root, code):
    """{character: Glyph} of the language's glyph file, the one the
    firmware draws its text from."""
    from ..lib import lang
    glyphs, _ = lang.read_fnt(os.path.join(root, "firmware", "lang", "%s.fnt" % code))
    out = {}
    for ch, (w, data) in glyphs.items():
        out[ch] = Glyph(ch, _bits(data, w, len(data) // ((w + 7) // 8)))
    return out


def _catalogue_chars(root, code):
    from ..lib import lang
    return set("".join(lang.read(code, root=os.path.join(root, "firmware", "lang")).values()))


ACCENTED = "ĄČĘĖĮŠŲŪŽąčęėįšųūž"


def classes(root):
    """The classes of glyph a player reads: name -> dict(goal, glyphs (the
    ones whose height is the class's), find (glyphs looked for in the
    screens), screens (golden images, relative to tests/app/golden),
    bold, inverted, what (in words))."""
    cards = card_glyphs(root)
    en = text_glyphs(root, "en")
    ko = text_glyphs(root, "ko")
    lt = text_glyphs(root, "lt")
    caps = [en[c] for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    digits = [en[c] for c in "0123456789"]
    hangul = sorted((g for ch, g in ko.items() if 0xAC00 <= ord(ch) <= 0xD7A3 and ch in _catalogue_chars(root, "ko")),
                    key=lambda g: g.ch)
    lt_chars = _catalogue_chars(root, "lt")
    accented = [lt[c] for c in ACCENTED if c in lt and c in lt_chars]
    return {
        "card rank": {"goal": "rank", "glyphs": cards["ranks"], "find": cards["ranks"],
                      "screens": ["en/turn-2-0.png", "en/turn-2-1.png"], "what": "firmware/font.py RANKS"},
        "suit on a card": {"goal": "text", "glyphs": cards["suits"], "find": cards["suits"],
                           "screens": ["en/turn-2-0.png", "en/turn-2-1.png"], "what": "firmware/font.py SUITS"},
        # the 2.9"'s showdown draws a small suit beside each rank; the
        # 4.2"'s (200x150 logical, firmware/endview.py "tall") the card's
        # own suit under it: the first found of the two is measured
        "suit in the showdown": {"goal": "text", "glyphs": cards["suits"], "find": cards["suits"],
                                 "screens": ["en/end-knock-0.png", "en/end-gin-0.png"],
                                 "what": "firmware/font.py SUITS",
                                 "else": {"glyphs": cards["mini_suits"], "find": cards["mini_suits"],
                                          "what": "firmware/font.py MINI_SUITS"}},
        # "band": where the class's line is on the 2.9" (296x128) screens;
        # "bands": on other panels' goldens, by image size (the 4.2" at
        # scale 2: the 200x150 turn screen's lines at twice their place,
        # firmware/screens.py: the prompt on its first line, the last move
        # on its fourth, the footer at the bottom)
        "prompt (capitals)": {"goal": "text", "glyphs": caps, "find": [en[c] for c in "Drwtk"], "bold": True,
                              "band": (14, 32), "bands": {(400, 300): (28, 64)},
                              "screens": ["en/turn-2-0.png"], "what": "Unifont capitals, bold"},
        "opponent's last move": {"goal": "text", "glyphs": caps, "find": [en[c] for c in "P2:"],
                                 "band": (45, 64), "bands": {(400, 300): (124, 160)},
                                 "screens": ["en/turn-2-0.png"], "what": "Unifont capitals"},
        # the footer names each button by its icon (issue 37 What 5): its
        # words are what the buttons do, in lower case
        "footer": {"goal": "text", "glyphs": caps, "find": [en[c] for c in "stockpile"], "inverted": True,
                   "band": (110, 128), "bands": {(400, 300): (264, 300)},
                   "screens": ["en/turn-2-0.png"], "what": "Unifont capitals, white on black"},
        "scores": {"goal": "text", "glyphs": digits, "find": digits,
                   "screens": ["en/whole-pad-0.png", "en/turn-2-0.png"], "what": "Unifont digits"},
        "Hangul": {"goal": "text", "glyphs": hangul, "find": hangul,
                   "screens": ["ko/turn-2-0.png", "ko/turn-2-1.png"], "what": "Unifont Hangul syllables"},
        "accented Latin": {"goal": "text", "glyphs": accented, "find": accented,
                           "screens": ["lt/end-knock-0.png", "lt/turn-2-0.png", "lt/turn-2-1.png"],
                           "what": "Unifont Lithuanian letters with their marks"},
    }


def _image_rows(path, inverted=False):
    from PIL import Image
    img = Image.open(path).convert("1")
    w, h = img.size
    data = img.tobytes()
    on = "0" if inverted else "1"
    off = "1" if inverted else "0"
    # the goldens are white paper (bit 1) and black ink (bit 0), rows packed MSB first
    bpr = (w + 7) // 8
    return ["".join(off if data[y * bpr + x // 8] >> (7 - x % 8) & 1 else on for x in range(w)) for y in range(h)]


def _found(rows, pat, band=None):
    """Where ``pat`` is in ``rows`` (its top-left corner), the glyph's top
    in ``band`` (y0, y1) when given; None if nowhere."""
    # anchored on the pattern's busiest row: a blank row matches everywhere
    a = max(range(len(pat)), key=lambda i: pat[i].count("01") + pat[i].count("10"))
    anchor = pat[a]
    y_lo, y_hi = 0, len(rows) - len(pat)
    if band:
        y_lo, y_hi = max(y_lo, band[0] - 1), min(y_hi, band[1])
    for y in range(y_lo, y_hi + 1):
        x = rows[y + a].find(anchor)
        while x >= 0:
            if all(rows[y + i][x:x + len(p)] == p for i, p in enumerate(pat)):
                return (x, y)
            x = rows[y + a].find(anchor, x + 1)
    return None


def drawn_scale(spec, golden_dir):
    """The biggest scale at which one of the class's glyphs is in one of
    its screens: (scale, glyph, screen, (x, y)); None when none is."""
    images = [(s, _image_rows(os.path.join(golden_dir, s), spec.get("inverted", False))) for s in spec["screens"]]
    for k in SCALES:
        for g in spec["find"]:
            pat = g.pattern(k, spec.get("bold", False))
            if pat is None:
                continue
            for name, rows in images:
                size = (len(rows[0]), len(rows))
                at = _found(rows, pat, spec.get("bands", {}).get(size, spec.get("band")))
                if at:
                    return k, g, name, at
    return None


def measure(root, golden=None):
    """{class: dict(px, scale, found, what, goal)} for today's firmware
    (``golden``: the screens to look in, tests/app/golden by default)."""
    golden = golden or os.path.join(root, "tests", "app", "golden")
    out = {}
    for name, spec in classes(root).items():
        if not spec["glyphs"]:
            raise ValueError("%s: no glyphs to measure" % name)
        found = drawn_scale(spec, golden)
        if found is None and "else" in spec:   # the class's other glyphs
            spec = dict(spec, **spec["else"])
            found = drawn_scale(spec, golden)
        px = statistics.median(g.height for g in spec["glyphs"])
        out[name] = {"goal": spec["goal"], "what": spec["what"], "glyph_px": px,
                     "scale": found[0] if found else None,
                     "px": px * found[0] if found else None,
                     "found": ("%r at %dx in %s (%d, %d)" % (found[1].ch, found[0], found[2], found[3][0],
                                                              found[3][1]) if found else None)}
    return out


def pitch(panel):
    """mm per pixel along a glyph's height (the panel's short side, the
    app's 128 rows) from board.json's panel ``active_mm``."""
    a = panel.get("active_mm")
    if not a:
        return None
    return a[1] / panel["height"]


def arcmin(eye, centre, up, h):
    """The angle in arc minutes a segment of ``h`` mm subtends from
    ``eye``: centred on ``centre``, along the unit vector ``up``."""
    p0 = [centre[k] - up[k] * h / 2 for k in range(3)]
    p1 = [centre[k] + up[k] * h / 2 for k in range(3)]
    a = [p0[k] - eye[k] for k in range(3)]
    b = [p1[k] - eye[k] for k in range(3)]
    cos = sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos)))) * 60


def figures(h_mm, places):
    """The angles a glyph ``h_mm`` tall subtends, over ``places`` (each
    (centre, up, eyes)): the median eye point's and the 90th-percentile
    eye point's (the far tail: 90% of the eye points see it bigger),
    and the median distance."""
    angles, dist = [], []
    for centre, up, eyes in places:
        for e in eyes:
            angles.append(arcmin(e, centre, up, h_mm))
            dist.append(math.dist(e, centre))
    angles.sort()
    p90 = angles[int(math.floor(0.1 * (len(angles) - 1)))]
    return statistics.median(angles), p90, statistics.median(dist), len(angles)


def check(measured, mm_per_px, places):
    """Result of the legibility check (checks.Result) and its rows."""
    from .checks import Result
    rows, details, ok, missing = [], [], True, []
    for name, m in measured.items():
        if m["px"] is None:
            ok = False
            missing.append(name)
            details.append("%s: none of its glyphs (%s) is in the firmware's screens at any scale"
                           % (name, m["what"]))
            continue
        h = m["px"] * mm_per_px
        med, p90, dist, n = figures(h, places)
        gm, g90 = GOALS[m["goal"]]
        good = med >= gm and p90 >= g90
        ok &= good
        rows.append({"class": name, "px": m["px"], "mm": round(h, 2), "median": round(med, 1),
                     "p90": round(p90, 1), "goal": [gm, g90], "ok": good})
        details.append("%s: %g px = %.2f mm (%s, found %s): %.1f arcmin at the median eye point, %.1f at the "
                       "90th percentile (goal %g / %g)%s"
                       % (name, m["px"], h, m["what"], m["found"], med, p90, gm, g90, "" if good else "  TOO SMALL"))
    failing = [r["class"] for r in rows if not r["ok"]] + missing
    if places:
        dist = figures(1.0, places)[2]
        details.insert(0, "%.3f mm a pixel; the eyes %.0f mm from the ink at the median eye point, %d eye points"
                       % (mm_per_px, dist, figures(1.0, places)[3]))
    summary = ("every glyph a player reads meets its goal from the seats" if ok else
               "too small from the seats: %s" % ", ".join(failing))
    return Result("legibility", ok, summary, details), rows
