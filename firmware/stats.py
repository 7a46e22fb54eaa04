"""The table's statistics: games and hands won per seat, against each
computer level and between two people, gins, undercuts, the biggest hand,
the longest winning streak and the last games' results.

Kept in stats.json (teststats.json in test mode, whose games are its own:
store.sandbox), counted once per finished game (the game's key is in
the file, so a game counted before a power cut is not counted again when
the table comes back on its last screen) and written atomically, as the
game record is (store.py). Loaded when a game ends, for the statistics screen and
for the serial ``stats`` command, then dropped (heap, docs/memory.md).
"""
import json

import store

VERSION = 1
KINDS = ("human", "easy", "normal", "hard")   # the opponent of seat 0
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


def _read():
    """The statistics' text, or None. A leftover tmp file is an update a
    power cut interrupted: the statistics' file is whole."""
    store._remove(store.STATS + ".tmp")
    try:
        with open(store.STATS) as f:
            return f.read()
    except (OSError, UnicodeError):
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


def load():
    """The statistics, or fresh ones (no file, or a file that is not
    statistics: kept as stats.bad and started again)."""
    text = _read()
    if text is None:
        return fresh()
    try:
        d = json.loads(text)
        if isinstance(d, dict) and d.get("v") == VERSION and isinstance(d.get("by"), dict):
            for k in KINDS:   # a level added since: its counts start at 0
                if k not in d["by"]:
                    d["by"][k] = fresh()["by"][k]
            return d
    except ValueError:
        pass
    try:
        with open(store.STATS + ".bad", "w") as f:
            f.write(text)
    except OSError:
        pass
    return fresh()


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


# ---- the statistics screen (from the menu) ----

def _pair(v):
    return "%d-%d" % (v[0], v[1])


def _name(vs, p):
    if vs == "human":
        return "P%d" % (p + 1)
    return ("You", "CPU")[p]


def view(app):
    d = load()
    lines = ["         games hands gins under best"]
    for vs in KINDS:
        c = d["by"][vs]
        if vs != "human" and vs not in app.levels:
            continue
        lines.append("%-8s%6s%6s%5s%6s%5s" % (
            "P1-P2" if vs == "human" else "v " + vs, _pair(c["games"]),
            _pair(c["hands"]), _pair(c["gins"]), _pair(c["undercuts"]),
            _pair(c["best_streak"])))
    b = d.get("biggest")
    lines.append("Biggest hand: %s" % (
        "-" if not b else "%d by %s%s" % (b[0], _name(b[2], b[1]),
                                            "" if b[2] == "human" else " v " + b[2])))
    first = "Last: "
    for g in d["last"][:3]:
        # who played, who won, the winner's total first (score pad, R16)
        lines.append("%s%s: %s won %d-%d" % (
            first, "2 players" if g[0] == "human" else "v " + g[0],
            _name(g[0], g[1]), g[2 + g[1]], g[3 - g[1]]))
        first = "      "
    if not d["last"]:
        lines.append("Last: -")
    if app.menu_page == "reset":
        hint = "KNOCK: yes, reset  other: no"
        head = "Reset all statistics?"
    else:
        hint = "OK:back  KNOCK:reset"
        head = "Statistics: %d game%s" % (d["games"], "" if d["games"] == 1 else "s")
    return {"head": head, "testmode": app.testmode, "lines": lines, "hint": hint}


def button(app, button, kind):
    """A button on the statistics screen (or its reset question)."""
    if app.menu_page == "reset":
        if button == "knock" and kind == "short":
            reset()
        app.menu_page = "stats"
    elif button == "knock" and kind == "short":
        app.menu_page = "reset"
    elif button == "ok" and kind != "repeat":
        app.menu_page = ""
    app.touch()


def draw(fb, v):
    from screens import text as txt, header, banner, footer
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    y = 14
    for ln in v["lines"]:
        txt(fb, ln[:37], 0, y)
        y += 10
    footer(fb, v["hint"])
