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
