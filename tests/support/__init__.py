"""What the tests share: helpers for the tiers' tables under test (harness:
the firmware on the virtual board; chip: the emulated Pico; sim, web, host:
the front ends and commands) and for the game (hands, positions, play,
scorepad, real_game). Imported as ``tests.support.<module>``."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The two tables: the one the README builds and every command uses unless
# told otherwise (hardware/board.json: the 4.2" 400x300 panels, one in a
# station at each player's edge), and the 2.9" 296x128 variant
# (hardware/board-2in9.json). Tests that pin the 2.9" panel's pixels,
# commands or times (its goldens, the SSD1680's traffic) name BOARD_2IN9;
# tests of what a user gets by default name BOARD or nothing.
BOARD = os.path.join(ROOT, "hardware", "board.json")
BOARD_2IN9 = os.path.join(ROOT, "hardware", "board-2in9.json")


def micropython():
    """The micropython binary, found as the virtual board finds it
    (OKGIN_MICROPYTHON, the venv's, PATH); a clear error when there is none."""
    from okgin.vboard.vboard import find_micropython
    return find_micropython()


def vlsb_to_rows(buf, w=296, h=128):
    """A MONO_VLSB frame buffer -> rows MSB first, 1 = black (the panel
    emulations' panel_bytes)."""
    out = bytearray(w * h // 8)
    for y in range(h):
        row = (y >> 3) * w
        bit = y & 7
        for x in range(w):
            if buf[row + x] >> bit & 1:
                out[y * (w // 8) + (x >> 3)] |= 0x80 >> (x & 7)
    return bytes(out)
