"""Every screen in every language fits (docs/architecture.md "Languages"):
the firmware draws each screen (the menu at every item, the rule switches,
every statistics page with long numbers, the notices and the error screen,
the turn screen in every phase with the cursor on every card, every message
a press or the engine can leave, three-digit scores, the hands' ends, the
computer's seat, a whole game's last showdown and score pad, Hollywood)
in every language, on the web page's board under MicroPython, and each
text must lie inside its box, need no more than its box's width, and run
into no other text and no card. Golden images per language for the main
screens (OKGIN_UPDATE_GOLDEN=1 rewrites them: look at them first)."""
import json
import os
import shutil
import subprocess

import pytest
from PIL import Image

from okgin.engine import Match, Rules, bot
from okgin.lib import lang
from tests.support.harness import ROOT

W, H = 296, 128
GOLDEN = os.path.join(ROOT, "tests", "app", "golden")
# the main screens, a golden image each per language
MAIN = ("menu-0", "rules-1", "stats-0", "stats-4", "upcard", "turn-2", "confirm",
        "end-knock", "end-gin", "whole-pad", "hollywood-pad", "vs", "notice-damaged",
        "hollywood-turn", "msg-0")
UPDATE = os.environ.get("OKGIN_UPDATE_GOLDEN") == "1"


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


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    from okgin.vboard.vboard import find_micropython
    from okgin.web import _firmware
    d = str(tmp_path_factory.mktemp("screens"))
    _firmware(d)
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
            elif x < 0 or y < 0 or x + w > W or y + h > H:
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
    with open(path, "rb") as f:
        buf = f.read()
    im = Image.new("1", (W, H), 255)
    px = im.load()
    for k in range(H // 8):
        for x in range(W):
            b = buf[k * W + x]
            for bit in range(8):
                if (b >> bit) & 1:
                    px[x, k * 8 + bit] = 0
    return im


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
                path = os.path.join(GOLDEN, code, "%s-%d.png" % (scene, p))
                if UPDATE:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    im.save(path)
                    continue
                assert os.path.exists(path), "%s missing: OKGIN_UPDATE_GOLDEN=1" % path
                want = Image.open(path).convert("1")
                if want.tobytes() != im.tobytes():
                    bad.append(os.path.relpath(path, ROOT))
    assert not bad, "differ from the golden image: %s" % ", ".join(bad)
