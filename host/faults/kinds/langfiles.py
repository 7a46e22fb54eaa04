"""Row "langfiles": damaged language files, with the power off (issue 40,
2). Each case damages one file of lang/ (a catalogue or a glyph file) of
the language the players chose, or of English under another chosen
language, or of English chosen: the issue's 12 that stopped the table at
power-up (a .fnt cut to 5-11 bytes, its glyph counts damaged, a
placeholder one bit off ``{5}`` -> ``{7}``, a stray ``{``, bytes that are
not UTF-8 in the game screen's heading, a catalogue over 64 KB, one whose
first line is 20 KB) and missing files; and a damaged ``power.asleep``
text, after which the table must still fall asleep (auto-off) and wake.
Survived: the table boots to the saved game exactly (never the error
screen), uses the chosen language when its files are sound and English
(or, English being bad, the texts built into the firmware) otherwise,
reaches its menu and comes back to the game, and the record is
unchanged. Lost: the record changed; stuck: an error screen or no
answer; wrong: the game or the language in use is not what it should be.
"""
import json
import time

from ..judge import changed, ladder, parse, status_agrees
from ..registry import Kind
from ..play import engine_bases
from ..tally import Row


def _set_line(data, key, fn):
    """``data`` with the text of ``key`` (its line) changed by ``fn``."""
    k = b"\n" + key.encode() + b" = "
    i = data.index(k) + len(k)
    j = data.index(b"\n", i)
    return data[:i] + fn(data[i:j]) + data[j:]


def _cut(n):
    return lambda d: (d[:n], "cut to %d bytes" % n)


def _count(off, delta):
    def f(d):
        out = bytearray(d)
        v = (out[off] | out[off + 1] << 8) + delta
        out[off] = v & 255
        out[off + 1] = (v >> 8) & 255
        return bytes(out), "%s glyph count %+d" % ("narrow" if off == 6 else "wide", delta)
    return f


def _placeholder(d):
    # one bit off: {5} -> {7} (the heading has {0}..{5})
    return _set_line(d, "turn.head", lambda s: s.replace(b"{5}", b"{7}")), \
        "turn.head: {5} -> {7}"


def _stray(d):
    return _set_line(d, "turn.status", lambda s: s + b" {"), "turn.status: a stray {"


def _not_utf8(d):
    return _set_line(d, "turn.head", lambda s: s[:3] + b"\xff\xfe" + s[3:]), \
        "turn.head: bytes that are not UTF-8"


def _huge(d):
    pad = b"# " + b"x" * 77 + b"\n"
    return d + pad * (70 * 1024 // len(pad)), "over 64 KB (70 KB of comments)"


def _long_first(d):
    return b"#" + b"x" * (20 * 1024) + b"\n" + d, "a first line of 20 KB"


def _asleep(d):
    return _set_line(d, "power.asleep", lambda s: b"\xc3{" + s), \
        "power.asleep: a stray { and a torn UTF-8 byte"


# (file extension, damage): the cases, in order; "missing" removes the file
DAMAGES = (
    ("fnt", _cut(5)), ("fnt", _cut(8)), ("fnt", _cut(11)),
    ("fnt", _count(6, 1)), ("fnt", _count(8, 3)),
    ("txt", _placeholder), ("txt", _stray), ("txt", _not_utf8),
    ("txt", _huge), ("txt", _long_first), ("txt", _asleep),
    ("txt", "missing"), ("fnt", "missing"),
)
# (the language chosen, the language damaged)
WHOSE = (("lt", "lt"), ("en", "en"), ("lt", "en"))


def cases():
    """Every (chosen, damaged, extension, damage) the row can run, in the
    order it runs them: the first len(DAMAGES) cases are every damage
    once (the short run), each round after that moves every damage to the
    next (chosen, damaged) pair."""
    out = []
    for i in range(len(DAMAGES) * len(WHOSE)):
        d = i % len(DAMAGES)
        out.append(WHOSE[(d + i // len(DAMAGES)) % len(WHOSE)] + DAMAGES[d])
    return out


def _original(name):
    import os
    from ...lib.lang import LANG_DIR
    with open(os.path.join(LANG_DIR, os.path.basename(name)), "rb") as f:
        return f.read()


def _wait_asleep(t, s):
    """True once both panels are in deep sleep, within ``s`` seconds of
    the table's own clock."""
    t0 = t.now()
    while t.now() - t0 < s:
        try:
            if all(t.vb.panel(p).asleep for p in (0, 1)):
                return True
        except Exception:
            pass
        time.sleep(0.2)
    return False


def run(table, n, rng, work, log):
    r = Row("langfiles")
    t = table(work, "langfiles")
    t.on()
    try:
        real = engine_bases(rng)[1][0]      # two players: every press is a player's
        m_real = parse(real)
        todo = cases()
        for i in range(n):
            chosen, whose, ext, fn = todo[i % len(todo)]
            name = "lang/%s.%s" % (whose, ext)
            sleep = fn is _asleep
            settings = {"lang": chosen, "owner_lock": False}
            if sleep:
                settings["auto_off_s"] = 2
            put = {"game.okg": real, "settings.json": json.dumps(settings)}
            gone = ["game.bad", "game.tmp", "settings.json.bad"]
            if fn == "missing":
                what = "missing"
                gone.append(name)
            else:
                data, what = fn(_original(name))
                put[name] = data
            what = "%s chosen, %s %s" % (chosen, name, what)
            stuck = []
            notes = []
            try:
                t.session(put=put, remove=gone)
                t.sync()
                st = t.status()
                if st["screen"] == "error":
                    stuck.append("the error screen at boot")
                else:
                    why = status_agrees(st, m_real)
                    if why:
                        notes.append("the game at boot: " + why)
                got = t.req("lang")
                # a placeholder one off is well formed: the catalogue is
                # used, and that one text falls back to English's at use
                want = chosen if whose != chosen or fn is _placeholder else "en"
                if not got.startswith("lang=%s " % want):
                    notes.append("lang: %r, expected %s" % (got, want))
                # the menu and back: hold OK, then OK on Resume
                t.press(0, "ok", long=True)
                t.sync()
                if t.status()["screen"] != "menu":
                    stuck.append("hold OK: screen=%s" % t.status()["screen"])
                t.press(0, "ok")
                t.sync()
                st = t.status()
                if st["screen"] != "game":
                    stuck.append("OK on Resume: screen=%s" % st["screen"])
                if sleep:
                    if not _wait_asleep(t, 20):
                        stuck.append("auto-off: the panels never slept")
                    t.press(1, "right")      # wakes it; that press does nothing else
                    t.sync()
                    st = t.status()
                    if st["screen"] != "game" or status_agrees(st, m_real):
                        stuck.append("after waking: screen=%s %s" % (st["screen"], status_agrees(st, m_real)))
            except Exception as e:     # no answer: the table is stuck
                stuck.append("no answer (%s: %s)" % (type(e).__name__, e))
                try:
                    t.cut()
                except Exception:
                    pass
            # the record as the power went, and the file whole again (an old
            # firmware that stopped at boot would stop at the next one too)
            look = t.session(read=("game.okg",), put={name: _original(name)})
            ladder(r, what,
                   ("lost", changed(look["game.okg"], real)),
                   ("stuck", "; ".join(stuck)),
                   ("wrong", "; ".join(notes)))
            log("langfiles", r)
        r.info.append("cases: %d kinds of damage x %d (chosen, damaged) pairs; %d run"
                      % (len(DAMAGES), len(WHOSE), n))
    finally:
        t.stop()
    return r


KIND = Kind(
    name="langfiles", order=15,
    goal="damaged language files (glyph files cut or with bad counts, placeholders one bit "
         "off, a stray {, bytes not UTF-8, catalogues over 64 KB or with a 20 KB line, "
         "missing files; the chosen language's and English's): the game resumes, the menu "
         "works, the table still sleeps, never an error screen",
    sizes={"quick": 13, "long": 117, "chip_quick": 4, "chip_long": 39},
    run=run)
