"""A panel read back as text, for a terminal too small for its pixels.

The firmware draws two kinds of glyphs. Text is GNU Unifont's
(firmware/text.py): 8x16 for Latin letters, digits and symbols, 16x16 for
Hangul, from the language's glyph file firmware/lang/<code>.fnt (format:
okgin.lib.lang), drawn plain, bold (its ink moved one pixel right except
into a 1-px gap, text._bold) or white on a
black bar (the footer, title bars, the TEST MODE banner). Cards are the
faces of firmware/font.py: a 12x16 rank over a 12x12 suit (white on black
for the card under the cursor), on the showdown a rank beside an 8x8 suit.

``PanelReader.read`` finds them in a panel's image exactly, pixel for
pixel, so what it prints is what the ink shows, never a guess: a glyph is
read where all 16 rows of its 8 or 16 columns are its own pixels. Two
things may share those pixels, and both are known exactly: a bold glyph's
ninth column lies in the first column of the cell after it (so a run of
bold text is checked glyph by glyph, each with its neighbour's spill), and
the dotted rule under a header lies on the header's last row, where
Unifont's descenders are (there the rule's own pixels, every other one,
cannot be told from a glyph's, and the others must match). Text is read
in runs as the firmware draws it, one glyph after another, a space being a
blank cell.

The reader knows the glyphs of every language the firmware carries
(firmware/lang/*.fnt; a character has the same Unifont bitmap in each,
which it checks), so it reads whatever language the board speaks, also
right after the menu switches it, with nothing asked on the serial port;
``PanelReader(langs=["ko"])`` limits it to some. (A flash without its
glyph files, where the firmware falls back to framebuf's own 8x8 font so
that the table can be flashed again, reads as cards without words.)

The text is laid out on a grid of 37 columns, a column per 8 pixels, as a
terminal shows it: a Latin glyph takes a column, a Hangul glyph two (a
terminal's wide character); a row per line of the panel: the header, the
pile beside the prompt, the hand as ranks and suits, the footer's actions.
The 4.2"'s 200x150 screen (25 columns of text) is read into as many
columns: its cards, 15 or 16 px apart, take three columns each as rank and
suit, and the pile left of its hand is set apart on a row of its own over
the hand's. The boxes of cards (faces, backs, the empty pile) are no text:
the empty pile's dash is exactly Unifont's "_", so nothing is read inside
a box.
"""
import os
import unicodedata

from ..lib import lang as langfiles
from ..lib.paths import FIRMWARE
from ..lib.screen import screen_of

W, H = 296, 128          # the 2.9" panel (each read takes its image's size)
GH = 16                  # a line of text, px (firmware/text.py H)
# 37 columns, a column per 8 pixels of the 2.9"'s screen; the 4.2"'s
# 200x150 screen gets as many (25 are its width): a card read as rank and
# suit takes two columns and a space where the 4.2" draws it in 15 or 16
# px, so its pile and hand of 11 take 36, and the footer's icons read as
# the words they stand for take more columns than their pixels
COLS = W // 8
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
ASCII_SUITS = {"c": "c", "d": "d", "h": "h", "s": "s"}
SELECTED = "^"           # the mark under the card the cursor is on
# A column of a glyph or of a 16-row window of the panel: 16 bits, bit 15
# the top row, bit 0 the last (where descenders and the header's rule are)
FULL = 0xFFFF
LAST = 0x0001
BODY = FULL & ~LAST


class _Geom:
    """A screen's size and the bit masks the reader uses on it: ``w`` x
    ``h`` pixels (the panel's logical screen: its image at scale 1, or the
    image halved when the panel shows each pixel as a 2x2 block), and
    the width of a card's box there (firmware/screens.py CARD_W: 16 px on
    a screen narrower than the 2.9"'s, 23 on the 2.9")."""

    def __init__(self, w, h):
        self.W, self.H = w, h
        self.COLS = text_columns(w)
        self.card_w = CARD_W if w >= W else NARROW_CARD_W
        self.EVEN = int("10" * ((w + 1) // 2), 2) >> ((w + 1) // 2 * 2 - w)   # even x (MSB = x 0): the dotted rule
        self.ODD = self.EVEN >> 1
        self.ALL = (1 << h) - 1
        self.ROW = (1 << w) - 1


def text_columns(w):
    """The text view's columns for a screen ``w`` pixels wide: a column per
    8 pixels, at least 37 (COLS)."""
    return max(w // 8, COLS)


def terminal_width(ch):
    """Columns a terminal gives ``ch``: 2 for East Asian wide (Hangul)."""
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def columns(s):
    """Columns a terminal gives the string ``s``."""
    return sum(terminal_width(ch) for ch in s)


def clip(s, n):
    """The longest start of ``s`` that takes at most ``n`` columns."""
    used = 0
    for i, ch in enumerate(s):
        used += terminal_width(ch)
        if used > n:
            return s[:i]
    return s


_ASCII = {"\u00b7": ".", "\u2264": "<", "\u2265": ">", "\u25c0": "<", "\u25b6": ">",
          "\u25b2": "^", "\u25bc": "v", "\u00d7": "x", "\u2026": "."}


def _ascii(ch):
    """A character for a terminal without UTF-8: its letter without accents,
    the sign it looks like, else '?'."""
    if ord(ch) < 128:
        return ch
    if ch in _ASCII:
        return _ASCII[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128)
    return base[:1] or "?"


def glyph_files(langs=None):
    """{character: (width, columns)} of the glyph files of ``langs`` (codes;
    None: every language the firmware carries). ValueError when two files
    draw one character differently (they are all cut from Unifont)."""
    if langs is None:
        langs = langfiles.codes()
    elif isinstance(langs, str):
        langs = [langs]
    out: "dict[str, tuple[int, tuple[int, ...]]]" = {}
    for code in langs:
        glyphs, _note = langfiles.read_fnt(os.path.join(FIRMWARE, "lang", code + ".fnt"))
        for ch, (w, rows) in glyphs.items():
            g = (w, _columns(rows, w))
            if out.setdefault(ch, g) != g:
                raise ValueError("%s.fnt draws %r unlike another language's glyph file" % (code, ch))
    return out


def _columns(rows, w):
    """Unifont rows (top down, MSB = left) -> ``w`` columns of 16 bits."""
    bpr = w // 8
    ints = [int.from_bytes(rows[y * bpr:(y + 1) * bpr], "big") for y in range(GH)]
    return tuple(sum(((ints[y] >> (w - 1 - x)) & 1) << (GH - 1 - y) for y in range(GH))
                 for x in range(w))


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


class _Glyph:
    """A glyph as drawn in one style: its columns, what it spills into the
    next cell (bold: its last column again, one pixel right; firmware/text.py
_bold, which keeps every 1-px gap open)."""
    __slots__ = ("ch", "w", "bold", "cols", "spill", "ink")

    def __init__(self, ch, w, bold, cols):
        self.ch, self.w, self.bold = ch, w, bold
        if bold:
            # firmware/text.py _bold: the ink moved one pixel right, but
            # never into a gap of one pixel (ink on its right)
            nxt = tuple(cols[1:]) + (0,)
            self.cols = (cols[0],) + tuple(cols[i] | (cols[i - 1] & ~nxt[i]) for i in range(1, w))
            self.spill = cols[-1]
        else:
            self.cols, self.spill = cols, 0
        self.ink = sum(bin(c).count("1") for c in self.cols) + bin(self.spill).count("1")


class PanelReader:
    def __init__(self, langs=None, utf8=True):
        self.utf8 = utf8
        self.suit_text = SUITS if utf8 else ASCII_SUITS
        # by the glyph's columns after its first, without their last row
        # (the cells a glyph may share with a neighbour's spill and a rule)
        self.tables: "dict[int, dict[tuple, list[_Glyph]]]" = {8: {}, 16: {}}
        self.firsts: "dict[int, set[int]]" = {8: set(), 16: set()}
        self.blank = _Glyph(" ", 8, False, (0,) * 8)
        for ch, (w, cols) in sorted(glyph_files(langs).items()):
            if not any(cols):
                continue                 # the space: a blank cell
            for bold in (False, True):
                g = _Glyph(ch, w, bold, cols)
                key = tuple(c & BODY for c in g.cols[1:])
                self.tables[w].setdefault(key, []).append(g)
                self.firsts[w].add(key[0])
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
        self.minis = {_rows(data, 8): suits[i] for i, data in enumerate(art["MINI_SUITS"])}
        self.rank_tops = {rows[0] for rows in self.ranks}
        # the buttons' icons (font.ICONS), drawn white on black in the
        # footers: read as the button's word the catalogues write there
        self.icon_w = art.get("ICON_W", 0)
        self.icon_h = art.get("ICON_H", 0)
        self.icons = {_rows(data, self.icon_w): BUTTON_WORDS[name]
                      for name, data in art.get("ICONS", {}).items()}
        self.icon_mids = {rows[self.icon_h // 2] for rows in self.icons}

    # -- reading -------------------------------------------------------------
    def read(self, img):
        """The panel as rows of cells, a cell a terminal column:
        [[(text, inverse), ...] * COLS, ...] top to bottom, empty rows
        dropped; the column after a wide character's is ("", inverse).
        A panel that shows each pixel of its screen as a 2x2 block (board.json
        ``scale`` 2: the 4.2" table's 200x150 screens on 400x300 pixels) is
        read at its screen's size (25 columns of text wide there, read
        into 37: text_columns)."""
        img = screen_of(img.convert("1"))
        self._g = g = _Geom(img.width, img.height)
        ink = _ink_rows(img, g)
        cards, boxes = self._cards(ink)
        boxes += _card_boxes(ink, g)
        icons, taken = self._icons(ink)
        boxes += taken
        cols = _ink_columns(img, g)
        items = cards + icons + self._text(ink, cols, boxes)
        return _layout(items, g.COLS)

    def _icons(self, ink):
        """The buttons' icons, white on black (firmware/screens.py footer):
        side by side ones (the arrows' pair, KNOCK/OK) read as one word."""
        found = []
        if not self.icons:
            return [], []
        iw, ih = self.icon_w, self.icon_h
        mask = (1 << iw) - 1
        W, H = self._g.W, self._g.H
        inv = [~r & self._g.ROW for r in ink]
        for y in range(H - ih + 1):
            row = inv[y + ih // 2]
            for x in range(W - iw + 1):
                if ((row >> (W - x - iw)) & mask) not in self.icon_mids:
                    continue
                word = self.icons.get(self._window(inv, x, y, iw, ih))
                if word is not None:
                    found.append((y, x, word))
        items: list = []
        boxes: list = []
        for y, x, word in sorted(found):
            boxes.append((x, y, x + iw, y + ih))
            if items and items[-1][0] == y and items[-1][5] == x:
                prev = items[-1]
                sep = "" if word in ("\u25c0", "\u25b6") else "/"
                items[-1] = (y, prev[1], prev[2] + list(sep + word), True, "text", x + iw)
            else:
                items.append((y, x, list(word), True, "text", x + iw))
        return [i[:5] for i in items], boxes

    def lines(self, img):
        """The panel as plain text lines (what a test or a screen reader
        sees)."""
        return ["".join(t for t, _inv in row).rstrip() for row in self.read(img)]

    def _window(self, ink, x, y, w, h):
        shift = self._g.W - x - w
        mask = (1 << w) - 1
        return tuple((ink[y + k] >> shift) & mask for k in range(h))

    def _cards(self, ink):
        """Card faces: a rank glyph with its suit under it (a card's box on
        the turn screen, selected or not, the suit 18 px under the rank's
        top; the 4.2"'s showdown, the suit 17 px under it) or beside it,
        small (the 2.9"'s showdown). Returns the items and the boxes they
        take (no text is read there). A face with a column of paper (8
        px) between its box and the next face on its row is the pile left
        of the 4.2"'s hand: its kind is "pile", a row of its own."""
        items: list = []
        boxes = []
        faces = []
        rw, rh = self.rank_w, self.rank_h
        mask = (1 << rw) - 1
        W, H = self._g.W, self._g.H
        cw = self._g.card_w
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
                box = (x - 1, y, x + rw + 1, y + rh)
                if y + 18 + self.suit_h <= H:
                    suit = self.suits.get(self._window(ink, x, y + 18, self.suit_w, self.suit_h))
                    if suit is not None:
                        # the card's whole box (firmware/screens.py card):
                        # the rank 3 px under its top, centred
                        x0 = x - (cw - rw) // 2
                        box = (x0, y - 3, x0 + cw, y - 3 + CARD_H)
                        faces.append((y, box, len(items)))
                if suit is None and y + 17 + self.suit_h <= H:
                    # the tall showdown's index (firmware/endview.py index)
                    suit = self.suits.get(self._window(ink, x, y + 17, self.suit_w, self.suit_h))
                    if suit is not None:
                        box = (x, y, x + rw, y + 17 + self.suit_h)
                if suit is None and x + 13 + 8 <= W and y + 8 + 8 <= H:
                    suit = self.minis.get(self._window(ink, x + 13, y + 8, 8, 8))
                    if suit is not None:
                        box = (x, y, x + 21, y + rh)
                label = rank + (self.suit_text[suit] if suit else "")
                items.append((y, x, list(label), inverse, "card"))
                boxes.append(box)
        for y, box, i in faces:
            right = [b[0] for yy, b, _j in faces if abs(yy - y) <= 5 and b[0] > box[0]]
            if right and min(right) - box[2] >= 8 and \
                    not any(abs(yy - y) <= 5 and box[0] < b[0] < box[2] for yy, b, _j in faces):
                items[i] = items[i][:4] + ("pile",)
        return items, boxes

    def _text(self, ink, cols, boxes):
        """Runs of text glyphs, black on white and white on black."""
        items = []
        taken = list(boxes)
        g = self._g
        runs = self._runs(cols, ink, False) + self._runs([~c & g.ALL for c in cols],
                                                         [~r & g.ROW for r in ink], True)
        # the most ink first; a run overlapping one already taken (or a
        # card) is a part of their pixels seen from elsewhere
        for y, x0, run, inverse, _ink in sorted(runs, key=lambda r: (-r[4], r[0], r[1])):
            box = (x0, y, run[-1][0] + run[-1][1].w, y + GH)
            if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
                continue
            taken.append(box)
            cells: "list[str]" = []
            for gx, g in run:
                at = (gx - x0) // 8
                cells += [" "] * (at - len(cells))
                if self.utf8:
                    cells.append(g.ch)
                    if g.w == 16:
                        cells.append("" if terminal_width(g.ch) == 2 else " ")
                else:
                    cells += [_ascii(g.ch)] * (g.w // 8)
            items.append((y, x0, cells, inverse, "text"))
        return items

    def _runs(self, cols, rows, inverse):
        """[(y, x, [(x, glyph), ...], inverse, ink)] of every run of glyphs
        in the panel's ink (``cols``: a column each, MSB the top row;
        ``rows``: a row each, MSB the left pixel)."""
        # rows that are a dotted rule (every even pixel inked, not all the
        # odd ones: glyphs' descenders may cross it)
        W, H, EVEN, ODD = self._g.W, self._g.H, self._g.EVEN, self._g.ODD
        rules = {y for y, r in enumerate(rows) if r & EVEN == EVEN and r & ODD != ODD}
        out = []
        for y in range(H - GH + 1):
            sh = H - GH - y
            win = [(c >> sh) & FULL for c in cols]
            if not any(win):
                continue
            body = [c & BODY for c in win]
            rule = (y + GH - 1) in rules
            hits: "dict[int, list[_Glyph]]" = {}
            for w in (8, 16):
                table, firsts = self.tables[w], self.firsts[w]
                for x in range(W - w + 1):
                    if body[x + 1] not in firsts:
                        continue
                    found = table.get(tuple(body[x + 1:x + w]))
                    if found:
                        ok = [g for g in found if _last_row_ok(win, x, g, rule)]
                        if ok:
                            hits.setdefault(x, []).extend(ok)
            seen = set()
            for x in sorted(hits):
                for g in hits[x]:
                    if (x, g.bold) in seen or not _first_ok(win[x], g.cols[0], x, rule):
                        continue
                    run = self._follow(win, hits, x, g, rule)
                    if not run:
                        continue
                    for gx, _g in run:
                        seen.add((gx, g.bold))
                    out.append((y, x, run, inverse, sum(gg.ink for _gx, gg in run)))
        return out

    def _follow(self, win, hits, x, g, rule):
        """The run of glyphs that starts with ``g`` at ``x``: each next one
        in the same style, its first column its own plus the spill of the
        one before; a blank cell a space; two blank cells end it."""
        W = self._g.W
        run = [(x, g)]
        nx, spill, blanks = x + g.w, g.spill, 0
        while nx + 8 <= W and blanks < 2:
            nxt = None
            for h in hits.get(nx, ()):
                if h.bold == g.bold and _first_ok(win[nx], h.cols[0] | spill, nx, rule):
                    nxt = h
                    break
            if nxt is not None:
                run.append((nx, nxt))
                nx, spill, blanks = nx + nxt.w, nxt.spill, 0
            elif _first_ok(win[nx], spill, nx, rule) and _last_row_ok(win, nx, self.blank, rule) \
                    and not any(c & BODY for c in win[nx + 1:nx + 8]):
                nx, spill, blanks = nx + 8, 0, blanks + 1
            else:
                break
        # a bold glyph's spill must be there after the run's last glyph
        while run and run[-1][1].spill:
            ex = run[-1][0] + run[-1][1].w
            if ex < W and win[ex] & run[-1][1].spill == run[-1][1].spill:
                break
            run.pop()
        return run


CARD_W, CARD_H = 23, 36      # a card's box (firmware/screens.py)
NARROW_CARD_W = 16           # its width on a screen narrower than the 2.9"'s
# each button's icon read as the word the catalogues' footers name it by
BUTTON_WORDS = {"left": "\u25c0", "right": "\u25b6", "ok": "OK", "draw": "DRAW",
                "take": "TAKE", "knock": "KNOCK"}


def _card_boxes(ink, g):
    """The boxes of cards (faces, backs, the empty pile): no text is read
    inside them (the empty pile's dash is exactly Unifont's "_")."""
    W, H = g.W, g.H
    cw = g.card_w
    edge = cw - 2                # the top and bottom edges but for rounded corners
    out = []
    for y in range(H - CARD_H + 1):
        row = ink[y]
        runs = row
        for k in range(1, edge):
            runs &= row << k
            if not runs:
                break
        bottom = ink[y + CARD_H - 1]
        while runs:
            low = runs & -runs           # a run of ``edge`` pixels starts here
            runs ^= low
            x = W - low.bit_length()     # its first pixel (MSB = x 0)
            x0 = x - 1                          # the box's left edge
            if x0 < 0 or x0 + cw > W:
                continue
            span = ((1 << edge) - 1) << (W - x - edge)
            left, right = 1 << (W - 1 - x0), 1 << (W - 1 - (x0 + cw - 1))
            if bottom & span == span and all(ink[y + k] & left and ink[y + k] & right
                                             for k in range(1, CARD_H - 1)):
                out.append((x0, y, x0 + cw, y + CARD_H))
    return out


def _first_ok(col, want, x, rule):
    """A window's first column is ``want``, but for the rule's pixel."""
    d = col ^ want
    if rule and not x & 1:
        d &= BODY
    return not d


def _last_row_ok(win, x, g, rule):
    """The last row of ``g``'s columns after its first is the glyph's, but
    for the rule's pixels (every even x) where a rule is."""
    for i in range(1, g.w):
        if (win[x + i] ^ g.cols[i]) & LAST and not (rule and not (x + i) & 1):
            return False
    return True


def _ink_rows(img, g):
    """Panel image (PIL "1", 0 = ink) -> one int per row, 1 = ink."""
    data = img.convert("1").tobytes()
    per = (img.width + 7) // 8
    return [~int.from_bytes(data[i * per:(i + 1) * per], "big") >> (per * 8 - g.W) & g.ROW
            for i in range(img.height)]


def _ink_columns(img, g):
    """Panel image -> one int per column, ``H`` bits, MSB the top row, 1 = ink."""
    from PIL import Image
    t = img.convert("1").transpose(Image.Transpose.TRANSPOSE)
    data = t.tobytes()
    per = (t.width + 7) // 8
    return [~int.from_bytes(data[i * per:(i + 1) * per], "big") >> (per * 8 - g.H) & g.ALL
            for i in range(t.height)]


def _layout(items, COLS=COLS):
    """Items (y, x, cells, inverse, kind) -> rows of COLS cells. A row per
    line of the panel: items whose tops are within 5 pixels share one (a
    raised card, the pile beside the prompt); a column per 8 pixels. The
    pile set apart left of the hand (kind "pile": the 4.2") takes a row
    of its own over the hand's, as the 2.9" shows it above the hand."""
    rows: "list[list]" = []
    for y, x, cells, inverse, kind in sorted(items, key=lambda i: (i[0], i[1])):
        if not rows or y - rows[-1][0] > 5:
            rows.append([y, []])
        rows[-1][1].append((x, cells, inverse, kind))
    split: "list[list]" = []
    for y, row in rows:
        pile = [i for i in row if i[3] == "pile"]
        if pile and len(pile) < len(row):
            split.append([y, pile])
            row = [i for i in row if i[3] != "pile"]
        split.append([y, row])
    rows = split
    out = []
    for _y, row in rows:
        row.sort(key=lambda i: i[0])
        line = [(" ", False)] * COLS
        free = 0               # the first column after the last item, and a space
        for x, cells, inverse, kind in row:
            col = (x + 4) // 8 if kind == "text" else max(0, (x - 2) // 8)
            col = max(col, free)
            if cells and cells[0] == "" and col > 0:
                col -= 1
            n = len(cells)
            if col + n > COLS and cells[COLS - col - 1:COLS - col] == [""]:
                n = COLS - col - 1       # no half of a wide character at the edge
            for i in range(min(n, COLS - col)):
                line[col + i] = (cells[i], inverse)
            free = col + n + 1
        out.append(line)
        if any(kind == "card" and inverse for _x, _c, inverse, kind in row):
            # the card under the cursor (drawn white on black): marked on a
            # row of its own too, for a reader of the plain text
            under = [(" ", False)] * COLS
            for c, (ch, inv) in enumerate(line):
                if inv and ch.strip():
                    under[c] = (SELECTED, False)
            out.append(under)
    return out
