"""The table's statistics: games and hands won per seat, against each
computer level and between two people, gins, undercuts, the biggest hand,
the longest winning streak and the last games' results.

Kept in stats.json (teststats.json in test mode, whose games are its own:
store.sandbox), counted once per finished game (the game's key is in
the file, so a game counted before a power cut is not counted again when
the table comes back on its last screen) and written atomically, as the
game record is (store.py). Loaded when a game ends, for the statistics screen and
for the serial ``stats`` command, then dropped (heap, docs/memory.md).
The screen is statsview.py's: the names a module brings are interned for
good when it loads (docs/memory.md "Interned names"), and the game's end,
which only counts, should not bring the screen's.
"""
import json
import os

import store
from engine.levels import LEVELS

VERSION = 1
KINDS = ("human",) + LEVELS   # the opponent of seat 0
COUNTS = ("games", "hands", "gins", "undercuts", "streak", "best_streak")
LAST = 5


def fresh():
    by = {}
    for k in KINDS:
        d = {}
        for c in COUNTS:
            d[c] = [0, 0]
        by[k] = d
    return {"v": VERSION, "games": 0, "counted": "", "by": by,
            "biggest": None, "last": []}


_MAX = 4096   # bytes: the statistics are under 1 KB


def _read():
    """The statistics' text, None when there is no file, or False when it
    is too big to be statistics. A leftover tmp file is an update a power
    cut interrupted: the statistics' file is whole."""
    store._remove(store.STATS + ".tmp")
    try:
        if os.stat(store.STATS)[6] > _MAX:
            return False
        with open(store.STATS) as f:
            return f.read()
    except UnicodeError:
        return False
    except OSError:
        return None


def _write(d):
    # written whole to a tmp file, then renamed over the statistics (as the
    # game record is, store.py): a power cut leaves the old statistics or
    # the new ones, never half of them
    text = json.dumps(d)
    tmp = store.STATS + ".tmp"
    with open(tmp, "w") as f:
        for i in range(0, len(text), 64):
            f.write(text[i:i + 64])
            store._pause(f)   # the power-loss tests' slow save
    store._replace(tmp, store.STATS)


def _count(v):
    return type(v) is int and v >= 0


def _pair(v):
    return type(v) is list and len(v) == 2 and _count(v[0]) and _count(v[1])


def valid(d):
    """Statistics as this firmware writes them, checked field by field
    (a bit flip can leave valid JSON: "games" -> "gamas")."""
    if type(d) is not dict or d.get("v") != VERSION or not _count(d.get("games")) \
            or type(d.get("counted")) is not str or type(d.get("by")) is not dict \
            or type(d.get("last")) is not list or len(d["last"]) > LAST:
        return False
    for k in d["by"]:
        c = d["by"][k]
        if k not in KINDS or type(c) is not dict or len(c) != len(COUNTS):
            return False
        for n in COUNTS:
            if not _pair(c.get(n)):
                return False
    b = d.get("biggest", 0)
    if b is not None and not (type(b) is list and len(b) == 3 and _count(b[0])
                              and b[1] in (0, 1) and b[2] in KINDS):
        return False
    for g in d["last"]:
        if not (type(g) is list and len(g) == 5 and g[0] in KINDS and g[1] in (0, 1)
                and type(g[2]) is int and type(g[3]) is int and _count(g[4])):
            return False
    return True


def load():
    """The statistics, or fresh ones: no file yet, or a file that is not
    this firmware's statistics (damaged, even as valid JSON), which is kept
    as stats.json.bad (a rename) and replaced by fresh ones, so a damaged file
    never stops the table."""
    text = _read()
    if text is None:
        return fresh()
    d = None
    if text:
        try:
            d = json.loads(text)
        except (ValueError, MemoryError):
            d = None
    text = None
    if valid(d):
        for k in KINDS:   # a level added since: its counts start at 0
            if k not in d["by"]:
                d["by"][k] = fresh()["by"][k]
        return d
    d = fresh()
    try:
        store._replace(store.STATS, store.STATS + ".bad")
        _write(d)
    except OSError:
        pass
    return d


def key(m):
    # a finished game: its seed, first dealer and number of actions
    return "%d:%d:%d" % (m.seed, m.first_dealer, len(m._actions))


def count(app):
    """Add the finished game app.match to the statistics, once. Returns
    True if it was new."""
    m = app.match
    if m is None or m.winner is None:
        return False
    d = load()
    k = key(m)
    if d.get("counted") == k:
        return False
    vs = app.vs if app.vs in KINDS else "human"
    c = d["by"][vs]
    w = m.winner
    c["games"][w] += 1
    c["streak"][w] += 1
    c["streak"][1 - w] = 0
    if c["streak"][w] > c["best_streak"][w]:
        c["best_streak"][w] = c["streak"][w]
    t = m.tally   # hands won, gins, undercuts, biggest hand: 2 each
    for p in (0, 1):
        c["hands"][p] += t[p]
        c["gins"][p] += t[2 + p]
        c["undercuts"][p] += t[4 + p]
        b = d.get("biggest")
        if t[6 + p] and (b is None or t[6 + p] > b[0]):
            d["biggest"] = [t[6 + p], p, vs]
    # the result as the score pad totals it (R16, R17: summed over games)
    tot = [0, 0]
    for g in m.score_pad():
        tot[0] += g["total"][0]
        tot[1] += g["total"][1]
    last = d["last"]
    last.insert(0, [vs, w, tot[0], tot[1], len(m.games)])
    del last[LAST:]
    d["games"] += 1
    d["counted"] = k
    _write(d)
    return True


def reset():
    _write(fresh())


def text():
    """The statistics as one line of JSON (the serial ``stats`` command)."""
    return json.dumps(load())
