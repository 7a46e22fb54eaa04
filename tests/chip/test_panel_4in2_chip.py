"""The 4.2" table on the emulated Pico (stock MicroPython rp2 on rp2040js):
a Pico onto which okgin flash put the firmware with hardware/board.json
(the default 4.2" table: a copy of the one flashed this run,
tests/support/chip.flashed_pico), and the firmware boots to the
menu on the two SSD1683 400x300 panels (the same emulation the virtual board
uses, BUSY timed by the chip's clock), drawn at 200x150 and shown at scale
2 (every pixel a 2x2 block of the panel's: the viper transposer's
doubling on the chip), the same picture as the protocol's `screen`, and a
button on its GPIO moves the cursor with a partial refresh; no byte the
emulated controllers had to ignore or refuse."""
import os
import time

from PIL import Image

from okgin.lib.transport import decode_screen
from tests.support.harness import ROOT

BOARD = os.path.join(ROOT, "hardware", "board.json")


def test_the_4in2_table_boots_to_the_menu_on_the_chip(rp2_images, tmp_path):
    from okgin.benches.chip import _firmware
    from okgin.table.table import open_table
    from tests.support.chip import flashed_pico
    pico = open_table("chip", None, "pico", sync=False, flash=str(flashed_pico(tmp_path / "flash.bin", BOARD)),
                      board=BOARD, speed=1.0)
    chip = pico.chip
    try:
        pico.power_on()
        ready = chip.console_line("READY okgin", 60)
        assert "board=okgin-pico-2p-4in2" in ready
        time.sleep(0.2)
        fw = _firmware(pico, timeout=120)
        try:
            fw.flush_input()
            fw.cmd("testmode on")
            fw.cmd("sync")
            assert fw.fields(fw.cmd("status"))["screen"] == "menu"
            before = []
            menu = chip.panel_image(0).tobytes()
            for p in (0, 1):
                ink = chip.panel_image(p)
                assert ink.size == (400, 300)
                assert ink.getextrema() == (0, 255)      # something drawn
                half = ink.resize((200, 150), Image.Resampling.NEAREST)
                assert half.resize((400, 300), Image.Resampling.NEAREST).tobytes() == ink.tobytes()
                shot = decode_screen(fw.cmd("screen %d" % p))
                assert shot.tobytes() == ink.tobytes()
                before.append(chip.refresh_counts(p)["partial"])
            chip.press(0, "right")
            fw.cmd("sync")
            ink = chip.panel_image(0)
            assert ink.tobytes() != menu
            assert chip.refresh_counts(0)["partial"] > before[0]
            for p in (0, 1):
                st = chip.stats(p)
                assert st["ignored"] == 0 and st["refused"] == 0 and st["unknown"] == 0, st
        finally:
            fw.close()
    finally:
        pico.stop()
