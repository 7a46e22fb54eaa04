"""The whole firmware on the 4.2" table (hardware/board.json, the default: today's
pins, two SSD1683 400x300 panels at scale 2) on the virtual board: it boots
to the menu and plays as the 2.9" table does (the same screens after the
same presses), drawn at 200x150 and shown with each pixel a 2x2 block of
the panel's (Unifont 2x, 32 px card ranks). Through the other driver
(firmware/ssd1683.py: the frame buffer transposed and doubled into RAM
rows, partial refreshes against RED RAM) and the other emulation
(host/vboard/ssd1683.py)."""
import os
import shutil

from PIL import Image

from okgin.lib.transport import decode_screen
from tests.support.harness import ROOT, RunningFirmware, make_flash

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


def doubled(img):
    """True when every 2x2 block of the panel's image is one colour: the
    image a 200x150 frame buffer makes at scale 2."""
    half = img.resize((img.width // 2, img.height // 2), Image.Resampling.NEAREST)
    return half.resize(img.size, Image.Resampling.NEAREST).tobytes() == img.tobytes()


def test_the_4in2_table_boots_to_the_menu_and_plays_as_the_2in9_does(tmp_path):
    b = _board(tmp_path, "small", "board-2in9.json")
    try:
        b.ok("testmode on")
        want = []
        for step in STEPS:
            b.ok(step)
            want.append(b.status()["screen"])
    finally:
        b.stop()

    b = _board(tmp_path, "big", "board.json")
    try:
        assert b.boot_lines[0].endswith("board=okgin-pico-2p-4in2")
        assert b.status()["screen"] == "menu"
        b.ok("testmode on")
        last = []
        for p in (0, 1):
            ink = b.panel(p)
            assert ink.size == (400, 300)
            assert not _white(ink, (0, 0, 400, 300)) and doubled(ink)
            # the protocol's `screen` (the frame buffer) at the panel's size,
            # as the host tool reads it
            shot = decode_screen(b.ok("screen %d" % p).split(" ", 1)[1])
            assert shot.size == (400, 300) and shot.tobytes() == ink.tobytes()
            last.append(ink.tobytes())
        for step, screen in zip(STEPS, want, strict=True):
            b.ok(step)
            assert b.status()["screen"] == screen, step
            for p in (0, 1):
                ink = b.panel(p)
                assert doubled(ink), (step, p)
                shot = decode_screen(b.ok("screen %d" % p).split(" ", 1)[1])
                assert shot.tobytes() == ink.tobytes(), (step, p)
            # the player who pressed sees the press
            who = int(step.split()[1]) if step.startswith("press") else 0
            assert b.panel(who).tobytes() != last[who], step
            last = [b.panel(p).tobytes() for p in (0, 1)]
        for p in (0, 1):
            counts = b.vb.refresh_counts(p)
            assert counts["full"] >= 1 and counts["partial"] >= 1, counts
            assert b.vb.panel(p).log == []        # nothing the emulation had to ignore
        assert b.refused() == [0, 0]
    finally:
        b.stop()
