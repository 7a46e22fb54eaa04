"""The score pad at the end of a game (R16; three games in Hollywood, R17):
loaded for that screen only, after the last hand's showdown."""
from screens import text, bold, header, banner, footer


def view_pad(app, p):
    """The score pad at the end of a game (R16; three games in Hollywood,
    R17), from player p's side: one column per game and player."""
    m = app.match
    pads = m.score_pad()   # engine/scoring.py: app.next_hand drops it
    me = app.name(p, p)
    them = app.name(p, 1 - p)
    n = len(pads)
    w = 5 if n > 1 else 8   # column width
    rows = []
    head = "       "
    for _ in range(n):
        head += ("%" + str(w) + "s%" + str(w) + "s") % (me[:w - 1], them[:w - 1])
    rows.append(head)
    labels = (("Points", "points"), ("Boxes", "boxes"), ("Box pts", "box_points"),
              ("Game", "game_bonus"), ("Shutout", "shutout"), ("Total", "total"))
    net = 0
    for label, k in labels:
        ln = "%-7s" % label
        for g in pads:
            for q in (p, 1 - p):
                v = g[k][q]
                t = ("x2" if v > 1 else "-") if k == "shutout" else str(v)
                ln += ("%" + str(w) + "s") % t
        rows.append(ln)
    for g in pads:
        net += g["total"][p] - g["total"][1 - p]
    if n > 1:
        won = 0
        for g in pads:
            if g["winner"] == p:
                won += 1
        who = app.name(p, m.winner)
        title = "Hollywood: %s %s %d-%d" % (who, "win" if who == "You" else "wins",
                                           max(won, n - won), min(won, n - won))
    else:
        title = "Game over: %s %s" % (app.name(p, m.winner),
                                      "win" if app.name(p, m.winner) == "You" else "wins")
    hint = "OK: back to the menu"
    if app.vs != "human" and p == 1:
        hint = "the human continues"
    return {"head": title, "testmode": app.testmode, "rows": rows,
            "net": "Net: %s %+d" % (me, net), "hint": hint,
            "games": n}


def scorepad(fb, v):
    """The score pad (R16, R17): a column per game and player, then the net."""
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    y = 14
    if v["games"] > 1:
        text(fb, "       Game 1    Game 2    Game 3", 0, y)
        y += 10
    for ln in v["rows"]:
        text(fb, ln[:37], 0, y)
        y += 10
    bold(fb, v["net"][:36], 2, y + 2)
    footer(fb, v["hint"])
