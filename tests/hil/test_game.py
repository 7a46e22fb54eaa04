"""A scripted hand played with button presses: the board's state (status,
record) follows the engine's rules, and the screens show it."""
import os

import pytest
from PIL import Image

from okgin.engine import Match

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware", "golden")

BUTTONS = ("left", "right", "ok", "draw", "take", "knock")


def engine_state(board):
    """The engine's view of the game the board is playing (from its record)."""
    return Match.from_record(board.record())


def assert_status_matches_engine(board, match):
    st = board.status()
    obs = match.observation(0)
    assert st["phase"] == obs["phase"]
    assert st["to_move"] == ("-" if obs["to_move"] is None else str(obs["to_move"]))
    assert int(st["hand_no"]) == obs["hand_no"] and int(st["dealer"]) == obs["dealer"]
    assert int(st["stock"]) == obs["stock_count"]
    assert st["discard"] == (obs["discard_top"] or "-")
    assert int(st["knock_limit"]) == obs["knock_limit"]
    assert [int(s) for s in st["scores"].split(",")] == list(obs["scores"])
    return st, obs


def test_new_game_deals_per_rules(testboard):
    m = engine_state(testboard)
    st, obs = assert_status_matches_engine(testboard, m)
    assert st["screen"] == "game"
    assert obs["phase"] == "upcard"              # R6: the upcard is offered first
    assert obs["stock_count"] == 31              # R4: 52 - 2*10 - upcard
    assert len(obs["hand"]) == 10 and obs["opponent_count"] == 10
    assert st["dealer"] == "0" and st["to_move"] == "1"   # non-dealer first (R6)


def test_scripted_hand_by_button_presses(testboard, target):
    # On a board whose GPIO the host drives (the emulated Pico, the virtual
    # board) the buttons are pressed on their pins, through the firmware's
    # debounce; on real hardware through the protocol's press.
    b = _Presser(testboard, target)
    # R6: non-dealer passes (DRAW), dealer passes, non-dealer draws from stock.
    b.press(1, "draw")
    m = engine_state(b)
    assert m.observation(0)["history"][-1] == "1 pass"
    assert_status_matches_engine(b, m)
    b.press(0, "draw")
    b.press(1, "draw")
    m = engine_state(b)
    obs1 = m.observation(1)
    assert obs1["phase"] == "discard" and obs1["to_move"] == 1
    assert len(obs1["hand"]) == 11 and obs1["stock_count"] == 30
    # R7: discard the card under the cursor with OK.
    hand_before = set(obs1["hand"])
    b.press(1, "ok")
    m = engine_state(b)
    last = m.observation(1)["history"][-1].split()
    assert last[:2] == ["1", "discard"] and last[2] in hand_before
    st, obs = assert_status_matches_engine(b, m)
    assert st["discard"] == last[2] and st["to_move"] == "0"
    # Player 0 takes that discard (R7) and may not throw it straight back.
    b.press(0, "take")
    m = engine_state(b)
    obs0 = m.observation(0)
    assert last[2] in obs0["hand"] and obs0["phase"] == "discard"
    assert "discard " + last[2] not in obs0["legal"]
    assert_status_matches_engine(b, m)


class _Presser:
    def __init__(self, board, target):
        self.board = board
        self.target = target

    def press(self, player, button):
        if self.target.press is None:
            self.board.press(player, button)
        else:
            self.target.press(player, button)

    def __getattr__(self, name):
        return getattr(self.board, name)


def test_presses_of_the_waiting_player_change_nothing_in_the_game(testboard):
    before = testboard.record()
    testboard.press(0, "draw")          # player 1 (non-dealer) is to move
    testboard.press(0, "knock")
    assert testboard.record() == before


def test_screens_show_each_players_view(testboard, target):
    b = testboard
    s0, s1 = b.screen(0), b.screen(1)
    # the 4.2" table's panels (hardware/board.json) or the 2.9" variant's
    assert s0.size in ((400, 300), (296, 128)) and s1.size == s0.size, s0.size
    for s in (s0, s1):
        black = s.histogram()[0]
        assert 300 < black < s.width * s.height // 2, "screen looks blank or inverted"
    assert s0.tobytes() != s1.tobytes()          # each panel shows its own hand
    # A cursor move redraws only the player who pressed.
    b.press(1, "right")
    b.sync(30 * target.slow)
    assert b.screen(1).tobytes() != s1.tobytes()
    assert b.screen(0).tobytes() == s0.tobytes()


def test_screen_changes_when_the_opponent_moves(testboard, target):
    b = testboard
    s0 = b.screen(0)
    b.press(1, "draw")                           # pass: player 0 is now asked
    b.sync(30 * target.slow)
    assert b.screen(0).tobytes() != s0.tobytes()


def test_a_bouncing_contact_moves_the_cursor_once(testboard, target):
    # A worn switch chatters for a few ms at each edge: the firmware's
    # debounce must make one press of it (the same screen as one clean press).
    if target.press is None:
        pytest.skip("real hardware: the host cannot make a button bounce")
    b = testboard
    start = b.screen(1).tobytes()
    target.press(1, "right", bounce_ms=8)
    b.sync(30 * target.slow)
    bounced = b.screen(1).tobytes()
    b.newgame(7, vs="human", dealer=0)           # the same deal again
    b.sync(30 * target.slow)
    target.press(1, "right")
    b.sync(30 * target.slow)
    assert bounced != start and bounced == b.screen(1).tobytes()


def test_screens_equal_the_golden_images(board, target):
    # The same deal the firmware tests drew their golden images from
    # (tests/firmware/test_game.py): the frame buffer the board reports,
    # and where the host sees the panels (emulated boards) the ink too.
    assert board.testmode(True) == "testmode=1"
    board.newgame(2, vs="human", dealer=0)
    board.sync(30 * target.slow)
    for player, name in ((1, "upcard_mover"), (0, "upcard_waiting")):
        # the 2.9" panel's goldens are <name>.png, another size's
        # <name>-<w>x<h>.png (tests/firmware/test_default_table.py)
        size = board.screen(player).size
        if size != (296, 128):
            name += "-%dx%d" % size
        want = Image.open(os.path.join(GOLDEN, name + ".png")).convert("1").tobytes()
        assert board.screen(player).convert("1").tobytes() == want, name
        if target.board is not None:
            assert target.board.panel_image(player).convert("1").tobytes() == want, name
