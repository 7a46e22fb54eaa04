"""Every file the firmware keeps (the game, test mode's game, the settings,
the statistics) is checked field by field when it is read: a damaged one
is kept aside and replaced by a fresh one, never an endless error, and a
record this firmware cannot resume is kept as game.bad before anything
writes over it (issue 29, items 2 and 6). Played as a person plays: the
buttons, `status`, `stats` and the virtual board's flash directory."""
import json

import pytest

from tests.support.harness import RunningFirmware
from tests.support.play import Player
from tests.support.real_game import put, saved

from okgin.engine import Match, Rules


def _won_game():
    """The record of a game won (a short one: target 10)."""
    pl = Player(None, 4, dealer=0, rng_seed=3, rules=Rules(target=10))
    while pl.m.winner is None:
        pl.m.play(pl.choose(pl.m.observation(pl.m.hand._to_move)))
    return pl.m


def _stats_text(games=3):
    by = {k: {c: [1, 2] for c in ("games", "hands", "gins", "undercuts", "streak",
                                  "best_streak")}
          for k in ("human", "easy", "normal", "hard")}
    return json.dumps({"v": 1, "games": games, "counted": "x", "biggest": [40, 1, "human"],
                       "last": [["hard", 0, 100, 20, 5]], "by": by})


# valid JSON, damaged inside: the bit flips and their kind
STATS_DAMAGE = [
    ('"games": 3', '"gamas": 3'),            # a key's letter flipped
    ('"by": {', '"bx": {'),
    ('"hands": [1, 2]', '"hands": [1]'),
    ('"last": [[', '"last": [{}, ['),
    ('"games": 3', '"games": "3"'),
    ('"biggest": [40, 1, "human"]', '"biggest": [40, 7, "human"]'),
]


@pytest.mark.parametrize("old,new", STATS_DAMAGE)
def test_damaged_statistics_are_kept_aside_and_the_game_goes_on(flash, old, new):
    # The issue: a stats.json that is valid JSON but damaged inside put a
    # KeyError on the error screen after every OK, hold and power cycle.
    # A won game on the flash is counted at boot (it was not before the cut).
    m = _won_game()
    damaged = _stats_text().replace(old, new, 1)
    assert damaged != _stats_text()
    put(flash, "game.okg", m.to_record())
    put(flash, "stats.json", damaged)
    b = RunningFirmware(flash)
    try:
        b.start()
        b.ok("sync")
        assert b.status()["screen"] == "over"
        s = json.loads(b.block("stats")[0])
        assert s["games"] == 1 and s["by"]["human"]["games"][m.winner] == 1
        assert saved(flash, "stats.json.bad").decode() == damaged      # kept aside whole
        assert json.loads(saved(flash, "stats.json")) == s        # a fresh file
        b.power_cut_and_boot()
        b.ok("sync")
        assert b.status()["screen"] == "over"
        assert json.loads(b.block("stats")[0]) == s                # counted once
        b.vb.press(0, "ok")
        b.ok("sync")
        assert b.status()["screen"] in ("scorepad", "menu")
    finally:
        b.stop()


@pytest.mark.parametrize("settings,kept", [
    ({"owner_lock": "yes", "rules": {"target": 150}}, {"rules": {"target": 150}}),
    ({"rules": [1], "slow_save_ms": True}, {}),
    ({"slow_save_ms": -5, "hold_computer": 1}, {}),
])
def test_settings_of_the_wrong_type_are_kept_aside_and_the_good_ones_stay(flash, settings, kept):
    text = json.dumps(settings)
    put(flash, "settings.json", text)
    b = RunningFirmware(flash)
    try:
        b.start()
        b.ok("sync")
        assert b.status()["screen"] == "menu"
        assert saved(flash, "settings.json.bad").decode() == text
        assert json.loads(saved(flash, "settings.json")) == kept
    finally:
        b.stop()


@pytest.mark.parametrize("players", [("human", "god"), ("hard", "human")])
def test_a_record_with_seats_this_firmware_does_not_know_is_kept_as_game_bad(flash, players):
    # The issue: the menu said "Saved game: ... unknown", kept no game.bad,
    # and its first item ("New game") wrote over the record.
    m = Match(seed=77, dealer=0, players=players)
    rec = m.to_record()
    put(flash, "game.okg", rec)
    b = RunningFirmware(flash)
    try:
        b.start()
        b.ok("sync")
        assert b.status()["screen"] == "menu"
        assert saved(flash, "game.bad").decode() == rec
        b.vb.press(0, "ok")          # closes the notice that says so
        b.vb.press(0, "ok")          # the menu's first item: a new game
        b.ok("sync")
        assert b.status()["screen"] == "game"
        assert Match.from_record(saved(flash).decode()).seed != 77
        assert saved(flash, "game.bad").decode() == rec    # still there
    finally:
        b.stop()
