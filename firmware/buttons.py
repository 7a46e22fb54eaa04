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

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# Per-button state lives in a few flat arrays indexed by button number, not
# in one object per button: 12 small objects with their attribute dicts cost
# about 2 KB of heap on the 64-bit unix port (docs/memory.md), and iterating
# over a list of them allocated an iterator per poll (1 kHz of garbage).
_DOWN = const(1)    # debounced state
_HELD = const(2)    # long or repeat already sent for this press
_INERT = const(4)   # held since start-up: no events until released
_REP = const(2)     # NAMES below this index auto-repeat: left and right


class Buttons:
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
        self.pins = []    # pin objects, button number order
        ids = []          # player << 3 | index in NAMES
        for player in range(len(pins)):
            for i in range(len(NAMES)):
                if NAMES[i] in pins[player]:
                    self.pins.append(pins[player][NAMES[i]])
                    ids.append(player << 3 | i)
        n = len(ids)
        self._id = bytes(ids)
        self._flags = bytearray(n)
        self._changed = [0] * n  # type: list  # ticks of the last accepted change
        self._wait = [0] * n  # type: list  # ms from _changed/last repeat to the next repeat
        self.players = len(pins)
        self._queue = []
        self.dropped = 0  # events lost to a full queue (should stay 0)
        now = self._clock()
        for k in range(n):
            if self.pins[k].value() == 0:
                self._flags[k] = _DOWN | _INERT
            self._changed[k] = ticks_add(now, -self.debounce_ms)

    def held(self, player, name):
        """Is that button down right now (e.g. held while powering on)?"""
        for k in range(len(self.pins)):
            i = self._id[k]
            if i >> 3 == player and NAMES[i & 7] == name:
                return self.pins[k].value() == 0
        return False

    def _event(self, k, kind):
        i = self._id[k]
        return (i >> 3, NAMES[i & 7], kind)

    def _put(self, event):
        if len(self._queue) >= self.queue_size:
            self.dropped += 1
            return
        self._queue.append(event)

    settling = False   # a change was seen within its debounce time

    def poll(self):
        """Read every pin once and queue the events due now."""
        now = self._clock()
        pins = self.pins
        flags = self._flags
        changed = self._changed
        settling = False
        for k in range(len(pins)):
            down = pins[k].value() == 0
            f = flags[k]
            rep = (self._id[k] & 7) < _REP
            if down != bool(f & _DOWN):
                if ticks_diff(now, changed[k]) < self.debounce_ms:
                    # bounce, or a release too soon after its press: taken
                    # by a later poll if it lasts (``settling`` till then)
                    settling = True
                    continue
                changed[k] = now
                if down:
                    flags[k] = (f | _DOWN) & ~_HELD
                    self._wait[k] = self.repeat_delay_ms
                    if rep:
                        self._put(self._event(k, "short"))
                elif f & _INERT:
                    flags[k] = f & ~(_DOWN | _INERT)
                else:
                    flags[k] = f & ~_DOWN
                    if not rep and not f & _HELD:
                        self._put(self._event(k, "short"))
                continue
            if not down or f & _INERT or (f & _HELD and not rep):
                continue
            if rep:
                if ticks_diff(now, changed[k]) >= self._wait[k]:
                    # Count the next interval from now, not from the missed
                    # slot: a stalled poll must not produce a burst.
                    changed[k] = now
                    self._wait[k] = self.repeat_ms
                    flags[k] = f | _HELD
                    ev = self._event(k, "repeat")
                    if ev not in self._queue:
                        self._put(ev)
            elif ticks_diff(now, changed[k]) >= self.long_press_ms:
                flags[k] = f | _HELD
                self._put(self._event(k, "long"))
        self.settling = settling

    def get(self):
        """The next event (player, button, kind), or None."""
        if self._queue:
            return self._queue.pop(0)
        return None

    def pending(self):
        return len(self._queue)

    def next_ms(self):
        """Milliseconds until a poll could queue an event with no pin
        changing meanwhile (a debounce ending, a long press, an
        auto-repeat), or None: until then only an edge can make one, so
        the chip may sleep (firmware/power.py)."""
        now = self._clock()
        best = None
        flags = self._flags
        changed = self._changed
        for k in range(len(flags)):
            f = flags[k]
            if self.settling:
                t = ticks_diff(ticks_add(changed[k], self.debounce_ms), now)
                if t > 0 and (best is None or t < best):
                    best = t
            if not f & _DOWN or f & _INERT:
                continue
            if (self._id[k] & 7) < _REP:
                t = ticks_diff(ticks_add(changed[k], self._wait[k]), now)
            elif f & _HELD:
                continue
            else:
                t = ticks_diff(ticks_add(changed[k], self.long_press_ms), now)
            if best is None or t < best:
                best = t
        if best is not None and best < 0:
            best = 0
        return best

    def held_any(self):
        """Is any button down (debounced)? Its long press or auto-repeat
        is still to come, so the loop keeps polling."""
        for f in self._flags:
            if f & _DOWN:
                return True
        return False

    def pressed(self, player, name):
        """Debounced state of one button (True while held)."""
        for k in range(len(self._id)):
            if self._event(k, None)[:2] == (player, name):
                return bool(self._flags[k] & _DOWN)
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
