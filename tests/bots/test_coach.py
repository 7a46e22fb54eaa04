"""The coach (engine/coach.py, docs/bots.md "The coach"): its suggestion is
the hard level's move, its reasons are catalogue codes with the cards they
name (all of them cards the player can see), and after a hand it finds the
player's costliest decision by hard's measure."""
import ast
import os
import random
import subprocess

from okgin.engine import Hand, Match, Rules, bot
from okgin.engine.bots import move_seed
from okgin.engine.coach import REASONS, advice
from okgin.engine.review import Review, review
from tests.bots import play_script   # shared with the micropython run
from tests.support import micropython
from tests.support.positions import observation as _obs, twin_with_other_hidden_cards

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

DRAW = {"take_knock", "take_meld", "take_better", "draw_no_meld", "draw_better", "draw_own"}
KNOCK = {"knock_gin", "knock", "knock_game"}
HOLD = {"hold_undercut", "hold_game", "hold_late"}


def _discards(hand, taken=None):
    return ["discard " + c for c in sorted(hand) if c != taken]


def _codes(a):
    return [w[0] for w in a["why"]]


def test_the_coach_suggests_the_hard_levels_move_and_names_only_cards_the_player_sees():
    rng = random.Random(3)
    seen_codes = set()
    for seed in range(1, 13):
        m = Match(Rules(), seed=seed, dealer=seed % 2)
        moves = 0
        while m.winner is None and moves < 160:
            p = m.hand.to_move
            o = m.observation(p)
            s = move_seed(seed, len(o["history"]))
            a = advice(o, s)
            assert a["action"] == bot("hard", s).choose(o)
            visible = set(o["hand"]) | set(o["discard"]) | set(o["opponent_known"])
            for code, cards, n in a["why"]:
                assert code in REASONS and isinstance(n, int)
                assert set(cards) <= visible, (code, cards, o)
                seen_codes.add(code)
            kinds = set(_codes(a))
            act = a["action"]
            if len(o["legal"]) > 1:
                if o["phase"] in ("upcard", "draw"):
                    assert len(kinds) == 1 and kinds <= DRAW
                    assert (act == "take") == bool(kinds & {"take_knock", "take_meld",
                                                            "take_better"})
                elif act.startswith("knock"):
                    assert kinds <= KNOCK and a["why"][0][1] == [act.split()[1]]
                else:
                    # a knock it could make and holds back from comes first
                    can_knock = any(x.startswith("knock") for x in o["legal"])
                    assert (_codes(a)[0] in HOLD) == can_knock
                    assert act.split()[1] in a["why"][-1][1]
            # a random move now and then, so the positions are not all hard's
            m.play(act if rng.random() < 0.8 else rng.choice(o["legal"]))
            moves += 1
    # the reasons seen over these games
    assert {"take_meld", "draw_better", "draw_no_meld", "discard_high", "keep_near",
            "knock"} <= seen_codes, seen_codes


def test_the_coach_reads_the_observation_alone():
    for seed, moves in ((3, 6), (8, 11), (21, 15), (30, 9)):
        h, twin, p = twin_with_other_hidden_cards(seed, moves)
        assert advice(h.observation(p), 9) == advice(twin.observation(p), 9)


def test_why_take_or_leave_the_top_card():
    hand = ["7h", "8h", "Kc", "Qd", "Js", "4c", "4d", "9s", "2h", "3s"]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 9h"]
    a = advice(_obs(hand, "draw", ["draw", "take"], ("5c", "9h"), history=hist))
    assert a == {"action": "take", "why": [("take_meld", ["9h", "7h", "8h"], 0)]}
    hist = ["1 pass", "0 pass", "1 draw", "1 discard Tc"]
    a = advice(_obs(hand, "draw", ["draw", "take"], ("5c", "Tc"), history=hist))
    assert a == {"action": "draw", "why": [("draw_no_meld", ["Tc"], 0)]}
    # its own discard, back on the pile: hard never takes it back
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 5c", "0 draw", "0 discard 9h",
            "1 pass"]
    hand9 = ["7h", "8h", "Kc", "Qd", "Js", "4c", "4d", "9s", "2h", "3s"]
    a = advice(_obs(hand9, "draw", ["draw", "take"], ("5c", "9h"), history=hist))
    assert a == {"action": "draw", "why": [("draw_own", ["9h"], 0)]}
    # a card that lets it knock at once: take it, then knock with 3
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "Kd"]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 2d"]
    a = advice(_obs(hand, "draw", ["draw", "take"], ("5d", "2d"), history=hist, limit=5))
    assert a == {"action": "take", "why": [("take_knock", ["2d"], 2)]}


def test_why_knock_or_hold():
    hand = ["As", "2s", "3s", "4s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "Kh"]
    legal = _discards(hand) + ["knock As", "knock 4s", "knock Kh"]
    assert advice(_obs(hand, "discard", legal)) == {"action": "knock Kh",
                                                    "why": [("knock_gin", ["Kh"], 0)]}
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "4d", "9d"]
    legal = _discards(hand) + ["knock 9d"]
    a = advice(_obs(hand, "discard", legal, limit=5, stock=25))
    assert a == {"action": "knock 9d", "why": [("knock", ["9d"], 4)]}
    # a position of a seeded game (seed 2, move seed 103): player 1 may
    # knock with Ts (9 deadwood) but 5 of hard's 16 samples undercut it
    hist = ("0 pass,1 pass,0 draw,0 discard Kd,1 draw,1 discard Js,0 draw,0 discard 9d,"
            "1 draw,1 discard Kh,0 draw,0 discard Jc,1 take Jc,1 discard Qd,0 draw,"
            "0 discard 8d,1 draw,1 discard Qh,0 take Qh,0 discard 7d,1 draw,1 discard Jh,"
            "0 take Jh,0 discard 4h,1 draw,1 discard 5s,0 draw,0 discard Td,1 draw,"
            "1 discard Kc,0 draw,0 discard 3h,1 draw,1 discard 4d,0 draw,0 discard Ts,"
            "1 take Ts,1 discard Jd,0 draw,0 discard 6c,1 take 6c").split(",")
    hand = ["6c", "9c", "Tc", "Jc", "2d", "6d", "Ah", "6h", "2s", "4s", "Ts"]
    o = dict(_obs(hand, "discard", _discards(hand) + ["knock Ts"],
                  discard=("Ks", "Kd", "Js", "9d", "Kh", "Qd", "8d", "7d", "4h", "5s", "Td",
                           "Kc", "3h", "4d", "Jd"),
                  known=("Jh", "Qh"), history=hist, stock=16),
             player=1, dealer=0, to_move=1, scores=[27, 2], target=100)
    a = advice(o, 103)
    assert a["action"] == bot("hard", 103).choose(o) == "discard Ts"
    assert a["why"] == [("hold_undercut", ["Ts"], 31), ("discard_high", ["Ts"], 0)]


def test_why_this_discard():
    # the opponent collects diamonds (7d, 8d taken): of two loose nines
    # the safer goes
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "9c", "9d"]
    hist = ["1 take 7d", "1 discard 4h", "0 draw", "0 discard 8d", "1 take 8d",
            "1 discard Th", "0 draw"]
    o = _obs(hand, "discard", _discards(hand), discard=("4h", "Th"), known=("7d", "8d"),
             history=hist)
    assert advice(o) == {"action": "discard 9c", "why": [("discard_safe", ["9c", "9d"], 0)]}
    # the same with an 8c for the 9c: hard keeps the 9d all the same, a
    # point more deadwood against a likely meld for the opponent
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "8c", "9d"]
    o = _obs(hand, "discard", _discards(hand), discard=("4h", "Th"), known=("7d", "8d"),
             history=hist)
    assert advice(o) == {"action": "discard 8c",
                         "why": [("avoid_feed", ["9d", "7d", "8d"], 0),
                                 ("discard_safe", ["8c", "9d"], 0)]}
    # R5 at a limit of 2: the kings and the queen are kept for their melds
    hand = ["As", "2s", "3s", "4c", "4d", "4h", "Qs", "3d", "Kh", "6h", "Ks"]
    o = _obs(hand, "discard", _discards(hand), discard=("2c", "5d"),
             history=["1 pass", "0 pass", "1 draw", "1 discard 5d"], limit=2)
    assert advice(o) == {"action": "discard 6h",
                         "why": [("keep_near", ["Ks", "Kh", "Qs"], 0),
                                 ("discard_far", ["6h"], 0)]}
    # a card just taken that made a meld is kept; the highest card goes
    hand = ["7h", "8h", "9h", "Kc", "Qd", "Js", "4c", "4d", "9s", "2h", "3s"]
    o = _obs(hand, "discard", _discards(hand, "9h"), ("5c",),
             history=["1 pass", "0 pass", "1 draw", "1 discard 9h", "0 take 9h"])
    a = advice(o)
    assert a["why"][0] == ("keep_meld", ["9h", "7h", "8h"], 0)
    assert a["why"][1][0] in ("discard_high", "discard_safe")
    assert a["why"][1][1][0] == a["action"].split()[1]


def _hand_by_hard(seed, mistake=None):
    """A hand of hard against hard, seeded as the device seeds its
    computer; player 0 plays ``mistake`` (move number, action) instead."""
    h = Hand.deal(Rules(), dealer=1, seed=seed)
    n = 0
    while not h.is_over():
        n += 1
        p = h.to_move
        o = h.observation(p)
        act = bot("hard", move_seed(seed, len(o["history"]))).choose(o)
        if mistake and p == 0 and mistake[0](n, o):
            act = mistake[1](o)
        h.play(act)
    return h


def test_after_a_hand_the_costliest_decision_by_hards_measure():
    # played as hard plays it: nothing to say
    for seed in (4, 5, 6):
        assert review(_hand_by_hard(seed), 0, seed) is None
        assert review(_hand_by_hard(seed), 1, seed) is None
    # player 0 breaks a meld at its third discard: that is the decision found
    state = {}

    def third_discard(n, o):
        if o["phase"] != "discard" or any(x.startswith("knock") for x in o["legal"]):
            return False
        state["d"] = state.get("d", 0) + 1
        if state["d"] == 3:
            state["n"] = n
            return True
        return False

    def break_a_meld(o):
        from okgin.engine import best_melds
        melds = best_melds(o["hand"])
        card = melds[0][0] if melds else o["hand"][0]
        legal = [a for a in o["legal"] if a.startswith("discard")]
        act = "discard " + card
        state["act"] = act if act in legal else legal[0]
        return state["act"]

    for seed in (7, 8, 9, 10, 11):
        state.clear()
        h = _hand_by_hard(seed, (third_discard, break_a_meld))
        if "n" not in state:
            continue
        r = review(h, 0, seed)
        assert r is not None and r["played"] == state["act"]
        assert r["move"] == state["n"] and r["cost"] >= 1
        assert r["better"] != r["played"] and r["why"]
        assert review(h, 1, seed) is None
        # step by step: one of player 0's decisions a step, the same result
        r = Review(h, 0, seed)
        steps = 1
        while not r.step():
            steps += 1
        assert r.result == review(h, 0, seed)
        decisions = sum(1 for i, e in enumerate(h.history()) if e.startswith("0 "))
        assert 2 < steps <= decisions + 1
        return
    raise AssertionError("no hand reached a third discard")


def test_the_coach_says_the_same_on_micropython_and_cpython(tmp_path):
    # the engine as a board runs it (.mpy), in a device-sized heap
    from okgin.benches.engine import compile_engine
    exe = micropython()
    compile_engine(str(tmp_path), probes=(), bots=True)
    p = subprocess.run([exe, "-X", "heapsize=128K", os.path.join(HERE, "play_script.py"), "6",
                        "40", "coach"], cwd=ROOT, env=dict(os.environ, MICROPYPATH=str(tmp_path)),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    mp_lines = p.stdout.strip().splitlines()
    assert mp_lines[-1].startswith("DONE hands=6")
    cp_lines = []
    play_script.coach(6, 40, cp_lines.append)
    assert mp_lines[:-1] == cp_lines
    # some reviews found a costly decision
    assert sum(ln.startswith("review ") and not ln.endswith("None") for ln in cp_lines) >= 2


def test_the_coach_judges_with_integers_only():
    tree = ast.parse(open(os.path.join(ROOT, "engine", "coach.py")).read())
    for node in ast.walk(tree):
        assert not (isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div))
        assert not (isinstance(node, ast.Constant) and isinstance(node.value, float))
