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
_NBUF = bytearray(16)
_NFB = framebuf.FrameBuffer(_NBUF, 8, 16, framebuf.MONO_HLSB)
_WBUF = bytearray(32)
_WFB = framebuf.FrameBuffer(_WBUF, 16, 16, framebuf.MONO_HLSB)
# palette for drawing a glyph white on black: maps ink 1 -> 0
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)


def load(path):
    """Use the glyph file ``path`` (i18n.load calls this with the
    language's lang/<code>.fnt)."""
    global _f, _narrow, _wide, _nbase, _wbase
    f = open(path, "rb")
    head = f.read(12)
    if head[:4] != b"OKGF" or head[4] != 1 or head[5] != H:
        f.close()
        raise ValueError("%s: not a glyph file of this firmware" % path)
    nn = head[6] | head[7] << 8
    nw = head[8] | head[9] << 8
    note = head[10] | head[11] << 8
    f.seek(12 + note)
    narrow = f.read(2 * nn)
    wide = f.read(2 * nw)
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
    i = _find(_narrow, cp)
    if i >= 0:
        return i, False
    i = _find(_wide, cp)
    if i >= 0:
        return i, True
    return 31, False   # "?"


def width(s):
    """Pixels ``s`` needs."""
    w = 0
    for ch in s:
        cp = ord(ch)
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
    f = _f
    for ch in s:
        i, wide = _glyph(ord(ch))
        gw = 16 if wide else 8
        if x + gw > end:
            break
        if wide:
            f.seek(_wbase + 32 * i)
            f.readinto(_WBUF)
            g = _WFB
        else:
            f.seek(_nbase + 16 * i)
            f.readinto(_NBUF)
            g = _NFB
        if c:
            fb.blit(g, x, y, 0)
            if bold:
                fb.blit(g, x + 1, y, 0)
        else:
            fb.blit(g, x, y, 1, _INV)
            if bold:
                fb.blit(g, x + 1, y, 1, _INV)
        x += gw
    return x


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
