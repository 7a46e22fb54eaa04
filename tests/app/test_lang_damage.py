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


def probe(tmp_path, code, damage=None):
    from okgin.vboard.vboard import find_micropython
    d = tmp_path / "lang"
    shutil.copytree(os.path.join(FW, "lang"), d)
    if damage:
        damage(d)
    r = subprocess.run([find_micropython(), "-c", PROBE % {"fw": FW, "dir": str(d) + "/", "code": code}],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    out = {"t": {}}
    for line in r.stdout.splitlines():
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


DAMAGES = {
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
