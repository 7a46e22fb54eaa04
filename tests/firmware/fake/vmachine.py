# Fallback pins for the firmware tests, used only until host.vboard lands:
# BUSY reads low (an instant panel), buttons read released (pull-ups), SPI
# bytes are dropped. The real virtual board emulates the SSD1680 instead.
import sys


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, pin, mode=0, pull=None, value=None):
        self.pin = pin
        self.v = 1 if mode == 0 else (value or 0)
        self.mode = mode

    def value(self, v=None):
        if v is None:
            return 0 if self.pin in BUSY else self.v
        self.v = v


BUSY = (22, 10)


class SPI:
    def __init__(self, *a, **k):
        pass

    def write(self, b):
        pass


def reset():
    sys.exit(0)
