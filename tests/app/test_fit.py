"""Every screen in every language fits (docs/architecture.md "Languages"):
the firmware draws each screen (the menu at every item, the rule switches,
every statistics page with long numbers, the notices and the error screen,
the turn screen in every phase with the cursor on every card, every message
a press or the engine can leave, three-digit scores, the hands' ends, the
computer's seat, a whole game's last showdown and score pad, Hollywood)
in every language, on the web page's board under MicroPython, and each
text must lie inside its box, need no more than its box's width, and run
into no other text and no card. The lines a player meets at their widest
(issue 37): the can-knock line with a 10 and a deadwood of 10, the
computer's last move with two 10s, each showdown against the computer,
a game's end with three-digit scores, the coach's review of every kind of
move. A line shortens only through a form its catalogue gives
(text.first_fit), so a cut card or number fails here. Drawn at every
panel size the table supports (board.json and every driver's own size:
PANELS); no drawn text shows a form its catalogue marks wrong
(tests/app/test_agree.py), and the computer's own panel never says
"you". Golden images per language for the main screens
(OKGIN_UPDATE_GOLDEN=1 rewrites them: look at them first)."""
import ast
import glob
import json
import os
import re
import shutil
import subprocess

import pytest
from PIL import Image

from okgin.engine import Match, Rules, bot
from okgin.lib import lang
from tests.support.harness import ROOT

GOLDEN = os.path.join(ROOT, "tests", "app", "golden")
# the main screens, a golden image each per language
MAIN = ("menu-0", "rules-1", "stats-0", "stats-4", "upcard", "turn-2", "confirm",
        "end-knock", "end-gin", "whole-pad", "hollywood-pad", "vs", "notice-damaged",
        "hollywood-turn", "msg-0")
UPDATE = os.environ.get("OKGIN_UPDATE_GOLDEN") == "1"


def _panels():
    """Every panel the table supports, one ((width, height), (controller,
    rotation, scale)) per size: the panels of every board definition in hardware/ (board.json and
    its variants, board-*.json) and the size each controller's driver
    (display.py DRIVERS) is built for, read from its constructor's
    defaults. A new panel in a board definition or a new driver is drawn
    here with no edit. The firmware draws at the panel's size / scale
    (200x150 on the 4.2" at scale 2); the golden image is the panel's."""
    from okgin.lib.paths import BOARD
    sizes = {}
    for path in sorted(glob.glob(os.path.join(os.path.dirname(BOARD), "board*.json"))):
        with open(path) as f:
            for pl in json.load(f)["players"]:
                pn = pl["panel"]
                sizes.setdefault((pn["width"], pn["height"]),
                                 (pn["controller"], pn["rotation"], pn.get("scale", 1)))
    fw = os.path.join(ROOT, "firmware")
    with open(os.path.join(fw, "display.py")) as f:
        tree = ast.parse(f.read())
    drivers = next(ast.literal_eval(n.value) for n in tree.body
                   if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "DRIVERS")
    for controller, mod in sorted(drivers.items()):
        with open(os.path.join(fw, mod + ".py")) as f:
            for n in ast.walk(ast.parse(f.read())):
                if isinstance(n, ast.FunctionDef) and n.name == "__init__":
                    args = n.args.args[-len(n.args.defaults):]
                    d = {a.arg: ast.literal_eval(v) for a, v in zip(args, n.args.defaults, strict=True)}
                    if "width" in d and "height" in d:
                        sizes.setdefault((d["width"], d["height"]),
                                         (controller, d.get("rotation", 90), d.get("scale", 1)))
    return sorted(sizes.items())


PANELS = _panels()
W, H = PANELS[0][0]   # the panel's size (the drawn fixture sets it)
S = 1                 # its scale: the firmware draws in W/S x H/S


def _play(seed, rules, stop, vs=None, dealer=0, limit=4000):
    """Actions of a game the hard computer plays for both seats, up to the
    first moment stop(match, hand_no_before) holds."""
    m = Match(Rules(**rules), seed=seed, dealer=dealer)
    acts = []
    while m.winner is None and len(acts) < limit:
        p = m.hand.to_move
        obs = m.observation(p)
        a = bot("hard", seed * 1000 + len(acts)).choose(obs)
        before = m.hand_no
        m.play(a)
        acts.append(a)
        if stop(m, before):
            return acts
    return acts


def _hand_ended(kind):
    def stop(m, before):
        if m.hand_no == before and m.winner is None:
            return False
        return m.last_hand is not None and m.last_hand.result.kind == kind
    return stop


def _find(kind, rules, seeds=range(1, 400)):
    for seed in seeds:
        acts = _play(seed, rules, _hand_ended(kind), limit=200)
        m = Match(Rules(**rules), seed=seed, dealer=0)
        for a in acts:
            m.play(a)
        if m.last_hand is not None and m.last_hand.result.kind == kind:
            return {"seed": seed, "dealer": 0, "rules": rules, "actions": acts}
    raise AssertionError("no %s hand in the seeds tried" % kind)


def _inputs():
    boxes = {"box_bonus": 25, "game_bonus": 100, "shutout_double": True}
    games = {
        "long": {"seed": 11, "dealer": 0, "rules": {"target": 150},
                 "actions": _play(11, {"target": 150}, lambda m, b: False, limit=60)},
        "knock": _find("knock", dict(boxes)),
        "gin": _find("gin", dict(boxes, spades_double=True)),
        "undercut": _find("undercut", dict(boxes)),
        "draw": _find("draw", {}),
    }
    for seed in range(1, 200):   # a spade upcard: the hand counts twice
        m = Match(Rules(spades_double=True), seed=seed, dealer=0)
        if m.hand.discard_top[1] == "s":
            games["doubled"] = {"seed": seed, "dealer": 0, "rules": {"spades_double": True},
                                "actions": []}
            break
    games["vs"] = {"seed": 5, "dealer": 0, "rules": {}, "actions": []}
    whole = dict(boxes)
    games["whole"] = {"seed": 21, "dealer": 0, "rules": whole,
                      "actions": _play(21, whole, lambda m, b: False)}
    hw = dict(boxes, hollywood=True, target=60)
    games["hollywood"] = {"seed": 8, "dealer": 0, "rules": hw,
                          "actions": _play(8, hw, lambda m, b: False)}
    stats = {"v": 1, "games": 12345, "counted": "", "biggest": [188, 1, "normal"],
             "by": {k: {c: [12345, 9876] for c in ("games", "hands", "gins", "undercuts",
                                                   "streak", "best_streak")}
                    for k in ("human", "easy", "normal", "hard")},
             "last": [["human", 1, 1234, 987, 1], ["hard", 0, 412, 388, 3],
                      ["normal", 1, 150, 149, 1]]}
    from okgin.engine import explain
    reasons = {"over": [], "turn": [1, 0], "upcard": ["knock Ts", "Ts"], "both_passed": [],
               "pass_first": [], "draw_first": ["discard Ts", "Ts"], "drawn": ["take"],
               "not_held": ["Ts"], "just_taken": ["Ts"], "ace_gin": ["Ts", 100],
               "limit": ["Ts", 100, 10]}
    assert set(reasons) == set(explain.TEXTS)
    rs = [[k, v] for k, v in reasons.items()] + [["game_over", []]]
    coach = sorted(k[len("coach."):] for k in lang.read("en") if k.startswith("coach."))
    return {"games": games, "stats": stats, "reasons": rs, "coach": coach,
            "langs": lang.codes(), "save": list(MAIN)}


@pytest.fixture(scope="module", params=PANELS, ids=["%dx%d" % wh for wh, _ in PANELS])
def drawn(request, tmp_path_factory):
    from okgin.vboard.vboard import find_micropython
    from okgin.web import _firmware
    global W, H, S
    (W, H), (controller, rotation, S) = request.param
    d = str(tmp_path_factory.mktemp("screens"))
    _firmware(d)
    # the board with this panel size on both seats
    with open(os.path.join(d, "board.json")) as f:
        board = json.load(f)
    for pl in board["players"]:
        pl["panel"]["width"], pl["panel"]["height"] = W, H
        pl["panel"]["controller"], pl["panel"]["rotation"] = controller, rotation
        pl["panel"]["scale"] = S
    with open(os.path.join(d, "board.json"), "w") as f:
        json.dump(board, f)
    shutil.copy(os.path.join(ROOT, "tests", "mp", "all_screens.py"), d)
    os.makedirs(os.path.join(d, "img"))
    with open(os.path.join(d, "all_screens.json"), "w") as f:
        json.dump(_inputs(), f)
    r = subprocess.run([find_micropython(), "-X", "heapsize=4M", "all_screens.py"], cwd=d,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:] or r.stdout[-3000:]
    recs = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    assert recs[-1] == {"done": True}
    return d, recs[:-1]


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_every_screen_was_drawn_in_every_language(drawn):
    _d, recs = drawn
    by = {}
    for r in recs:
        by.setdefault(r["lang"], set()).add(r["scene"])
    assert sorted(by) == sorted(lang.codes())
    scenes = by["en"]
    for code in by:
        assert by[code] == scenes, code
    # every kind of screen is there
    for prefix in ("menu-", "rules-", "stats-", "notice-", "error", "upcard", "discard-",
                   "confirm", "msg-", "scores", "doubled", "end-knock", "end-gin",
                   "end-undercut", "end-draw", "vs", "whole-over", "whole-pad",
                   "knock-", "last", "vs-last", "end-knock-vs", "end-gin-vs", "end-undercut-vs",
                   "end-draw-vs", "whole-vs-over-big", "review-",
                   "hollywood-over", "hollywood-pad", "hollywood-turn", "sleep-asleep", "sleep-empty"):
        assert any(s.startswith(prefix) for s in scenes), prefix
    # and none was drawn without text
    assert all(r["texts"] for r in recs)


def test_no_text_overflows_its_box_or_runs_into_another(drawn):
    _d, recs = drawn
    bad = []
    for r in recs:
        where = "%s %s panel %d" % (r["lang"], r["scene"], r["p"])
        texts = r["texts"]
        for x, y, w, h, need, s in texts:
            if h <= 0:
                bad.append("%s: no line left for %r" % (where, s))
            elif x < 0 or y < 0 or x + w > W // S or y + h > H // S:
                bad.append("%s: %r's box (%d,%d %dx%d) leaves the screen" % (where, s, x, y, w, h))
            elif need > w:
                bad.append("%s: %r needs %d px, its box has %d" % (where, s, need, w))
        for i in range(len(texts)):
            a = texts[i]
            if a[3] <= 0:
                continue
            for b in texts[i + 1:]:
                if b[3] > 0 and _overlap(a, b):
                    bad.append("%s: %r runs into %r" % (where, a[5], b[5]))
            for rect in r["rects"]:
                if _overlap(a, rect):
                    bad.append("%s: %r runs into a card at %s" % (where, a[5], rect))
    assert not bad, "\n".join(bad[:40]) + ("\n... %d in all" % len(bad) if len(bad) > 40 else "")


def _image(path):
    """The panel's image of a frame buffer the firmware drew (its logical
    size, W/S x H/S): each pixel an S x S block, as the driver sends it."""
    w, h = W // S, H // S
    with open(path, "rb") as f:
        buf = f.read()
    im = Image.new("1", (w, h), 255)
    px = im.load()
    for k in range((h + 7) // 8):
        for x in range(w):
            b = buf[k * w + x]
            for bit in range(min(8, h - 8 * k)):
                if (b >> bit) & 1:
                    px[x, k * 8 + bit] = 0
    return im if S == 1 else im.resize((W, H), Image.NEAREST)


def test_the_main_screens_match_their_golden_images(drawn):
    d, recs = drawn
    seen = {(r["lang"], r["scene"], r["p"]) for r in recs}
    bad = []
    for code in lang.codes():
        for scene in MAIN:
            for p in (0, 1):
                if (code, scene, p) not in seen:
                    continue
                im = _image(os.path.join(d, "img", "%s-%s-%d.bin" % (code, scene, p)))
                # 296x128's in golden/<code>, another size's in golden/<w>x<h>/<code>
                where = GOLDEN if (W, H) == (296, 128) else os.path.join(GOLDEN, "%dx%d" % (W, H))
                path = os.path.join(where, code, "%s-%d.png" % (scene, p))
                if UPDATE:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    im.save(path)
                    continue
                assert os.path.exists(path), "%s missing: OKGIN_UPDATE_GOLDEN=1" % path
                want = Image.open(path).convert("1")
                if want.tobytes() != im.tobytes():
                    bad.append(os.path.relpath(path, ROOT))
    assert not bad, "differ from the golden image: %s" % ", ".join(bad)


def test_no_drawn_line_shows_a_form_its_catalogue_marks_wrong(drawn):
    _d, recs = drawn
    marks = {c: lang.marks(c)["wrong"] for c in lang.codes()}
    bad = []
    for r in recs:
        for _x, _y, _w, _h, _need, s in r["texts"]:
            for rx, where in marks[r["lang"]]:
                if rx.search(s):
                    bad.append("%s %s panel %d: %r (%s)" % (r["lang"], r["scene"], r["p"], s, where))
    assert not bad, "\n".join(bad[:40])


def test_the_computers_own_panel_never_says_you(drawn):
    # against the computer, panel 1 is the computer's seat: it names itself
    # (name.cpu) and never takes the forms for "you" (end.win_you, ...)
    _d, recs = drawn
    bad = []
    for code in lang.codes():
        cat = lang.read(code)
        forms = [cat[k].split("{")[0].strip() for k in cat
                 if k.endswith("_you") and not k.startswith("page.")]
        forms = [y for y in forms if len(y) > 1]
        for r in recs:
            if r["lang"] != code or r["p"] != 1 or "vs" not in r["scene"]:
                continue
            for _x, _y, _w, _h, _need, s in r["texts"]:
                words = re.split(r"[\s:\u00b7,()-]+", s)
                if cat["name.you"] in words:
                    bad.append("%s %s: %r names %r" % (code, r["scene"], s, cat["name.you"]))
                for y in forms:
                    if s.startswith(y):
                        bad.append("%s %s: %r says %r" % (code, r["scene"], s, y))
    assert not bad, "\n".join(bad[:40])
