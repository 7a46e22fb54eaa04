"""What a front end of okgin sim runs beside its board, off its own thread:
a Worker for the board calls (a press holds a pin for milliseconds, a power
cycle restarts a process), a Watcher that reads the panels, counts and LEDs,
and the status line's notes. The session itself is okgin.table.session."""
import queue
import threading

from ..lib.transport import parse_fields


def speed_note(session):
    """On the emulated Pico: how fast it computes here, against a real Pico
    ('emulated Pico: 0.25x a real Pico's speed'); None on other boards."""
    measure = getattr(session.board, "emulation_speed", None) if session is not None else None
    if measure is None:
        return None
    v = measure()
    return "emulated Pico: %s a real Pico's speed" % ("%.2f\u00d7" % v if v else "measuring")


def ready_note(session):
    """'board ready, firmware 0.1.0' from `READY okgin fw=0.1.0 proto=1 ...`."""
    return "board ready, firmware %s" % parse_fields(session.ready_line or "").get("fw", "?")


class Worker:
    """Runs board calls in order, off the UI thread (a press holds a pin
    for emulated milliseconds; a power cycle restarts a process)."""

    def __init__(self, on_error):
        self.q: "queue.Queue[tuple | None]" = queue.Queue()   # None: stop
        self.on_error = on_error
        self.t = threading.Thread(target=self._loop, name="okgin-sim-worker", daemon=True)
        self.t.start()

    def __call__(self, fn, *args, **kw):
        self.q.put((fn, args, kw))

    def _loop(self):
        while True:
            item = self.q.get()
            if item is None:
                return
            fn, args, kw = item
            try:
                fn(*args, **kw)
            except Exception as e:  # shown in the status line; the window stays up
                self.on_error(e)

    def stop(self):
        self.q.put(None)


class Watcher:
    """Reads the panels, refresh counts and LEDs off the UI thread, so a UI
    never waits on the board (an observer may wait for the board's pin link
    to settle while the firmware is busy). The UI takes the latest snapshot."""

    def __init__(self, session, period=0.02, slow_every=5):
        self.session = session
        self.period = period
        self.slow_every = slow_every   # counts and LEDs: every 5th round (100 ms)
        self._lock = threading.Lock()
        self._panels = [(None, None), (None, None)]   # (key, image)
        self._counts: "list[dict[str, int]]" = [{}, {}]
        self._leds: "list[bool | None]" = [None, None]
        self._stop = threading.Event()
        self.error = None
        self._t = threading.Thread(target=self._loop, name="okgin-sim-watch", daemon=True)
        self._t.start()

    def _loop(self):
        board = self.session.board
        n = 0
        while not self._stop.is_set():
            try:
                for p in (0, 1):
                    # one rendering per look: the key is that image's bytes
                    img = self.session.panel(p)
                    key = img.tobytes()
                    if key != self._panels[p][0]:
                        with self._lock:
                            self._panels[p] = (key, img)
                if n % self.slow_every == 0:
                    counts = [board.refresh_counts(p) if hasattr(board, "refresh_counts") else {} for p in (0, 1)]
                    leds = [bool(board.led(p)) if hasattr(board, "led") else None for p in (0, 1)]
                    with self._lock:
                        self._counts, self._leds = counts, leds
                self.error = None
            except Exception as e:  # the board restarting or stopped: try again
                self.error = e
            n += 1
            self._stop.wait(self.period)

    def panel(self, p):
        """(key, image) of the latest panel seen; (None, None) before the first."""
        with self._lock:
            return self._panels[p]

    def counts(self, p):
        with self._lock:
            return dict(self._counts[p])

    def led(self, p):
        with self._lock:
            return self._leds[p]

    def stop(self):
        self._stop.set()
        self._t.join(timeout=1.0)
