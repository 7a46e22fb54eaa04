"""House scoring on the table (R15-R17) and its statistics: a preset chosen
with the buttons plays a whole game to its end with the score pad's totals,
a doubled hand says so at the deal and at the showdown, the score pad and
the statistics screens (golden images), the serial `stats` command without
test mode, and statistics that survive power cuts in the middle of their
update."""
import json
import os
import random
import time


from tests.support.harness import RunningFirmware, golden_check
from tests.support.play import Player
from tests.support.scorepad import pad_from_hands

from okgin.engine import Match, Rules
from okgin.lib.presses import Presses

OKLAHOMA = Rules(target=150, spades_double=True, box_bonus=25, game_bonus=100,
                 shutout_double=True)
HOLLYWOOD = Rules(hollywood=True, box_bonus=25, game_bonus=100, shutout_double=True)


def _play_to_the_end(b, pl):
    hands = []
    n = 0
    while pl.m.winner is None:
        hand_no = pl.m.hand_no
        pl.step()
        n += 1
        assert n < 4000
        if pl.m.hand_no != hand_no or pl.m.winner is not None:
            lh = pl.m.last_hand
            r = lh.result
            hands.append((r.winner, r.kind, r.points, lh.multiplier))
            st = b.status()
            if pl.m.winner is None:
                assert st["screen"] == "showdown"
                b.press(0, "ok")
        else:
            st = b.status()
            exp = pl.expected_status()
            assert {k: st[k] for k in exp} == exp, "after action %d" % n
    return hands


def _stats(b):
    lines = b.block("stats")
    assert len(lines) == 1
    return json.loads(lines[0])


def test_the_oklahoma_preset_plays_a_whole_game_with_the_score_pads_totals(tboard):
    # the preset as the serial port names it (the menu's: test_menu.py),
    # and a seed whose game has spade-doubled hands
    tboard.ok("newgame seed=3 dealer=0 preset=oklahoma")
    pl = Player(tboard, 3, dealer=0, rng_seed=11, rules=OKLAHOMA)
    hands = _play_to_the_end(tboard, pl)
    want, winners = pad_from_hands(OKLAHOMA, hands)
    assert winners == [pl.m.winner] and max(pl.m.scores) >= 150
    assert sum(1 for h in hands if h[3] == 2 and h[0] is not None) == 2   # R15
    assert tboard.status()["screen"] == "over"
    tboard.press(0, "ok")
    assert tboard.status()["screen"] == "scorepad"
    tboard.press(0, "ok")
    assert tboard.status()["screen"] == "menu"
    s = _stats(tboard)
    w = pl.m.winner
    assert s["games"] == 1 and s["by"]["human"]["games"][w] == 1
    assert s["last"][0] == ["human", w, want[0][0], want[0][1], 1]
    assert s["by"]["human"]["hands"] == pl.m.tally[0:2]
    print("oklahoma: %d hands, totals %s" % (len(hands), want[0]))


def test_the_hollywood_preset_plays_three_games_to_the_end(tboard):
    tboard.ok("newgame seed=4 dealer=0 preset=hollywood")
    pl = Player(tboard, 4, dealer=0, rng_seed=4, rules=HOLLYWOOD)
    hands = _play_to_the_end(tboard, pl)
    want, winners = pad_from_hands(HOLLYWOOD, hands)
    assert winners == [g.winner for g in pl.m.games] and None not in winners
    assert pl.m.winner == (0 if winners.count(0) >= 2 else 1)
    tboard.press(0, "ok")
    assert tboard.status()["screen"] == "scorepad"
    s = _stats(tboard)
    assert s["last"][0][2:] == [sum(t[0] for t in want), sum(t[1] for t in want), 3]
    print("hollywood: %d hands, totals %s" % (len(hands), want))


def _seed_with_spade_upcard():
    for seed in range(1, 200):
        m = Match(Rules(spades_double=True), seed=seed, dealer=0)
        if m.hand.upcard[1] == "s":
            return seed
    raise AssertionError("no seed")


def test_a_doubled_hand_says_so_at_the_deal_and_at_the_showdown(tboard):
    seed = _seed_with_spade_upcard()
    tboard.ok("newgame seed=%d dealer=0 spades_double=yes box_bonus=25" % seed)
    golden_check(tboard.panel(1), "spades_double_deal")     # R15 at the deal
    rules = Rules(spades_double=True, box_bonus=25)
    pl = Player(tboard, seed, dealer=0, rng_seed=3, rules=rules)
    while pl.m.hand_no == 1:
        pl.step()
    assert pl.m.last_hand.multiplier == 2
    assert tboard.status()["screen"] == "showdown"
    golden_check(tboard.panel(0), "spades_double_showdown")


def _won_quickly(tboard, seed, options, rules):
    tboard.ok("newgame seed=%d dealer=0 %s" % (seed, options))
    pl = Player(tboard, seed, dealer=0, rng_seed=3, rules=rules)
    n = 0
    while pl.m.winner is None:
        hand_no = pl.m.hand_no
        pl.step()
        n += 1
        if pl.m.hand_no != hand_no and pl.m.winner is None:
            tboard.press(0, "ok")
    assert tboard.status()["screen"] == "over"
    tboard.press(0, "ok")
    assert tboard.status()["screen"] == "scorepad"
    return pl


def test_score_pad_screens(tboard):
    rules = Rules(target=10, box_bonus=25, game_bonus=100, shutout_double=True,
                  gin_extra_boxes=2, undercut_extra_boxes=1)
    _won_quickly(tboard, 4, "target=10 box_bonus=25 game_bonus=100 shutout_double=yes "
                 "gin_extra_boxes=2 undercut_extra_boxes=1", rules)
    golden_check(tboard.panel(0), "scorepad_game")
    tboard.press(0, "ok")
    rules = Rules(target=5, hollywood=True, box_bonus=25, game_bonus=100)
    _won_quickly(tboard, 9, "preset=hollywood target=5 shutout_double=no", rules)
    golden_check(tboard.panel(0), "scorepad_hollywood")
    tboard.press(0, "ok")
    assert tboard.status()["screen"] == "menu"


def test_statistics_screen_and_reset_with_confirmation(tboard):
    rules = Rules(target=10)
    pl = _won_quickly(tboard, 4, "target=10 box_bonus=25", Rules(target=10, box_bonus=25))
    tboard.press(0, "ok")                         # the menu
    for _ in range(6):                            # Statistics
        tboard.press(0, "right")
    tboard.press(0, "ok")
    golden_check(tboard.panel(0), "statistics")
    s = _stats(tboard)
    assert s["games"] == 1 and s["by"]["human"]["games"][pl.m.winner] == 1
    tboard.press(0, "knock")                      # reset?
    golden_check(tboard.panel(0), "statistics_reset")
    tboard.press(0, "draw")                       # no
    assert _stats(tboard)["games"] == 1
    tboard.press(0, "knock")
    tboard.press(0, "knock")                      # yes
    assert _stats(tboard)["games"] == 0
    tboard.press(0, "ok")                         # back to the menu
    assert tboard.status()["screen"] == "menu"
    del rules


def test_stats_needs_no_test_mode_and_refuses_arguments(board):
    assert board.cmd("stats now").startswith("ERR stats takes no arguments")
    s = _stats(board)                             # a fresh table: all zero
    assert s["games"] == 0 and s["last"] == [] and s["biggest"] is None
    assert set(s["by"]) == {"human", "easy", "normal", "hard"}


def _near_the_end(rules, seed):
    """A game one knock before its end: (record before it, player, knock,
    player's hand)."""
    pl = Player(None, seed, dealer=0, rng_seed=3, rules=rules)
    while True:
        m = pl.m
        p = m.hand._to_move
        o = m.observation(p)
        act = pl.choose(o)
        before = m.to_record()
        m.play(act)
        if m.winner is not None:
            return before, p, act, o["hand"], m


def test_statistics_survive_power_cuts_at_random_points_of_their_update(flash):
    """A power cut while the game's last action and the statistics are
    saved (both slowed down): after the reboot stats.json is whole and the
    game is counted exactly once, or not at all when the cut came before
    the winning action was saved (the game then resumes before it). Played
    as a person plays, not in test mode (whose games are its own): the
    buttons' pins, the public `sync`, `status` and `stats`."""
    rules = Rules(target=20, box_bonus=25)
    before, p, act, hand, done = _near_the_end(rules, 9)
    opts = {"slow_save_ms": 12}
    prior = {"v": 1, "games": 3, "counted": "x", "biggest": [40, 1, "human"], "last": [],
             "by": {k: {c: [1, 2] for c in ("games", "hands", "gins", "undercuts",
                                           "streak", "best_streak")}
                    for k in ("human", "easy", "normal", "hard")}}
    rng = random.Random(7)
    outcomes = {"counted": 0, "before": 0}
    b = RunningFirmware(flash)
    try:
        for cut in range(6):
            for name, text in (("game.okg", before), ("settings.json", json.dumps(opts)),
                               ("stats.json", json.dumps(prior))):
                with open(os.path.join(flash, name), "w") as f:
                    f.write(text)
            if cut == 0:
                b.start()
            else:
                b.power_cut_and_boot()
            buttons = Presses(shortest=True).for_action(p, act, hand)
            for button in buttons[:-1]:
                b.vb.press(p, button)
            b.ok("sync")
            b.vb.hold(p, buttons[-1])            # the knock's last press, and the cut
            time.sleep(0.08)
            b.vb.release(p, buttons[-1])
            time.sleep(rng.uniform(0.0, 0.45))
            b.power_cut_and_boot()
            with open(os.path.join(flash, "stats.json")) as f:
                on_flash = json.load(f)             # never half a file
            s = _stats(b)
            assert s == on_flash
            with open(os.path.join(flash, "game.okg")) as f:
                rec = f.read()
            if b.status()["screen"] == "over":     # the knock was saved
                assert Match.from_record(rec).winner == done.winner
                assert s["games"] == 4 and s["counted"] != "x"
                assert s["by"]["human"]["games"][done.winner] == 1 + (1 if done.winner == 0 else 2)
                outcomes["counted"] += 1
            else:
                assert s == prior and Match.from_record(rec).winner is None
                outcomes["before"] += 1
        print("power cuts: %s" % outcomes)
        assert outcomes["counted"] >= 1
    finally:
        b.stop()
