"""Row "kept": damage to every other file the firmware keeps, with the power
off: the statistics (stats.json: bit flips that leave valid JSON too, keys
with a letter changed, cuts, junk), the settings (settings.json) and test
mode's own game (test.okg). Survived: the real game resumes exactly, the
table answers (`stats`, test mode) and is never stuck on an error screen,
a file the firmware replaced is kept whole beside it (.bad), and test
mode's game is its good part, and the menu's statistics page opens
(issue 29, item 2: before, a KeyError there held the table on an error
screen)."""
import hashlib
import json

from okgin.engine.levels import LEVELS
from ..judge import good_prefix, ladder, parse, status_agrees
from ..registry import Kind
from ..play import damage, engine_bases
from ..tally import Row

# the menu's Statistics item, from its top in a game: Resume, New game (2
# players), three computer levels, Rules, Rule switches, Statistics
STATS_ITEM = 7
KINDS = ("key", "json-flip", "truncate", "flip", "garbage", "overwrite")


def _stats_text(rng):
    counts = ("games", "hands", "gins", "undercuts", "streak", "best_streak")
    by = {k: {c: [rng.randrange(9), rng.randrange(9)] for c in counts}
          for k in ("human",) + LEVELS}
    return json.dumps({"v": 1, "games": rng.randrange(50), "counted": "1:0:33",
                       "biggest": [rng.randrange(200), rng.randrange(2), "hard"],
                       "last": [["hard", 0, 104, 31, 6], ["human", 1, 20, 112, 9]],
                       "by": by}).encode()


def _flip_json(rng, data):
    """A damage that leaves valid JSON (the issue's 9 of 30 single-bit
    flips): one letter or digit flipped to another."""
    for _ in range(200):
        i = rng.randrange(len(data))
        c = data[i]
        if 97 <= c <= 122 or 48 <= c <= 57:
            for bit in rng.sample(range(5), 5):
                out = bytearray(data)
                out[i] ^= 1 << bit
                if 97 <= out[i] <= 122 or 48 <= out[i] <= 57:
                    try:
                        json.loads(bytes(out))
                        return bytes(out), "byte %d: %r -> %r (still JSON)" % (
                            i, chr(c), chr(out[i]))
                    except ValueError:
                        pass
    return data[:-1], "the last byte cut"


def _damaged(rng, name, data, i):
    kind = KINDS[i % len(KINDS)]
    if name == "test.okg" and kind in ("json-flip", "key"):
        kind = "flip"
    if kind == "json-flip":
        return _flip_json(rng, data)
    if kind == "key":
        keys = [k for k in (b'"games"', b'"by"', b'"hands"', b'"last"', b'"v"', b'"rules"',
                            b'"target"', b'"owner_lock"', b'"biggest"') if k in data]
        if keys:
            k = rng.choice(keys)
            j = rng.randrange(1, len(k) - 1)
            new = k[:j] + bytes([k[j] ^ 2]) + k[j + 1:]
            return data.replace(k, new, 1), "key %s -> %s" % (k.decode(), new.decode())
        kind = "flip"
    return damage(rng, data, kind)


def run(table, n, rng, work, log):
    r = Row("kept")
    t = table(work, "kept")
    t.on()
    try:
        (real, _), (test, _) = engine_bases(rng)
        m_real = parse(real)
        settings = json.dumps({"rules": {"target": 150}, "owner_lock": False}).encode()
        files = ("stats.json", "settings.json", "test.okg")
        seen = dict.fromkeys(files, 0)
        for i in range(n):
            name = files[i % len(files)]
            good = {"game.okg": real, "test.okg": test, "settings.json": settings,
                    "stats.json": _stats_text(rng)}
            data, what = _damaged(rng, name, good[name], i // len(files))
            what = "%s: %s" % (name, what)
            put = dict(good)
            put[name] = data
            t.session(put=put, remove=["game.bad", "test.bad", "stats.json.bad", "settings.json.bad",
                                       "game.tmp", "test.tmp"])
            t.sync()
            notes = []
            stuck = []
            st = t.status()
            if st["screen"] == "error":
                stuck.append("the error screen at boot")
            else:
                why = status_agrees(st, m_real)
                if why:
                    notes.append("the real game: " + why)
            head = t.req("stats")
            if head != "lines=1":
                stuck.append("stats: %r" % head)
            else:
                line = t.b.read_line(30)
                try:
                    if json.loads(line or "").get("v") != 1:
                        notes.append("stats answered %r" % (line or "")[:60])
                except ValueError:
                    notes.append("stats answered %r" % (line or "")[:60])
            on = t.req("testmode on", timeout=300)
            if on != "testmode=1":
                stuck.append("testmode on: %r" % on)
            else:
                rec = ("\n".join(t.b.request_block("record", timeout=300)) + "\n").encode()
                want = good_prefix(test, data) if name == "test.okg" else test
                if want.count(b"\n") < 3:
                    want = b"\n"            # a damaged header: no test game
                if rec != want:
                    notes.append("test mode's game has %d lines, its good part %d"
                                 % (rec.count(b"\n"), want.count(b"\n")))
                t.req("testmode off")
                t.sync()
            if name == "stats.json" and not stuck:
                # the player's way to the statistics: hold OK for the menu,
                # RIGHT to Statistics, OK (the KeyError jam was there)
                try:
                    t.press(0, "ok", long=True)
                    for _ in range(STATS_ITEM):
                        t.press(0, "right")
                    t.press(0, "ok")
                    t.sync()
                    page = t.status()["screen"]
                except Exception as e:      # the table took no press, or no request
                    page = "no answer (%s)" % e
                    stuck.append("on the way to the statistics page: %s" % e)
                if page.startswith("no answer"):
                    pass
                elif page == "error":
                    stuck.append("the statistics page: the error screen")
                elif page != "menu":
                    notes.append("the statistics page: screen=%s" % page)
            bad_name = "test.bad" if name == "test.okg" else name + ".bad"
            look = t.session(read=("game.okg", name), digest=(bad_name,))
            replaced = (look[name] != data
                        and look[bad_name] != (hashlib.sha256(data).hexdigest(), len(data))
                        and not (name == "test.okg" and data + b"\n" == look[name]))
            if ladder(r, what,
                      ("lost", look["game.okg"] != real and "the real game's record changed"),
                      ("lost", replaced and "replaced without a copy kept as %s" % bad_name),
                      ("stuck", "; ".join(stuck)),
                      ("wrong", "; ".join(notes))) == "ok":
                seen[name] += 1
            log("kept", r)
        r.info.append("cases per file: %s" % ", ".join("%s %d" % kv for kv in seen.items()))
    finally:
        t.stop()
    return r


KIND = Kind(
    name="kept", order=13,
    goal="damage to every other file the firmware keeps (statistics, settings, test mode's "
         "game; bit flips that stay valid JSON too): the game kept, never stuck, the damaged "
         "file kept beside",
    sizes={"quick": 6, "long": 150, "chip_quick": 1, "chip_long": 100},
    run=run)
