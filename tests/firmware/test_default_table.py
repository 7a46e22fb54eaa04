"""The default table (hardware/board.json: the 4.2" panels, each showing its
200x150 screen in 2x2 blocks) draws the golden screens the HIL suite
compares a board of its size with (tests/hil/test_game.py reads
tests/firmware/golden/<name>-400x300.png for a 400x300 panel): the deal of
test_game.py's golden images (seed 2, dealer 0), on the 4.2" panels."""
from tests.support.harness import BOARD, RunningFirmware, golden_check, make_flash


def test_the_default_tables_upcard_screens_are_its_goldens(tmp_path):
    b = RunningFirmware(make_flash(str(tmp_path / "flash"), board=BOARD), board_json=BOARD)
    b.start()
    try:
        b.ok("testmode on")
        b.ok("newgame seed=2 dealer=0")
        b.ok("sync")
        for p, name in ((1, "upcard_mover"), (0, "upcard_waiting")):
            ink = b.panel(p)
            assert ink.size == (400, 300)
            golden_check(ink, name + "-400x300")
    finally:
        b.stop()
