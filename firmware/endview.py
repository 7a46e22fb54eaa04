"""The showdown screen (R10, R11), loaded when a hand ends and dropped
when play goes on: its content and its drawing."""
import framebuf

import font
from screens import text, bold, header, banner, footer, _rank, _ri, _si

MINI_STEP = 23       # big rank + small suit

_MBUF = bytearray(8)
_MFB = framebuf.FrameBuffer(_MBUF, 8, 8, framebuf.MONO_HLSB)


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
        rows.append(("%s%s: deadwood %d" % (app.name(p, q), role, dw),
                     groups, lay))
    kind = res.get("kind")
    winner = res.get("winner")
    x = res.get("multiplier", 1)
    lines = []
    if kind == "draw" or winner is None:
        lines.append("Draw hand: nobody scores%s" % (" (x2)" if x > 1 else ""))   # R9
    else:
        what = {"gin": "gin", "undercut": "undercut"}.get(kind, "knock")
        who = app.name(p, winner)
        # as on a score pad: the points, doubled by a spade upcard (R15)
        # and the boxes the hand earns (R16)
        extra = ""
        if x > 1:
            extra = " %d x2" % (res["points"] // x)
        if m.rules.box_bonus:
            from engine.scoring import boxes_of   # loaded as the hand ended
            b = boxes_of(m, m.last_hand)
            extra += ", %d box%s" % (b, "" if b == 1 else "es")
        lines.append("%s %s %d (%s%s)" % (who, "win" if who == "You" else "wins",
                                          res["points"], what, extra))
    sc = obs["scores"]
    gw = obs.get("game_winner")
    games = obs["games"]
    if len(games) > 1:
        # Hollywood (R17): each game, mine first, * where it is won
        out = []
        for g in games:
            s = g["scores"]
            out.append("%d-%d%s" % (s[p], s[1 - p], "" if g["winner"] is None else "*"))
        score = "Games " + " ".join(out)
    else:
        score = "Score %s %d  %s %d" % (app.name(p, p), sc[p], app.name(p, 1 - p), sc[1 - p])
    if gw is not None:
        who = app.name(p, gw)
        if len(games) > 1:
            won = 0
            for g in games:
                if g["winner"] == gw:
                    won += 1
            lines.append("MATCH: %s %s %d games to %d" % (
                who, "win" if who == "You" else "wins", won, 3 - won))
        else:
            lines.append("GAME: %s %s %d-%d" % (who, "win" if who == "You" else "wins",
                                               sc[gw], sc[1 - gw]))
        r = m.rules
        pad = r.box_bonus or r.game_bonus or r.shutout_double or r.hollywood
        hint = "OK: the score pad" if pad else "OK: back to the menu"
    else:
        lines.append(score)
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

def _mini(i):
    _MBUF[:] = font.MINI_SUITS[i]
    return _MFB


def mini(fb, x, y, c):
    """A medium card for the showdown: the big rank glyph with a small suit
    beside it, so two full hands and the lay-offs fit on one screen."""
    fb.blit(_rank(_ri(c)), x, y, 0)
    fb.blit(_mini(_si(c)), x + 13, y + 8, 0)
    return x + MINI_STEP


def mini_groups(fb, x, y, groups):
    """Draw groups (lists of card strings) of medium cards; melds are
    underlined so the showdown reads as melds + deadwood (R10)."""
    for g, is_meld in groups:
        x0 = x
        for c in g:
            x = mini(fb, x, y, c)
        if is_meld and g:
            fb.fill_rect(x0, y + 18, x - x0 - 2, 2, 1)
        x += 5
    return x


def showdown(fb, v):
    """End of a hand (R10, R11): both hands with melds, the lay-offs and the
    points, then the scores. ``v``: head, testmode, rows (list of
    (label, groups, layoffs)), lines (result text), hint."""
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    y = 13
    for label, groups, layoffs in v["rows"]:
        text(fb, label[:37], 2, y)
        y += 9
        x = mini_groups(fb, 2, y, groups)
        if layoffs:
            # the defender's cards laid off on the knocker's melds (R10)
            text(fb, "off:", x, y + 8)
            x += 34
            for c in layoffs:
                x = mini(fb, x, y, c)
        y += 26
    for ln in v["lines"]:
        bold(fb, ln[:36], 2, y)
        y += 10
    footer(fb, v["hint"])
