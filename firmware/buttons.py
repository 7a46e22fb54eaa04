# Buttons: polled, debounced, with short/long presses and auto-repeat.
#
# Only ever calls pin.value() (0 = pressed: the pins are inputs with pull-ups
# and the buttons short them to ground), so real pins, the virtual board's
# pins and test fakes are interchangeable.
#
# When events fire:
# - left/right (moving the cursor): "short" as soon as the press is seen, for
#   responsiveness; held past repeat_delay_ms they send "repeat" every
#   repeat_ms. They never send "long".
# - ok/draw/take/knock: "short" on release if held less than long_press_ms;
#   "long" once, while still held, when the hold reaches long_press_ms (and
#   nothing on that release), so a long press is felt without letting go.
# Debounce: a change of a pin is taken at once, then further changes of that
# pin are ignored for debounce_ms (contact bounce). A press shorter than the
# poll interval can be missed; one seen in a single poll is never lost.
# Events wait in a bounded queue; polling from the e-paper wait() idle hook
# keeps presses made during a refresh. At most one "repeat" per button is
# queued at a time, so holding right during a slow refresh moves one step
# per refresh instead of racing ahead afterwards.

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython: the same helpers without wrap-around
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

NAMES = ("left", "right", "ok", "draw", "take", "knock")
KINDS = ("short", "long", "repeat")
REPEATING = ("left", "right")


class _Button:
    # Plain attributes, no per-poll allocation.
    def __init__(self, player, name, pin):
        self.player = player
        self.name = name
        self.pin = pin
        self.repeats = name in REPEATING
        self.down = False        # debounced state
        self.changed = 0         # ticks of the last accepted change
        self.held_event = False  # long or repeat already sent for this press
        self.inert = False       # held since start-up: no events until released
        self.wait = 0            # ms from `changed`/last repeat to the next repeat


class Buttons:
    # Defaults; board.json "timing" overrides them per instance.
    debounce_ms = 20
    long_press_ms = 600
    repeat_delay_ms = 400
    repeat_ms = 150
    queue_size = 32

    def __init__(self, pins, timing=None, clock=None):
        """pins: one dict per player, button name -> object with value().

        clock: a ticks_ms()-like function (tests drive time with it).
        """
        if timing:
            for key in ("debounce_ms", "long_press_ms", "repeat_delay_ms", "repeat_ms"):
                if key in timing:
                    setattr(self, key, timing[key])
        self._clock = clock or ticks_ms
        self._buttons = []
        for player in range(len(pins)):
            for name in NAMES:
                if name in pins[player]:
                    self._buttons.append(_Button(player, name, pins[player][name]))
        self.players = len(pins)
        self._queue = []
        self.dropped = 0  # events lost to a full queue (should stay 0)
        now = self._clock()
        for b in self._buttons:
            # A button already held at start-up (or stuck) counts as down
            # without an event, so it cannot fire by itself at boot.
            b.down = b.pin.value() == 0
            b.inert = b.down
            # As if the last change were long ago: the first press counts.
            b.changed = ticks_add(now, -self.debounce_ms)

    def _put(self, event):
        if len(self._queue) >= self.queue_size:
            self.dropped += 1
            return
        self._queue.append(event)

    def poll(self):
        """Read every pin once and queue the events due now."""
        now = self._clock()
        for b in self._buttons:
            down = b.pin.value() == 0
            if down != b.down:
                if ticks_diff(now, b.changed) < self.debounce_ms:
                    continue  # bounce
                b.down = down
                b.changed = now
                if down:
                    b.held_event = False
                    b.wait = self.repeat_delay_ms
                    if b.repeats:
                        self._put((b.player, b.name, "short"))
                elif b.inert:
                    b.inert = False
                elif not b.repeats and not b.held_event:
                    self._put((b.player, b.name, "short"))
                continue
            if not down or b.inert or (b.held_event and not b.repeats):
                continue
            if b.repeats:
                if ticks_diff(now, b.changed) >= b.wait:
                    # Count the next interval from now, not from the missed
                    # slot: a stalled poll must not produce a burst.
                    b.changed = now
                    b.wait = self.repeat_ms
                    b.held_event = True
                    if (b.player, b.name, "repeat") not in self._queue:
                        self._put((b.player, b.name, "repeat"))
            elif ticks_diff(now, b.changed) >= self.long_press_ms:
                b.held_event = True
                self._put((b.player, b.name, "long"))

    def get(self):
        """The next event (player, button, kind), or None."""
        if self._queue:
            return self._queue.pop(0)
        return None

    def pending(self):
        return len(self._queue)

    def pressed(self, player, name):
        """Debounced state of one button (True while held)."""
        for b in self._buttons:
            if b.player == player and b.name == name:
                return b.down
        raise ValueError("no button %r for player %r" % (name, player))

    def inject(self, player, button, kind="short"):
        """Queue an event as if pressed (the serial `press` command)."""
        if isinstance(player, bool) or player not in range(self.players):
            raise ValueError("player must be 0..%d, not %r" % (self.players - 1, player))
        if button not in NAMES:
            raise ValueError("button must be one of %s, not %r" % (" ".join(NAMES), button))
        if kind not in KINDS:
            raise ValueError("kind must be one of %s, not %r" % (" ".join(KINDS), kind))
        if len(self._queue) >= self.queue_size:
            # Refuse rather than drop: the caller can answer ERR.
            raise ValueError("button queue full")
        self._queue.append((player, button, kind))
