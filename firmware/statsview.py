"""The statistics screen (from the menu): one page per opponent of seat
0 (two people, then each computer level the table has), each a column per
seat; then the records (the biggest hand, the last games). LEFT/RIGHT turn
the pages (app.stats_page). The figures are stats.py's; menu.py loads this
module for the screen and drops it with the menu. Apart from stats.py so
that the game's end, which counts a game, does not intern this screen's
names (docs/memory.md "Interned names")."""


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
    from stats import KINDS
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
    from stats import load
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
            from stats import reset
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
