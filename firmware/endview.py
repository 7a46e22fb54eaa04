"""The showdown screen's content (R10, R11), loaded when a hand ends."""


def _show(card):
    if card and card[0] == "T":
        return "10" + card[1:]
    return card or "-"


def view_showdown(app, p):
    m = app.match
    obs = m.observation(p)
    # the engine deals the next hand at once: the ended one is last_result
    res = obs["last_result"]
    ended = m.hand_no if m.winner is not None else m.hand_no - 1
    rows = []
    hands = res.get("hands") or [None, None]
    melds = res.get("melds") or [[], []]
    order = (p, 1 - p)
    knocker = res.get("knocker")
    for q in order:
        h = hands[q]
        if h is None:
            continue
        ms = [list(x) for x in (melds[q] or [])]
        used = set()
        for x in ms:
            for c in x:
                used.add(c)
        lay = (res.get("layoffs") or []) if q != knocker else []
        dead = [c for c in h if c not in used and c not in lay]
        groups = [(x, True) for x in ms]
        if dead:
            groups.append((dead, False))
        role = ""
        if knocker is not None:
            role = " knocked" if q == knocker else ""
        dw = res["deadwood"][q] if res.get("deadwood") else 0
        rows.append(("%s%s: deadwood %d" % (app._name(p, q), role, dw),
                     groups, lay))
    kind = res.get("kind")
    winner = res.get("winner")
    lines = []
    if kind == "draw" or winner is None:
        lines.append("Draw hand: nobody scores")   # R9
    else:
        what = {"gin": "gin", "undercut": "undercut"}.get(kind, "knock")
        who = app._name(p, winner)
        lines.append("%s %s %d (%s)" % (who, "win" if who == "You" else "wins",
                                        res["points"], what))
    sc = obs["scores"]
    gw = obs.get("game_winner")
    if gw is not None:
        who = app._name(p, gw)
        lines.append("GAME: %s %s %d-%d" % (who, "win" if who == "You" else "wins",
                                           sc[gw], sc[1 - gw]))
        hint = "OK: back to the menu"
    else:
        lines.append("Score %s %d  %s %d" % (app._name(p, p), sc[p],
                                             app._name(p, 1 - p), sc[1 - p]))
        hint = "OK: next hand"
    if app.vs != "human" and p == 1:
        hint = "the human continues"
    return {
        "head": "Hand %d over" % ended,
        "testmode": app.testmode,
        "rows": rows,
        "lines": lines,
        "hint": hint,
    }
