"""Drawing the screens into a panel's framebuffer (296x128, 1 = black ink).

Every function here only draws: it gets a FrameBuffer and plain values
built from ``match.observation(player)``, so nothing here can see the other
player's hidden cards. Text is text.py's (Unifont, 16 px a line, in the
players' language: the callers pass texts already translated); the ranks
and suits on the card faces are the card art of font.py.

The layout, in 16-px text lines whose tops are multiples of 8 (text.py
copies those into the frame buffer instead of blitting them: a cursor
move's line costs ~4x less on an RP2040): a header line (0..15, with a
rule on its last row, which Unifont leaves blank but for an ogonek), the
inverted footer (112..127) saying what each button does now, and between
them the screen's own content.
"""
import framebuf
import font
import text

# The panel's logical size (display.py: 296x128 on the 2.9", 200x150 on
# the 4.2" at scale 2), which App sets in text before this module is
# imported (app.py drops a copy imported earlier). Modules that do
# ``from screens import W, FOOT_Y, ...`` at their own import get the
# panel's figures as long as they are imported after App.__init__ (every
# screen module is: they load on demand).
W = text.FB_W
H = text.FB_H
LINE = text.H        # 16 px
FOOT_Y = H - LINE    # the footer's top
TOP = LINE           # the first line under the header (its rule is its last row)
CARD_H = 36
# A narrow screen (the 4.2" at scale 2: 200x150, every pixel shown 2x2):
# the discard pile beside the hand, at its left, so that four lines over
# the whole width (24 characters) hold the prompt, the stock, the card
# under the cursor and the opponent's last move, each on its own line;
# the hand's faces overlap by their border (each 16 px card box shows its
# rank and suit whole, a pixel of paper either side): 11 cards and three
# meld gaps take 175 px, right of the pile (0..15).
NARROW = text.NARROW   # W < 296 (text.size)
if NARROW:
    CARD_W = 16
    CARD_STEP = 15   # the next card's left border is this one's right
    GROUP_GAP = 3
    LINES_X = 0      # Unifont's cells keep a column of paper at the left
    ROWS = 4         # the prompt, the stock, the card's line, the last move
    HAND_Y = 89      # raised by 4: 85, under the four lines (16..79)
    PILE_X = 0
    PILE_Y = HAND_Y
    HAND_X = 24      # the hand is centred right of this: the pile, a gap
else:
    CARD_W = 23      # a card box: 11 of them plus meld gaps fit in 296 px
    CARD_STEP = 24
    GROUP_GAP = 5    # space between melds / deadwood (hand grouped, R3)
    LINES_X = 30     # the turn screen's lines, right of the pile
    ROWS = 3         # the prompt, the stock, the card's line or the last move
    HAND_Y = 70      # raised by 4 under the cursor: 66, just under 3 lines
    PILE_X = 2
    PILE_Y = TOP + 1
    HAND_X = 0
LINES_W = text.LINES_W   # W on a narrow screen, else W - LINES_X - 2
# A notice's or an error's text (error() draws it, coachview.fits counts
# its lines): from the line under the title bar (every glyph's top row is
# paper: a pixel between the bar and the ink, and a top that is a multiple
# of 8, which text.py copies) to the footer: six lines on the 2.9", seven
# on the 4.2"'s 150 px; the turn screen's lines' x and width on a narrow
# screen (25 characters), 3 px in on the 2.9"
NOTE_X = text.NOTE_X   # LINES_X on a narrow screen (fits counts with text's)
NOTE_Y = LINE
NOTE_W = text.NOTE_W
ICON_GAP = 3         # an icon and the word after it in a footer
ITEM_GAP = 12        # one button's item and the next (the catalogue's "  ")

_HLSB = framebuf.MONO_HLSB


# One small framebuffer per card-art size, allocated once; a picture's
# bytes are copied in before each blit (cheaper in heap than 21 buffers).
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


# the buttons' icons (font.ICONS), one buffer for them all
_IBUF = bytearray(len(font.ICONS["ok"]))
_IFB = framebuf.FrameBuffer(_IBUF, font.ICON_W, font.ICON_H, _HLSB)

# Palette for drawing a picture white on black (selected card): ink 1->0.
_INV = framebuf.FrameBuffer(bytearray(1), 2, 1, _HLSB)
_INV.pixel(0, 0, 1)
_INV.pixel(1, 0, 0)


def _ri(card):
    return font.RANK_ORDER.find(card[0].upper())


def _si(card):
    return font.SUIT_ORDER.find(card[1].lower())


def card(fb, x, y, c, selected=False):
    """One card face: big rank over big suit, in a rounded box."""
    text.rect(x, y, CARD_W, CARD_H)
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
        fb.blit(_rank(r), gx, y + 3, 1, _INV)
        fb.blit(_suit(s), gx, y + 21, 1, _INV)
    else:
        fb.blit(_rank(r), gx, y + 3, 0)
        fb.blit(_suit(s), gx, y + 21, 0)


def card_back(fb, x, y):
    fb.fill_rect(x, y, CARD_W, CARD_H, 0)
    fb.rect(x, y, CARD_W, CARD_H, 1)
    for yy in range(y + 3, y + CARD_H - 3, 3):
        for xx in range(x + 3 + (yy % 2), x + CARD_W - 3, 3):
            fb.pixel(xx, yy, 1)


def empty_pile(fb, x, y):
    text.rect(x, y, CARD_W, CARD_H)
    fb.rect(x, y, CARD_W, CARD_H, 1)
    m = CARD_W // 4 if NARROW else 8
    fb.hline(x + m, y + CARD_H // 2, CARD_W - 2 * m, 1)


def banner_w(testmode):
    """The width the TEST MODE banner takes at the top right (0: none)."""
    if not testmode:
        return 0
    import i18n
    return text.width(i18n.t("banner.test")) + 6


def banner(fb, testmode):
    if testmode:
        import i18n
        s = i18n.t("banner.test")
        w = text.width(s) + 6
        fb.fill_rect(W - w, 0, w, LINE, 1)
        text.draw(fb, s, W - w + 3, 0, w - 6, 0)


# The buttons' words as the catalogues write them in footers (the words
# engraved on the case), drawn as the buttons' icons (font.ICONS, issue 37
# What 5): a footer names each button by its icon and what it does in the
# player's language. UTF-8 bytes, longest first; "<>" is the built-in
# texts' (basetext.py) ASCII for the arrows.
_BUTTON_WORDS = (
    (b"KNOCK/OK", ("knock", "ok")),
    (b"\xe2\x97\x80\xe2\x96\xb6", ("left", "right")),   # the arrows pair
    (b"KNOCK", ("knock",)),
    (b"DRAW", ("draw",)),
    (b"TAKE", ("take",)),
    (b"<>", ("left", "right")),
    (b"\xe2\x97\x80", ("left",)),
    (b"\xe2\x96\xb6", ("right",)),
    (b"OK", ("ok",)),
)


def hint_parts(hint):
    """A footer's text as its parts: a button's name (str) for an icon,
    bytes for words, None for the gap between two buttons' items (two
    spaces or more in the catalogue). A button's word counts only at the
    start of a word and before a space, ':', ',' or the end."""
    b = hint.encode()
    out = []
    n = len(b)
    i = 0
    start = 0
    while i < n:
        if b[i] == 32 and i + 1 < n and b[i + 1] == 32:
            if i > start:
                out.append(b[start:i])
            while i < n and b[i] == 32:
                i += 1
            out.append(None)
            start = i
            continue
        if i == 0 or b[i - 1] == 32:
            hit = None
            for word, names in _BUTTON_WORDS:
                j = i + len(word)
                if b[i:j] == word and (j == n or b[j] in (32, 58, 44)):   # " :,"
                    hit = names
                    break
            if hit:
                if i > start:
                    out.append(b[start:i])
                out.extend(hit)
                i = j
                if i < n and b[i] == 32 and not (i + 1 < n and b[i + 1] == 32):
                    i += 1          # the icon's own gap takes the space
                    out.append(ICON_GAP)
                start = i
                continue
        i += 1
    if start < n:
        out.append(b[start:])
    return out


def _footer(fb, parts, draw):
    """Draw (or only measure) a footer's parts; returns the width."""
    x = 3
    iw = font.ICON_W
    for p in parts:
        if p is None:
            x += ITEM_GAP
        elif isinstance(p, int):
            x += p
        elif isinstance(p, str):
            if draw:
                _IBUF[:] = font.ICONS[p]
                fb.blit(_IFB, x, FOOT_Y, 1, _INV)
                text.rect(x, FOOT_Y, iw, LINE)
            x += iw
        else:
            s = p.decode()
            n = text.width(s)
            if draw:   # its own box: what does not fit shows in the fit test
                text.draw(fb, s, x, FOOT_Y, min(n, W - 3 - x), 0)
            x += n
    return x - 3


def footer(fb, hint):
    """The inverted bottom line: what each button does now, each button
    named by its icon. ``hint``: a text, or long and short forms (the
    first that fits is drawn)."""
    fb.fill_rect(0, FOOT_Y, W, LINE, 1)
    if isinstance(hint, tuple):
        for h in hint:
            parts = hint_parts(h)
            if _footer(fb, parts, False) <= W - 6:
                break
    else:
        parts = hint_parts(hint)
    _footer(fb, parts, True)


def header(fb, left, testmode=False, rule=True, w=None):
    """The title line; ``left`` a text, or a tuple of them, longest first
    (the first that fits is drawn: the TEST MODE banner takes room).
    ``w``: its width when something else shares the line; ``rule=False``:
    no rule under it (a table whose first row is underlined, to fit six
    rows)."""
    fb.fill_rect(0, 0, W, LINE, 0)
    # the TEST MODE banner takes the right of the line
    if w is None:
        w = W - 2 - banner_w(testmode) - (4 if testmode else 0)
    if isinstance(left, tuple):
        left = text.first_fit(w, left)
    text.draw(fb, left, 1, 0, w)
    if rule:
        rule_under(fb, 0)


def rule_under(fb, y):
    """The rule on the last row of the text line at ``y``: dotted, so a
    glyph's lowest strokes (row 14: Hangul, descenders) just above it stay
    apart from it."""
    for x in range(0, W, 2):
        fb.pixel(x, y + LINE - 1, 1)


def table(fb, v, testmode):
    """A title, a row of column heads (underlined) and rows of a label and
    one value per column, right-aligned (statistics, score pad): up to six
    rows between the title and the footer. ``v``: head, cols (column
    heads), rows ((label, value, ...), or a text over the whole line),
    col_w (a column's width)."""
    fb.fill(0)
    cols = v["cols"]
    header(fb, v["head"], testmode, rule=not cols)
    banner(fb, testmode)
    cw = v["col_w"]
    x0 = W - len(cols) * cw - 2
    y = TOP
    if cols:
        y = LINE
        corner = v.get("corner")
        if corner:
            text.draw(fb, corner, 3, y, x0 - 6)
        for i in range(len(cols)):
            text.right(fb, cols[i], x0 + (i + 1) * cw, y, cw - 6)
        rule_under(fb, y)
        y += LINE
    for row in v["rows"]:
        if isinstance(row, str):
            text.draw(fb, row, 3, y, W - 6)
        else:
            text.draw(fb, row[0], 3, y, x0 - 6)
            for i in range(1, len(row)):
                text.right(fb, row[i], x0 + i * cw, y, cw - 6)
        y += LINE
    footer(fb, v["hint"])


def title_bar(fb, title, testmode=False):
    """A black bar with the title in white (notices, errors, questions).
    A title the bar has no room for (the TEST MODE banner beside it) is
    left to the caller: returns False."""
    fb.fill_rect(0, 0, W, LINE, 1)
    b = banner_w(testmode)
    w = W - 6 - b - (4 if b else 0)
    fits = text.width(title) <= w
    if fits:
        text.draw(fb, title, 3, 0, w, 0)
    if b:
        fb.fill_rect(W - b - 2, 0, 2, LINE, 0)   # the banner set apart
    banner(fb, testmode)
    return fits


def hand_positions(groups):
    """x of each card of the hand, left to right, groups set apart."""
    n = 0
    gaps = -1
    for g in groups:
        if g[0]:
            n += len(g[0])
            gaps += 1
    width = (n - 1) * CARD_STEP + CARD_W + max(gaps, 0) * GROUP_GAP
    x = HAND_X + (W - HAND_X - width) // 2
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
    head (a text, or long and short forms), testmode, pile (card or
    None), lines (3 texts right of the pile; the first is the prompt,
    drawn bold), groups (list of (cards, is_meld)), cursor (index in
    display order or -1), msg (over the last lines), hint, backs."""
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    # top of the discard pile (R7); the stock's count is a line
    if v["pile"]:
        card(fb, PILE_X, PILE_Y, v["pile"])
    else:
        empty_pile(fb, PILE_X, PILE_Y)
    rows = _rows(v)
    for i in range(ROWS):
        _row(fb, i, rows[i])
    nb = v.get("backs", 0)
    if nb:
        # the computer's seat: its cards face down (public side only)
        more = CARD_W - 12
        x0 = HAND_X + (W - HAND_X - nb * 12 - more) // 2
        x = x0
        for _i in range(nb):
            card_back(fb, x, HAND_Y)
            x += 12
        text.rect(x0, HAND_Y, nb * 12 + more, CARD_H)
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
    footer(fb, v["hint"])


def game_update(fb, v, was):
    """Turn ``fb``, which holds game(fb, was) of the same position (same
    head, pile, hand and test mode), into game(fb, v): the same pixels,
    drawing only what differs, which for a cursor move is a line of text
    and two cards. On an RP2040 a whole screen takes ~20 ms to draw, a
    cursor move ~3 ms this way (docs/emulated-pico.md)."""
    rows = _rows(v)
    old = _rows(was)
    for i in range(ROWS):
        new = rows[i]
        if new == old[i]:
            continue
        x0, y, lw = _place(i)
        s = new[0]
        x = x0
        if not new[1] and not old[i][1]:
            # the same words up to the card under the cursor: only what
            # follows them is drawn again (text is monospaced per glyph).
            # Compared in UTF-8 bytes, then back to the first byte of the
            # character they part in: s[k] made a one-character str for
            # each k, looked up among the interned names (2 ms of a
            # cursor move on the chip, before "Discard " was passed)
            sb = s.encode()
            ob = old[i][0].encode()
            n = min(len(sb), len(ob))
            k = 0
            while k < n and sb[k] == ob[k]:
                k += 1
            while 0 < k < len(sb) and (sb[k] & 0xC0) == 0x80:
                k -= 1
            if k:
                x += text.width(sb[:k].decode())
                s = sb[k:].decode()
        fb.fill_rect(x, y, W - x, LINE, 0)
        if s:
            text.draw(fb, s, x, y, lw - (x - x0), 1, new[1])
    cur = v["cursor"]
    was_cur = was["cursor"]
    if cur != was_cur:
        groups = v["groups"]
        xs = hand_positions(groups)
        # the two cards (and, where faces overlap, their neighbours, whose
        # shared border a box's clearing takes): boxes cleared, then drawn
        # left to right as game() draws them
        redo = []
        n = len(xs)
        for k in (cur, was_cur):
            if not 0 <= k < n:
                continue
            for j in (k - 1, k, k + 1):
                # a neighbour only where the faces overlap (the same group)
                if 0 <= j < n and j not in redo and (
                        j == k or xs[min(j, k)] + CARD_W > xs[max(j, k)]):
                    redo.append(j)
        for j in redo:
            fb.fill_rect(xs[j], HAND_Y - 4, CARD_W, CARD_H + 4, 0)
        k = 0
        for g, _m in groups:
            for c in g:
                if k in redo:
                    _hand_card(fb, xs[k], c, k == cur)
                k += 1
    if v["hint"] != was["hint"]:
        footer(fb, v["hint"])


def _rows(v):
    """The lines of the turn screen as (text, bold): the three right of
    the pile (and on a narrow screen the last move's, under them): the
    prompt in bold, then the view's lines; a message (a press that is not
    allowed, the engine's reason) takes the last line, or the last two
    when it needs them, in bold."""
    lines = v["lines"]
    rows = []
    for i in range(ROWS):
        rows.append((lines[i] if i < len(lines) else "", i == 0))
    msg = v["msg"]
    if msg:
        # up to two lines; on a narrow screen three (the prompt stays)
        most = ROWS - 1 if NARROW else 2
        parts = text.wrap(msg, LINES_W - 1)   # bold: one pixel wider
        if len(parts) > most:
            text.no_room(" ".join(parts[most:]), LINES_X, TOP + ROWS * LINE)
        parts = parts[:most]
        for k in range(len(parts)):
            rows[ROWS - len(parts) + k] = (parts[k], True)
    return rows


def _place(i):
    """(x, y, width) of the turn screen's line i."""
    return LINES_X, TOP + LINE * i, LINES_W


def _row(fb, i, row):
    if row[0]:
        x, y, w = _place(i)
        text.draw(fb, row[0], x, y, w, 1, row[1])


def _hand_card(fb, x, c, sel):
    # the card under the cursor stands 4 px higher, drawn inverted
    card(fb, x, HAND_Y - (4 if sel else 0), c, sel)


def error(fb, title, lines, hint, testmode=False):
    """A notice or an error: a title bar, the lines wrapped to the width
    (as many as fit above the footer), the footer."""
    fb.fill(0)
    y = NOTE_Y
    x = NOTE_X
    w = NOTE_W
    if not title_bar(fb, title, testmode):
        lines = [title] + list(lines)   # the title first, in the text
    for ln in lines:
        for part in text.wrap(ln, w):
            if y + LINE > FOOT_Y:
                text.no_room(part, x, y)
                return footer(fb, hint)
            text.draw(fb, part, x, y, w)
            y += LINE
    footer(fb, hint)
