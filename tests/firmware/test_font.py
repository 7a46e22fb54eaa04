"""firmware/font.py is generated from the ASCII art in glyph_art.py: the two
must agree, and every rank and suit must have its glyph (R14's ranks and
suits, in the engine's card order)."""
import os


from tests.support import glyph_art
from tests.support.harness import ROOT


def test_font_py_is_generated_from_the_art():
    with open(os.path.join(ROOT, "firmware", "font.py")) as f:
        assert f.read() == glyph_art.render(), \
            "run: python -m tests.support.glyph_art > firmware/font.py"


def test_every_rank_and_suit_has_a_distinct_glyph():
    ns = {}
    exec(glyph_art.render(), ns)
    assert ns["RANK_ORDER"] == "A23456789TJQK" and ns["SUIT_ORDER"] == "cdhs"
    for table, size in (("RANKS", 2 * 16), ("SUITS", 2 * 12), ("MINI_SUITS", 8)):
        glyphs = ns[table]
        assert all(len(g) == size for g in glyphs)
        assert len(set(glyphs)) == len(glyphs)      # no two alike
        assert all(any(g) for g in glyphs)          # none blank


def test_every_button_has_its_own_icon_read_from_font_py():
    # The footers and the case's engraving (issue 37 What 5) read
    # font.ICONS by the button's name: one per button, distinct, inked,
    # ICON_W x ICON_H, with a blank first and last column (two icons side
    # by side stay apart).
    ns = {}
    exec(glyph_art.render(), ns)
    with open(os.path.join(ROOT, "firmware", "buttons.py")) as f:
        btn = {}
        exec(compile("NAMES = " + f.read().split("NAMES =", 1)[1].split("\n", 1)[0], "b", "exec"), btn)
    icons = ns["ICONS"]
    w, h = ns["ICON_W"], ns["ICON_H"]
    assert sorted(icons) == sorted(btn["NAMES"])
    stride = (w + 7) // 8
    assert len(set(icons.values())) == len(icons)
    for name, g in icons.items():
        assert len(g) == stride * h, name
        assert any(g), name
        for y in range(h):
            row = int.from_bytes(g[y * stride:(y + 1) * stride], "big") >> (8 * stride - w)
            assert not row & (1 << (w - 1)) and not row & 1, (name, y)
