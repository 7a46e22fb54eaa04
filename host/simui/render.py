"""Turning a panel's 1-bit image into what a person sees: an e-ink look for
the window and PNG shots, braille characters for the terminal.

Panel images are PIL mode "1" images in the logical orientation (400x300 on
the 4.2" table of hardware/board.json, 296x128 on the 2.9" one of
board-2in9.json), where a black pixel (value 0) is ink, as returned by the
virtual board; everything here takes the size from the image (W, H: the
default table's panel).
"""
from PIL import Image

# The colours of an SSD1680 module in daylight: off-white paper, not-quite-black ink.
PAPER = (226, 223, 210)
INK = (34, 36, 40)
# A partial refresh drives only the changed pixels; while it runs they show
# half-way (a grey), which is the quick flicker seen on the real panel.
MID = (128, 128, 124)

W, H = 400, 300


# Pillow >= 9.1 names its filters in Image.Resampling (the bare constants
# are deprecated aliases there; older Pillow has only those).
_NEAREST = getattr(Image, "Resampling", Image).NEAREST

def to_rgb(panel, scale=1):
    """The panel in e-ink colours, scaled by an integer factor (pixel-exact:
    each panel pixel becomes a scale x scale block)."""
    img = panel.convert("L").convert("P")
    # palette index 0 = ink, 255 = paper (mode "1" black=0, white=255)
    pal = [0] * 768
    pal[0:3] = INK
    pal[255 * 3:255 * 3 + 3] = PAPER
    img.putpalette(pal)
    rgb = img.convert("RGB")
    if scale != 1:
        rgb = rgb.resize((rgb.width * scale, rgb.height * scale), _NEAREST)
    return rgb


def flat(colour, scale=1, size=(W, H)):
    return Image.new("RGB", (size[0] * scale, size[1] * scale), colour)


def partial_frame(old, new, scale=1):
    """Mid-update of a partial refresh: pixels that change are grey."""
    diff = Image.frombytes("1", old.size, bytes(a ^ b for a, b in zip(old.tobytes(), new.tobytes(), strict=True)))
    base = to_rgb(old, scale)
    mask = diff.convert("L")
    if scale != 1:
        mask = mask.resize(base.size, _NEAREST)
    base.paste(MID, (0, 0), mask)
    return base


# The SSD1680 full-refresh waveform as the window and the web page play it:
# (share of the refresh time, frame): the old image inverted, all black, all
# white, the new image inverted, then the new image (the last frame stays).
FULL_WAVEFORM = ((0.18, "old inverted"), (0.22, "ink"), (0.22, "paper"),
                 (0.18, "new inverted"), (0.20, "new"))
# Share of a partial refresh during which the changing pixels show grey.
PARTIAL_GREY = 0.6


def full_frames(old, new, scale=1):
    """FULL_WAVEFORM as images, each with its share of the refresh time."""
    frames = {"old inverted": lambda: to_rgb(_invert(old), scale),
              "ink": lambda: flat(INK, scale, new.size),
              "paper": lambda: flat(PAPER, scale, new.size),
              "new inverted": lambda: to_rgb(_invert(new), scale),
              "new": lambda: to_rgb(new, scale)}
    return [(share, frames[name]()) for share, name in FULL_WAVEFORM]


def _invert(panel):
    return panel.point(lambda v: 255 - v)


def ppm(rgb):
    """PPM bytes of an RGB image, which Tk's PhotoImage reads natively (no
    PIL.ImageTk needed, so a Pillow without Tk support still works)."""
    return b"P6 %d %d 255\n" % rgb.size + rgb.tobytes()


def side_by_side(panels, scale=1, gap=8, background=(60, 62, 66)):
    """Both panels in e-ink colours next to each other (for PNG shots)."""
    imgs = [to_rgb(p, scale) for p in panels]
    w = sum(i.width for i in imgs) + gap * (len(imgs) + 1)
    h = max(i.height for i in imgs) + 2 * gap
    out = Image.new("RGB", (w, h), background)
    x = gap
    for i in imgs:
        out.paste(i, (x, gap))
        x += i.width + gap
    return out


# Braille: one character holds 2x4 dots; bit for dot (x, y).
_BRAILLE_BIT = {(0, 0): 0x01, (0, 1): 0x02, (0, 2): 0x04, (1, 0): 0x08,
                (1, 1): 0x10, (1, 2): 0x20, (0, 3): 0x40, (1, 3): 0x80}


def braille_lines(panel):
    """The panel as lines of braille characters (32 of 148 for a 296x128
    image), a raised dot per black pixel: pixel-exact, since every cell
    maps 2x4 panel pixels."""
    w, h = panel.size
    px = panel.load()
    lines = []
    for cy in range(0, h, 4):
        row = []
        for cx in range(0, w, 2):
            bits = 0
            for (dx, dy), bit in _BRAILLE_BIT.items():
                x, y = cx + dx, cy + dy
                if x < w and y < h and px[x, y] == 0:
                    bits |= bit
            row.append(chr(0x2800 + bits))
        lines.append("".join(row))
    return lines


def board_panel(board=None):
    """(width, height, scale) of the panels of a board definition (None:
    hardware/board.json): (400, 300, 2) on the 4.2" table, whose screens
    are 200x150 drawn as 2x2 blocks; (296, 128, 1) on the 2.9" one. An
    unreadable file gives the default table's (the board's own check
    reports it)."""
    import json
    from ..lib.paths import BOARD, resolve_board
    try:
        with open(resolve_board(board) if board else BOARD) as f:
            panel = json.load(f)["players"][0]["panel"]
        return int(panel["width"]), int(panel["height"]), int(panel.get("scale", 1))
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return W, H, 2


def braille_decode(lines, size=(W, H)):
    """The inverse of braille_lines (used by tests reading a terminal)."""
    img = Image.new("1", size, 1)
    px = img.load()
    assert px is not None   # a new image always loads
    for cy, line in enumerate(lines):
        for cx, ch in enumerate(line):
            bits = ord(ch) - 0x2800
            if not 0 <= bits <= 0xFF:
                continue
            for (dx, dy), bit in _BRAILLE_BIT.items():
                x, y = cx * 2 + dx, cy * 4 + dy
                if bits & bit and x < size[0] and y < size[1]:
                    px[x, y] = 0
    return img


def shrink_half(panel):
    """Half-size panel for small terminals: a pixel is ink if any of its
    2x2 source pixels is (keeps thin strokes visible)."""
    inv = _invert(panel).convert("L")
    small = inv.reduce(2)  # mean; any ink -> > 0
    return small.point(lambda v: 0 if v > 0 else 255).convert("1")
