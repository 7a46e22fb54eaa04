"""Drawing the screens into a panel's framebuffer (296x128, 1 = black ink).

Every function here only draws: it gets a FrameBuffer and plain values built
by app.py from ``match.observation(player)``, so nothing here can see the
other player's hidden cards. The 8x8 built-in font is used for small text;
card ranks and suits are the big bitmaps of font.py.
"""
import framebuf
import font

W = 296
H = 128
CARD_W = 23          # a card box: 11 of them plus meld gaps fit in 296 px
CARD_H = 40
CARD_STEP = 24
GROUP_GAP = 5        # space between melds / deadwood (hand grouped, R3)
HAND_Y = 62

_HLSB = framebuf.MONO_HLSB


# One small framebuffer per glyph size, allocated once; a glyph's bytes are
# copied in before each blit (cheaper in heap than 21 framebuffers).
_RBUF = bytearray(len(font.RANKS[0]))
_RFB = framebuf.FrameBuffer(_RBUF, font.RANK_W, font.RANK_H, _HLSB)
_SBUF = bytearray(len(font.SUITS[0]))
_SFB = framebuf.FrameBuffer(_SBUF, font.SUIT_W, font.SUIT_H, _HLSB)


# The showdown's and the menu's drawing live in endview.py and menu.py,
# loaded only while those screens are up (heap, docs/memory.md).


def _rank(i):
    _RBUF[:] = font.RANKS[i]
    return _RFB


def _suit(i):
    _SBUF[:] = font.SUITS[i]
    return _SFB

# Palette for drawing a glyph white on black (selected card): maps ink 1->0.
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, _HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)


def _ri(card):
    return font.RANK_ORDER.find(card[0].upper())


def _si(card):
    return font.SUIT_ORDER.find(card[1].lower())


def text(fb, s, x, y, c=1):
    fb.text(s, x, y, c)


def bold(fb, s, x, y, c=1):
    # the 8x8 font drawn twice, one pixel apart: readable prompt lines
    fb.text(s, x, y, c)
    fb.text(s, x + 1, y, c)


def card(fb, x, y, c, selected=False):
    """One card face: big rank over big suit, in a rounded box."""
    fb.fill_rect(x, y, CARD_W, CARD_H, 1 if selected else 0)
    fb.rect(x, y, CARD_W, CARD_H, 1)
    # rounded corners
    for cx, cy in ((x, y), (x + CARD_W - 1, y), (x, y + CARD_H - 1),
                   (x + CARD_W - 1, y + CARD_H - 1)):
        fb.pixel(cx, cy, 0)
    r = _ri(c)
    s = _si(c)
    gx = x + (CARD_W - font.RANK_W) // 2
    if selected:
        fb.blit(_rank(r), gx, y + 4, 1, _INV)
        fb.blit(_suit(s), gx, y + 24, 1, _INV)
    else:
        fb.blit(_rank(r), gx, y + 4, 0)
        fb.blit(_suit(s), gx, y + 24, 0)


def card_back(fb, x, y):
    fb.fill_rect(x, y, CARD_W, CARD_H, 0)
    fb.rect(x, y, CARD_W, CARD_H, 1)
    for yy in range(y + 3, y + CARD_H - 3, 3):
        for xx in range(x + 3 + (yy % 2), x + CARD_W - 3, 3):
            fb.pixel(xx, yy, 1)


def empty_pile(fb, x, y):
    fb.rect(x, y, CARD_W, CARD_H, 1)
    text(fb, "-", x + 8, y + 16)


def banner(fb, testmode):
    if testmode:
        fb.fill_rect(W - 76, 0, 76, 10, 1)
        fb.text("TEST MODE", W - 74, 1, 0)


def footer(fb, hint):
    fb.fill_rect(0, H - 10, W, 10, 1)
    fb.text(hint[:37], 2, H - 9, 0)


def header(fb, left, testmode=False):
    fb.fill_rect(0, 0, W, 10, 0)
    # the TEST MODE banner takes the right 76 px
    text(fb, left[:27] if testmode else left[:37], 1, 1)
    fb.hline(0, 10, W, 1)


def hand_positions(groups):
    """x of each card of the hand, left to right, groups set apart."""
    n = 0
    gaps = -1
    for g in groups:
        if g[0]:
            n += len(g[0])
            gaps += 1
    width = n * CARD_STEP + max(gaps, 0) * GROUP_GAP - 1
    x = (W - width) // 2
    xs = []
    for g, _m in groups:
        if not g:
            continue
        for _c in g:
            xs.append(x)
            x += CARD_STEP
        x += GROUP_GAP
    return xs


def game(fb, v):
    """The turn screen of one player. ``v`` (built by turn.view) holds:
    head, testmode, pile (card or None), lines (4 strings right of the
    pile; the first is the prompt, drawn bold), groups (list of (cards,
    is_meld)), cursor (index in display order or -1), msg, hint, backs."""
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    # top of the discard pile (R7) and the stock
    if v["pile"]:
        card(fb, 2, 13, v["pile"])
    else:
        empty_pile(fb, 2, 13)
    _lines(fb, v["lines"])
    nb = v.get("backs", 0)
    if nb:
        # the computer's seat: its cards face down (public side only)
        x = (W - nb * 12 - 11) // 2
        for _i in range(nb):
            card_back(fb, x, HAND_Y)
            x += 12
    groups = v["groups"]
    xs = hand_positions(groups)
    k = 0
    cur = v["cursor"]
    for g, is_meld in groups:
        if not g:
            continue
        x0 = xs[k]
        for c in g:
            _hand_card(fb, xs[k], c, k == cur)
            k += 1
        x1 = xs[k - 1] + CARD_W
        # a bar under each meld; deadwood gets a dotted line
        if is_meld:
            fb.fill_rect(x0, HAND_Y + CARD_H + 2, x1 - x0, 2, 1)
        else:
            for xx in range(x0, x1, 3):
                fb.pixel(xx, HAND_Y + CARD_H + 2, 1)
    _bottom(fb, v["msg"], v["hint"])


def game_update(fb, v, was):
    """Turn ``fb``, which holds game(fb, was) of the same position (same
    head, pile, hand and test mode), into game(fb, v): the same pixels,
    drawing only what differs, which for a cursor move is a line of text
    and two cards. On an RP2040 a whole screen takes ~20 ms to draw, a
    cursor move ~3 ms this way (docs/emulated-pico.md)."""
    lines = v["lines"]
    old = was["lines"]
    y = 14
    for i in range(max(len(lines), len(old))):
        s = lines[i] if i < len(lines) else None
        if i >= len(old) or s != old[i]:
            fb.fill_rect(30, y, W - 30, 8, 0)   # the row, right of the pile
            if s is not None:
                _line(fb, i, s, y)
        y += 10
    cur = v["cursor"]
    was_cur = was["cursor"]
    if cur != was_cur:
        groups = v["groups"]
        xs = hand_positions(groups)
        k = 0
        for g, _m in groups:
            for c in g:
                if k == cur or k == was_cur:
                    # the card's box, raised or not
                    fb.fill_rect(xs[k], HAND_Y - 4, CARD_W, CARD_H + 4, 0)
                    _hand_card(fb, xs[k], c, k == cur)
                k += 1
    if v["msg"] != was["msg"]:
        fb.fill_rect(0, H - 20, W, 10, 0)
        if v["msg"]:
            bold(fb, v["msg"][:36], 2, H - 20)
    if v["hint"] != was["hint"]:
        footer(fb, v["hint"])


def _lines(fb, lines):
    y = 14
    for i in range(len(lines)):
        _line(fb, i, lines[i], y)
        y += 10


def _line(fb, i, s, y):
    # the first line is the prompt, in bold
    if i == 0:
        bold(fb, s[:33], 30, y)
    else:
        text(fb, s[:33], 30, y)


def _hand_card(fb, x, c, sel):
    # the card under the cursor stands 4 px higher, drawn inverted
    card(fb, x, HAND_Y - (4 if sel else 0), c, sel)


def _bottom(fb, msg, hint):
    if msg:
        bold(fb, msg[:36], 2, H - 20)
    footer(fb, hint)


def error(fb, title, lines, hint, testmode=False):
    fb.fill(0)
    fb.fill_rect(0, 0, W, 12, 1)
    fb.text(title[:36], 2, 2, 0)
    banner(fb, testmode)
    y = 18
    for ln in lines:
        while ln and y < H - 20:
            # wrap at a space when the line is longer than 36 characters
            cut = len(ln)
            if cut > 36:
                cut = ln.rfind(" ", 0, 37)
                if cut <= 0:
                    cut = 36
            text(fb, ln[:cut], 2, y)
            ln = ln[cut:].lstrip()
            y += 10
    footer(fb, hint)
