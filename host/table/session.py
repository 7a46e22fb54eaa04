"""One running board as the simulator's front ends see it, and how it is
opened (``open_session``: okgin sim's window, terminal and scripts, okgin
stats).

A :class:`Session` owns the board (either kind: okgin.table.boards), its
serial client (okgin.lib.transport, listening: it opens the port exactly as
a client would open a real Pico's /dev/ttyACM0) and a log of the serial
traffic for the console pane. The board calls ``on_event`` from its own
thread; events are queued here and drained by the front end's loop, so no
UI code ever runs on the board's thread.
"""
import collections
import json
import os
import queue
import random
import sys
import threading
import time

from ..lib.errors import CommandError
from ..lib import transport
from . import boards
from .files import DirFiles, ReplFiles, forget_saved_state
from ..lib.transport import parse_fields

READY_TIMEOUT = 30.0   # s; a cold boot compiles the engine on a loaded machine
REPLY_TIMEOUT = 20.0   # s; a hard computer move can take a while under MicroPython


def default_flash_dir():
    """Per-user, persistent: a game survives closing the simulator."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "okgin", "sim-flash")


def clear_saved_state(flash_dir):
    """--fresh on the virtual board's flash directory (the saved game and
    the settings, nothing else: okgin.table.files.forget_saved_state).
    Returns the names removed."""
    return forget_saved_state(DirFiles(flash_dir))


def new_game_on_flash(flash_dir, seed=None, vs=None):
    """Put a new game on the board's flash before it boots, as the table's
    menu would start it: the record says who plays each seat (the computer
    plays seat 1), the rules are the menu's settings. Test mode cannot do
    this any more: its games are its own (docs/reliability.md)."""
    files = DirFiles(flash_dir)
    got = files.visit(read=("settings.json", "game.okg"))
    settings = got["settings.json"]
    seed, record = new_game_record(None if settings is None else settings.decode("utf-8", "replace"),
                                   seed, vs)
    # the game it replaces is kept first (a copy: a crash in between
    # leaves both), then the new one goes in through a temporary file
    keep_aside(got["game.okg"] or b"", flash_dir)
    files.put("game.okg", record)
    return seed


def keep_aside(old, folder, out=None):
    """A new game asked for (--seed, --vs) where one is saved: ``old``, the
    saved record's bytes, is kept whole in ``folder`` as
    replaced-<date>-<time>.okg (never over another), and the user is told
    which game that was and how to play it on. Returns its path, or None
    when there was nothing to keep."""
    if not old.strip():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = os.path.join(folder, "replaced-%s.okg" % stamp)
    n = 1
    while os.path.exists(path):
        n += 1
        path = os.path.join(folder, "replaced-%s-%d.okg" % (stamp, n))
    with open(path, "xb") as f:
        f.write(old)
    out = sys.stderr if out is None else out
    out.write("okgin: the game saved on this table (%s) was not replaced: it is kept as %s "
              "(put it back as game.okg to play it on; okgin replay shows it)\n"
              % (describe_record(old), path))
    out.flush()
    return path


def describe_record(data):
    """A saved game in a few words: hand, scores, who plays seat 1."""
    from okgin.engine import Match
    try:
        m = Match.from_record(data.decode("utf-8"))
    except Exception:   # noqa: BLE001 - a damaged record is kept all the same
        return "a record that does not read as a game"
    who = "two players" if m.players[1] == "human" else "against %s" % m.players[1]
    state = "won" if m.winner is not None else "hand %d" % m.hand_no
    return "%s, %s, %d-%d" % (who, state, m.scores[0], m.scores[1])


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
    """The virtual board on ``flash_dir``, its firmware brought up to date
    with this checkout's as `okgin flash` would (compiled); the player's
    files are kept. heapsize None: the board's default, the firmware's
    budget. (The emulated Pico's counterpart: flashed_chip.)"""
    return boards.make_board("vboard", flash=flash_dir, eink=speed, board=board_path or None,
                             heapsize=heapsize, lock=lock, populate=True)


# -- the emulated Pico, for people to play (okgin sim --chip) -------------------
# Like a Pico on the desk, its flash is a per-user file that keeps the
# firmware and the saved game; each start brings the firmware up to date
# with this checkout through okgin flash (only the files that changed are
# sent, over the chip's USB serial port).

def wait_at_rest(chip, timeout=600.0):
    """Wait until the chip has booted: the okgin firmware's READY, or
    MicroPython's banner (no firmware yet), or a traceback. Returns the line."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for _t, line in chip.console_lines():
            if "READY okgin" in line or "MicroPython v" in line or line.startswith("Traceback"):
                return line
        if not chip.alive:
            raise CommandError("the emulated Pico stopped while booting: %s"
                               % (chip.last_exit[1] if chip.last_exit else "no message"))
        time.sleep(0.05)
    raise CommandError("the emulated Pico did not boot within %.0f s" % timeout)


def flashed_chip(flash=None, board_path=None, eink=1.0, fresh=False, realtime=True, seed=None,
                 vs=None, out=None):
    """A started ChipBoard running this checkout's firmware, its READY
    printed. ``fresh``: forget the saved game and settings first; ``seed``
    or ``vs``: a new game on its flash (as okgin sim puts one on the
    virtual board's), which it resumes when it boots."""
    from ..chip.chipboard import default_flash
    from .flashing import chip_clock, flash_board
    out = sys.stderr if out is None else out
    flash = flash or default_flash()
    _new_pico_from_cache(flash, board_path, out)
    chip = boards.make_board("chip", flash=flash, board=board_path or None, eink=eink,
                      realtime=realtime, out=out)
    try:
        out.write("okgin: starting the emulated Pico (flash: %s)\n" % chip.flash_path)
        out.flush()
        chip.start()
        wait_at_rest(chip)
        if fresh or seed is not None or vs:
            _on_the_chip(chip, fresh, seed, vs)
        out.write("okgin: bringing its firmware up to date with okgin flash (the first time "
                  "takes a minute or more: the emulator is slower than a Pico)\n")
        out.flush()
        flash_board(chip.port, out=out, clock=chip_clock(chip))
    except BaseException:
        chip.stop()
        raise
    return chip


def _new_pico_from_cache(flash, board_path, out):
    """A new Pico (no flash file yet) wired as the checkout's board starts
    as a copy of the one okgin flash flashed for $OKGIN_CHIP_CACHE, when
    that is set (okgin.table.flashed): okgin flash then finds it up to
    date instead of sending every file."""
    from . import flashed
    from ..lib.paths import BOARD, ROOT
    where = os.environ.get(flashed.ENV)
    same_board = board_path is None or os.path.abspath(board_path) == os.path.abspath(BOARD)
    if not where or os.path.exists(flash) or not same_board:
        return
    out.write("okgin: a new emulated Pico, a copy of the one flashed in %s\n" % where)
    out.flush()
    flashed.copy(where, flash, ROOT, BOARD, out=out)


def _on_the_chip(chip, fresh, seed, vs):
    """Through the chip's REPL (before okgin flash resets it): forget the
    saved game and settings, and/or write a new game's record."""
    from .repl import Repl
    with Repl(chip.port, timeout=5) as repl:
        repl.enter(tries=1, timeout=30, diagnose=False, clock=chip.patience_clock(), patience=60)
        if fresh:
            forget_saved_state(ReplFiles(repl, timeout=60))
        if seed is not None or vs:
            got = repl.visit(read=("settings.json", "game.okg"), timeout=60)
            settings = got["settings.json"]
            _seed, record = new_game_record(None if settings is None else settings.decode("utf-8", "replace"),
                                            seed, vs)
            # the saved game it replaces: kept beside the chip's flash
            # file (okgin flash would delete a stray file on the chip)
            keep_aside(got["game.okg"] or b"", os.path.dirname(os.path.abspath(chip.flash_path)))
            repl.visit(put={"game.okg": record}, timeout=60)
        repl.leave(reset=False)


def open_session(args, flash_dir, speed):
    """Boot the board okgin sim's ``args`` ask for (``--chip``: the
    emulated Pico, whose flash file is ``flash_dir``), start the requested
    game (--seed, --vs) and return the started Session: what every front
    end (window, terminal, script) plays on."""
    board_path = args.board or None
    timing = load_timing(board_path or _default_board())
    if getattr(args, "chip", False):
        # a person waits in wall-clock time; a script needs no such wait
        board = flashed_chip(flash=flash_dir, board_path=board_path, eink=speed, fresh=args.fresh,
                             realtime=not args.headless, seed=args.seed, vs=args.vs)
    else:
        board = make_board(flash_dir=flash_dir, speed=speed, board_path=board_path,
                           heapsize=getattr(args, "heapsize", None),
                           lock=getattr(args, "flash_lock", None))
        if args.seed is not None or args.vs:
            new_game_on_flash(flash_dir, seed=args.seed, vs=args.vs)
    s = Session(board, timing=timing)
    try:
        s.start()
        if getattr(args, "lang", None):
            # the serial port's lang command: what the menu's Language does
            got = parse_fields(s.command("lang " + args.lang)[3:]).get("lang")
            if got != args.lang:
                # the firmware falls back to English when a language will
                # not load (a damaged file, or a heap too full for it)
                raise CommandError("the table could not switch to %s: it answered lang=%s"
                                   % (args.lang, got))
    except BaseException:
        s.close()
        raise
    return s


def _default_board():
    from ..lib.paths import BOARD
    return BOARD


class Session:
    """The board plus its serial console. ``board`` is an EmulatedBoard
    (okgin.table.boards: the virtual board or the emulated Pico)."""

    def __init__(self, board, timing=None, log_size=2000):
        self.board = board
        self.timing = timing or {}
        self.events: "queue.Queue[tuple]" = queue.Queue()
        self.log: "collections.deque[tuple[int, str, str]]" = collections.deque(maxlen=log_size)  # (seq, "<"|">"|"!", text)
        self.log_seq = 0
        self._log_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._ready = threading.Event()
        self.client: "transport.Board | None" = None
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
        # exclusive, as every okgin tool; read as lines arrive, for the console
        self.client = transport.Board(self.board.port, timeout=REPLY_TIMEOUT,
                                      on_line=self._heard).listen()
        self.client.open()
        if not self.wait_ready(ready_timeout):
            raise CommandError("the virtual board did not answer within %d s (no READY line); "
                               "see the console log: %s" % (ready_timeout, self.tail_text(5) or "empty"))

    def wait_ready(self, timeout):
        """READY may have gone out before the port was opened: ask `hello`
        too, and take whichever answer comes first."""
        if self._ready.wait(min(1.0, timeout)):
            return True
        deadline = time.monotonic() + timeout
        self._client().probe()
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
        try:
            if self.client is not None:
                self.client.close()
        except Exception:
            pass
        try:
            self.board.stop()
        except Exception:
            pass

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

    def _heard(self, direction, text):
        # the client's tap on the traffic (its reader's thread, or the writer's)
        self._add_log(direction, text)
        if direction != "<":
            return
        if text.startswith("READY "):
            self.ready_line = text
            self._ready.set()
            self.events.put(("ready", text))   # the firmware (re)started
        elif text.startswith("OK okgin ") and not self._ready.is_set():
            # the answer to our `hello`: a board that printed READY before
            # we listened (the emulated Pico, just flashed) names its
            # firmware here
            self.ready_line = self.ready_line or text
            self._ready.set()

    def _client(self):
        if self.client is None:
            raise CommandError("the simulator's serial port is not open (start() first)")
        return self.client

    def write_line(self, line):
        """Send a line without waiting (the console's input line)."""
        self._client().write_line(line)

    def send(self, line, timeout=REPLY_TIMEOUT):
        """One request, one reply as the firmware wrote it: ``OK ...`` or
        ``ERR ...`` (block answers: their lines joined by newlines)."""
        c = self._client()
        with self._send_lock:
            c.flush_input()     # lines nobody asked for (console traffic)
            try:
                head = c.request(line, timeout)
            except transport.ProtocolError as e:
                return "ERR " + e.reason
            first = ("OK " + head) if head else "OK"
            n = parse_fields(head).get("lines") if head.startswith("lines=") else None
            if n is None:
                return first
            return "\n".join([first] + c.read_block(line, n, timeout))

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
