"""The expert level (engine/expert.py, docs/bots.md "Expert"): legal moves
only, the same decisions on CPython and MicroPython, hard's move unless the
search shows another clearly better, never offered by a board."""
import os
import subprocess

import pytest

from okgin.engine import Hand, Match, Rules, bot
from okgin.engine import bots, expert
from tests.bots import play_script
from tests.support import micropython
from tests.support.positions import twin_with_other_hidden_cards

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def test_expert_is_loaded_by_engine_bot_and_never_offered_to_a_board():
    # bots.LEVELS are the levels the firmware's menu and the device know
    assert "expert" not in bots.LEVELS
    with pytest.raises(ValueError):
        bots.bot("expert")
    assert bot("expert", 1).level == "expert"


def test_micropython_and_cpython_make_the_same_expert_decisions(tmp_path):
    # the engine as the web page and a board get it: .mpy from mpy-cross
    from okgin.benches.engine import compile_engine
    compile_engine(str(tmp_path), probes=(), bots=True)
    env = dict(os.environ, MICROPYPATH=str(tmp_path))
    p = subprocess.run([micropython(), "-X", "heapsize=1M", os.path.join(HERE, "play_script.py"),
                        "3", "900", "expert"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    mp_lines = p.stdout.strip().splitlines()
    cp_lines = []
    searched, _ = play_script.expert(3, 900, cp_lines.append)
    assert mp_lines[:-1] == cp_lines
    assert mp_lines[-1] == "DONE hands=3 decisions=%d" % searched


@pytest.mark.parametrize("options", [{}, {"ace_gin_only": True}, {"discard_taken": True},
                                     {"spades_double": True}])
def test_expert_plays_only_legal_moves_through_whole_games(options):
    # games to a low target so that several hands, scores and every phase
    # (upcard, draw, discard, knock) come up; the engine refuses illegal moves
    rules = Rules(max_turns=80, target=40, **options)
    for g in range(2):
        m = Match(rules, seed=700 + g)
        seats = (bot("expert", g), bot("hard", g + 5)) if g % 2 == 0 else \
            (bot("hard", g + 5), bot("expert", g))
        while m.winner is None:
            p = m.hand.to_move
            obs = m.observation(p)
            act = seats[p].choose(obs)
            assert act in obs["legal"]
            m.play(act)


def test_expert_plays_hard_move_unless_another_is_better_by_the_margin():
    rules = Rules(max_turns=80)
    seen = overruled = 0
    for s in range(3):
        h = Hand.deal(rules, dealer=s % 2, seed=820 + s)
        ex = bot("expert", s)
        while not h.is_over():
            p = h.to_move
            obs = h.observation(p)
            if p == 0:
                ex.last = None
                act = ex.choose(obs)
                hard = bots.bot("hard", s).choose(obs)
                if ex.last is not None:
                    seen += 1
                    sums, dsum, dsq = ex.last
                    if act != hard:
                        overruled += 1
                        i = ex._candidates(bots.View(obs), hard).index(act)
                        n = expert._DEALS
                        assert dsum[i] > expert._MARGIN * n
                        assert dsum[i] ** 2 * (n + 3) > 4 * n * dsq[i]
                    else:
                        assert expert.pick(sums, dsum, dsq, expert._DEALS) == 0
                else:
                    assert act == hard
            else:
                act = bots.bot("hard", 99).choose(obs)
            h.play(act)
    assert seen > 10


@pytest.mark.parametrize("sums,dsum,dsq,want", [
    # better by 2 points a hand, differences always 2: overruled
    ([0, 64], [0, 64], [0, 128], 1),
    # better by 0.5 a hand with no spread: within the 1-point margin
    ([0, 16], [0, 16], [0, 16], 0),
    # better by 2 a hand on average, but one deal of +64 and the rest 0:
    # not two standard errors
    ([0, 64], [0, 64], [0, 64 * 64], 0),
    # two clear ones: the better sum
    ([0, 64, 96], [0, 64, 96], [0, 128, 288], 2),
])
def test_the_overrule_rule(sums, dsum, dsq, want):
    assert expert.pick(sums, dsum, dsq, 32) == want


@pytest.mark.parametrize("seed,moves", [(11, 4), (13, 10), (15, 8)])
def test_expert_decides_the_same_whatever_the_opponent_hides(seed, moves):
    h, twin, p = twin_with_other_hidden_cards(seed, moves)
    assert h.hands[1 - p] != twin.hands[1 - p]
    b1, b2 = bot("expert", 42), bot("expert", 42)
    for _ in range(2):
        assert b1.choose(h.observation(p)) == b2.choose(twin.observation(p))


def test_expert_at_a_revision_decides_as_that_revisions_expert():
    # okgin tourney's expert@REV (host/yardsticks/revision.py): HEAD's
    # engine/expert.py with HEAD's bots, loaded beside today's
    from okgin.yardsticks import revision
    try:
        commit = revision.resolve("HEAD")
    except ValueError as e:
        pytest.skip(str(e))
    h = Hand.deal(Rules(), dealer=1, seed=905)
    for _ in range(12):
        p = h.to_move
        obs = h.observation(p)
        old = revision.player("expert", commit, 17)
        assert type(old).__module__.startswith("engine.expert@")
        act = bot("expert", 17).choose(obs)
        assert old.choose(obs) == act
        h.play(act)
