"""Memory budget, the unix port's early warning: a whole game, both
displays, runs under ``micropython -X heapsize=160K`` on the virtual board,
compiled with mpy-cross as `okgin flash` lays it out. The budget itself is
the chip's (docs/memory.md "The chip sets the budget": on the RP2040 a
whole game keeps >= 120 KB of its 240 KB free, ``okgin bench chip``); the
same game needs 1.4x the heap on this 64-bit port, and 160K fails here
while the chip still has room above its goal. Played through button presses to the target
score, with the CPython engine as the oracle after every action. A
MemoryError shows as the app's error screen (``status`` says
``screen=error``) or as a board that stops answering; both fail here.
docs/memory.md has the breakdown; ``okgin bench memory`` prints the
figures (the smallest heap that works, the live heap)."""
import pytest

from tests.support import harness
from tests.support.harness import Board, make_flash
from tests.support.play import Player
from okgin.engine import bot
from okgin.engine.bots import move_seed

BUDGET = "160K"   # host/vboard/vboard.py HEAPSIZE
SEED = 7


def _board(tmp_path, monkeypatch):
    monkeypatch.setattr(harness, "HEAP", BUDGET)
    b = Board(make_flash(str(tmp_path / "flash")))
    b.start()
    return b


def _no_error(b, what):
    st = b.status()
    assert st["screen"] != "error", "error screen (MemoryError?) after %s" % what
    return st


def _next_hand(b, pl, hands):
    """The hand has ended: its showdown is up; OK goes on (or to the menu)."""
    st = _no_error(b, "the end of hand %d" % hands)
    assert st["screen"] in ("showdown", "over")
    assert st["scores"] == "%d,%d" % tuple(pl.m.scores)
    b.press(0, "ok")
    st = _no_error(b, "leaving the showdown of hand %d" % hands)
    return st


# English, and Korean: the largest glyph file and catalogue (their indexes
# are what a language keeps on the heap, docs/memory.md "Languages")
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_whole_two_player_game_runs_in_the_budget(tmp_path, monkeypatch, lang):
    b = _board(tmp_path, monkeypatch)
    try:
        b.ok("testmode on")
        b.ok("newgame seed=%d dealer=0 lang=%s" % (SEED, lang))
        pl = Player(b, SEED, dealer=0, rng_seed=3)
        n = hands = 0
        while True:
            hand_no = pl.m.hand_no
            act = pl.step()
            n += 1
            if pl.m.hand_no != hand_no or pl.m.winner is not None:
                hands += 1
                st = _next_hand(b, pl, hands)
                if pl.m.winner is not None:
                    assert st["screen"] == "menu"
                    break
                assert st["screen"] == "game" and st["hand_no"] == str(pl.m.hand_no)
                continue
            st = _no_error(b, "%r (action %d)" % (act, n))
            exp = pl.expected_status()   # the board played what was pressed
            assert {k: st[k] for k in exp} == exp, "after %r (action %d)" % (act, n)
            assert n < 3000
        assert max(pl.m.scores) >= 100 and hands >= 2
    finally:
        b.stop()


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_whole_game_against_the_computer_runs_in_the_budget(tmp_path, monkeypatch, lang):
    b = _board(tmp_path, monkeypatch)
    try:
        b.ok("testmode on")
        b.ok("newgame seed=%d vs=hard dealer=0 lang=%s" % (SEED, lang))
        pl = Player(b, SEED, dealer=0, rng_seed=5)
        m = pl.m
        n = hands = 0
        while True:
            hand_no = m.hand_no
            b.ok("sync")                 # the computer has moved
            _no_error(b, "the computer's move (action %d)" % n)
            # the oracle makes the same moves (firmware/app.py bot_step: a
            # bot seeded by engine.bots.move_seed)
            while m.hand._to_move == 1 and m.hand_no == hand_no and m.winner is None:
                o = m.observation(1)
                m.play(bot("hard", move_seed(SEED, len(o["history"]))).choose(o))
                n += 1
            if m.hand_no == hand_no and m.winner is None:
                st = _no_error(b, "the computer's move (action %d)" % n)
                exp = pl.expected_status()
                assert {k: st[k] for k in exp} == exp, "after the computer's move %d" % n
                pl.step()
                n += 1
            if m.hand_no != hand_no or m.winner is not None:
                hands += 1
                pl.keys.reset()
                st = _next_hand(b, pl, hands)
                if m.winner is not None:
                    assert st["screen"] == "menu"
                    break
            assert n < 3000
        assert max(m.scores) >= 100 and hands >= 2
    finally:
        b.stop()
