"""Issue 40, 2: damaged language files never stop the table. The loader
(firmware/i18n.py, text.py's glyph check) on the real MicroPython binary:
every damage the issue found refuses the file and falls back (the chosen
language -> English -> the texts built into the firmware, basetext.py),
and t() never raises. The whole table under the same damage: the fault
campaign's row langfiles (okgin faults --rows langfiles)."""
import os
import shutil
import subprocess

import pytest

from okgin.lib import lang
from tests.support.harness import ROOT

FW = os.path.join(ROOT, "firmware")

PROBE = r"""
import sys
sys.path.insert(0, %(fw)r)
import i18n, text
i18n.DIR = %(dir)r
got = i18n.load(%(code)r)
print("code", got, "glyphs", text._f is not None)
print("bad", i18n.bad)
for k, args in (("turn.head", (1, "P1", 0, "P2", 0, 100)), ("turn.status", (31, 7)),
                ("power.asleep", ()), ("menu.title", ()), ("err.title", ()),
                ("hint.err_back", ())):
    s = i18n.t(k, *args)
    print("t", k, s.encode().hex())
print("card", i18n.card("Th"))
"""


def run_on(script, tmp_path, code, damage=None):
    """``script``'s output on the MicroPython binary, i18n reading a copy
    of the language files after ``damage`` to it."""
    from okgin.vboard.vboard import find_micropython
    d = tmp_path / "lang"
    shutil.copytree(os.path.join(FW, "lang"), d)
    if damage:
        damage(d)
    r = subprocess.run([find_micropython(), "-c", script % {"fw": FW, "dir": str(d) + "/", "code": code}],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def probe(tmp_path, code, damage=None):
    out = {"t": {}}
    for line in run_on(PROBE, tmp_path, code, damage).splitlines():
        w = line.split(" ", 2)
        if w[0] == "t":
            out["t"][w[1]] = bytes.fromhex(w[2] if len(w) > 2 else "").decode()
        elif w[0] == "code":
            out["code"] = w[1]
            out["glyphs"] = line.split()[3] == "True"
        else:
            out[w[0]] = line.split(" ", 1)[1] if " " in line else ""
    return out


def cut(name, n):
    def f(d):
        p = d / name
        p.write_bytes(p.read_bytes()[:n])
    return f


def edit(name, key, fn):
    def f(d):
        p = d / name
        data = p.read_bytes()
        k = b"\n" + key.encode() + b" = "
        i = data.index(k) + len(k)
        j = data.index(b"\n", i)
        p.write_bytes(data[:i] + fn(data[i:j]) + data[j:])
    return f


def count(name, off, delta):
    def f(d):
        p = d / name
        b = bytearray(p.read_bytes())
        b[off] = (b[off] + delta) & 255
        p.write_bytes(bytes(b))
    return f


def grow(name, extra):
    def f(d):
        p = d / name
        p.write_bytes(extra(p.read_bytes()))
    return f


def swap_last_glyphs(name):
    """The narrow table's last two code points swapped: not ascending."""
    def f(d):
        p = d / name
        b = bytearray(p.read_bytes())
        nn = b[6] | b[7] << 8
        note = b[10] | b[11] << 8
        i = 12 + note + 2 * (nn - 2)
        b[i:i + 4] = b[i + 2:i + 4] + b[i:i + 2]
        p.write_bytes(bytes(b))
    return f


DAMAGES = {
    "fnt code points out of order": lambda c: swap_last_glyphs(c + ".fnt"),
    "fnt cut to 5": lambda c: cut(c + ".fnt", 5),
    "fnt cut to 11": lambda c: cut(c + ".fnt", 11),
    "fnt narrow count +1": lambda c: count(c + ".fnt", 6, 1),
    "fnt wide count +1": lambda c: count(c + ".fnt", 8, 1),
    "stray {": lambda c: edit(c + ".txt", "turn.status", lambda s: s + b" {"),
    "lone }": lambda c: edit(c + ".txt", "menu.title", lambda s: s + b"}"),
    "not UTF-8 in the heading": lambda c: edit(c + ".txt", "turn.head", lambda s: b"\xff" + s),
    "over 64 KB": lambda c: grow(c + ".txt", lambda s: s + b"# pad pad pad\n" * 5000),
    "first line 20 KB": lambda c: grow(c + ".txt", lambda s: b"#" + b"x" * 20480 + b"\n" + s),
    "power.asleep damaged": lambda c: edit(c + ".txt", "power.asleep", lambda s: b"\xc3{" + s),
}


@pytest.mark.parametrize("what", sorted(DAMAGES))
def test_a_damaged_chosen_language_falls_back_to_english(tmp_path, what):
    good = probe(tmp_path / "good", "en")
    got = probe(tmp_path / "bad", "lt", DAMAGES[what]("lt"))
    assert got["code"] == "en" and got["bad"].startswith("lt: "), got
    assert got["t"] == good["t"]                 # English's texts, all of them


@pytest.mark.parametrize("what", sorted(DAMAGES))
def test_a_damaged_english_falls_back_to_the_built_in_texts(tmp_path, what):
    got = probe(tmp_path, "en", DAMAGES[what]("en"))
    assert got["code"] == "en" and got["bad"].startswith("en: "), got
    en = lang.read("en")
    for k, s in got["t"].items():
        assert s != k and s.isascii(), (k, s)   # a text, not the key, in ASCII
    assert got["t"]["err.title"] == en["err.title"]
    if not got["glyphs"]:
        assert got["card"] == "10h"              # framebuf's font: no suit symbols


def test_a_placeholder_one_off_gives_that_text_in_english(tmp_path):
    """{5} -> {7} is well formed: the catalogue stays, the one text that
    does not fit its arguments is English's."""
    good = probe(tmp_path / "good", "en")
    lt = probe(tmp_path / "lt", "lt")
    got = probe(tmp_path / "bad", "lt", edit("lt.txt", "turn.head", lambda s: s.replace(b"{5}", b"{7}")))
    assert got["code"] == "lt"
    assert got["t"]["turn.head"] == good["t"]["turn.head"]
    assert got["t"]["turn.status"] == lt["t"]["turn.status"] != good["t"]["turn.status"]


KEPT = r"""
import sys, os
sys.path.insert(0, %(fw)r)
import i18n
i18n.DIR = %(dir)r
p = i18n.DIR + %(code)r + ".txt"
f = open(p, "rb")
print(i18n._kept(f, %(code)r, os.stat(p)[6]) is not None)
"""


def kept(tmp_path, code, damage=None):
    """Whether the firmware takes lang/<code>.idx (on the MicroPython
    binary) after ``damage`` to a copy of the language files."""
    return run_on(KEPT, tmp_path, code, damage).strip() == "True"


def copy(src, dst):
    def f(d):
        (d / dst).write_bytes((d / src).read_bytes())
    return f


IDX_DAMAGES = {
    "an entry changed": count("lt.idx", 100, 1),
    "the catalogue's CRC changed": count("lt.idx", 5, 1),
    "cut short": cut("lt.idx", 600),
    "English's index": copy("en.idx", "lt.idx"),
    "the catalogue edited, a text longer": edit("lt.txt", "menu.title", lambda s: s + " (bandomoji)".encode()),
    "the catalogue damaged past the index's reach": edit("lt.txt", "power.asleep", lambda s: b"\xc3{" + s),
}


def test_each_catalogue_takes_its_own_index(tmp_path):
    for code in lang.codes():
        assert kept(tmp_path / code, code), code


@pytest.mark.parametrize("what", sorted(IDX_DAMAGES))
def test_an_index_not_of_this_catalogue_is_not_taken_and_its_texts_are_right(tmp_path, what):
    """The index okgin glyphs writes (lang/<code>.idx) spares a power-on
    the reading and checking of every line; one damaged, or made of other
    bytes than the catalogue there now, is not taken: the catalogue is
    indexed and checked as without it (an edited one speaks its new
    texts, a damaged one is refused: English)."""
    assert not kept(tmp_path / "kept", "lt", IDX_DAMAGES[what])
    got = probe(tmp_path / "got", "lt", IDX_DAMAGES[what])
    without = probe(tmp_path / "without", "lt", lambda d: (IDX_DAMAGES[what](d), (d / "lt.idx").unlink()))
    assert got == without
    if what.startswith("the catalogue edited"):
        assert got["code"] == "lt" and got["t"]["menu.title"].endswith(" (bandomoji)")
    elif what.startswith("the catalogue damaged"):
        assert got["code"] == "en" and got["bad"].startswith("lt: ")
    else:
        assert got == probe(tmp_path / "good", "lt")      # the shipped texts


def test_no_language_files_at_all_still_gives_texts(tmp_path):
    def gone(d):
        for p in d.iterdir():
            p.unlink()
    got = probe(tmp_path, "lt", gone)
    assert got["code"] == "en" and not got["glyphs"]
    assert got["t"]["menu.title"] == "okgin - Oklahoma Gin"


def test_the_built_in_texts_are_englishs_in_ascii():
    """basetext.py holds English's texts of the menu, the game, the hands'
    ends, the score pad and the errors: ASCII (framebuf's font), the same
    placeholders as en.txt, and every key the firmware's screens need."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("basetext", os.path.join(FW, "basetext.py"))
    bt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bt)
    en = lang.read("en")
    keys = [ln.split(" = ", 1)[0] for ln in bt.TEXTS.decode("ascii").splitlines() if " = " in ln]
    assert len(keys) == len(set(keys)) > 100
    for k in keys:
        assert k in en, k
        assert lang.fields(bt.text(k)) == lang.fields(en[k]), k
    need = {k for k in en if k.split(".")[0] in ("menu", "turn", "end", "hint", "err", "msg",
                                                   "rec", "power", "lock", "panel", "why", "name")}
    assert need <= set(keys), sorted(need - set(keys))


# ----- the loader's fast path (langcheck.index) against the rules ----------
# The catalogue is checked in blocks of langcheck.BLOCK bytes by C calls
# (find, strip, one decode a block) and only lines with a brace, a key to
# doubt or a block that is not UTF-8 go through the careful check. These
# catalogues put each damage where such a path could let it through: late
# in a long line, in a line the block boundary cuts, in the last line of a
# file cut short; and a seeded fuzz of en.txt. The verdict (sound, or the
# number of the first bad line) must be the rules' (docs: i18n.py).

LINE_MAX = 400
INDEX_PROBE = r"""
import sys
sys.path.insert(0, %(fw)r)
import langcheck, i18n
for p in %(paths)r:
    f = open(p, "rb")
    try:
        print("ok", len(langcheck.index(f, i18n._hash, i18n.LINE_MAX, i18n.SIZE_MAX)))
    except ValueError as e:
        print("bad", e)
    f.close()
"""


def rules_verdict(data):
    """("ok", keys) or ("bad", first bad line) by the catalogue's rules,
    line by line as the firmware once checked them."""
    import re
    off = keys = 0
    for ln, line in enumerate(re.findall(rb"[^\n]*\n|[^\n]+$", data), 1):
        off += len(line)
        if len(line) > LINE_MAX:
            return ("bad", ln)
        k = line.find(b" = ")
        if line[:1] != b"#" and k > 0:
            key, text = line[:k], line[k + 3:]
            try:
                text.decode("utf-8")
            except UnicodeDecodeError:
                return ("bad", ln)
            if not all(33 <= c <= 126 for c in key) or \
                    re.fullmatch(rb"(?:[^{}]|\{\{|\}\}|\{[0-9]\})*", text, re.S) is None:
                return ("bad", ln)
            keys += 1
        if off > 0xFFFF:
            return ("bad", ln)
    return ("ok", keys)


def firmware_verdicts(tmp_path, catalogues):
    from okgin.vboard.vboard import find_micropython
    paths = []
    for i, data in enumerate(catalogues):
        p = tmp_path / ("c%d.txt" % i)
        p.write_bytes(data)
        paths.append(str(p))
    r = subprocess.run([find_micropython(), "-c", INDEX_PROBE % {"fw": FW, "paths": paths}],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    out = []
    for line in r.stdout.splitlines():
        word, rest = line.split(" ", 1)
        if word == "ok":
            out.append(("ok", int(rest)))
        else:
            assert rest.startswith("line "), rest
            out.append(("bad", int(rest[5:].split(":")[0])))
    return out


def _at(data, off, insert):
    """``insert`` at the first line start at or after ``off`` that begins a
    key line (a damage there lands in a key line of the block around off)."""
    i = data.index(b"\n", off) + 1
    while data[i:i + 1] == b"#" or b" = " not in data[i:data.index(b"\n", i)]:
        i = data.index(b"\n", i) + 1
    return insert(data, i, data.index(b"\n", i))


def _placed(en):
    """Damaged and sound catalogues built from en.txt, each with a name."""
    out = {}
    for where, off in (("first block", 300), ("near the block boundary", 2048 - 60),
                       ("at the block boundary", 2048 - 10), ("last block", len(en) - 400)):
        def line(text):   # the key line at ``off`` with its text replaced
            return lambda d, i, j: d[:d.index(b" = ", i) + 3] + text + d[j:]
        def key(k):       # ... with its key replaced
            return lambda d, i, j: d[:i] + k + d[d.index(b" = ", i):]
        long = b"x" * 300
        out.update({
            "lone } late in a long line, " + where: _at(en, off, line(long + b" {0} ok }")),
            "{ without a digit late, " + where: _at(en, off, line(long + b" {x}")),
            "{{0} late, " + where: _at(en, off, line(long + b" {{0}")),
            "{{ }} {9} late (sound), " + where: _at(en, off, line(long + b" {{ }} {9}")),
            "not UTF-8 late, " + where: _at(en, off, line(long + b" \xc3")),
            "a non-ASCII key, " + where: _at(en, off, key(b"menu.caf\xc3\xa9")),
            "a control byte in the key, " + where: _at(en, off, key(b"menu.\x01x")),
            "DEL in the key, " + where: _at(en, off, key(b"menu.x\x7f")),
            "a space in the key, " + where: _at(en, off, key(b"menu x")),
            "a line of %d bytes (sound), %s" % (LINE_MAX, where):
                _at(en, off, line(b"y" * (LINE_MAX - 1 - len(b"k = ")))),
            "a line over LINE_MAX, " + where: _at(en, off, line(b"y" * LINE_MAX)),
            "a line over a whole block, " + where: _at(en, off, line(b"y" * 3000)),
            "not UTF-8 in a comment (sound), " + where:
                _at(en, off, lambda d, i, j: d[:i] + b"# \xff {\n" + d[i:]),
        })
    for n in (len(en) // 2, 2048, 2049, 4096 + 7, len(en) - 1):
        out["cut at %d" % n] = en[:n]
    for n in (1, 2):     # inside a placeholder, inside a UTF-8 character
        i = en.index(b"{0}", 3000) + n
        out["cut inside a placeholder +%d" % n] = en[:i]
        out["cut inside a character +%d" % n] = en[:en.index(b" = ", 3000) + 3] + "é".encode()[:1]
    out["as shipped"] = en
    return out


def test_the_loader_catches_each_damage_wherever_it_lies(tmp_path):
    en = open(os.path.join(FW, "lang", "en.txt"), "rb").read()
    cases = _placed(en)
    got = firmware_verdicts(tmp_path, list(cases.values()))
    wrong = ["%s: firmware %s, rules %s" % (name, g, rules_verdict(data))
             for (name, data), g in zip(cases.items(), got, strict=True) if g != rules_verdict(data)]
    assert not wrong, "\n".join(wrong)
    # the cases cover both verdicts, in every block
    assert sum(g[0] == "bad" for g in got) > 40 and sum(g[0] == "ok" for g in got) > 10


def test_the_loader_agrees_with_the_rules_on_a_fuzzed_catalogue(tmp_path):
    import random
    rnd = random.Random(40)
    for code in ("en", "ko"):
        data = open(os.path.join(FW, "lang", code + ".txt"), "rb").read()
        cases = []
        for _ in range(150):
            d = bytearray(data)
            for _ in range(rnd.choice((1, 1, 2))):
                i = rnd.randrange(len(d))
                d[i:i] = rnd.choice((b"{", b"}", b"{{", b"}}", b"{7}", b"\xff", b"\x01", b" ", b"\n",
                                     "é".encode(), b"\x7f", b" = ", b"#"))
            cases.append(bytes(d))
        got = firmware_verdicts(tmp_path, cases)
        for d, g in zip(cases, got, strict=True):
            assert g == rules_verdict(d), (code, g, rules_verdict(d))
        assert 30 < sum(g[0] == "bad" for g in got) < 150


GARBAGE = r"""
import gc, os, sys
sys.path.insert(0, %(fw)r)
import langcheck
for code in ("en", "ko", "lt", "sw"):
    path = %(fw)r + "/lang/" + code + ".fnt"
    f = open(path, "rb")
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    narrow, wide, note = langcheck.glyphs(f, os.stat(path)[6], 16)
    print(code, gc.mem_alloc() - a0, len(narrow) + len(wide))
    gc.enable()
    f.close()
"""


def test_checking_a_glyph_file_allocates_little_beyond_its_tables():
    """A language is checked as it loads, often in a heap that play has cut
    up: the check (langcheck.glyphs) made a list and a set of every code
    point, ~14 KB for Korean on the unix port, and `lang ko` at the deal
    fell back to English 7 times in 76 on a loaded host, reported as "not
    a sound glyph file" (tests/sim/test_sim_lang.py's English and Korean
    shots came out the same)."""
    from okgin.vboard.vboard import find_micropython
    r = subprocess.run([find_micropython(), "-c", GARBAGE % {"fw": FW}],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    for line in r.stdout.splitlines():
        code, allocated, kept = line.split()
        assert int(allocated) < int(kept) + 1024, line


def test_a_heap_too_full_for_the_glyphs_is_named_not_taken_for_damage(tmp_path):
    """A MemoryError while a glyph file is checked is the heap's, and
    i18n.bad says so, where it said the file was not sound."""
    from okgin.vboard.vboard import find_micropython
    code = PROBE.replace("got = i18n.load(", "import langcheck\n"
                         "def _full(*a):\n"
                         "    raise MemoryError('memory allocation failed, allocating 4096 bytes')\n"
                         "langcheck.glyphs = _full\n"
                         "got = i18n.load(")
    d = tmp_path / "lang"
    shutil.copytree(os.path.join(FW, "lang"), d)
    r = subprocess.run([find_micropython(), "-c", code % {"fw": FW, "dir": str(d) + "/", "code": "ko"}],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    bad = [ln for ln in r.stdout.splitlines() if ln.startswith("bad ")][0]
    assert "memory allocation failed" in bad and "not a sound glyph file" not in bad, bad
