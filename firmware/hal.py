# The only firmware module that touches pins: builds the SPI bus, the two
# panels, the buttons and the LEDs from a validated board definition
# (boarddef.load). The app only sees the objects below.
#
# On the Pico, Pin and SPI come from `machine`. The unix port's `machine` has
# neither, and there the virtual board puts `vmachine` (same API) on the path;
# the firmware never ships vmachine.

import os

try:
    from machine import SPI, Pin
    import machine as _board
except ImportError:
    from vmachine import SPI, Pin  # type: ignore[import-not-found,no-redef]
    import vmachine as _board  # type: ignore[import-not-found,no-redef]

import time

from buttons import NAMES, Buttons


class Hardware:
    def __init__(self, board):
        # Nothing of the board definition is kept (about 3 KB of dicts on
        # the unix port): it is freed once the app has read it
        # (docs/memory.md); the drivers get the values they need.
        timing = board["timing"]
        s = board["spi"]
        # polarity/phase 0: the SSD1680 samples SDA on the rising edge of SCL.
        # MISO is named so the pin the rp2 port claims for it is the one
        # board.json reserves (the panels are write-only).
        self.spi = SPI(s["id"], baudrate=s["baudrate"], polarity=0, phase=0,
                       sck=Pin(s["sck"]), mosi=Pin(s["mosi"]), miso=Pin(s["miso"]))
        self.displays = []
        self.leds = []
        pins = []
        from display import DRIVERS
        for player in board["players"]:
            p = player["panel"]
            # The controller's driver module (display.py: the seam); both
            # panels of the usual board share one.
            Display = __import__(DRIVERS[p["controller"]]).Display
            self.displays.append(Display(
                self.spi,
                cs=Pin(p["cs"], Pin.OUT, value=1),
                dc=Pin(p["dc"], Pin.OUT, value=0),
                rst=Pin(p["rst"], Pin.OUT, value=1),
                # Pulled towards "busy": an unplugged panel reads busy and
                # ends in EPDTimeout instead of pretending to have drawn.
                busy=Pin(p["busy"], Pin.IN,
                         Pin.PULL_UP if Display.BUSY_ACTIVE else Pin.PULL_DOWN),
                width=p["width"], height=p["height"], rotation=p["rotation"],
                busy_timeout_ms=timing["busy_timeout_ms"]))
            pins.append({name: Pin(player["buttons"][name], Pin.IN, Pin.PULL_UP)
                         for name in NAMES})
            self.leds.append(Pin(player["led"], Pin.OUT, value=0))
        self.buttons = Buttons(pins, timing)
        # The map is needed only now (boarddef loaded it): let it go. The
        # drivers keep what they use of it (EPDTimeout).
        import sys
        sys.modules.pop("display", None)

    def entropy(self):
        """A random 30-bit int (a small int on the Pico) to seed a shuffle."""
        try:
            b = os.urandom(4)  # rp2: the ring oscillator; unix: the kernel
            n = (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]
        except (AttributeError, OSError):
            n = 0
            for _ in range(8):  # jitter between two clocks
                n = (n * 31 + time.ticks_us()) & 0x3FFFFFFF
        return n & 0x3FFFFFFF

    def lock_repl(self, on):
        """The owner's lock: Ctrl-C on the USB port is a plain byte (no
        REPL) while ``on``. micropython.kbd_intr on a board; the virtual
        board's vmachine stands in for it (the unix port's own would make
        Ctrl-C end the process)."""
        f = getattr(_board, "kbd_intr", None)
        if f is None:
            import micropython
            f = micropython.kbd_intr
        f(-1 if on else 3)

    def busy(self):
        """True while any panel is updating."""
        for d in self.displays:
            if d.busy():
                return True
        return False

    def reset(self):
        """Hard reset of the board (the virtual board restarts the process)."""
        _board.reset()
