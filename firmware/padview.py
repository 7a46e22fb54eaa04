"""The score pad at the end of a game (R16; three games in Hollywood, R17):
loaded for that screen only, after the last hand's showdown."""
import screens
import text
from i18n import t
from screens import table

COL_W = 72          # a column on the 2.9" (today's layout, kept there)
HW_COL_W = 64       # a Hollywood game's column there


def columns(heads, cells, label_w):
    """Two columns of numbers beside a label column, on the panel drawn now:
    72 px each where the labels keep ``label_w`` px beside them (the
    2.9"), else as narrow as the widest value and head need (46 px at
    least). ``heads``: each column's name forms, longest first (a seat's
    name, then its short form: "Kompyuta", "Komp."). Returns (col_w,
    heads fitted, the labels' room)."""
    w = screens.W
    cw = COL_W
    if w - 2 * cw - 8 < label_w:
        need = 0
        for c in cells:
            need = max(need, text.width(c))
        for h in heads:
            need = max(need, text.width(h[-1]))
        cw = max(46, need + 6)
    out = []
    for h in heads:
        out.append(text.first_fit(cw - 6, h))
    return cw, tuple(out), w - 2 * cw - 8


def seat_names(name):
    """A seat's name as a column head: its forms, longest first (the
    computer's has a short one, name.cpu_short)."""
    if name == t("name.cpu"):
        return (name, t("name.cpu_short"))
    return (name,)


def view_pad(app, p):
    """The score pad at the end of a game (R16; three games in Hollywood,
    R17), from player p's side. One game: a column per player, mine
    first. Hollywood: a column per game, each cell "mine-theirs" (as the
    turn screen's head writes each game's score). A row only for what the
    rules count (boxes, the game bonus, the shutout); the net in the
    title."""
    m = app.match
    r = m.rules
    pads = m.score_pad()   # engine/scoring.py: app.next_hand drops it
    me = app.name(p, p)
    them = app.name(p, 1 - p)
    n = len(pads)
    keys = [("pad.points", "points")]
    if r.box_bonus:
        keys.append(("pad.boxes", "box_points"))
    if r.game_bonus:
        keys.append(("pad.game_bonus", "game_bonus"))
    if r.shutout_double:
        keys.append(("pad.shutout", "shutout"))
    keys.append(("pad.total", "total"))
    w = screens.W
    hw_room = w - n * HW_COL_W - 8
    widest = 0
    for key, _k in keys:
        widest = max(widest, text.width(t(key)))
    # Hollywood on a narrow panel (the 4.2"'s 200 logical px): three
    # columns of "mine-theirs" leave the labels no room, so a row per game
    # (its total, * for the game's winner) and the match's total, a column
    # per player
    by_game = n > 1 and hw_room < widest
    rows = []
    if by_game:
        tot = [0, 0]
        for i in range(n):
            g = pads[i]
            row = [t("pad.game", i + 1)]
            for q in (p, 1 - p):
                tot[q] += g["total"][q]
                # (a space after the other: the digits stay in line)
                row.append(str(g["total"][q]) + ("*" if g["winner"] == q else " "))
            rows.append(tuple(row))
        rows.append((t("pad.total"), str(tot[p]) + " ", str(tot[1 - p]) + " "))
    for key, k in keys:
        if by_game:
            break
        row = [t(key)]
        if key == "pad.game_bonus":   # its short form, for narrow columns
            row = [(t(key), t("pad.game_bonus_short"))]
        for g in pads:
            cell = []
            for q in (p, 1 - p):
                v = g[k][q]
                if k == "shutout":   # x2 where a player's score doubled
                    v = "\u00d72" if v > 1 else ""
                cell.append(str(v))
            if n == 1:
                row.extend([c or "-" for c in cell])
            elif k == "shutout":
                row.append(cell[0] + "-" + cell[1] if cell[0] or cell[1] else "")
            else:
                row.append(cell[0] + "-" + cell[1])
        rows.append(tuple(row))
    net = 0
    for g in pads:
        net += g["total"][p] - g["total"][1 - p]
    net = "%+d" % net
    won = 0           # the games the match's winner won
    for g in pads:
        if g["winner"] == m.winner:
            won += 1
    # "You win" on a person's own panel only, never on the computer's
    mine = m.winner == p and not (app.vs != "human" and p == 1)
    col_w = HW_COL_W
    if n > 1:
        heads = (t("pad.title_hw_you", won, n - won),) if mine else \
            (t("pad.title_hw", app.name(p, m.winner), won, n - won),
             t("pad.title_hw_short", app.name(p, m.winner), won, n - won))
    else:
        heads = (t("pad.title_you"),) if mine else (t("pad.title", app.name(p, m.winner)),)
    if n > 1 and not by_game:
        for i in range(len(rows)):
            if isinstance(rows[i][0], tuple):
                rows[i] = (rows[i][0][0],) + rows[i][1:]
        cols = tuple(t("pad.game", i + 1) for i in range(n))
        # the cells are "mine-theirs": said in the corner, with the names
        # when they fit
        corner = text.first_fit(w - n * HW_COL_W - 8, (me + "-" + them, t("pad.corner")))
    else:
        cells = []
        for r in rows:
            cells.extend(r[1:])
        col_w, cols, room = columns((seat_names(me), seat_names(them)), cells, widest)
        corner = ""
        for i in range(len(rows)):
            if isinstance(rows[i][0], tuple):
                rows[i] = (text.first_fit(room, rows[i][0]),) + rows[i][1:]
    # the net for the reader, when the head has room for it
    head = (heads[0] + " \u00b7 " + t("pad.net", net),) + heads
    hint = t("hint.to_menu")
    if app.vs != "human" and p == 1:
        hint = t("hint.human_continues")
    return {"head": head, "testmode": app.testmode, "cols": cols, "corner": corner,
            "rows": rows, "hint": hint, "col_w": col_w}


def scorepad(fb, v):
    """The score pad (R16, R17): a column per game or player."""
    table(fb, v, v["testmode"])
