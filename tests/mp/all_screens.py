"""Draw every screen of the firmware in every language, on the web page's
board (webhal, webmain) under the MicroPython unix port: the fit test
(tests/app/test_fit.py) and the per-language golden images.

    cd <the page's flash> && micropython all_screens.py      # reads all_screens.json

all_screens.json (written by the test): the games to replay (seed, rules,
actions, made on the host with the engine), the statistics to show, which
scenes to save as images. For each scene and panel it prints one JSON line:
lang, scene, panel, the text boxes drawn (text.CHECK: x, y, w, h, the width
the text needed, the text) and the other things drawn (cards: text.RECTS),
and writes the panel's frame buffer to img/<lang>-<scene>-<p>.bin when
asked to.
"""
import sys
import json

sys.path.insert(0, ".")

import webmain  # noqa: E402

with open("all_screens.json") as f:
    IN = json.load(f)

webmain.boot(0, 0, speed=0.0, out=".")
import i18n  # noqa: E402
import text  # noqa: E402
from engine import Rules  # noqa: E402

app = webmain.app
SAVE = IN["save"]
ONLY = IN.get("only")


def shot(scene, panels=(0, 1)):
    if ONLY and scene not in ONLY:
        return
    for p in panels:
        for q in (0, 1):
            app.dirty[q] = q == p
        app.onfb = [None, None]   # drawn whole, as after a position change
        text.CHECK = []
        text.RECTS = []
        app.redraw()
        rec = {"lang": i18n.code, "scene": scene, "p": p, "texts": text.CHECK,
               "rects": text.RECTS}
        text.CHECK = text.RECTS = None
        print(json.dumps(rec))
        if scene in SAVE:
            with open("img/%s-%s-%d.bin" % (i18n.code, scene, p), "wb") as f:
                f.write(webmain.hw.displays[p].buf)


def drawn_by(scene, draw):
    """A screen the app does not draw through redraw() (the sleeping and
    the empty battery screens, firmware/power.py): ``draw(fb)`` on panel 0."""
    if ONLY and scene not in ONLY:
        return
    text.CHECK = []
    text.RECTS = []
    draw(app.panels[0].fb)
    rec = {"lang": i18n.code, "scene": scene, "p": 0, "texts": text.CHECK, "rects": text.RECTS}
    text.CHECK = text.RECTS = None
    print(json.dumps(rec))
    if scene in SAVE:
        with open("img/%s-%s-0.bin" % (i18n.code, scene), "wb") as f:
            f.write(webmain.hw.displays[0].buf)


def sleeping():
    import asleep
    t = i18n.t
    drawn_by("sleep-asleep", lambda fb: asleep.screen(fb, t("power.asleep"), t("power.wake")))
    drawn_by("sleep-empty", lambda fb: asleep.screen(fb, t("power.empty"), t("power.empty_more")))


def fresh():
    app.notice = [None, None]
    app.msg = ["", ""]
    app.confirm = [False, False]
    app.testmode = False
    app.menu_msg = ""


def game(g, upto=None, vs="human"):
    """A new game from a host-made record: seed, dealer, rules, actions;
    the actions up to ``upto`` played (the last one through the app, so a
    hand's end goes to its showdown as in play)."""
    fresh()
    rules = Rules(**g["rules"])
    app.new_game((vs, g["seed"], g["dealer"], rules, False))
    acts = g["actions"] if upto is None else g["actions"][:upto]
    m = app.match
    for a in acts[:-1]:
        m.play(a)
    if acts:
        p = m.hand.to_move
        app.play(p, acts[-1], list(m.hand.hands[p]))
    app.touch()


def big_scores(a, b):
    for g in app.match.games:
        g.points[0] = a
        g.points[1] = b
    app.touch()


def menus():
    fresh()
    app.mode = "menu"
    app.match = None
    app.menu_page = ""
    n = len(__import__("menu").menu_items(app)[0])
    for i in range(n):
        app.menu_sel = i
        shot("menu-%d" % i, (0,))
    app.menu_msg = i18n.t("menu.unreadable")
    app.menu_sel = n - 1
    shot("menu-msg", (0,))
    app.menu_msg = ""
    app.menu_page = "rules"
    n = len(__import__("menu").menu_items(app)[0])
    for i in range(n):
        app.menu_sel = i
        shot("rules-%d" % i, (0,))
    app.testmode = True
    app.menu_page = ""
    app.menu_sel = 0
    shot("menu-test", (0,))
    app.testmode = False
    # the statistics, with long numbers
    with open("stats.json", "w") as f:
        f.write(json.dumps(IN["stats"]))
    app.menu_page = "stats"
    for k in range(5):
        app.stats_page = k
        shot("stats-%d" % k, (0,))
    app.menu_page = "reset"
    shot("stats-reset", (0,))
    app.menu_page = ""
    app.stats_page = 0


def notices():
    fresh()
    app.mode = "menu"
    app.match = None
    t = i18n.t
    notes = {
        "lock": (t("lock.title"), [t("lock.text")]),
        "damaged": (t("rec.damaged"), [t("rec.bad_line", 1234), t("rec.kept", "game.bad")]),
        "repaired": (t("rec.repaired"), [t("rec.bad_line", 1234), t("rec.resumed", "game.bad")]),
        "panel": (t("panel.title", t("name.player", 2)),
                  [t("panel.resetting"), "EPDTimeout: BUSY stayed high for 10000 ms"]),
        "unknown": (t("rec.not_resumed"), [t("rec.unknown_players", "expert", "stranger"),
                                           t("rec.kept", "game.bad")]),
        "battery": (t("power.low"), [t("power.low_more")]),
        "panel2": (t("panel.title", t("name.player", 2)),
                   [t("panel.gave_up"), "EPDTimeout: BUSY stayed high for 10000 ms"]),
    }
    for k in notes:
        app.notice = [notes[k], notes[k]]
        shot("notice-" + k, (0,))
    app.notice = [None, None]
    app.mode = "error"
    app.error_text = "MemoryError: memory allocation failed, allocating 1234 bytes"
    app.reload = True
    shot("error", (0,))
    app.reload = False
    shot("error-menu", (0,))
    app.error_text = "OSError: [Errno 28] ENOSPC"
    shot("error-short", (0,))
    app.mode = "menu"
    app.error_text = None


def knockable():
    """A discard that can knock at the widest: the cursor on every card of
    a hand whose 10 leaves a deadwood of 10 under a knock limit of 10 (the
    can-knock line, turn.after_knock), and on the 10 just taken (R7)."""
    from engine.hand import Hand
    m = app.match
    d = m.hand.dealer
    mine = ["Ac", "2c", "3c", "4d", "4h", "4s", "5c", "6c", "7c", "Th"]
    other = ["Kd", "Qd", "Jd", "9s", "8s", "Ks", "Qh", "Jh", "9h", "8h"]
    hands = (mine, other) if d == 1 else (other, mine)
    m.hand = Hand.from_cards(m.rules, d, hands, "Td")
    p = m.hand.to_move
    m.hand.play("take")
    app.touch()
    for c in range(11):
        app.cursor[p] = c
        shot("knock-%d" % c, (p,))
    app.cursor[p] = 0


def last_move(scene):
    """The opponent's last turn at its widest, on panel 0: took a 10 and
    discarded a 10 (turn._last_move on that history)."""
    import turn
    b = turn.base(app, 0)
    # b[8]: turn._B_LAST (a const, gone once compiled)
    b[8] = turn._last_move(app, 0, {"history": ["1 take Th", "1 discard Ts"]})
    shot(scene, (0,))


def review(p):
    """The coach's review of a hand on p's panel, for every kind of move,
    as coachview makes it for the panel drawn (its forms)."""
    import coachview
    for a in ("take Th", "pass Th", "draw", "discard Th", "knock Th"):
        res = {"move": 60, "played": a, "better": "knock Ts", "cost": 100,
               "why": [("knock", ["Ts"], 10)]}
        app.notice[p] = coachview.review_notice(12, res)
        shot("review-" + a.split()[0], (p,))
    app.notice[p] = None


def turns():
    g = IN["games"]["long"]
    n = len(g["actions"])
    # the upcard, the draw, the discard with the cursor on every card
    game(g, 0)
    shot("upcard")
    for k in (1, 2, 3, 4):
        game(g, k)
        shot("turn-%d" % k)
    # a discard position: every card under the cursor, the knock question
    for k in range(5, min(n, 40)):
        game(g, k)
        m = app.match
        p = m.hand.to_move
        if m.hand.phase == "discard":
            for c in range(11):
                app.cursor[p] = c
                shot("discard-%d-%d" % (k, c), (p,))
            break
    app.confirm[p] = True
    shot("confirm", (p,))
    app.confirm[p] = False
    knockable()
    game(g, 5)
    p = app.match.hand.to_move
    # every message a press can leave, with the longest values
    t = i18n.t
    name = app.name(p, 1 - p)
    msgs = [t("msg.wait", name), t("msg.upcard"), t("msg.draw"), t("msg.just_taken", "10\u2660"),
            t("msg.cant_knock", 100, 10), t("msg.discard_now"), t("msg.not_allowed")]
    for reason in IN["reasons"]:
        args = reason[1]
        if reason[0] == "turn":
            # whose turn it is: the other player's (engine/explain.py)
            args = [1 - p, p]
        msgs.append(i18n.why((reason[0], tuple(args)), lambda q: app.name(p, q)))
    # the coach's reasons (engine/coach.py), with the widest cards and numbers
    for code in IN["coach"]:
        msgs.append(i18n.coach((code, ["Ts", "Th", "Td", "Tc"], 100)))
    for i in range(len(msgs)):
        app.msg[p] = msgs[i]
        shot("msg-%d" % i, (p,))
    app.msg[p] = ""
    review(p)
    # three-digit scores, a two-digit hand, game to 150
    big_scores(145, 130)
    app.match.hand_no = 12
    shot("scores")
    app.testmode = True
    shot("scores-test")
    app.testmode = False
    # a doubled hand (spade upcard, R15)
    game(IN["games"]["doubled"], 0)
    shot("doubled")
    # the hands' ends: knock, gin, undercut, a draw, with boxes
    for kind in ("knock", "gin", "undercut", "draw"):
        g = IN["games"][kind]
        game(g)
        shot("end-" + kind)
    # against the computer: its seat's panel, the names
    g = IN["games"]["vs"]
    game(g, 0, vs="hard")
    app.hold = True
    shot("vs")
    big_scores(145, 130)
    shot("vs-scores")
    last_move("vs-last")
    app.hold = False
    # the hands' ends against the computer: its name, its own panel
    for kind in ("knock", "gin", "undercut", "draw"):
        game(IN["games"][kind], vs="hard")
        shot("end-%s-vs" % kind)
    game(g, 0)
    last_move("last")
    # a whole game: its last showdown and the score pad
    # (both against the computer, whose names are the longest, and between
    # two people)
    for key, vs in (("whole", "hard"), ("whole", "human"), ("hollywood", "human"),
                    ("hollywood", "hard")):
        g = IN["games"][key]
        game(g, vs=vs)
        tag = key + ("" if vs == "human" else "-vs")
        shot(tag + "-over")
        big_scores(188, 156)     # three-digit scores in the game's last line
        shot(tag + "-over-big")
        app.next_hand()
        shot(tag + "-pad")
        app.next_hand()
    # Hollywood's head during play, three-digit scores in each game
    g = IN["games"]["hollywood"]
    game(g, 3)
    big_scores(145, 130)
    shot("hollywood-turn")


for code in IN["langs"]:
    app.set_lang(code)
    menus()
    notices()
    sleeping()
    turns()
print(json.dumps({"done": True}))
