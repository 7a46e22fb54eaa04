"""Issue 40, 1 on the virtual board: a game started from the menu (a
table's real game) is dealt from fresh entropy, its record keeps the
128-bit key of each deal, and the 30-bit seed search that recovered
today's deals from a player's first screen finds nothing; a given seed
(the serial ``newgame``: tests, okgin sim --seed) still deals as given."""
from okgin.engine import Match

from tests.support.deals import WINDOW, first_screen, search


def test_a_menu_game_is_dealt_from_fresh_entropy_and_resumes(board):
    board.ok("testmode on")
    assert board.status()["screen"] == "menu"
    board.press(0, "ok")                       # New game: 2 players
    rec = board.record()
    assert rec.startswith("okgin-record 3\n"), rec[:80]
    m = Match.from_record(rec)
    assert m.fresh and len(m._deals[0][1]) == 16    # 128 bits
    lo = max(0, m.seed - WINDOW // 2)
    assert search(first_screen(m), lo, lo + WINDOW) == []
    # another menu game: another key
    board.press(0, "ok", long=True)
    board.press(0, "right")
    board.press(0, "ok")
    rec2 = board.record()
    assert rec2.startswith("okgin-record 3\n")
    assert Match.from_record(rec2)._deals[0][1] != m._deals[0][1]
    # a power cut: the same game, dealt as it was
    board.power_cut_and_boot()
    board.ok("testmode on")
    assert board.record() == rec2


def test_a_given_seed_still_deals_as_given(board):
    board.ok("testmode on")
    board.ok("newgame seed=4242 dealer=0")
    rec = board.record()
    assert rec.startswith("okgin-record 2\n")
    assert bytes(Match.from_record(rec).hand._stock) == bytes(Match(seed=4242, dealer=0).hand._stock)
