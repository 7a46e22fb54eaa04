"""The coach on the table (issue 26): hold DRAW on your turn shows the hard
level's suggestion on your own panel, never on the other one, and plays
nothing; after a hand, with the menu's "Coach after a hand" on, your
costliest decision of that hand appears on your panel while the buttons
stay live. Through the buttons of the virtual board."""
from okgin.engine import Match, Rules, bot
from okgin.engine.bots import move_seed
from okgin.engine.coach import advice
from okgin.engine.review import review
from tests.support.play import Player

SEED = 11


def _title_bar(img):
    # a notice has a black title bar across the top rows
    return img.crop((0, 0, 200, 12)).tobytes().count(0) > 120


def _public(st):
    return {k: st[k] for k in ("screen", "hand_no", "to_move", "phase", "stock", "discard",
                               "scores")}


def test_hold_draw_shows_the_suggestion_on_your_own_panel_only(tboard):
    b = tboard
    b.ok("newgame seed=%d vs=hard dealer=1" % SEED)   # player 0 decides first
    b.ok("sync")
    st = b.status()
    assert st["to_move"] == "0" and st["phase"] == "upcard"
    mine, theirs = b.screen(0), b.screen(1)
    b.press(0, "draw", long=True)
    b.ok("sync")
    # nothing played; a notice on player 0's panel; player 1's untouched
    assert _public(b.status()) == _public(st)
    assert _title_bar(b.screen(0))
    assert b.screen(1).tobytes() == theirs.tobytes()
    # any button closes it and does nothing else
    b.press(0, "knock")
    b.ok("sync")
    assert _public(b.status()) == _public(st)
    assert not _title_bar(b.screen(0))
    assert b.screen(0).tobytes() == mine.tobytes()
    # and the game goes on as before: DRAW passes on the upcard
    b.press(0, "draw")
    # one status: the computer may pass too between two (then the draw
    # phase with 0 to move again)
    st = b.status()
    assert st["phase"] != "upcard" or st["to_move"] != "0"


def test_the_suggestion_is_the_hard_levels_move(tboard):
    """What the panel shows is engine.coach's advice for this position
    (the same on MicroPython as here), whose move is hard's own."""
    b = tboard
    b.ok("newgame seed=%d vs=hard dealer=1" % SEED)
    m = Match(Rules(), seed=SEED, dealer=1)
    obs = m.observation(0)
    s = move_seed(SEED, len(obs["history"]))
    a = advice(obs, s)
    assert a["action"] == bot("hard", s).choose(obs)
    assert a["why"], "a reason to show"


def test_hold_draw_on_the_other_players_turn_shows_no_suggestion(tboard):
    b = tboard
    b.ok("newgame seed=%d dealer=1" % SEED)            # two players; 0 to move
    st = b.status()
    assert st["to_move"] == "0"
    b.press(1, "draw", long=True)
    b.ok("sync")
    assert _public(b.status()) == _public(st)
    assert not _title_bar(b.screen(1))                # a message line, not the coach


def _review_on(b):
    """The menu's "Coach after a hand" (two LEFTs from the top: Language,
    then it), switched on with OK."""
    assert b.status()["screen"] == "menu"
    for _ in range(2):
        b.press(0, "left")
    b.press(0, "ok")


def test_after_a_hand_the_costliest_move_is_on_your_panel(tboard):
    b = tboard
    _review_on(b)
    b.ok("newgame seed=%d vs=hard dealer=0" % SEED)
    pl = Player(b, SEED, dealer=0, rng_seed=5)
    m = pl.m
    hand_no = m.hand_no
    n = 0
    while m.hand_no == hand_no and m.winner is None:
        b.ok("sync")                 # the computer has moved
        while m.hand._to_move == 1 and m.hand_no == hand_no:
            o = m.observation(1)
            m.play(bot("hard", move_seed(SEED, len(o["history"]))).choose(o))
        if m.hand_no == hand_no:
            pl.step()
        n += 1
        assert n < 200
    # the showdown is up; the review runs a decision per main-loop turn
    assert b.status()["screen"] in ("showdown", "over")
    theirs = b.screen(1)
    b.ok("sync")
    for _ in range(100):
        if _title_bar(b.screen(0)):
            break
        b.ok("sync")
    assert _title_bar(b.screen(0)), "no review on player 0's panel"
    assert not _title_bar(b.screen(1)) and b.screen(1).tobytes() == theirs.tobytes()
    # there was something to tell (the random player errs), as the host says
    assert review(m.last_hand, 0, SEED) is not None
    # a button closes it; the next OK goes on to the next hand
    b.press(0, "ok")
    assert b.status()["screen"] in ("showdown", "over")
    b.press(0, "ok")
    assert b.status()["screen"] in ("game", "scorepad", "menu")


def test_a_test_mode_client_never_reads_the_coach_of_the_real_game(flash):
    """The real game, started and played with the buttons: its player asks
    the coach; then a client switches test mode on. Test mode plays its own
    game and drops the real one from RAM, with the coach's notice: the
    panels a test command can read show test mode's menu, and the real
    game comes back without the notice."""
    from tests.support.real_game import boot, new_real_game, same_game
    b = boot(flash)
    try:
        m = new_real_game(b, flash)              # two players, from the menu
        p = m.hand.to_move
        b.vb.press(p, "draw", long=True)
        b.ok("sync")
        assert _title_bar(b.vb.panel_image(p))   # the coach's notice, on the ink
        b.ok("testmode on")
        assert b.status()["screen"] == "menu"
        assert b.screen(p).tobytes() == b.screen(1 - p).tobytes()   # the same menu on both
        b.ok("testmode off")
        b.ok("sync")
        assert same_game(b, m)
        assert not _title_bar(b.vb.panel_image(p))
    finally:
        b.stop()
