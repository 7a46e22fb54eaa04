"""One e-paper panel and what is on it: when to start an update (only when
the picture changed), partial or full (a full one at hand boundaries and
after ``partials_before_full`` partials), and whether the last one has
reached the ink. The app keeps one Panel per player (firmware/app.py)."""

try:
    from binascii import crc32 as _digest
except ImportError:  # a port without it: keep a full copy instead
    _digest = None


class Panel:
    """One e-paper panel and what is on it. ``push()`` starts an update only
    when the framebuffer differs from the panel's content; partial updates
    until ``partials_before_full`` or a requested full refresh.

    What is on the panel is remembered as a CRC-32 of the framebuffer (an
    int instead of a 4.7 KB copy per panel), taken once after each redraw
    (``drawn``), not on every turn of the main loop. On an RP2040 it costs
    0.9 ms; the SHA-256 it replaced cost 5.2 ms of a cursor move's 30 ms
    reaction budget (docs/emulated-pico.md). A redraw that changed the
    image but kept its CRC would not be shown: a change within 32
    consecutive bits is always caught, any other but for odds of 1 in
    2**32, and the next redraw that changes anything shows it."""

    def __init__(self, disp, partials_before_full):
        self.d = disp             # a display driver (firmware/display.py)
        self.fb = disp.fb
        self.w = disp.width
        self.h = disp.height
        self.shown = None         # what the panel shows is unknown at boot
        self.drawn = True         # the frame buffer changed since push() looked
        self.need_full = True
        self.partials = 0
        self.limit = partials_before_full
        self.started = None
        self.good = 0

    def _sig(self):
        mv = memoryview(self.fb)
        if _digest is None:
            return bytes(mv)
        return _digest(mv)

    def refreshing(self):
        """True while the last push is on its way to the ink. The driver
        raises EPDTimeout (an OSError) when it takes too long."""
        if self.started is None:
            return False
        try:
            if self.d.busy():
                return True
        except OSError:
            self.started = None
            raise
        self.started = None
        self.good += 1          # BUSY went low: this panel works
        return False

    def changed(self):
        return self.drawn

    def push(self, full_ok=True):
        """Start the update of what was drawn, if it changed; True if one
        started. ``full_ok=False``: the full refresh due after ``limit``
        partials is put off (a reply waits behind this update) until
        clean(), or at most ``limit`` more partials."""
        if self.refreshing() or not self.drawn:
            return False
        sig = self._sig()
        if sig == self.shown:
            self.drawn = False
            return False
        full = self.need_full or self.partials >= (self.limit if full_ok else 2 * self.limit)
        self._show(full)
        self.shown = sig
        self.drawn = False
        return True

    def clean(self):
        """The full refresh put off by push(full_ok=False), of the picture
        on the panel, once nothing waits behind it; True if it started."""
        if self.partials < self.limit or self.drawn or self.refreshing():
            return False
        self._show(True)
        return True

    def _show(self, full):
        self.d.show(full=full)
        self.started = True   # until refreshing() sees BUSY end
        if full:
            self.need_full = False
            self.partials = 0
        else:
            self.partials += 1
