"""The showdown screen (R10, R11), loaded when a hand ends and dropped
when play goes on: its content and its drawing."""
import framebuf

import font
import text
from i18n import t, cards
from screens import W, LINE, TOP, header, banner, footer, _rank, _ri, _si

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
    # "you" on a person's own panel only: the computer's panel names its
    # seat (app.name) and takes the forms for a named player
    me = p if not (app.vs != "human" and p == 1) else -1
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
        dw = res["deadwood"][q] if res.get("deadwood") else 0
        who = app.name(p, q)
        if q == knocker and knocker is not None:
            # a verb after a name: the _you form agrees with "you"
            # (docs/glossary.md, "Verbs after a name")
            label = t("end.row_knocked_you" if q == me else "end.row_knocked", who, dw)
        elif lay:
            # the cards laid off on the knocker's melds (R10), named here
            # and drawn after a "+" at the end of the row
            label = t("end.row_layoff_you" if q == me else "end.row_layoff", who, dw,
                      cards(lay))
        else:
            label = t("end.row", who, dw)
        rows.append((label, groups, lay))
    kind = res.get("kind")
    winner = res.get("winner")
    x = res.get("multiplier", 1)
    if kind == "draw" or winner is None:
        line = t("end.draw_x2" if x > 1 else "end.draw")   # R9
    else:
        what = t({"gin": "end.by_gin", "undercut": "end.by_undercut"}.get(kind, "end.by_knock"))
        # as on a score pad: the points, doubled by a spade upcard (R15)
        # and the boxes the hand earns (R16)
        if x > 1:
            what = t("end.doubled", what)
        whats = [what]
        if m.rules.box_bonus:
            from engine.scoring import boxes_of   # loaded as the hand ended
            # with the boxes when the line has room (the score pad has them)
            whats.insert(0, t("end.boxes", what, boxes_of(m, m.last_hand)))
        lines = []
        for w in whats:
            if winner == me:
                lines.append(t("end.win_you", res["points"], w))
            else:
                lines.append(t("end.win", app.name(p, winner), res["points"], w))
        line = text.first_fit(W - 7, lines)
    sc = obs["scores"]
    gw = obs.get("game_winner")
    games = obs["games"]
    if len(games) > 1:
        # Hollywood (R17): each game, mine first, * where it is won
        out = []
        for g in games:
            s = g["scores"]
            out.append("%d-%d%s" % (s[p], s[1 - p], "" if g["winner"] is None else "*"))
        score = t("end.games", " ".join(out))
    else:
        score = t("end.score", app.name(p, p), sc[p], app.name(p, 1 - p), sc[1 - p])
    heads = (t("end.head", ended, score), score)
    if gw is not None:
        # the game (or Hollywood's three) is won: said in the head, the
        # hand's own result stays the line under the hands
        if len(games) > 1:
            won = 0
            for g in games:
                if g["winner"] == gw:
                    won += 1
            heads = (t("end.match_you", won, 3 - won) if gw == me else
                     t("end.match", app.name(p, gw), won, 3 - won),)
        else:
            heads = (t("end.game_you", sc[gw], sc[1 - gw]) if gw == me else
                     t("end.game", app.name(p, gw), sc[gw], sc[1 - gw]),)
        r = m.rules
        pad = r.box_bonus or r.game_bonus or r.shutout_double or r.hollywood
        hint = t("hint.to_pad") if pad else t("hint.to_menu")
    else:
        hint = t("hint.next_hand")
    if app.vs != "human" and p == 1:
        hint = t("hint.human_continues")
    return {
        "head": text.first_fit(W - 2 - screens_banner(app), heads),
        "testmode": app.testmode,
        "rows": rows,
        "line": line,
        "hint": hint,
    }


def screens_banner(app):
    from screens import banner_w
    b = banner_w(app.testmode)
    return b + 4 if b else 0


def _mini(i):
    _MBUF[:] = font.MINI_SUITS[i]
    return _MFB


def mini(fb, x, y, c):
    """A medium card for the showdown: the big rank glyph with a small suit
    beside it, so two full hands and the lay-offs fit on one screen."""
    text.rect(x, y, MINI_STEP - 2, 16)
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
            fb.fill_rect(x0, y + 17, x - x0 - 2, 2, 1)
        x += 5
    return x


def showdown(fb, v):
    """End of a hand (R10, R11): both hands with melds and the lay-offs,
    then the hand's result. ``v``: head (with the scores), testmode, rows
    (list of (label, groups, layoffs)), line (the result), hint."""
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    y = TOP
    for label, groups, layoffs in v["rows"]:
        text.draw(fb, label, 3, y, W - 6)
        y += LINE
        x = mini_groups(fb, 2, y, groups)
        if layoffs:
            # the defender's cards laid off on the knocker's melds (R10)
            x = text.draw(fb, "+", x, y, 8) + 2
            for c in layoffs:
                x = mini(fb, x, y, c)
        y += 24   # the next label's top a multiple of 8 (text.py)
    text.draw(fb, v["line"], 3, y, W - 6, 1, True)
    footer(fb, v["hint"])
