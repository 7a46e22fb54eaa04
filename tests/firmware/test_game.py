"""The firmware as the players use it: boot, a complete hand played only with
the two players' buttons, checked step by step against the CPython engine
replaying the same seed, and the screens at key moments against reviewed
golden images (OKGIN_UPDATE_GOLDEN=1 rewrites them)."""
import os


from tests.support.harness import golden_check
from tests.support.play import Player

from okgin.engine import Match

SEED = 2


def test_boot_shows_the_menu_on_both_panels(board):
    assert board.boot_lines[0].startswith("READY okgin fw=")
    st = board.status()
    assert st["screen"] == "menu"
    assert st["testmode"] == "0"
    board.ok("testmode on")
    board.ok("sync")
    golden_check(board.panel(0), "menu")
    golden_check(board.panel(1), "menu")


def test_menu_starts_a_two_player_game_with_buttons(tboard):
    tboard.press(0, "right")       # "New game: 2 players" (nothing to resume)
    tboard.press(0, "left")
    tboard.press(0, "ok")
    st = tboard.status()
    assert st["screen"] == "game" and st["vs"] == "human"
    assert st["hand_no"] == "1" and st["phase"] == "upcard"
    rec = tboard.record()
    Match.from_record(rec)         # a valid record was saved from the start


def test_complete_hand_through_the_buttons_matches_the_engine(tboard):
    tboard.ok("newgame seed=%d dealer=0" % SEED)
    # the players' own buttons (the virtual board's emulated pins)
    pl = Player(tboard, SEED, dealer=0, rng_seed=3, pins=True)
    golden_check(tboard.panel(1), "upcard_mover")      # non-dealer decides (R6)
    golden_check(tboard.panel(0), "upcard_waiting")
    n = 0
    shot_discard = False
    while pl.m.hand_no == 1:
        act = pl.step()
        n += 1
        st = tboard.status()
        exp = pl.expected_status()
        if pl.m.hand_no == 1:
            assert {k: st[k] for k in exp} == exp, "after %r (action %d)" % (act, n)
            o = pl.m.observation(pl.m.hand._to_move)
            if not shot_discard and o["phase"] == "discard" and n > 2:
                shot_discard = True
                golden_check(tboard.panel(o["to_move"]), "discard_cursor")
        assert n < 200
    # the hand is over: both panels show the showdown until OK
    st = tboard.status()
    assert st["screen"] in ("showdown", "over")
    assert tboard.record() == pl.m.to_record()
    res = pl.m.observation(0)["last_result"]
    assert st["scores"] == "%d,%d" % tuple(pl.m.scores)
    golden_check(tboard.panel(0), "showdown_p0")
    golden_check(tboard.panel(1), "showdown_p1")
    assert res is not None
    tboard.press(1, "ok")
    st = tboard.status()
    assert st["screen"] == "game" and st["hand_no"] == "2"
    assert {k: st[k] for k in pl.expected_status()} == pl.expected_status()


def test_waiting_player_buttons_change_nothing(tboard):
    tboard.ok("newgame seed=%d dealer=0" % SEED)
    before = tboard.record()
    for b in ("take", "draw", "ok", "knock"):
        tboard.press(0, b)         # player 0 is the dealer: not their turn
    assert tboard.record() == before
    assert tboard.status()["to_move"] == "1"
    golden_check(tboard.screen(0), "not_your_turn")


def test_discarding_the_card_just_taken_is_refused_with_a_message(tboard):
    # R7 (default): a card taken from the discard pile may not be discarded
    # in the same turn; the cursor lands on the taken card
    tboard.ok("newgame seed=%d dealer=0" % SEED)
    tboard.press(1, "take")        # the upcard
    rec = tboard.record()
    tboard.press(1, "ok")
    assert tboard.record() == rec
    st = tboard.status()
    assert st["phase"] == "discard" and st["to_move"] == "1"
    golden_check(tboard.screen(1), "illegal_discard")
    # moving on and discarding another card works
    tboard.press(1, "right")
    tboard.press(1, "ok")
    assert tboard.status()["to_move"] == "0"


def test_knock_over_the_limit_is_refused_with_the_reason(tboard):
    tboard.ok("newgame seed=%d dealer=0" % SEED)
    tboard.press(1, "draw")        # pass the upcard
    tboard.press(0, "draw")        # dealer passes too
    tboard.press(1, "draw")        # non-dealer draws from the stock (R6)
    o = Match.from_record(tboard.record()).observation(1)
    assert not any(a.startswith("knock") for a in o["legal"])   # R8: deadwood too high
    rec = tboard.record()
    tboard.press(1, "knock")
    tboard.press(1, "knock")       # no confirmation step either
    assert tboard.record() == rec
    golden_check(tboard.screen(1), "knock_refused")


def test_turn_leds_follow_the_player_to_move(tboard):
    tboard.ok("newgame seed=%d dealer=0" % SEED)
    tboard.ok("sync")
    assert tboard.vb.led(1) and not tboard.vb.led(0)
    tboard.press(1, "draw")
    tboard.ok("sync")
    assert tboard.vb.led(0) and not tboard.vb.led(1)


def test_against_the_computer_the_human_sees_its_public_moves_only(tboard):
    tboard.ok("newgame seed=%d vs=easy dealer=0" % SEED)
    pl = Player(tboard, SEED, dealer=0, rng_seed=3)
    assert tboard.status()["vs"] == "easy"
    shots = 0
    n = 0
    while True:
        tboard.ok("sync")               # the computer has moved
        m = Match.from_record(tboard.record())
        if m.hand_no > 1 or m.winner is not None:
            break
        assert m.hand._to_move == 0     # seat 1 never waits for a button
        rec = tboard.record()
        tboard.press(1, "draw")         # the computer's seat has no buttons
        tboard.press(1, "ok")
        assert tboard.record() == rec
        pl.m = m
        if shots == 0 and len(m.observation(0)["history"]) >= 3:
            golden_check(tboard.panel(0), "vs_cpu_human")
            golden_check(tboard.panel(1), "vs_cpu_computer_panel")
            shots += 1
        pl.step()
        n += 1
        assert n < 100
    st = tboard.status()
    assert st["screen"] in ("showdown", "over")
    # the computer's moves are public in the record and replay in CPython
    assert Match.from_record(tboard.record()).hand_no == 2
    golden_check(tboard.panel(1), "vs_cpu_showdown_computer_panel")


def test_gin_is_offered_and_confirmed(flash):
    """A saved game at the moment a player can go gin (R8): the screen says
    so for that card, the first knock asks GIN?, the second ends the hand."""
    from tests.support.harness import RunningFirmware
    from okgin.engine import deadwood
    from okgin.engine.arrange import order
    pl = Player(None, 1, dealer=0, rng_seed=3)
    while True:
        p = pl.m.hand._to_move
        o = pl.m.observation(p)
        gin = [a for a in o["legal"] if a.startswith("knock")
               and deadwood([c for c in o["hand"] if c != a.split()[1]]) == 0]
        if gin:
            break
        pl.m.play(pl.choose(o))
    card = gin[0].split()[1]
    # test mode's own game (test.okg), which `testmode on` resumes
    with open(os.path.join(flash, "test.okg"), "w") as f:
        f.write(pl.m.to_record())
    b = RunningFirmware(flash)
    b.start()
    try:
        b.ok("testmode on")
        assert b.status()["to_move"] == str(p)
        for _ in range(order(o["hand"]).index(card)):
            b.press(p, "right")
        golden_check(b.panel(p), "gin_offer")
        b.press(p, "knock")
        golden_check(b.panel(p), "gin_confirm")
        b.press(p, "right")        # any other button cancels (and moves)
        assert b.record() == pl.m.to_record()
        b.press(p, "left")
        b.press(p, "knock")
        b.press(p, "ok")           # OK confirms too
        assert b.status()["screen"] in ("showdown", "over")
        m = Match.from_record(b.record())
        assert m.observation(0)["last_result"]["kind"] == "gin"
        golden_check(b.panel(1 - p), "gin_showdown_other")
    finally:
        b.stop()
