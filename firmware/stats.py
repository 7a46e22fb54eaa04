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


# ---- the statistics screen (from the menu) ----
# One page per opponent of seat 0 (two people, then each computer level
# the table has), each a column per seat; then the records (the biggest
# hand, the last games). LEFT/RIGHT turn the pages (app.stats_page).

def _name(vs, p):
    from i18n import t
    if vs == "human":
        return t("name.player", p + 1)
    return t("name.you") if p == 0 else t("name.cpu")


def _kind(vs):
    # who played, in a word: "2 players" or the computer's level
    from i18n import t
    return t("stats.two") if vs == "human" else t("level." + vs)


def _opponent(vs):
    from i18n import t
    return t("stats.two") if vs == "human" else t("stats.vs", t("level." + vs))


def pages(app):
    """The opponents with a page (KINDS the table offers), then "records"."""
    out = []
    for vs in KINDS:
        if vs == "human" or vs in app.levels:
            out.append(vs)
    out.append("records")
    return out


def view(app):
    """The page to draw, laid out for the panel drawn now (screens.W,
    screens.H): 296x128 as ever; on the 4.2"'s 200x150 logical the columns
    narrow (padview.columns), labels, names and the title take their short
    forms, and a record too long for a line takes two when the page has
    the lines (else its short form)."""
    from i18n import t
    import screens
    import text as tx
    d = load()
    ps = pages(app)
    page = ps[getattr(app, "stats_page", 0) % len(ps)]
    rows = []
    cols = ()
    w = screens.W
    col_w = 72
    if page == "records":
        head = (t("stats.records"),)
        b = d.get("biggest")
        recs = []
        if not b:
            recs.append((t("stats.biggest_none"),))
        else:
            recs.append((t("stats.biggest", b[0], _name(b[2], b[1]), _kind(b[2])),))
        recs.append((t("stats.last"),))
        for g in d["last"][:3]:
            # who won, the winner's total first (score pad, R16), and
            # against whom
            # "You won" agrees with you (docs/glossary.md, "Verbs after a name")
            you = g[0] != "human" and g[1] == 0
            k = ("stats.last_game_you", "stats.last_game_short_you") if you else \
                ("stats.last_game", "stats.last_game_short")
            args = (_kind(g[0]), _name(g[0], g[1]), g[2 + g[1]], g[3 - g[1]])
            recs.append((t(k[0], *args), t(k[1], *args)))
        if not d["last"]:
            recs.append((t("stats.none"),))
        rows = _lines(recs, w - 6, (screens.H - 2 * screens.LINE) // screens.LINE)
    else:
        c = d["by"][page]
        from padview import columns, seat_names
        # each row's count, its label and the label's short form
        keys = (("games", "stats.won", "stats.won_short"),
                ("hands", "stats.hands", "stats.hands_short"),
                ("gins", "stats.gins", "stats.gins_short"),
                ("undercuts", "stats.undercuts", "stats.undercuts_short"),
                ("best_streak", "stats.best", "stats.best_short"))
        widest = 0
        cells = []
        for k, key, _short in keys:
            widest = max(widest, tx.width(t(key)))
            cells.append(str(c[k][0]))
            cells.append(str(c[k][1]))
        col_w, cols, room = columns((seat_names(_name(page, 0)), seat_names(_name(page, 1))),
                                    cells, widest)
        for k, key, short in keys:
            rows.append((tx.first_fit(room, (t(key), t(short))),
                         str(c[k][0]), str(c[k][1])))
        # the opponent ("vs hard"), or on a narrow panel the level alone
        head = (t("stats.title", _opponent(page)), t("stats.title", _kind(page)))
    # the footer takes the first form that fits (screens.footer)
    if app.menu_page == "reset":
        hint = (t("hint.reset"), t("hint.reset_short"))
        head = (t("stats.reset_q"), t("stats.reset_q_short"))
    else:
        hint = (t("hint.stats"), t("hint.stats_short"))
    return {"head": head, "testmode": app.testmode, "cols": cols, "rows": rows,
            "hint": hint, "col_w": col_w}


def _lines(recs, w, n):
    """The records page's lines: each record (its forms, longest first) on
    one line in the longest form that fits; then, while the page has lines
    to spare (``n`` in all), a record whose long form did not fit takes it
    on two lines, wrapped before its "(" when both parts fit (else at a
    space)."""
    import text as tx
    out = []
    for forms in recs:
        out.append([tx.first_fit(w, forms)])
    spare = n - len(out)
    for i in range(len(recs)):
        long = recs[i][0]
        if out[i][0] != long or tx.width(long) > w:
            k = long.find(" (")
            if k > 0 and tx.width(long[:k]) <= w and tx.width(long[k + 1:]) <= w:
                parts = [long[:k], long[k + 1:]]
            else:
                parts = tx.wrap(long, w)
            if len(parts) - 1 <= spare:
                spare -= len(parts) - 1
                out[i] = parts
    lines = []
    for x in out:
        lines.extend(x)
    return lines


def button(app, button, kind):
    """A button on the statistics screen (or its reset question)."""
    if app.menu_page == "reset":
        if button == "knock" and kind == "short":
            reset()
        app.menu_page = "stats"
    elif button == "knock" and kind == "short":
        app.menu_page = "reset"
    elif button in ("left", "right"):
        app.stats_page = getattr(app, "stats_page", 0) + (1 if button == "right" else -1)
    elif button == "ok" and kind != "repeat":
        app.menu_page = ""
        app.stats_page = 0
    app.touch()


def draw(fb, v):
    from screens import table
    table(fb, v, v["testmode"])
