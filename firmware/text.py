"""Text on the panels, in GNU Unifont's glyphs (docs/architecture.md,
"Languages"): 8x16 for Latin (Lithuanian capitals keep their accents),
16x16 for Hangul.

The glyphs stay in flash: ``lang/<code>.fnt`` (cut from Unifont by
``okgin glyphs`` to exactly the characters that language's catalogue
uses, plus printable ASCII, the card suits and every language's own name)
is kept open, and each glyph is read into one small buffer when it is
drawn. In RAM: the sorted code points of the file's glyphs (2 bytes each)
and two glyph buffers. A character the file has no glyph for is drawn as
"?" (tests/app/test_lang.py fails on any such character in a catalogue).

Every draw is given its box: text is never drawn outside it. ``CHECK``,
when a list (the fit test, tests/app/test_fit.py), receives each draw's
box and the width the text needed.
"""
import framebuf

H = 16                  # line height, px
CHECK = None            # the fit test's record: [(x, y, w, h, needed, text)]
RECTS = None            # other things drawn (cards), for the same test

_f = None               # the glyph file, open
_narrow = b""           # code points of the 8-px glyphs, 2 bytes each, sorted
_wide = b""             # and of the 16-px ones
_nbase = 0              # where each kind's bitmaps start in the file
_wbase = 0
# One glyph at a time, read into these: MONO_VLSB like the panels' frame
# buffers (the glyph file is in their layout, host/lib/lang.py)
_VLSB = framebuf.MONO_VLSB
_NBUF = bytearray(16)
_NFB = framebuf.FrameBuffer(_NBUF, 8, 16, _VLSB)
_WBUF = bytearray(32)
_WFB = framebuf.FrameBuffer(_WBUF, 16, 16, _VLSB)
# Bold: a glyph drawn here first, then onto the panel. Bold ink is the
# glyph and its ink moved 1 px right, except where that would fill a gap of
# 1 px (a pixel whose right neighbour is ink): Hangul's vowels are strokes
# 1 px apart (ㅔ, ㅖ), which a plain smear merged (에 read as 어). 18 columns:
# the ink 1 px either side of a 16-px glyph.
_BBUF = bytearray(36)
_BFB = framebuf.FrameBuffer(_BBUF, 18, 16, _VLSB)
# palette for drawing a glyph white on black: maps ink 1 -> 0
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)
# the panels' frame buffers, MONO_VLSB (firmware/display.py): their logical
# size (296x128 on the 2.9", 200x150 on the 4.2" at scale 2). App sets them
# from the display before screens.py is imported: screens takes its size
# from here (W, H and the layout under them)
FB_W = 296
FB_H = 128
# The turn screen's layout the texts are chosen for (screens.py draws it;
# turn.py picks the forms that fit without loading screens, which a knock
# and the coach drop): a screen narrower than the 2.9"'s 296 (the 4.2" at
# scale 2) is laid out as narrow, and the width of the turn screen's lines;
# a notice's text (screens.error draws it) starts NOTE_X in and is NOTE_W
# wide: coachview.fits counts a review's lines with them at the end of the
# review, when the coach has dropped screens (importing it there, into the
# heap the review's search left, failed 1 game in 20 at 184K: issue 38)
NARROW = False
LINES_W = FB_W - 32
NOTE_X = 3
NOTE_W = FB_W - 6


def size(w, h):
    """The panels' logical size (App, from the display): before screens.py
    is imported."""
    global FB_W, FB_H, NARROW, LINES_W, NOTE_X, NOTE_W
    FB_W = w
    FB_H = h
    NARROW = w < 296
    LINES_W = w if NARROW else w - 32
    NOTE_X = 0 if NARROW else 3   # a narrow screen's lines' x (screens.LINES_X)
    NOTE_W = w - 2 * NOTE_X
FAST = True             # the copy of whole bands (off: every glyph blitted; a test)


def load(path):
    """Use the glyph file ``path`` (i18n.load calls this with the
    language's lang/<code>.fnt; None: no glyph file on the flash, the
    framebuf's own 8x8 font, ASCII only, for a table to be flashed again)."""
    global _f, _narrow, _wide, _nbase, _wbase
    if path is None:
        if _f is not None:
            _f.close()
        _f = None
        return
    import os
    size = os.stat(path)[6]
    f = open(path, "rb")
    try:
        import langcheck     # i18n.load drops it once loaded
        narrow, wide, note = langcheck.glyphs(f, size, H)
    except MemoryError:
        f.close()
        raise   # the heap, not the file: i18n.load says so (bad)
    except Exception:
        f.close()
        raise ValueError("%s: not a sound glyph file of this firmware" % path)
    nn = len(narrow) >> 1
    nw = len(wide) >> 1
    if _f is not None:
        _f.close()
    _f = f
    _narrow = narrow
    _wide = wide
    _nbase = 12 + note + 2 * nn + 2 * nw
    _wbase = _nbase + 16 * nn


def _find(table, cp):
    lo = 0
    hi = len(table) >> 1
    while lo < hi:
        mid = (lo + hi) >> 1
        v = table[2 * mid] | table[2 * mid + 1] << 8
        if v < cp:
            lo = mid + 1
        elif v > cp:
            hi = mid
        else:
            return mid
    return -1


def _glyph(cp):
    """(index, wide) of a code point's glyph; "?" when the file has none.
    Printable ASCII is the first 95 narrow glyphs (okgin glyphs puts it
    there): found without a search."""
    if 32 <= cp < 127:
        return cp - 32, False
    if cp >= 0x1100:                # Hangul and CJK: wide in Unifont
        i = _find(_wide, cp)
        if i >= 0:
            return i, True
    i = _find(_narrow, cp)
    if i >= 0:
        return i, False
    i = _find(_wide, cp)
    if i >= 0:
        return i, True
    return 31, False   # "?"


def width(s):
    """Pixels ``s`` needs.

    This and _draw read a text's code points from its UTF-8 bytes, never
    with ``for ch in s``: MicroPython interns each character of a non-ASCII
    string it iterates, for good, so every Hangul syllable a Korean game
    showed became an interned name (about 120 in a game to 100, more with
    the coach's reasons), and on the 64-bit virtual board the name that
    overflowed the table's sixth pool cost a 14 KB seventh
    (docs/memory.md "Interned names")."""
    w = 0
    b = s.encode()
    k = 0
    n = len(b)
    while k < n:
        u = b[k]
        if u < 0x80:
            cp = u
            k += 1
        elif u < 0xE0:
            cp = (u & 0x1F) << 6 | b[k + 1] & 0x3F
            k += 2
        elif u < 0xF0:
            cp = (u & 0x0F) << 12 | (b[k + 1] & 0x3F) << 6 | b[k + 2] & 0x3F
            k += 3
        else:
            cp = (u & 0x07) << 18 | (b[k + 1] & 0x3F) << 12 | (b[k + 2] & 0x3F) << 6 \
                | b[k + 3] & 0x3F
            k += 4
        if 32 <= cp < 127:
            w += 8
        elif _find(_narrow, cp) >= 0:
            w += 8
        elif _find(_wide, cp) >= 0:
            w += 16
        else:
            w += 8
    return w


def draw(fb, s, x, y, w, c=1, bold=False):
    """Draw ``s`` at (x, y) within ``w`` px; returns the x after it. ``c``
    0 draws white (on a black bar). What does not fit is not drawn (and
    is reported to CHECK)."""
    if CHECK is not None:
        CHECK.append((x, y, w, H, width(s) + (1 if bold else 0), s))
    return _draw(fb, s, x, y, x + w, c, bold)


def right(fb, s, x_end, y, w, c=1):
    """``s`` ending at ``x_end``, in a box of ``w`` px ending there."""
    n = width(s)
    if CHECK is not None:
        CHECK.append((x_end - w, y, w, H, n, s))
    _draw(fb, s, x_end - min(n, w), y, x_end, c, False)


def _draw(fb, s, x, y, end, c, bold):
    if _f is None:                  # no glyph file: framebuf's font
        n = (end - x) // 8
        fb.text(s[:n], x, y + 4, c)
        return x + 8 * len(s[:n])
    # The loop a cursor move runs for its line of text. Black text on a
    # line whose top is a multiple of 8 (every line of every screen: its
    # background is blank) is read from the glyph file straight into the
    # frame buffer, a band of 8 rows at a time (the file is in the panels'
    # layout); measured on the emulated RP2040 for a 34-character line:
    # 2.9 ms, against 4.2 ms reading each glyph into a buffer and blitting
    # it (a framebuf blit goes pixel by pixel, ~75 us for 8x16), and 23 ms
    # copying bands by slice assignment. White text, bold text and other
    # lines blit.
    seek = _f.seek
    readinto = _f.readinto
    nbase = _nbase
    if end > FB_W:
        end = FB_W
    if FAST and c and not bold and not (y & 7) and 0 <= y <= FB_H - H and x >= 0:
        mv = memoryview(fb)
        o = (y >> 3) * FB_W + x
        b = s.encode()
        k = 0
        n = len(b)
        while k < n:
            u = b[k]
            if u < 0x80:
                cp = u
                k += 1
            elif u < 0xE0:
                cp = (u & 0x1F) << 6 | b[k + 1] & 0x3F
                k += 2
            elif u < 0xF0:
                cp = (u & 0x0F) << 12 | (b[k + 1] & 0x3F) << 6 | b[k + 2] & 0x3F
                k += 3
            else:
                cp = (u & 0x07) << 18 | (b[k + 1] & 0x3F) << 12 | (b[k + 2] & 0x3F) << 6 \
                    | b[k + 3] & 0x3F
                k += 4
            if 32 <= cp < 127:      # printable ASCII: the first 95 glyphs
                w = 8
                at = nbase + 16 * (cp - 32)
            else:
                i, wide = _glyph(cp)
                w = 16 if wide else 8
                at = _wbase + 32 * i if wide else nbase + 16 * i
            if x + w > end:
                break
            seek(at)
            readinto(mv[o:o + w])
            readinto(mv[o + FB_W:o + FB_W + w])
            o += w
            x += w
        return x
    blit = fb.blit
    b = s.encode()
    k = 0
    n = len(b)
    while k < n:
        u = b[k]
        if u < 0x80:
            cp = u
            k += 1
        elif u < 0xE0:
            cp = (u & 0x1F) << 6 | b[k + 1] & 0x3F
            k += 2
        elif u < 0xF0:
            cp = (u & 0x0F) << 12 | (b[k + 1] & 0x3F) << 6 | b[k + 2] & 0x3F
            k += 3
        else:
            cp = (u & 0x07) << 18 | (b[k + 1] & 0x3F) << 12 | (b[k + 2] & 0x3F) << 6 \
                | b[k + 3] & 0x3F
            k += 4
        if 32 <= cp < 127:
            wide = False
            i = cp - 32
        else:
            i, wide = _glyph(cp)
        if wide:
            if x + 16 > end:
                break
            seek(_wbase + 32 * i)
            readinto(_WBUF)
            g = _WFB
        else:
            if x + 8 > end:
                break
            seek(nbase + 16 * i)
            readinto(_NBUF)
            g = _NFB
        if bold:
            g = _bold(g)
            x -= 1            # _BFB's column 1 is the glyph's column 0
        if c:
            blit(g, x, y, 0)
        else:
            blit(g, x, y, 1, _INV)
        if bold:
            x += 1
        x += 16 if wide else 8
    return x


def _bold(g):
    """``g`` in bold, in _BFB from its column 1: the ink moved 1 px right,
    then the pixel left of each ink pixel cleared (a 1-px gap stays open),
    then the glyph itself again."""
    b = _BFB
    b.fill(0)
    b.blit(g, 2, 0, 0)
    b.blit(g, 0, 0, 1, _INV)
    b.blit(g, 1, 0, 0)
    return b


def first_fit(w, texts):
    """The first of ``texts`` (the long form, then shorter ones: each
    language's catalogue says how to shorten) that fits ``w`` px; the last
    if none does (the fit test then fails on it)."""
    for s in texts:
        if width(s) <= w:
            return s
    return s


def wrap(s, w):
    """``s`` cut into lines of at most ``w`` px, at spaces (Lithuanian,
    Swahili and Korean all put spaces between words); a word longer than a
    line is cut where it must."""
    out = []
    line = ""
    for word in s.split(" "):
        cand = word if not line else line + " " + word
        if width(cand) <= w:
            line = cand
            continue
        if line:
            out.append(line)
        line = word
        while width(line) > w:
            k = len(line) - 1
            while k > 1 and width(line[:k]) > w:
                k -= 1
            out.append(line[:k])
            line = line[k:]
    if line:
        out.append(line)
    return out


def no_room(s, x, y):
    """``s`` had no line left to go on: the fit test fails on it."""
    if CHECK is not None:
        CHECK.append((x, y, 0, 0, width(s), s))


def rect(x, y, w, h):
    """Something other than text drawn at (x, y, w, h): the fit test checks
    that no text runs into it."""
    if RECTS is not None:
        RECTS.append((x, y, w, h))
