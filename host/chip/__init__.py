"""The emulated Raspberry Pi Pico: the stock MicroPython rp2 image on an
emulated RP2040 (npm rp2040js under Node), with the board's panels, buttons
and LEDs around it and its USB serial on a pty (docs/emulated-pico.md)."""
from .chipboard import ChipBoard, ChipError

__all__ = ["ChipBoard", "ChipError"]
