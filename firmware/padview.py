"""The score pad at the end of a game (R16; three games in Hollywood, R17):
loaded for that screen only, after the last hand's showdown."""
import text
from i18n import t
from screens import W, table


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
    rows = []
    for key, k in keys:
        row = [t(key)]
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
    if n > 1:
        head = t("pad.title_hw_you", won, n - won) if mine else \
            t("pad.title_hw", app.name(p, m.winner), won, n - won)
        cols = tuple(t("pad.game", i + 1) for i in range(n))
        # the cells are "mine-theirs": said in the corner, with the names
        # when they fit
        corner = text.first_fit(W - n * 64 - 8, (me + "-" + them, t("pad.corner")))
    else:
        head = t("pad.title_you") if mine else t("pad.title", app.name(p, m.winner))
        cols = (me, them)
        corner = ""
    # the net for the reader, when the head has room for it
    head = (head + " \u00b7 " + t("pad.net", net), head)
    hint = t("hint.to_menu")
    if app.vs != "human" and p == 1:
        hint = t("hint.human_continues")
    return {"head": head, "testmode": app.testmode, "cols": cols, "corner": corner,
            "rows": rows, "hint": hint, "col_w": 64 if n > 1 else 72}


def scorepad(fb, v):
    """The score pad (R16, R17): a column per game or player."""
    table(fb, v, v["testmode"])
