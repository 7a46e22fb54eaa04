"""A panel read back as text, for a terminal too small for its pixels.

The firmware draws with two kinds of glyphs only: MicroPython's built-in
8x8 font (``FrameBuffer.text``: plain, bold as two copies one pixel apart,
or white on black for the footer and titles) and the card glyphs of
firmware/font.py (a 12x16 rank over a 12x12 suit, white on black for the
card under the cursor; on the showdown a rank beside a small 8x8 suit).
``PanelReader.read`` finds them in a panel's image, exactly (pixel for
pixel, so what it prints is what the ink shows, never a guess), and lays
them out on a grid of 37 columns, a column per 8 pixels, a row per line
of the panel: the hand as ranks and suits, the pile, the prompt, the
footer's actions.

The 8x8 font is MicroPython's own: read once from the micropython binary
the virtual board runs (it is not copied into this project).
"""
import os
import subprocess

from okgin.lib.paths import FIRMWARE

W, H = 296, 128
COLS = W // 8            # 37 characters across, as the panel's own text
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
ASCII_SUITS = {"c": "c", "d": "d", "h": "h", "s": "s"}
# characters that are only strokes: without a letter or digit beside them,
# they are the edges of boxes and cards
LINES = set("_|-.,'`:;!/\\()[]{}=~^")
SELECTED = "^"           # the mark under the card the cursor is on

_FONT_SCRIPT = """\
import framebuf
b = bytearray(8)
fb = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_HLSB)
for c in range(33, 127):
    fb.fill(0)
    fb.text(chr(c), 0, 0, 1)
    print(c, bytes(b).hex())
"""


def micropython_font(micropython=None):
    """{character: 8 row bytes} of MicroPython's framebuf font, from the
    interpreter itself."""
    if micropython is None:
        from okgin.vboard.vboard import find_micropython
        micropython = find_micropython()
    r = subprocess.run([micropython, "-c", _FONT_SCRIPT], capture_output=True, text=True, timeout=60)
    if r.returncode:
        raise RuntimeError("micropython could not draw its font: %s" % r.stderr.strip()[-200:])
    font = {}
    for line in r.stdout.split("\n"):
        if line.strip():
            code, hexrows = line.split()
            font[chr(int(code))] = tuple(bytes.fromhex(hexrows))
    return font


def _card_glyphs():
    """The firmware's rank and suit bitmaps (firmware/font.py, loaded as a
    file: it is the device's module, not the host's)."""
    scope: "dict[str, object]" = {}
    with open(os.path.join(FIRMWARE, "font.py")) as f:
        exec(compile(f.read(), "font.py", "exec"), scope)
    return scope


def _rows(data, width):
    """MONO_HLSB bytes -> one int per row, ``width`` bits, MSB = left."""
    per = (width + 7) // 8
    return tuple(int.from_bytes(data[i:i + per], "big") >> (per * 8 - width)
                 for i in range(0, len(data), per))


class PanelReader:
    def __init__(self, font=None, utf8=True):
        font = font if font is not None else micropython_font()
        self.suit_text = SUITS if utf8 else ASCII_SUITS
        self.text: "dict[tuple, tuple[str, str]]" = {}       # 8 rows -> (character, style)
        # bold: the glyph twice, one pixel apart; its eighth column spills
        # into the next character's first, so a character after one that
        # fills its last column is matched without its first column
        self.spilled: "dict[tuple, tuple[str, str]]" = {}
        for ch, g in font.items():
            if not any(g):
                continue
            bold = tuple((r | r >> 1) & 0xFF for r in g)
            self.text.setdefault(g, (ch, "plain"))
            self.text.setdefault(tuple(~r & 0xFF for r in g), (ch, "inverse"))
            self.text.setdefault(bold, (ch, "bold"))
            self.text.setdefault(tuple(~r & 0xFF for r in bold), (ch, "inverse bold"))
            self.spilled.setdefault(tuple(r & 0x7F for r in bold), (ch, "bold"))
            self.spilled.setdefault(tuple(~r & 0x7F for r in bold), (ch, "inverse bold"))
        art = _card_glyphs()
        ranks, suits = art["RANK_ORDER"], art["SUIT_ORDER"]
        self.rank_w, self.rank_h = art["RANK_W"], art["RANK_H"]
        self.suit_w, self.suit_h = art["SUIT_W"], art["SUIT_H"]
        self.ranks = {}
        for i, data in enumerate(art["RANKS"]):
            rows = _rows(data, self.rank_w)
            self.ranks[rows] = (ranks[i], False)
            self.ranks[tuple(~r & 0xFFF for r in rows)] = (ranks[i], True)
        self.suits = {}
        for i, data in enumerate(art["SUITS"]):
            rows = _rows(data, self.suit_w)
            self.suits[rows] = suits[i]
            self.suits[tuple(~r & 0xFFF for r in rows)] = suits[i]
        for i, data in enumerate(art["MINI_SUITS"]):
            self.text.setdefault(_rows(data, 8), (suits[i], "mini"))
        self.rank_tops = {rows[0] for rows in self.ranks}

    # -- finding glyphs ------------------------------------------------------
    def read(self, img):
        """The panel as rows of cells: [[(text, inverse), ...] * COLS, ...]
        top to bottom; empty rows dropped."""
        ink = _ink_rows(img)
        items = self._cards(ink) + self._text(ink)
        return _layout(items)

    def lines(self, img):
        """The panel as plain text lines (what a test or a screen reader
        sees)."""
        return ["".join(t for t, _inv in row).rstrip() for row in self.read(img)]

    def _window(self, ink, x, y, w, h):
        shift = W - x - w
        mask = (1 << w) - 1
        return tuple((ink[y + k] >> shift) & mask for k in range(h))

    def _cards(self, ink):
        """Card faces: a rank glyph with its suit under it (the turn screen,
        selected or not) or beside it, small (the showdown)."""
        items = []
        self.covered = set()
        rw, rh = self.rank_w, self.rank_h
        mask = (1 << rw) - 1
        for y in range(H - rh + 1):
            row = ink[y]
            if not row:
                continue
            for x in range(W - rw + 1):
                if ((row >> (W - x - rw)) & mask) not in self.rank_tops:
                    continue
                hit = self.ranks.get(self._window(ink, x, y, rw, rh))
                if hit is None:
                    continue
                rank, inverse = hit
                suit = None
                if y + 20 + self.suit_h <= H:
                    suit = self.suits.get(self._window(ink, x, y + 20, self.suit_w, self.suit_h))
                if suit is None and x + 13 + 8 <= W and y + 8 + 8 <= H:
                    small = self.text.get(self._window(ink, x + 13, y + 8, 8, 8))
                    if small and small[1] == "mini":
                        suit = small[0]
                        self.covered.add((x + 13, y + 8))
                label = rank + (self.suit_text[suit] if suit else "")
                items.append((y, x, label, inverse, "card"))
                for dy in range(rh):
                    for dx in range(-1, rw + 1):
                        self.covered.add((x + dx, y + dy))
        return items

    def _text(self, ink):
        """Runs of 8x8 characters: found at any pixel position, kept when
        they form a run a character apart (or are one glyph of 7 or more
        pixels of ink), longest first."""
        found = {}
        for y in range(H - 7):
            if not (ink[y] | ink[y + 1] | ink[y + 2] | ink[y + 3] | ink[y + 4] | ink[y + 5]):
                continue
            for x in range(W - 7):
                if (x, y) in self.covered:
                    continue
                hit = self.text.get(self._window(ink, x, y, 8, 8))
                if hit is not None and hit[1] != "mini":
                    found[(x, y)] = hit
        runs = []
        seen = set()
        for (x, y), (ch, style) in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if (x, y) in seen:
                continue
            run = [(x, ch)]
            seen.add((x, y))
            nx, blanks = x + 8, 0
            while nx <= W - 8 and blanks < 2:
                nxt = found.get((nx, y))
                if nxt is None and "bold" in style:
                    nxt = self.spilled.get(tuple(r & 0x7F for r in self._window(ink, nx, y, 8, 8)))
                if nxt is not None and nxt[1] == style:
                    run.append((nx, nxt[0]))
                    seen.add((nx, y))
                    blanks = 0
                elif self._blank(ink, nx, y, style):
                    blanks += 1
                else:
                    break
                nx += 8
            ink_px = sum(_ink(self._window(ink, cx, y, 8, 8), style) for cx, _c in run)
            runs.append((y, x, run, style, ink_px))
        # the longest runs first; a run overlapping one already taken is a
        # part of its glyphs seen from elsewhere (the lower half of an "n"
        # reads as a '"')
        items = []
        boxes: "list[tuple[int, int, int, int]]" = []
        for y, x, run, style, ink_px in sorted(runs, key=lambda r: (-len(r[2]), -r[4])):
            if (len(run) == 1 and ink_px < 7) or all(c in LINES for _x, c in run):
                continue           # strokes alone: the edges of cards and boxes
            box = (x, y, run[-1][0] + 8, y + 8)
            if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes):
                continue
            boxes.append(box)
            text = ""
            last = None
            for cx, c in run:
                if last is not None:
                    text += " " * ((cx - last) // 8 - 1)
                text += c
                last = cx
            items.append((y, x, text, style.startswith("inverse"), "text"))
        return items

    def _blank(self, ink, x, y, style):
        win = self._window(ink, x, y, 8, 8)
        return all(r == 0xFF for r in win) if style.startswith("inverse") else not any(win)


def _ink(win, style):
    n = sum(bin(r).count("1") for r in win)
    return 64 - n if style.startswith("inverse") else n


def _ink_rows(img):
    """Panel image (PIL "1", 0 = ink) -> one int per row, 1 = ink."""
    data = img.convert("1").tobytes()
    per = (img.width + 7) // 8
    full = (1 << W) - 1
    return [~int.from_bytes(data[i * per:(i + 1) * per], "big") >> (per * 8 - W) & full
            for i in range(img.height)]


def _layout(items):
    """Items (y, x, text, inverse, kind) -> rows of COLS cells. A row per
    line of the panel: items whose tops are within 5 pixels share one (a
    raised card, the pile beside the prompt); a column per 8 pixels."""
    rows: "list[list]" = []
    for y, x, text, inverse, kind in sorted(items):
        if not rows or y - rows[-1][0] > 5:
            rows.append([y, []])
        rows[-1][1].append((x, text, inverse, kind))
    out = []
    for _y, row in rows:
        cells = [(" ", False)] * COLS
        free = 0               # the first column after the last item, and a space
        for x, text, inverse, kind in sorted(row):
            col = (x + 4) // 8 if kind == "text" else max(0, (x - 2) // 8)
            col = max(col, free)
            for i, ch in enumerate(text):
                if col + i < COLS:
                    cells[col + i] = (ch, inverse)
            free = col + len(text) + 1
        out.append(cells)
        marks = [i for i, (x, text, inverse, kind) in enumerate(sorted(row)) if kind == "card" and inverse]
        if marks:
            # the card under the cursor (drawn white on black): marked on a
            # row of its own too, for a reader of the plain text
            under = [(" ", False)] * COLS
            for c, (ch, inv) in enumerate(cells):
                if inv and ch != " ":
                    under[c] = (SELECTED, False)
            out.append(under)
    return out
