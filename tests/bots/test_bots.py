"""Computer players (docs/bots.md): they only play legal moves, decide from the
observation alone, replay for a seed on both runtimes, and are ordered in
strength as claimed."""
import json
import os
import shutil
import subprocess

import pytest

from okgin.engine import Hand, Match, Rules, bot
# engine.bot is the package's function (engine/__init__.py); the players
# live in engine/bots.py, a different name, so importing that module never
# shadows the function.
LEVELS = ("random", "easy", "normal", "hard", "greedy")
from okgin.lib.errors import CommandError
from okgin.tourney import tourney

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from tests.bots import play_script   # shared with the micropython run
from tests.support import micropython
from tests.support.positions import observation as _obs, twin_with_other_hidden_cards


def run_micropython(args, heap="128K", path=ROOT):
    env = dict(os.environ, MICROPYPATH=path)
    return subprocess.run([micropython(), "-X", "heapsize=" + heap] + args, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


# ----- legal moves only ------------------------------------------------------

def test_every_level_plays_only_legal_moves_on_cpython():
    lines = []
    decisions = play_script.play(60, 300, lines.append)
    assert decisions > 60 * 20
    kinds = {ln.split()[1] for ln in lines}
    # the games really end every way a hand can end
    assert {"knock", "gin"} <= kinds


def test_every_level_plays_only_legal_moves_on_micropython_within_the_device_heap(tmp_path):
    # The whole engine plus the bots, in the heap the firmware must live in,
    # compiled as a board's flash holds them (a board never compiles the
    # engine from source, which needs far more heap while it parses).
    from okgin.benches.engine import compile_engine
    compile_engine(str(tmp_path), probes=(), bots=True)
    shutil.copy(os.path.join(HERE, "play_script.py"), str(tmp_path))
    p = run_micropython([os.path.join(str(tmp_path), "play_script.py"), "60", "300"],
                        path=str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-1].startswith("DONE hands=60")


def test_micropython_and_cpython_make_the_same_decisions_for_a_seed(tmp_path):
    # The engine as a board runs it (.mpy from mpy-cross, in the device's
    # heap): compiling the source needs more heap than a board ever has.
    from okgin.benches.engine import compile_engine
    compile_engine(str(tmp_path), probes=(), bots=True)
    p = run_micropython([os.path.join(HERE, "play_script.py"), "18", "900"], path=str(tmp_path))
    assert p.returncode == 0, p.stderr
    mp_lines = p.stdout.strip().splitlines()[:-1]
    cp_lines = []
    play_script.play(18, 900, cp_lines.append)
    assert mp_lines == cp_lines


@pytest.mark.parametrize("options", [{"ace_gin_only": True}, {"discard_taken": True},
                                     {"gin_bonus": 20, "undercut_bonus": 25},
                                     {"spades_double": True, "box_bonus": 25}])
def test_bots_play_legal_moves_under_every_rules_option(options):
    rules = Rules(max_turns=100, **options)
    for s in range(25):
        h = Hand.deal(rules, dealer=s % 2, seed=400 + s)
        seats = (bot(LEVELS[s % 5], s), bot("hard", s + 1))
        while not h.is_over():
            p = h.to_move
            obs = h.observation(p)
            act = seats[p].choose(obs)
            assert act in obs["legal"]
            h.play(act)


def test_matches_to_the_target_finish_between_every_pair_of_levels():
    # Match observations (scores, target) drive the same bots to a game end.
    for i, (a, b) in enumerate(play_script.PAIRS):
        m = Match(Rules(max_turns=80, target=40), seed=50 + i)
        seats = (bot(a, i), bot(b, i + 1))
        moves = 0
        while m.winner is None:
            p = m.hand.to_move
            obs = m.observation(p)
            act = seats[p].choose(obs)
            assert act in obs["legal"]
            m.play(act)
            moves += 1
            assert moves < 5000
        assert max(m.scores) >= 40


def test_two_bots_never_swap_discards_forever_even_without_a_turn_bound():
    # Without max_turns only the stock running out (R9) or a knock ends a
    # hand; bots that kept taking each other's discards would never stop.
    rules = Rules()
    for level in ("greedy", "normal", "hard", "easy"):
        for s in range(15):
            h = Hand.deal(rules, dealer=s % 2, seed=700 + s)
            seats = (bot(level, s), bot(level, s + 1))
            n = 0
            while not h.is_over():
                p = h.to_move
                h.play(seats[p].choose(h.observation(p)))
                n += 1
                assert n < 400, "%s vs %s: hand %d does not end" % (level, level, s)


# ----- deciding from the observation only ------------------------------------

def _plain(x):
    if isinstance(x, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_plain(v) for v in x)
    return x is None or isinstance(x, (str, int, bool))


def test_a_bot_sees_a_plain_dict_of_public_data_and_needs_nothing_else():
    h = Hand.deal(Rules(), dealer=1, seed=5)
    for level in LEVELS:
        b1, b2 = bot(level, 3), bot(level, 3)
        obs = h.observation(h.to_move)
        assert _plain(obs)
        # A copy through JSON has no link to the game, and gets the same answer.
        assert b1.choose(obs) == b2.choose(json.loads(json.dumps(obs)))


@pytest.mark.parametrize("seed,moves", [(11, 4), (12, 7), (13, 10), (14, 13), (15, 8)])
def test_a_bot_decides_the_same_whatever_the_opponent_hides(seed, moves):
    h, twin, p = twin_with_other_hidden_cards(seed, moves)
    assert h.hands[1 - p] != twin.hands[1 - p]
    assert h.observation(p) == twin.observation(p)
    for level in LEVELS:
        # several decisions from the same bot state, so sampling is covered
        b1, b2 = bot(level, 42), bot(level, 42)
        for _ in range(3):
            assert b1.choose(h.observation(p)) == b2.choose(twin.observation(p))


# ----- determinism, bad input -------------------------------------------------

def test_same_seed_same_game_and_other_seeds_differ_for_random_play():
    def record(seed):
        lines = []
        h = Hand.deal(Rules(max_turns=60), dealer=0, seed=77)
        seats = (bot("random", seed), bot("hard", seed))
        while not h.is_over():
            p = h.to_move
            a = seats[p].choose(h.observation(p))
            h.play(a)
            lines.append(a)
        return lines

    assert record(1) == record(1)
    assert record(1) != record(2)


def test_the_levels_are_the_ones_documented():
    import sys as _sys
    bot("easy")
    assert _sys.modules["okgin.engine.bots"].LEVELS == LEVELS
    import okgin.engine
    import okgin.engine.bots  # noqa: F401  (must not rebind engine.bot)
    assert callable(okgin.engine.bot)


def test_unknown_level_and_a_turn_that_is_not_ours_are_clear_errors():
    with pytest.raises(ValueError, match="unknown bot level 'grandmaster'.*hard"):
        bot("grandmaster")
    h = Hand.deal(Rules(), dealer=0, seed=1)
    waiting = 1 - h.to_move
    with pytest.raises(ValueError, match="not this player's turn"):
        bot("hard").choose(h.observation(waiting))
    assert bot("HARD").level == "hard"
    obs = h.observation(h.to_move)
    del obs["hand"]
    with pytest.raises(ValueError, match="observation lacks 'hand'"):
        bot("hard").choose(obs)
    obs = h.observation(h.to_move)
    obs["hand"] = ["Zz"] * 10
    with pytest.raises(ValueError, match="malformed observation"):
        bot("normal").choose(obs)


# ----- judgment ----------------------------------------------------------------

def test_normal_and_hard_take_a_discard_that_completes_a_run():
    hand = ["7h", "8h", "Kc", "Qd", "Js", "4c", "4d", "9s", "2h", "3s"]
    obs = _obs(hand, "draw", ["draw", "take"], discard=("5c", "9h"),
               history=["1 pass", "0 pass", "1 draw", "1 discard 9h"])
    for level in ("easy", "normal", "hard", "greedy"):
        assert bot(level, 1).choose(obs) == "take", level


def test_hard_avoids_feeding_the_run_the_opponent_is_collecting():
    # Two loose nines of equal value; the opponent took 7d and 8d from the
    # pile, so 9d would complete their run. Greedy (tie: higher card) throws
    # 9d; hard throws 9c.
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "9c", "9d"]
    legal = ["discard " + c for c in sorted(hand)]
    obs = _obs(hand, "discard", legal, discard=("4h", "Th"), known=("7d", "8d"),
               history=["1 take 7d", "1 discard 4h", "0 draw", "0 discard 8d", "1 take 8d",
                        "1 discard Th", "0 draw"])
    assert bot("greedy", 1).choose(obs) == "discard 9d"
    assert bot("hard", 1).choose(obs) == "discard 9c"


def test_hard_reads_a_pickup_as_a_meld_in_the_making():
    # The opponent took 5h from the pile: it most likely made or nearly
    # made a meld (R3), two other fives or, since we hold 4h, 6h 7h. Between
    # two equal loose eights, hard keeps 8h (it could complete 6h-7h-8h);
    # hard0 (the hard level before its rewrite), which did not read pickups, threw it.
    hand = ["As", "2s", "3s", "Jc", "Qc", "Kc", "4c", "4d", "4h", "8h", "8s"]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 9d", "0 draw", "0 discard 5h",
            "1 take 5h", "1 discard Qd", "0 draw"]
    obs = _obs(hand, "discard", ["discard " + c for c in sorted(hand)],
               discard=("2d", "9d", "Qd"), known=("5h",), history=hist, limit=2)
    assert bot("hard", 1).choose(obs) == "discard 8s"
    from okgin.engine.bots import View
    from okgin.engine.bots_core import card_int
    hold = View(obs).holds()
    p = {c: hold[card_int(c)] / 256.0 for c in ("5h", "6h", "7h", "5s", "3h", "Ts", "4h")}
    assert p["5h"] > 0.99 and p["4h"] == 0
    share = p["Ts"]                     # 9 hidden cards among 37 unseen
    assert abs(share - 9 / 37.0) < 0.01 and p["3h"] == share   # 3h-4h-5h: 4h is ours
    for c in ("6h", "7h", "5s"):        # read from the pickup
        assert p[c] > share + 0.1, (c, p[c])


def test_hard_keeps_near_melds_when_the_knock_limit_is_low():
    # R5: an upcard of 2 makes the hand a race to gin, where the pair of
    # kings and the queen beside one of them are worth more than their
    # points. Hard throws the lone 6h; at a knock limit of 10 (ten points
    # to shed) it throws the queen.
    hand = ["As", "2s", "3s", "4c", "4d", "4h", "Qs", "3d", "Kh", "6h", "Ks"]
    legal = ["discard " + c for c in sorted(hand)]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 5d"]
    low = _obs(hand, "discard", legal, discard=("2c", "5d"), history=hist, limit=2)
    assert bot("hard", 1).choose(low) == "discard 6h"
    high = _obs(hand, "discard", legal, discard=("2c", "5d"), history=hist, limit=10)
    assert bot("hard", 1).choose(high) == "discard Qs"


def test_the_computer_decides_with_integers_only():
    # The Pico's MicroPython has 32-bit floats, CPython 64-bit: a close call
    # computed in floats could go one way on the device and the other on
    # the host that replays its moves. The players' arithmetic is integer.
    import ast
    for name in ("bots.py", "bots_core.py", "expert.py"):
        tree = ast.parse(open(os.path.join(ROOT, "engine", name)).read())
        for node in ast.walk(tree):
            assert not (isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div)), \
                "%s:%d divides with /" % (name, node.lineno)
            assert not (isinstance(node, ast.Constant) and isinstance(node.value, float)), \
                "%s:%d has a float" % (name, node.lineno)


def test_every_level_goes_gin_when_it_can():
    hand = ["As", "2s", "3s", "4s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "Kh"]
    legal = ["discard " + c for c in sorted(hand)] + ["knock As", "knock 4s", "knock Kh"]
    obs = _obs(hand, "discard", legal)
    for level in ("easy", "normal", "hard", "greedy"):
        assert bot(level, 1).choose(obs) == "knock Kh", level


# ----- strength -----------------------------------------------------------------

# tournaments: `slow` (make check leaves them to make test)
@pytest.mark.slow
@pytest.mark.parametrize("stronger,weaker,deals", [
    ("easy", "random", 30),
    ("normal", "easy", 120),
    ("hard", "normal", 220),
])
def test_levels_are_ordered_with_95_percent_confidence(stronger, weaker, deals):
    # Each seeded deal is played twice with the seats swapped; the lower end
    # of the 95% confidence interval of the points per hand must be above 0.
    r = tourney(stronger, weaker, deals=deals, seed=1, max_turns=80)
    low = r["points_low"]
    assert low > 0, "%s vs %s: %+.2f points per hand (95%% CI from %+.2f)" % (
        stronger, weaker, r["points_per_hand"], low)


def test_tourney_command_prints_win_rates_and_rejects_bad_players(capsys):
    from okgin.cli import main
    assert main(["tourney", "greedy", "random", "--games", "2", "--target", "30"]) == 0
    out = capsys.readouterr().out
    assert "greedy vs random: 4 games" in out
    assert "wins" in out and "too few games for an interval" in out and "points per hand" in out
    assert main(["tourney", "greedy", "random", "--games", "12", "--target", "30"]) == 0
    out = capsys.readouterr().out
    assert "greedy wins" in out and "95% CI" in out and "seed pairs won both ways" in out
    assert main(["tourney", "hard", "grandmaster"]) == 1
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
    with pytest.raises(CommandError, match="at least 1"):
        tourney("hard", "easy", games=0)


# ----- house scoring (R15, R17) ----------------------------------------------------

def _knock_spot():
    """Seed 0, 25 actions in (normal plays both seats): player 0 may knock
    with 4d (knock limit 10, 23 cards in the stock)."""
    h = Hand.deal(Rules(max_turns=80), dealer=0, seed=0)
    for n in range(25):
        h.play(bot("normal", n).choose(h.observation(h.to_move)))
    o = h.observation(0)
    assert "knock 4d" in o["legal"]
    return o


def test_hard_does_not_risk_a_doubled_undercut_that_would_lose_the_game():
    # R15: in a spade-doubled hand an undercut gives the opponent twice as
    # much. At 40-85 of 100 a plain undercut (10 or so) leaves them short
    # of the target, a doubled one does not: hard knocks only in the first.
    o = dict(_knock_spot(), scores=[40, 85], target=100)
    assert bot("hard", 7).choose(dict(o, multiplier=1)) == "knock 4d"
    assert bot("hard", 7).choose(dict(o, multiplier=2)).startswith("discard")
    # far from the target the multiplier does not change the decision
    o = dict(o, scores=[40, 40])
    assert bot("hard", 7).choose(dict(o, multiplier=2)) == "knock 4d"


def test_a_hollywood_match_between_computer_players_ends_with_three_games_won():
    rules = Rules(max_turns=80, target=30, hollywood=True, spades_double=True, box_bonus=25)
    m = Match(rules, seed=61)
    seats = (bot("hard", 1), bot("normal", 2))
    while m.winner is None:
        p = m.hand.to_move
        m.play(seats[p].choose(m.observation(p)))
    assert None not in [g.winner for g in m.games]
    assert Match.from_record(m.to_record()).score_pad() == m.score_pad()


def test_in_hollywood_hard_plays_to_the_first_open_game():
    # R17: game 1 is over; game 2 (40-85) is the one an undercut could close
    o = dict(_knock_spot(), target=100, multiplier=2, scores=[103, 11],
             games=[{"scores": [103, 11], "winner": 0}, {"scores": [40, 85], "winner": None},
                    {"scores": [20, 60], "winner": None}])
    assert bot("hard", 7).choose(o).startswith("discard")
    o["games"][1] = {"scores": [40, 40], "winner": None}
    assert bot("hard", 7).choose(o) == "knock 4d"
