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
