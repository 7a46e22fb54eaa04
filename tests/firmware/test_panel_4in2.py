"""The whole firmware on the 4.2" table (hardware/board-4in2.json: today's
pins, two SSD1683 400x300 panels) on the virtual board: it boots to the
menu, and until the screens are laid out for 400x300 (a later step) it
draws today's 296x128 screens in the top-left corner of the bigger panel,
pixel for pixel what the 2.9" table shows, the rest of the panel white.
Through the other driver (firmware/ssd1683.py: the frame buffer transposed
into RAM rows, partial refreshes against RED RAM) and the other emulation
(host/vboard/ssd1683.py)."""
import os
import shutil

from PIL import Image

from okgin.lib.transport import decode_screen
from tests.support.harness import GOLDEN, ROOT, RunningFirmware, make_flash

STEPS = ("newgame seed=4 dealer=0", "press 1 draw", "press 0 right", "press 0 draw")


def _board(tmp_path, name, board_file):
    flash = make_flash(str(tmp_path / name))
    path = os.path.join(flash, "board.json")
    shutil.copy(os.path.join(ROOT, "hardware", board_file), path)
    b = RunningFirmware(flash, board_json=path)
    b.start()
    return b


def _white(img, box):
    return img.crop(box).getextrema() == (255, 255)


def test_the_4in2_table_boots_to_the_menu_and_plays_as_the_2in9_does(tmp_path):
    b = _board(tmp_path, "small", "board.json")
    try:
        b.ok("testmode on")
        want = []
        for step in STEPS:
            b.ok(step)
            want.append([b.panel(p).tobytes() for p in (0, 1)])
    finally:
        b.stop()

    b = _board(tmp_path, "big", "board-4in2.json")
    try:
        assert b.boot_lines[0].endswith("board=okgin-pico-2p-4in2")
        assert b.status()["screen"] == "menu"
        b.ok("testmode on")
        for p in (0, 1):
            ink = b.panel(p)
            assert ink.size == (400, 300)
            menu = Image.open(os.path.join(GOLDEN, "menu.png")).convert("1")
            assert ink.crop((0, 0, 296, 128)).tobytes() == menu.tobytes()
            assert _white(ink, (296, 0, 400, 300)) and _white(ink, (0, 128, 296, 300))
            # the protocol's `screen` (the frame buffer) at the panel's size,
            # as the host tool reads it
            shot = decode_screen(b.ok("screen %d" % p).split(" ", 1)[1])
            assert shot.size == (400, 300) and shot.tobytes() == ink.tobytes()
        for step, shots in zip(STEPS, want, strict=True):
            b.ok(step)
            for p in (0, 1):
                ink = b.panel(p)
                assert ink.crop((0, 0, 296, 128)).tobytes() == shots[p], (step, p)
                assert _white(ink, (296, 0, 400, 300)) and _white(ink, (0, 128, 296, 300))
        for p in (0, 1):
            counts = b.vb.refresh_counts(p)
            assert counts["full"] >= 1 and counts["partial"] >= 1, counts
            assert b.vb.panel(p).log == []        # nothing the emulation had to ignore
        assert b.refused() == [0, 0]
    finally:
        b.stop()
