"""The menu with the six buttons: rules options cycle and are kept in
settings.json, a new game uses them, holding OK opens the menu during a game
and "Resume game" returns to it; a won game ends on the game-over screen and
OK goes back to the menu."""
import json
import os


from tests.support.harness import golden_check
from tests.support.play import Player

from okgin.engine import Match, Rules

# main menu rows with no game to resume: 2 players, 3 levels, then the
# rules preset, the rule switches and the statistics
ROW_PRESET = 4
ROW_SWITCHES = 5
ROW_STATS = 6
# rows of the rule switches page: Back, then the options of the table
ROW_GIN_BONUS = 1
ROW_TARGET = 3


def test_options_cycle_persist_and_apply_to_the_next_game(tboard):
    for _ in range(ROW_SWITCHES):
        tboard.press(0, "right")
    tboard.press(0, "ok")                      # the switches page
    for _ in range(ROW_GIN_BONUS):
        tboard.press(0, "right")
    tboard.press(0, "ok")                      # gin bonus 25 -> 20
    tboard.press(1, "right")                   # both players share the menu
    tboard.press(1, "right")
    tboard.press(1, "ok")                      # target 100 -> 150
    tboard.press(1, "ok")                      # 150 -> 200
    golden_check(tboard.panel(0), "menu_options")
    with open(os.path.join(tboard.flash, "settings.json")) as f:
        rules = json.load(f)["rules"]
    assert rules["gin_bonus"] == 20 and rules["target"] == 200
    tboard.press(0, "ok", long=True)           # hold OK: back to the main menu
    assert tboard.status()["screen"] == "menu"
    tboard.press(0, "ok")                      # New game: 2 players
    assert tboard.status()["screen"] == "game"
    m = Match.from_record(tboard.record())
    assert m.rules.gin_bonus == 20 and m.rules.target == 200
    # settings survive a power cut
    tboard.power_cut_and_boot()
    tboard.ok("testmode on")
    tboard.press(0, "ok", long=True)           # hold OK: menu
    st = tboard.status()
    assert st["screen"] == "menu"
    tboard.press(0, "ok")                      # first row: Resume game
    assert tboard.status()["screen"] == "game"
    assert Match.from_record(tboard.record()).rules.target == 200


def test_presets_set_every_switch_and_a_change_makes_them_custom(tboard):
    for _ in range(ROW_PRESET):
        tboard.press(0, "right")
    tboard.press(0, "ok")                      # Standard rules -> Oklahoma
    golden_check(tboard.panel(0), "menu_preset")
    with open(os.path.join(tboard.flash, "settings.json")) as f:
        rules = json.load(f)["rules"]
    want = Rules(target=150, spades_double=True, box_bonus=25, game_bonus=100,
                 shutout_double=True)
    assert Rules(**rules) == want
    tboard.press(0, "ok")                      # -> Hollywood
    tboard.press(0, "right")
    tboard.press(0, "ok")                      # the switches page shows it
    tboard.press(0, "left")                    # up from Back: the last switch
    golden_check(tboard.panel(0), "menu_switches_hollywood")
    tboard.press(0, "right")
    tboard.press(0, "right")
    tboard.press(0, "ok")                      # gin bonus 25 -> 20: Custom now
    tboard.press(0, "left")
    tboard.press(0, "ok")                      # Back
    tboard.press(0, "left")
    tboard.press(0, "ok")                      # Custom -> the first preset
    with open(os.path.join(tboard.flash, "settings.json")) as f:
        assert Rules(**json.load(f)["rules"]) == Rules()
    for _ in range(ROW_PRESET):
        tboard.press(0, "left")
    tboard.press(0, "ok")                      # New game: 2 players
    assert Match.from_record(tboard.record()).rules == Rules()


def test_won_game_shows_game_over_then_the_menu(tboard):
    tboard.ok("newgame seed=2 dealer=0 target=1")
    pl = Player(tboard, 2, dealer=0, rng_seed=3, rules=Rules(target=1))
    while pl.m.winner is None:
        pl.step()
    st = tboard.status()
    assert st["screen"] == "over"
    golden_check(tboard.panel(0), "game_over_p0")
    tboard.press(0, "ok")
    assert tboard.status()["screen"] == "menu"
    assert not os.path.exists(os.path.join(tboard.flash, "test.okg"))   # test mode's game
