"""The showdown screen (R10, R11), loaded when a hand ends and dropped
when play goes on: its content and its drawing."""
import framebuf

import font
import screens
import text
from i18n import t, cards
from screens import LINE, TOP, header, banner, footer, _rank, _suit, _ri, _si

# The panel's size is read when a screen is drawn (screens.W, screens.H:
# 296x128 on the 2.9", the 4.2"'s logical 200x150). Two layouts:
# - "wide" (296x128: 6 lines between head and footer): each hand on one
#   row of medium cards, the big rank with a small suit beside it;
# - "tall" (200x150: 7 lines): each hand's cards as an index, the big rank
#   over the card's own suit (12x12), 14 px a card: two hands of 11 and
#   the lay-offs fit 200 px, and the suit is as big as on a card face.
MINI_STEP = 23       # wide: big rank + small suit
TALL_STEP = 16       # tall: rank over suit, 4 px apart (2 when a row needs it)
TALL_H = 32          # tall: rank 16 + 1 + suit 12 + the meld bar under it

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
            # (docs/glossary.md, "Verbs after a name"); a named player's
            # row has a shorter form for a narrow panel
            if q == me:
                label = (t("end.row_knocked_you", who, dw),)
            else:
                label = (t("end.row_knocked", who, dw), t("end.row_knocked_short", who, dw))
        elif lay:
            # the cards laid off on the knocker's melds (R10), named here
            # when the line has room, and drawn after a "+" at the end of
            # the row (the plain row's label when it has not)
            label = (t("end.row_layoff_you" if q == me else "end.row_layoff", who, dw,
                       cards(lay)), t("end.row", who, dw))
        else:
            label = (t("end.row", who, dw),)
        rows.append((label, groups, lay))
    kind = res.get("kind")
    winner = res.get("winner")
    x = res.get("multiplier", 1)
    if kind == "draw" or winner is None:
        # R9; a shorter form for a narrow panel
        line = text.first_fit(screens.W - 7, (t("end.draw_x2" if x > 1 else "end.draw"),
                                              t("end.draw_x2_short" if x > 1 else "end.draw_short")))
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
        # the shortest: the points as "+12" beside the name, no verb
        lines.append(t("end.win_short", app.name(p, winner), res["points"], what))
        line = text.first_fit(screens.W - 7, lines)
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
            if gw == me:
                heads = (t("end.match_you", won, 3 - won), t("end.match_short_you", won, 3 - won))
            else:
                heads = (t("end.match", app.name(p, gw), won, 3 - won),
                         t("end.match_short", app.name(p, gw), won, 3 - won))
        elif gw == me:
            heads = (t("end.game_you", sc[gw], sc[1 - gw]),
                     t("end.game_short_you", sc[gw], sc[1 - gw]))
        else:
            heads = (t("end.game", app.name(p, gw), sc[gw], sc[1 - gw]),
                     t("end.game_short", app.name(p, gw), sc[gw], sc[1 - gw]))
        r = m.rules
        pad = r.box_bonus or r.game_bonus or r.shutout_double or r.hollywood
        hint = t("hint.to_pad") if pad else t("hint.to_menu")
    else:
        hint = t("hint.next_hand")
    if app.vs != "human" and p == 1:
        hint = t("hint.human_continues")
    return {
        "head": text.first_fit(screens.W - 2 - screens_banner(app), heads),
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
    """A medium card for the wide showdown: the big rank glyph with a small
    suit beside it, so two full hands and the lay-offs fit on one screen."""
    text.rect(x, y, MINI_STEP - 2, 16)
    fb.blit(_rank(_ri(c)), x, y, 0)
    fb.blit(_mini(_si(c)), x + 13, y + 8, 0)
    return x + MINI_STEP


def index(fb, x, y, c, step=TALL_STEP):
    """A card as its index, for the tall showdown: the big rank over the
    card's own suit (the suit at a card face's size)."""
    text.rect(x, y, font.RANK_W, font.RANK_H + 1 + font.SUIT_H)
    fb.blit(_rank(_ri(c)), x, y, 0)
    fb.blit(_suit(_si(c)), x, y + font.RANK_H + 1, 0)
    return x + step


def tall_step(groups, layoffs, w):
    """The widest step between card indexes (16 px, down to 14) at which a
    row of ``groups`` and ``layoffs`` fits ``w`` px."""
    n = len(layoffs)
    gaps = 10 if layoffs else 0     # the "+" and its space
    for g, _m in groups:
        n += len(g)
        gaps += 5
    step = TALL_STEP
    while step > 14 and n * step + gaps > w:
        step -= 1
    return step


def mini_groups(fb, x, y, groups, step=0):
    """Draw groups (lists of card strings) of medium cards (``step``: card
    indexes that far apart, the tall showdown); melds are underlined so
    the showdown reads as melds + deadwood (R10)."""
    bar = y + (TALL_H - 3 if step else 17)
    for g, is_meld in groups:
        x0 = x
        for c in g:
            x = index(fb, x, y, c, step) if step else mini(fb, x, y, c)
        if is_meld and g:
            fb.fill_rect(x0, bar, x - x0 - (step - font.RANK_W if step else 2), 2, 1)
        x += 5
    return x


def showdown(fb, v):
    """End of a hand (R10, R11): both hands with melds and the lay-offs,
    then the hand's result. ``v``: head (with the scores), testmode, rows
    (list of (labels, groups, layoffs): labels long form first), line
    (the result), hint. Tall when the panel has the 7 lines between head
    and footer it needs (two labels, two rows of indexes, the result)."""
    w = screens.W
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    tall = screens.H - 2 * LINE >= 2 * (LINE + TALL_H) + LINE
    y = TOP
    for labels, groups, layoffs in v["rows"]:
        text.draw(fb, text.first_fit(w - 6, labels), 3, y, w - 6)
        y += LINE
        step = tall_step(groups, layoffs, w - 4) if tall else 0
        x = mini_groups(fb, 2, y, groups, step)
        if layoffs:
            # the defender's cards laid off on the knocker's melds (R10)
            x = text.draw(fb, "+", x, y + (6 if tall else 0), 8) + 2
            for c in layoffs:
                x = index(fb, x, y, c, step) if tall else mini(fb, x, y, c)
        # the next label's top a multiple of 8 (text.py)
        y += TALL_H if tall else 24
    text.draw(fb, v["line"], 3, y, w - 6, 1, True)
    footer(fb, v["hint"])
