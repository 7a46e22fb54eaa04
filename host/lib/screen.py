"""A panel's image and the screen it shows. The 4.2" table's panels
(hardware/board.json, ``scale`` 2) show a 200x150 screen, each of its
pixels a 2x2 block of the panel's 400x300; the 2.9" panels show their
296x128 screen as it is. The text view, the terminal's braille and the
fault campaign read the screen (the firmware's own pixels: its glyphs at
their size, its layout's coordinates)."""


def screen_of(img):
    """The screen a panel's image (PIL "1") shows: the image itself, or
    halved when every 2x2 block of it is one colour (a panel at scale 2
    draws its screen's pixels so; a screen drawn at scale 1 has glyphs one
    pixel wide, so it is never mistaken for one) and it is not blank."""
    from PIL import Image
    lo, hi = img.getextrema()
    if img.width % 2 or img.height % 2 or lo == hi:
        return img
    half = img.resize((img.width // 2, img.height // 2), Image.Resampling.NEAREST)
    if half.resize(img.size, Image.Resampling.NEAREST).tobytes() == img.tobytes():
        return half
    return img
