"""The languages (docs/architecture.md "Languages"): every catalogue has
every key of the English one with the same fields, every character any of
them uses has a glyph cut from GNU Unifont in its language's glyph file
(none is ever drawn as a box or a "?"), the firmware finds every text on
the MicroPython binary exactly as written, and the code asks only for keys
that exist."""
import json
import os
import re
import subprocess

import pytest

from okgin.lib import lang
from tests.support.harness import ROOT

CODES = lang.codes()
FW = os.path.join(ROOT, "firmware")


def test_the_four_languages_are_there_english_first():
    assert CODES[0] == "en"
    assert set(CODES) >= {"en", "lt", "sw", "ko"}


@pytest.mark.parametrize("code", CODES)
def test_a_catalogue_has_every_key_with_the_same_fields(code):
    en = lang.read("en")
    cat = lang.read(code)
    assert list(cat)[0] == "lang.name", "lang.name must stay the first key (i18n.name reads one line)"
    assert set(cat) == set(en), "missing: %s; unknown: %s" % (
        sorted(set(en) - set(cat)), sorted(set(cat) - set(en)))
    for k, v in en.items():
        # a text may leave out a field English has (a card, a count) when
        # the language says it otherwise, never ask for one it lacks
        assert lang.fields(cat[k]) <= lang.fields(v) | _optional(k), (code, k, cat[k])
        assert lang.fields(v) - lang.fields(cat[k]) <= _optional(k), (code, k, cat[k])


def _optional(key):
    # fields a translation may drop: the action of an engine reason, the
    # cards a coach's reason names beside the subject
    if key.startswith("why."):
        return {0, 1, 2}
    if key.startswith("coach."):
        return {1, 2}
    return set()


def test_the_keys_hash_apart_enough_and_fit_the_device_index():
    # firmware/i18n.py keeps (14-bit hash << 16 | offset): a file over
    # 64 KB could not be indexed; equal hashes only cost a second read
    for code in CODES:
        assert os.path.getsize(lang.path(code)) < 0xFFFF
    en = lang.read("en")
    hashes = [lang.device_hash(k) for k in en]
    assert len(hashes) - len(set(hashes)) < 8


@pytest.mark.parametrize("code", CODES)
def test_every_character_has_a_glyph_from_unifont(code):
    glyphs, note = lang.read_fnt(lang.path(code, "fnt"))
    assert "GNU Unifont" in note and "Open Font License" in note
    need = lang.charset(code)
    missing = sorted(need - set(glyphs))
    assert not missing, "%s.fnt has no glyph for %s: run okgin glyphs" % (
        code, ", ".join("U+%04X %s" % (ord(c), c) for c in missing))
    # exactly what is needed, nothing more (the file is cut to the catalogue)
    assert set(glyphs) == need
    # Hangul 16 px wide, Latin (Lithuanian accents too) 8 px, 16 rows each
    for ch, (w, bits) in glyphs.items():
        assert len(bits) == 2 * w
        if 0xAC00 <= ord(ch) <= 0xD7A3:
            assert w == 16, ch
        if ch in "ĄČĘĖĮŠŲŪŽąčęėįšųūž":
            assert w == 8, ch
    # every language's own name can be drawn in every language (the menu)
    for other in CODES:
        assert set(lang.read(other)["lang.name"]) <= set(glyphs)


def test_lithuanian_capitals_keep_their_accents_inside_the_cell():
    """Š and Ž carry their caron in rows 0-2 of Unifont's 16, Ą and Ę their
    ogonek in rows 14-15: nothing is cut off in a 16-px line."""
    glyphs, _ = lang.read_fnt(lang.path("lt", "fnt"))
    assert "Ž" in glyphs and "Į" in glyphs        # the catalogue's own capitals
    for ch in "ŠŽČĖ":
        if ch in glyphs:
            assert any(glyphs[ch][1][:3]), ch     # the caron or dot, above the letter
    for ch in "ĄĘĮŲ":
        if ch in glyphs:
            assert any(glyphs[ch][1][13:]), ch    # the ogonek, under it


@pytest.mark.skipif(not os.path.isfile("/usr/share/unifont/unifont.hex"),
                    reason="GNU Unifont is not installed (apt-get install unifont): the "
                           "committed glyph files are checked against the catalogues above")
def test_the_glyph_files_are_the_cut_of_the_catalogues():
    from okgin import glyphs
    for code, data in glyphs.cut().items():
        with open(lang.path(code, "fnt"), "rb") as f:
            assert f.read() == data, "%s.fnt is stale: run okgin glyphs" % code


def test_each_index_is_its_catalogues_as_the_firmware_makes_it():
    """firmware/lang/<code>.idx (okgin glyphs: host/lib/lang.py build_idx)
    is the index of the catalogue beside it as it is, and its entries are
    those the firmware's own indexer (firmware/langcheck.py, which a
    power-on runs when there is no such index) makes of it."""
    import struct
    import langcheck
    for code in CODES:
        with open(lang.path(code), "rb") as f:
            data = f.read()
        with open(lang.path(code, "idx"), "rb") as f:
            idx = f.read()
        assert idx == lang.build_idx(data), "%s.idx is stale: run okgin glyphs" % code
        with open(lang.path(code), "rb") as f:
            theirs = langcheck._index(f, lambda kb: lang.device_hash(kb.decode()), lang.LINE_MAX, 0xFFFF)
        assert list(struct.unpack_from("<%dI" % ((len(idx) - 16) // 4), idx, 16)) == theirs, code
        assert len(theirs) == len(lang.read(code))     # every key line, once


def test_an_index_is_refused_for_a_line_the_device_would_refuse():
    for bad in (b"a = x\nb = " + b"y" * 400 + b"\n", b"a = {}\n", b"a = {0:>3}\n", b"a = }\n"):
        with pytest.raises(lang.CatalogueError):
            lang.build_idx(bad)
    assert len(lang.build_idx(b"# note\na = {0} {{x}}\nb = y")) == 16 + 2 * 4


# ----- the firmware's own reading, on the MicroPython binary -----

READ = r"""
import sys, json
sys.path.insert(0, %(fw)r)
import i18n
i18n.DIR = %(dir)r
out = []
keys = json.loads(%(keys)r)
for code in i18n.codes():
    i18n.load(code)
    out.append([code, i18n.name(code), [i18n.t(k) for k in keys]])
print(json.dumps(out))
"""


def test_the_firmware_reads_every_text_as_written():
    from okgin.vboard.vboard import find_micropython
    keys = list(lang.read("en"))
    script = READ % {"fw": FW, "dir": os.path.join(FW, "lang") + "/", "keys": json.dumps(keys)}
    r = subprocess.run([find_micropython(), "-c", script], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert [g[0] for g in got] == CODES
    for code, name, texts in got:
        cat = lang.read(code)
        assert name == cat["lang.name"]
        assert texts == [cat[k] for k in keys]


COPY = r"""
import sys, framebuf
sys.path.insert(0, %(fw)r)
import i18n, text
i18n.DIR = %(dir)r
def draw(s):
    buf = bytearray(296 * 16)
    fb = framebuf.FrameBuffer(buf, 296, 128, framebuf.MONO_VLSB)
    for y in (0, 16, 48, 112):
        text.draw(fb, s, 3, y, 290)
    return bytes(buf)
bad = 0
for code in i18n.codes():
    i18n.load(code)
    for k in ("turn.after_knock", "lock.text", "menu.title", "end.row_layoff", "lang.name"):
        s = i18n.t(k, "10\u2665", 12, "7\u2663 8\u2663")
        text.FAST = True
        a = draw(s)
        text.FAST = False
        b = draw(s)
        if a != b or not any(a):
            bad += 1
            print("DIFF", code, k)
print("BAD", bad)
"""


def test_a_line_copied_into_the_frame_buffer_is_the_line_blitted():
    """text.py copies black text on a line whose top is a multiple of 8 into
    the frame buffer a band at a time instead of blitting each glyph: the
    same pixels, in every language."""
    from okgin.vboard.vboard import find_micropython
    script = COPY % {"fw": FW, "dir": os.path.join(FW, "lang") + "/"}
    r = subprocess.run([find_micropython(), "-c", script], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "BAD 0", r.stdout


# ----- the code asks only for keys that exist, and every key is asked for -----

# a key is asked for as t("turn.head", ...) or handed around as a literal
# ("stats.won" in a table of rows, "end.draw_x2" if ... else "end.draw")
_CALL = re.compile(r"""\bt\(\s*["']([a-z0-9_.]+)["']""")
_LITERAL = re.compile(r"""["']([a-z][a-z0-9_]*\.[a-z0-9_.]*)["']""")


def _families():
    """Keys the code builds from the engine's own tables."""
    from okgin.engine import explain, options
    out = set()
    for line in options.OPTIONS:
        w = line.split()
        if w[4] != "-":
            out.add("opt." + w[0])
            out.add("opt." + w[0] + "_short")   # the menu's short form (firmware/menu.py)
    for reason in explain.TEXTS:
        out.add("why." + reason)
    out.add("why.game_over")
    from okgin.engine.levels import LEVELS
    for lv in LEVELS:
        out.add("level." + lv)
    for p in ("seeds", "oklahoma", "hollywood"):
        out.add("preset." + p)
        out.add("preset." + p + "_short")
    try:
        from okgin.engine import coach
    except ImportError:      # not on this tree yet
        pass
    else:
        for code in coach.REASONS:
            out.add("coach." + code)
        # firmware/coachview.py: a suggested move in words
        for verb in ("take", "pass", "draw", "discard", "knock"):
            out.add("coach.do." + verb)
    return out


def test_every_key_the_firmware_asks_for_exists():
    en = set(lang.read("en"))
    asked = set()
    literals = set()
    for fn in sorted(os.listdir(FW)):
        if fn.endswith(".py"):
            with open(os.path.join(FW, fn), encoding="utf-8") as f:
                src = f.read()
            asked.update(_CALL.findall(src))
            literals.update(_LITERAL.findall(src))
    asked = {k for k in asked if not k.endswith(".")}   # t("opt." + name): families below
    assert asked <= en, "not in en.txt: %s" % sorted(asked - en)
    asked |= literals & en
    fam = _families()
    assert fam <= en, "not in en.txt: %s" % sorted(fam - en)
    coach_keys = {k for k in en if k.startswith("coach.")}
    # the web page's own words: asked for by its script and its HTML
    page = set()
    for fn in ("okgin.js", "index.html"):
        with open(os.path.join(ROOT, "host", "web", "page", fn), encoding="utf-8") as f:
            page.update(re.findall(r"page\.[a-z_]+", f.read()))
    assert page <= en, "the page asks for %s" % sorted(page - en)
    unused = en - asked - fam - {"lang.name"} - coach_keys - page
    assert not unused, "keys nothing asks for: %s" % sorted(unused)


def test_the_firmware_code_holds_no_text_for_players():
    """Everything a player reads is in the catalogues: no string in the
    firmware's code holds a character beyond ASCII (one would be a text
    that escaped translation; the suits and arrows the code draws are
    written as \\u escapes). Comments and docstrings may."""
    import io
    import tokenize
    for fn in sorted(os.listdir(FW)):
        if not fn.endswith(".py"):
            continue
        with open(os.path.join(FW, fn), encoding="utf-8") as f:
            src = f.read()
        prev = tokenize.NEWLINE
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.STRING and prev not in (tokenize.NEWLINE, tokenize.INDENT,
                                                            tokenize.DEDENT, tokenize.NL):
                assert tok.string.isascii(), "%s:%d: %s" % (fn, tok.start[0], tok.string[:60])
            if tok.type not in (tokenize.COMMENT,):
                prev = tok.type


FIFTH = r"""
import sys
sys.path.insert(0, %(fw)r)
import i18n
i18n.DIR = %(dir)r
print(i18n.codes())
print(i18n.name("fr"))
i18n.load("fr")
print(i18n.code, i18n.t("menu.title"))
"""


@pytest.mark.skipif(not os.path.isfile("/usr/share/unifont/unifont.hex"),
                    reason="GNU Unifont is not installed (apt-get install unifont): a new "
                           "language's glyphs are cut from it")
def test_a_fifth_language_is_one_catalogue_and_its_glyphs(tmp_path):
    """docs/architecture.md "Adding a language": a catalogue beside the
    others, okgin glyphs, and the firmware lists it, names it in its own
    name (in every language's glyphs) and speaks it; no code changes."""
    import shutil
    from okgin import glyphs
    from okgin.vboard.vboard import find_micropython
    d = tmp_path / "lang"
    shutil.copytree(os.path.join(FW, "lang"), d)
    en = (d / "en.txt").read_text(encoding="utf-8")
    fr = en.replace("lang.name = English", "lang.name = Français", 1).replace(
        "menu.title = okgin · Oklahoma Gin", "menu.title = okgin · Gin d'Oklahoma", 1)
    (d / "fr.txt").write_text(fr, encoding="utf-8")
    for code, data in glyphs.cut(root=str(d)).items():
        (d / ("%s.fnt" % code)).write_bytes(data)
    for code in CODES + ["fr"]:
        have, _note = lang.read_fnt(str(d / ("%s.fnt" % code)))
        assert "ç" in have, code      # every language can name it in the menu
    r = subprocess.run([find_micropython(), "-c", FIFTH % {"fw": FW, "dir": str(d) + "/"}],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == str(CODES[:1] + sorted(CODES[1:] + ["fr"]))
    assert out[1] == "Français"
    assert out[2] == "fr okgin · Gin d'Oklahoma"
