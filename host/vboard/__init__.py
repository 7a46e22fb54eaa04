"""The virtual board: the firmware under the real micropython unix port with
emulated pins, buttons and SSD1680 panels behind a pty (docs/virtual-board.md).
"""
from .flash import populate
from .ssd1680 import SSD1680
from .vboard import VBoardError, VirtualBoard, find_micropython, lock_flash

__all__ = ["VirtualBoard", "VBoardError", "populate", "SSD1680", "find_micropython", "lock_flash"]
