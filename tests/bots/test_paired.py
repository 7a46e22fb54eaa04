"""Paired comparisons (docs/bots.md): an engine level against the same
level as a git revision had it (``hard@REV``, ``okgin tourney A B
--baseline REV``), on the same deals and seats."""
import json
import os
import subprocess

import pytest

from okgin.cli import main
from okgin.lib.errors import CommandError
from okgin.tourney import compare, player_name
from okgin.yardsticks import revision

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from tests.support.positions import observation as _obs

# The commit that made hard keep near-melds at knock limits A-4 (R5), and
# the one before it: two frozen versions of hard that differ in one known way.
NEAR_MELDS = "fcf72ed"


def _git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True,
                          check=True, timeout=60).stdout.strip()


def working_tree_revision():
    """A commit holding exactly the working tree's tracked files: HEAD when
    nothing is modified, else a stash commit made without touching the tree
    or any ref (``git stash create``)."""
    return _git("stash", "create") or _git("rev-parse", "HEAD")


def test_the_working_trees_own_revision_plays_every_hand_alike():
    rev = working_tree_revision()
    cur, base, d = compare("hard", "simple", rev, deals=4, seed=31)
    assert base["a_commit"] == rev and d["commit"] == rev
    # the revision's players are modules of their own, not today's engine.bots
    mod = revision.bots_module(rev)
    import okgin.engine.bots as today
    assert mod is not today and mod.best is not today.best
    assert mod.__file__.startswith(rev[:10] + ":engine/bots.py")
    assert d["differ"] == 0 and d["better"] == d["worse"] == 0
    assert d["points_per_hand"] == 0 and d["won_diff"] == 0
    assert d["points_low"] is None     # 4 pairs: too few for an interval
    assert cur["points_per_hand"] == base["points_per_hand"]
    assert d["by_limit"] and all(r["difference"] == 0 and r["hands"] == r["baseline_hands"]
                                 for r in d["by_limit"])
    assert sum(r["hands"] for r in d["by_limit"]) == cur["hands"] == 8
    assert "alike" in d["verdict"]
    # whole games too (R13): greedy is quick
    cur, base, d = compare("greedy", "random", rev, games=2, target=40)
    assert d["kind"] == "game" and d["differ"] == 0 and d["points_per_hand"] == 0
    assert cur["games_won"] == base["games_won"]


def test_a_past_revision_decides_as_it_did_then():
    # R5: at a knock limit of 2 the near-melds change throws the lone 6h,
    # the hard before it the queen; at 10 both throw the queen.
    hand = ["As", "2s", "3s", "4c", "4d", "4h", "Qs", "3d", "Kh", "6h", "Ks"]
    legal = ["discard " + c for c in sorted(hand)]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 5d"]
    before = revision.player("hard", player_name("hard@%s^" % NEAR_MELDS).split("@")[1], 1)
    after = revision.player("hard", revision.resolve(NEAR_MELDS), 1)
    low = _obs(hand, "discard", legal, discard=("2c", "5d"), history=hist, limit=2)
    high = _obs(hand, "discard", legal, discard=("2c", "5d"), history=hist, limit=10)
    assert before.choose(low) == "discard Qs" and after.choose(low) == "discard 6h"
    assert before.choose(high) == after.choose(high) == "discard Qs"


def test_baseline_command_prints_the_difference_by_knock_limit(capsys, tmp_path):
    rev = working_tree_revision()
    assert main(["tourney", "normal", "simple", "--deals", "3", "--baseline", rev]) == 0
    out = capsys.readouterr().out
    assert "normal minus normal@%s (%s), both against simple on the same 3 seed pairs" \
        % (rev, rev[:10]) in out
    assert "points per hand +0.00" in out and "by knock limit (R5)" in out
    assert "0 of 3 seed pairs played differently" in out
    # two frozen revisions that play differently (one deal of limit 4, R5):
    # intervals within their bounds, none from a single pair
    figures = tmp_path / "paired.json"
    assert main(["tourney", "hard@" + NEAR_MELDS, "simple", "--deals", "3", "--seed", "1",
                 "--paired", "hard@%s^" % NEAR_MELDS, "--json", str(figures)]) == 0
    out = capsys.readouterr().out
    assert "1 of 3 seed pairs played differently" in out
    assert "hands won +16.7 points of % (too few hands for an interval)" in out
    assert ("    4           2    +13.50     +7.50   +6.00 (too few seed pairs for an interval)"
            in out)
    assert "inf" not in out
    # the figures file is strict JSON: the missing interval is null
    text = figures.read_text()
    assert "Infinity" not in text and "NaN" not in text
    assert json.loads(text)


@pytest.mark.parametrize("argv,message", [
    (["hard", "simple", "--baseline", "no-such-revision"], "no such git revision 'no-such-revision'"),
    (["hard@no-such-revision", "simple"], "no such git revision 'no-such-revision'"),
    (["simple", "hard", "--baseline", "HEAD"], "--baseline compares an engine level"),
    (["simple@HEAD", "hard"], "only the engine's levels"),
    (["hard", "simple", "--table", "--baseline", "HEAD"], "give no players"),
    (["--table", "--baseline", "HEAD"], "--baseline, --paired and --tune are for two players' series"),
    (["hard", "simple", "--paired", "oracle"], "unknown player 'oracle'"),
    (["peek101", "simple"], "unknown player 'peek101'"),
    (["peek07", "simple"], "unknown player 'peek07'"),
    (["peek-5", "simple"], "peekN with N from 0 to 100"),
    (["hard", "simple", "--paired", "hard0", "--baseline", "HEAD"], "not both"),
])
def test_bad_revisions_and_players_are_one_line_errors(capsys, argv, message):
    assert main(["tourney"] + argv + ["--deals", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("okgin: ") and message in err and "Traceback" not in err


def test_a_revision_without_the_players_is_a_clear_error():
    root = _git("rev-list", "--max-parents=0", "HEAD").splitlines()[-1]
    with pytest.raises(CommandError, match="has no engine/bots.py"):
        player_name("hard@" + root)


def test_limits_choose_the_deals_of_those_knock_limits(capsys):
    # R5: the upcard sets the knock limit; --limits A-2 plays only such deals
    from okgin.engine import Hand, Rules
    from okgin.tourney import parse_limits, tourney
    assert parse_limits("A-2") == {1, 2} and parse_limits("5,K") == {5, 10}
    assert parse_limits("10-7") == {7, 8, 9, 10} and parse_limits("a, q") == {1, 10}
    # limit 0 (an ace means gin only) is a house rule the tournaments never play:
    # asking for it would look for such deals forever
    with pytest.raises(CommandError, match="bad knock limit 'gin'"):
        parse_limits("gin")
    r = tourney("greedy", "simple", deals=3, seed=40, limits={1, 2})
    seeds = [s for s in range(40, r["last_seed"] + 1)
             if Hand.deal(Rules(max_turns=80), dealer=s % 2, seed=s).knock_limit in (1, 2)]
    assert len(seeds) == 3 and r["hands"] == 6 and r["limits"] == [1, 2]
    assert main(["tourney", "greedy", "simple", "--deals", "3", "--seed", "40",
                 "--limits", "A-2", "--baseline", working_tree_revision()]) == 0
    out = capsys.readouterr().out
    assert "only deals with a knock limit (R5) of A, 2: seeds 40 .. %d" % seeds[-1] in out
    rows = [ln.split()[0] for ln in out.split("by knock limit")[1].splitlines()[2:]
            if ln.startswith("    ")]
    assert rows and set(rows) <= {"A", "2"}
    assert main(["tourney", "greedy", "simple", "--limits", "A,11", "--deals", "2"]) == 1
    assert "okgin: bad knock limit '11'" in capsys.readouterr().err
    assert main(["tourney", "greedy", "simple", "--limits", "A", "--games", "2"]) == 1
    assert "use it with --deals" in capsys.readouterr().err


def test_peek_counts_exactly_the_opponents_pairs_that_meld_with_a_discard():
    # the ceiling for card reading: hard's danger with the truth instead of
    # the estimate (R3: two others of the rank, or the run neighbours)
    import random
    from okgin.engine import Hand, Rules
    from okgin.engine.bots import View
    from okgin.engine.bots_core import card_int
    from okgin.yardsticks.peek import PeekHard
    rng = random.Random(5)
    for seed in range(12):
        h = Hand.deal(Rules(max_turns=80), dealer=0, seed=seed)
        p = h.to_move
        b = PeekHard(seed)
        b.peek(h.hands[1 - p])
        v = View(h.observation(p))
        opp = {card_int(c) for c in h.hands[1 - p]}
        for _ in range(6):
            c = rng.randrange(52)
            r, s = c % 13, c // 13
            same = [x * 13 + r for x in range(4) if x != s and x * 13 + r in opp]
            sets = len(same) * (len(same) - 1) // 2
            runs = sum(1 for lo in (r - 2, r - 1, r) if lo >= 0 and lo + 2 <= 12
                       and all(s * 13 + k in opp for k in range(lo, lo + 3) if k != r))
            assert b._danger(v, c) == (sets + runs) * 255 * 255, (seed, c)


def _peek_decisions(name, seeds):
    # every decision of ``name`` (as player 0, against simple) over whole
    # hands, with what peek is told, and the true chance table it saw
    from okgin.engine import Hand, Rules
    from okgin.tourney import _inform, make_player
    rules = Rules(max_turns=80)
    out = []
    for seed in seeds:
        h = Hand.deal(rules, dealer=seed % 2, seed=seed)
        a = make_player(name, seed, rules)
        b = make_player("simple", seed + 1, rules)
        while not h.is_over():
            p = h.to_move
            obs = h.observation(p)
            if p == 0:
                _inform(a, h, p)
                action = a.choose(obs)
                out.append(action)
            else:
                action = b.choose(obs)
            h.play(action)
    return out


def test_peek_told_nothing_is_hard_and_told_everything_is_peek():
    # peekN, N the percentage of unseen cards told: its ends are hard and
    # peek, decision for decision over whole hands against simple
    seeds = range(8)
    hard = _peek_decisions("hard", seeds)
    assert _peek_decisions("peek0", seeds) == hard
    assert _peek_decisions("peek100", seeds) == _peek_decisions("peek", seeds)
    assert _peek_decisions("peek100", seeds) != hard     # the truth changes decisions


def test_peek_n_is_told_about_n_percent_of_the_unseen_cards():
    # each unseen card: the truth (certain or impossible) with probability
    # N%, else hard's own estimate (View.holds); drawn afresh each decision
    from okgin.engine import Hand, Rules
    from okgin.engine.bots import View
    from okgin.engine.bots_core import card_int
    from okgin.yardsticks.peek import PeekHard
    told = total = 0
    for seed in range(40):
        h = Hand.deal(Rules(max_turns=80), dealer=0, seed=seed)
        p = h.to_move
        b = PeekHard(seed, share=30)
        b.peek(h.hands[1 - p])
        v = View(h.observation(p))
        guess = bytearray(v.holds())
        truth = {card_int(c) for c in h.hands[1 - p]}
        seen = b._hold(v, b.opponent)
        assert b._hold(v, b.opponent) is seen          # one draw per decision
        for x in v.unseen:
            total += 1
            if seen[x] != guess[x]:
                told += 1
                assert seen[x] == (255 if x in truth else 0), (seed, x)
    # 40 decisions x ~41 unseen cards; hard's estimate is never 0 or 255 for
    # an unseen card here, so every told card shows: 30% within 4 points
    assert total > 1500 and abs(told / total - 0.30) < 0.04, (told, total)


def test_paired_with_another_player_on_the_same_deals(capsys):
    # peek sees the opponent's cards in whole games too; --paired plays the
    # other player on the same seeds and seats
    assert main(["tourney", "peek", "simple", "--games", "1", "--target", "30",
                 "--paired", "hard"]) == 0
    out = capsys.readouterr().out
    assert "peek minus hard, both against simple on the same 1 seed pairs" in out


def test_tune_changes_one_series_of_todays_level_and_puts_it_back():
    # --tune: hard with a tuning constant changed, against hard as committed
    # on the same deals. The value hard already has plays every hand alike;
    # UNDERCUT_MAX=0 makes hard never knock short of gin (R8), which shows.
    import okgin.engine.bots as today
    from okgin.tourney import TUNABLE, parse_tuning
    for name in TUNABLE:
        assert isinstance(getattr(today, "_" + name), int), name
    rev = working_tree_revision()
    committed = today._UNDERCUT_MAX
    same = parse_tuning(["UNDERCUT_MAX=%d" % committed])
    cur, base, d = compare("hard", "simple", rev, deals=6, seed=31, tuning=same)
    assert cur["tuned"] == same and d["differ"] == 0 and d["points_per_hand"] == 0
    never = parse_tuning(["_undercut_max=0"])
    cur, base, d = compare("hard", "simple", rev, deals=6, seed=31, tuning=never)
    assert d["differ"] > 0 and "tuned" not in base
    assert today._UNDERCUT_MAX == committed      # put back after the series
    # worker processes tune their own engine: the same games as in one process
    one = compare("hard", "simple", rev, deals=6, seed=31, tuning=never)[0]
    two = compare("hard", "simple", rev, deals=6, seed=31, tuning=never, jobs=2)[0]
    assert (one["points_per_hand"], one["hands_won"]) == (two["points_per_hand"],
                                                          two["hands_won"])
    assert today._UNDERCUT_MAX == committed


def test_tune_command_says_what_it_tuned(capsys):
    assert main(["tourney", "hard", "simple", "--deals", "2", "--tune", "samples=32",
                 "--baseline", working_tree_revision()]) == 0
    out = capsys.readouterr().out
    assert "tuned: SAMPLES=32 (engine/bots.py, this series only)" in out
    assert out.count("tuned:") == 1          # the committed level is not tuned


@pytest.mark.parametrize("argv,message", [
    (["hard", "simple", "--tune", "SPEED=3"], "bad --tune 'SPEED=3': give NAME=N with NAME one of"),
    (["hard", "simple", "--tune", "SAMPLES"], "bad --tune 'SAMPLES'"),
    (["hard", "simple", "--tune", "SAMPLES=many"], "'many' is not a whole number"),
    (["hard", "simple", "--tune", "SAMPLES=8", "--tune", "_samples=9"], "SAMPLES given twice"),
    (["neller", "simple", "--tune", "SAMPLES=8"], "PLAYER_A 'neller' is not one"),
    (["hard@HEAD", "simple", "--tune", "SAMPLES=8"], "PLAYER_A 'hard@HEAD' is not one"),
    (["hard", "simple", "--tune", "SAMPLES=8", "--paired", "hard"], "--baseline HEAD, not --paired"),
    (["--table", "--tune", "SAMPLES=8"], "--baseline, --paired and --tune are for two players'"),
])
def test_bad_tuning_is_a_one_line_error(capsys, argv, message):
    assert main(["tourney"] + argv + ["--deals", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("okgin: ") and message in err and "Traceback" not in err
