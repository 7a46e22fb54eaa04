"""One running virtual board as the front ends see it.

A :class:`Session` owns the board, its serial port (opened with pyserial,
exactly as a client would open a real Pico's /dev/ttyACM0) and a log of the
serial traffic for the console pane. The board calls ``on_event`` from its
own thread; events are queued here and drained by the front end's loop, so
no UI code ever runs on the board's thread.
"""
import collections
import json
import os
import queue
import random
import threading
import time

from okgin.errors import CommandError
from okgin.lib.transport import parse_fields

READY_TIMEOUT = 30.0   # s; a cold boot compiles the engine on a loaded machine
REPLY_TIMEOUT = 20.0   # s; a hard computer move can take a while under MicroPython


def default_flash_dir():
    """Per-user, persistent: a game survives closing the simulator."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "okgin", "sim-flash")


# What --fresh removes: the saved game and settings, never anything else (a
# mistyped --flash-dir must not cost the user a directory).
SAVED_STATE = ("game.okg", "game.tmp", "settings.json")


def clear_saved_state(flash_dir):
    removed = []
    for name in SAVED_STATE:
        path = os.path.join(flash_dir, name)
        if os.path.exists(path):
            os.remove(path)
            removed.append(name)
    return removed


def new_game_on_flash(flash_dir, seed=None, vs=None):
    """Put a new game on the board's flash before it boots, as the table's
    menu would start it: the record says who plays each seat (the computer
    plays seat 1), the rules are the menu's settings. Test mode cannot do
    this any more: its games are its own (docs/reliability.md)."""
    try:
        with open(os.path.join(flash_dir, "settings.json")) as f:
            settings = f.read()
    except OSError:
        settings = None
    seed, record = new_game_record(settings, seed, vs)
    tmp = os.path.join(flash_dir, "game.tmp")
    with open(tmp, "w") as f:
        f.write(record)
    os.replace(tmp, os.path.join(flash_dir, "game.okg"))
    return seed


def new_game_record(settings, seed=None, vs=None):
    """(seed, the saved-game text of a new game) with the rules of the
    settings.json text ``settings`` (None: no settings), as the menu
    starts one (new_game_on_flash; the emulated Pico's okgin sim --chip)."""
    from okgin.engine import Match, Rules
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 30)
    rules = Rules()
    try:
        rules = Rules(**json.loads(settings).get("rules"))
    except (TypeError, ValueError, AttributeError):
        pass   # no settings, or not usable: the defaults, as the menu does
    return seed, Match(rules, seed=seed, players=("human", vs or "human")).to_record()


def load_timing(board_path):
    try:
        with open(board_path) as f:
            return json.load(f).get("timing", {})
    except (OSError, ValueError):
        return {}


def make_board(flash_dir, speed=1.0, board_path=None, heapsize=None, lock=None):
    """The real virtual board (okgin.vboard). Imported here, not at module
    level, so the front ends can be tested and documented on their own."""
    try:
        from okgin.vboard import VirtualBoard, populate
    except ImportError as e:
        raise CommandError("the virtual board (okgin.vboard) is not available: %s" % e) from e
    # heapsize None: the board's default, the firmware's budget
    kw = {"speed": speed, "flash_dir": flash_dir, "heapsize": heapsize, "lock": lock}
    if board_path:
        kw["board"] = board_path
    # Bring the board's flash up to date with this checkout's firmware, as
    # `okgin flash` would (compiled); the saved game and settings are kept.
    populate(flash_dir, board=board_path, compiled=True)
    return VirtualBoard(**kw)


class Session:
    """The board plus its serial console. ``board`` is anything with the
    VirtualBoard API (docs/architecture.md)."""

    def __init__(self, board, timing=None, log_size=2000):
        self.board = board
        self.timing = timing or {}
        self.events: "queue.Queue[tuple]" = queue.Queue()
        self.log: "collections.deque[tuple[int, str, str]]" = collections.deque(maxlen=log_size)  # (seq, "<"|">"|"!", text)
        self.log_seq = 0
        self._log_lock = threading.Lock()
        self._replies: "queue.Queue[str]" = queue.Queue()
        self._send_lock = threading.Lock()
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._serial = None
        self._reader = None
        self._held = {}           # (player, button) -> monotonic time, fallback holds
        self.ready_line = None
        self.presses = 0
        self.last_press = None
        self.last_release = None  # (player, button, held ms)
        self._refreshing = set()
        self.last_activity = time.monotonic()
        board.on_event = self._on_event

    # -- life cycle ---------------------------------------------------------
    def start(self, ready_timeout=READY_TIMEOUT):
        """Boot the board, open its port, wait for the firmware's READY."""
        self.board.start()
        from okgin.lib.transport import open_serial   # exclusive, as every okgin tool
        self._serial = open_serial(self.board.port)
        self._reader = threading.Thread(target=self._read_loop, name="okgin-serial", daemon=True)
        self._reader.start()
        if not self.wait_ready(ready_timeout):
            raise CommandError("the virtual board did not answer within %d s (no READY line); "
                               "see the console log: %s" % (ready_timeout, self.tail_text(5) or "empty"))

    def wait_ready(self, timeout):
        """READY may have gone out before the port was opened: ask `hello`
        too, and take whichever answer comes first."""
        if self._ready.wait(min(1.0, timeout)):
            return True
        deadline = time.monotonic() + timeout
        self.write_line("hello")
        while time.monotonic() < deadline:
            if self._ready.wait(0.1):
                return True
            crash = self.firmware_crash()
            if crash:
                raise CommandError("the firmware stopped while booting: %s "
                                   "(the serial console shows the traceback)" % crash)
        return False

    def firmware_crash(self):
        """The error line of a traceback followed by the REPL prompt (the
        firmware died and MicroPython's -i left the REPL), else None."""
        with self._log_lock:
            lines: "list[str]" = []
            for _, d, t in self.log:
                if d == "!":   # a power cycle: what came before is history
                    lines = []
                elif d == "<":
                    lines.append(t)
        if not lines or not lines[-1].startswith(">>>"):
            return None
        for i in range(len(lines)):  # the first traceback is the firmware's
            if lines[i].startswith("Traceback"):
                for t in lines[i + 1:]:
                    if not t.startswith(" "):
                        return t.strip()
        return None

    def close(self):
        self._stop.set()
        try:
            if self._serial is not None:
                self._serial.close()
        except Exception:
            pass
        try:
            self.board.stop()
        except Exception:
            pass
        if self._reader is not None:
            self._reader.join(timeout=1.0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _alive(self):
        return getattr(self.board, "alive", True)

    # -- serial -------------------------------------------------------------
    def _add_log(self, direction, text):
        with self._log_lock:
            self.log_seq += 1
            self.log.append((self.log_seq, direction, text))

    def log_since(self, seq):
        with self._log_lock:
            return [e for e in self.log if e[0] > seq]

    def tail_text(self, n):
        with self._log_lock:
            return " | ".join(t for _, _, t in list(self.log)[-n:])

    def _read_loop(self):
        buf = b""
        while not self._stop.is_set():
            try:
                chunk = self._port().read(512)
            except Exception:
                if self._stop.is_set():
                    return
                time.sleep(0.1)  # the port can blink during a reset; keep trying
                continue
            if not chunk:
                continue
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line = raw.rstrip(b"\r").decode("ascii", "replace")
                self._add_log("<", line)
                if line.startswith("READY "):
                    self.ready_line = line
                    self._ready.set()
                    self.events.put(("ready", line))   # the firmware (re)started
                elif line.startswith("OK okgin ") and not self._ready.is_set():
                    self._ready.set()  # the answer to our `hello`
                else:
                    self._replies.put(line)
            # A REPL prompt ends without a newline; show it anyway.
            if buf.endswith((b">>> ", b"=== ")):
                self._add_log("<", buf.decode("ascii", "replace"))
                buf = b""

    def _port(self):
        if self._serial is None:
            raise CommandError("the simulator's serial port is not open (start() first)")
        return self._serial

    def write_line(self, line):
        """Send a line without waiting (the console's input line)."""
        self._add_log(">", line)
        port = self._port()
        port.write(line.encode("ascii", "replace") + b"\n")
        port.flush()

    def send(self, line, timeout=REPLY_TIMEOUT):
        """One request, one reply (block answers joined by newlines)."""
        with self._send_lock:
            while not self._replies.empty():  # drop stray lines (console traffic)
                self._replies.get_nowait()
            self.write_line(line)
            first = self._next_reply(line, timeout)
            if first.startswith("OK lines="):
                try:
                    n = int(first.split("=", 1)[1].split()[0])
                except ValueError:
                    return first
                rest = [self._next_reply(line, timeout, any_line=True) for _ in range(n)]
                return "\n".join([first] + rest)
            return first

    def _next_reply(self, line, timeout, any_line=False):
        """The next OK/ERR line (other lines are console noise), or with
        ``any_line`` the next line whatever it is (a block's lines: a
        record, the statistics' JSON)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CommandError("no reply from the board to %r within %d s" % (line, timeout))
            try:
                reply = self._replies.get(timeout=min(left, 0.2))
            except queue.Empty:
                continue
            if any_line or reply.startswith(("OK", "ERR")):
                return reply

    def command(self, line, timeout=REPLY_TIMEOUT):
        """send() that turns an ERR into a CommandError."""
        reply = self.send(line, timeout)
        if reply.startswith("ERR"):
            raise CommandError("the board refused %r: %s" % (line, reply))
        return reply

    # -- buttons ------------------------------------------------------------
    def _note_press(self, player, button, kind):
        self.presses += 1
        self.last_press = (player, button, kind)
        self.last_activity = time.monotonic()

    def press(self, player, button, long=False):
        self._note_press(player, button, "long" if long else "short")
        self.board.press(player, button, long=long)

    def hold(self, player, button):
        """Button goes down (and stays down until release())."""
        self._note_press(player, button, "down")
        self._held[(player, button)] = time.monotonic()
        if hasattr(self.board, "hold"):
            self.board.hold(player, button)

    def release(self, player, button):
        t0 = self._held.pop((player, button), None)
        held_ms = (time.monotonic() - t0) * 1000 if t0 is not None else 0
        self.last_release = (player, button, held_ms)
        self.last_activity = time.monotonic()
        if hasattr(self.board, "release"):
            self.board.release(player, button)
        elif t0 is not None:  # a board without hold/release: one press, long if held long
            self.board.press(player, button, long=held_ms >= self.timing.get("long_press_ms", 600))

    def power_cycle(self):
        self._ready.clear()
        self._add_log("!", "power cycle")
        self.board.power_cycle()

    # -- panels and events --------------------------------------------------
    def _on_event(self, event):
        self.last_activity = time.monotonic()
        kind = event[0]
        if kind == "refresh":
            self._refreshing.add(event[1])
        elif kind == "ended":
            self._refreshing.discard(event[1])
        elif kind in ("reset", "exit"):
            self._refreshing.clear()
        self.events.put(tuple(event))

    def drain_events(self):
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def panel(self, player):
        return self.board.panel_image(player)

    def panel_key(self, player):
        """Fingerprint of what the panel shows, to redraw only on change."""
        return self.board.panel_image(player).tobytes()

    def _computer_thinking(self):
        st = parse_fields(self.send("status"))
        return (st.get("vs", "human") != "human" and st.get("screen") == "game"
                and st.get("to_move") == "1" and st.get("phase") != "over")

    def sync(self, quiet_ms=400, timeout=60.0):
        """Wait until the firmware has handled every press and both panels
        have settled. Uses the protocol's `sync` where the firmware allows it
        (test mode); otherwise waits until nothing has changed for
        ``quiet_ms`` (no refresh running or started, same panel contents) and the
        computer player, if any, is not the one to move (`status`)."""
        # Asked every time: a script may switch test mode on and off.
        if self.send("sync", timeout).startswith("OK"):
            return
        deadline = time.monotonic() + timeout
        keys = [self.panel_key(0), self.panel_key(1)]
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now_keys = [self.panel_key(0), self.panel_key(1)]
            if now_keys != keys or self.last_activity > quiet_since or self._refreshing:
                keys = now_keys
                quiet_since = time.monotonic()
            elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
                if not self._computer_thinking():
                    return
                quiet_since = time.monotonic()
        raise CommandError("the board did not settle within %d s" % timeout)


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
