# webhal: the board of the web page, for MicroPython's WebAssembly port.
#
# The browser is one more target behind the hardware seam, beside the Pico
# (hal.py on `machine`) and the virtual board (hal.py on vmachine): this
# module gives the app what hal.Hardware gives it (displays, buttons, leds,
# entropy(), reset()) and nothing else changes. The buttons are the
# firmware's own driver (buttons.py: debounce, long presses, auto-repeat)
# reading pins that the page sets; the displays keep the display drivers'
# contract (firmware/display.py: fb, width, height, show(full), busy(),
# wait(), sleep(); no pins, so no BUSY_ACTIVE) and are
# busy for as long as the real ink takes, so the app's refresh policy runs
# as on the device. Never shipped to a board; plain MicroPython (no `js`):
# tests run it under the unix port too.
#
# What crosses to JavaScript: the page reads each panel's image from a file
# in the in-memory filesystem (a bytearray does not cross as a typed array)
# and the events that take() returns.
import framebuf
import time

from buttons import NAMES, Buttons


class Pin:
    """A button's input pin (0 = pressed, as with the pull-ups on the
    board). A press set and released between two polls is still read as
    down once, so a quick tap or a scripted key event is never lost."""

    def __init__(self):
        self.level = 1
        self.latched = False

    def set(self, down):
        if down:
            self.level = 0
            self.latched = True
        else:
            self.level = 1

    def value(self):
        if self.latched:
            self.latched = False
            return 0
        return self.level


class Led:
    def __init__(self, board, p):
        self.board = board
        self.p = p
        self.on = 0

    def value(self, v=None):
        if v is None:
            return self.on
        v = 1 if v else 0
        if v != self.on:
            self.on = v
            self.board.events.append(("led", self.p, v))


# a nibble's 4 bits each twice: rows 0..3 of a band to rows 0..7
_TWICE = bytes([sum(3 << 2 * i for i in range(4) if n >> i & 1) for n in range(16)])


def _double(dst, src, w, h):
    """The MONO_VLSB image ``src`` (w x h) at twice its size into ``dst``:
    each logical band of 8 rows makes two of the panel's."""
    W = 2 * w
    for k in range((h + 7) // 8):
        o = 2 * k * W
        for x in range(w):
            b = src[k * w + x]
            lo = _TWICE[b & 15]
            hi = _TWICE[b >> 4]
            x2 = o + 2 * x
            dst[x2] = dst[x2 + 1] = lo
            if x2 + W < len(dst):
                dst[x2 + W] = dst[x2 + W + 1] = hi


class Display:
    """One e-paper panel: the firmware draws in fb, show() puts that image
    on the 'ink' (a file the page reads) and is busy as long as a real
    panel's full or partial refresh would be (times scaled by speed)."""

    def __init__(self, board, p, width, height, full_ms, partial_ms, scale=1):
        # width, height: the panel's pixels; the app draws in the logical
        # width/scale x height/scale, and the page gets the panel's image
        # (each pixel a scale x scale block, as the drivers send it)
        self.board = board
        self.p = p
        self.scale = scale
        self.width = width // scale
        self.height = height // scale
        self.buf = bytearray(self.width * ((self.height + 7) // 8))
        self.fb = framebuf.FrameBuffer(self.buf, self.width, self.height, framebuf.MONO_VLSB)
        self.ink = self.buf if scale == 1 else bytearray(width * ((height + 7) // 8))
        self.path = "%s/panel%d" % (board.out, p)
        self.ms = (partial_ms, full_ms)
        self.until = None
        self.idle = None

    def show(self, full=False):
        # MONO_VLSB bytes, colour 1 = ink: the page turns them into pixels
        if self.scale == 2:
            _double(self.ink, self.buf, self.width, self.height)
        with open(self.path, "wb") as f:
            f.write(self.ink)
        ms = int(self.ms[1 if full else 0] * self.board.speed)
        self.until = time.ticks_add(time.ticks_ms(), ms)
        self.board.events.append(("refresh", self.p, "full" if full else "partial", ms))

    def busy(self):
        if self.until is None:
            return False
        if time.ticks_diff(self.until, time.ticks_ms()) > 0:
            return True
        self.until = None
        return False

    def wait(self, idle=None):
        while self.busy():
            if idle is not None:
                idle()
            time.sleep_ms(1)

    def sleep(self):
        pass


class Hardware:
    """What hal.Hardware offers the app, for the page. ``board``: the
    validated board definition (boarddef.load); ``speed``: 1 = the real
    panel's refresh times, 0 = instant; ``out``: the folder of the panel
    files; ``seed``: what entropy() returns first (a given deal), else
    random."""

    def __init__(self, board, full_ms, partial_ms, speed=1.0, out="/tmp",
                 seed=None, random_bits=None):
        self.speed = speed
        self.out = out
        self.events = []
        self.seed = seed
        self.random_bits = random_bits
        self.displays = []
        self.leds = []
        self.pins = []
        for p, player in enumerate(board["players"]):
            panel = player["panel"]
            self.displays.append(Display(self, p, panel["width"], panel["height"],
                                         full_ms, partial_ms, panel.get("scale", 1)))
            self.leds.append(Led(self, p))
            self.pins.append({name: Pin() for name in NAMES})
        self.buttons = Buttons(self.pins, board["timing"])

    def button(self, p, name, down):
        """The page's key or touch: button ``name`` of player p goes down
        (or up)."""
        self.pins[p][name].set(down)

    def take(self):
        """The events since the last call: ("refresh", p, kind, ms),
        ("led", p, on), ("reset",)."""
        ev = self.events
        self.events = []
        return ev

    def entropy(self):
        if self.seed is not None:
            n = self.seed
            self.seed = None
            return n
        if self.random_bits is not None:
            return self.random_bits(30)
        n = 0
        for _ in range(8):  # jitter between two clocks, as hal.py falls back to
            n = (n * 31 + time.ticks_us()) & 0x3FFFFFFF
        return n

    def random_bytes(self, n):
        """``n`` (at most 32) random bytes for a hand's deal key: the
        browser's crypto.getRandomValues (the WebAssembly port has no
        os.urandom), hashed as hal.py hashes its own."""
        from hashlib import sha256
        try:
            import js  # type: ignore[import-not-found]
            raw = bytes(js.crypto.getRandomValues(js.Uint8Array.new(32)))
        except Exception:   # not in a browser (a host test): the PRNG
            raw = bytes(self.random_bits(8) if self.random_bits else 0 for _ in range(32))
        t = time.ticks_us()
        return sha256(raw + bytes((t & 255, (t >> 8) & 255, (t >> 16) & 255))).digest()[:n]

    def busy(self):
        for d in self.displays:
            if d.busy():
                return True
        return False

    def reset(self):
        """The page restarts the firmware (it reloads; the game resumes)."""
        self.events.append(("reset",))
