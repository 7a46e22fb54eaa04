"""ChipBoard: an emulated Raspberry Pi Pico running the stock MicroPython rp2
image, wired like hardware/board.json (docs/emulated-pico.md).

The chip itself runs in Node (rp2040js, host/chip/glue.mjs); this side is
the rest of the table: the USB host, whose serial port is a pty that
mpremote, pyserial and ``okgin flash`` open like a Pico's /dev/ttyACM0; the
two SSD1680 panels and the twelve buttons (host/vboard/pins.py and
ssd1680.py, the same emulation the virtual board uses), with BUSY timed in
the chip's emulated time; the turn LEDs; the 2 MB flash, a file written
through as the chip erases and programs it; and the passing of time.

Time. The chip's clock is emulated (125 MHz, ~0.3x a real Pico's speed
on a PC). While the core sleeps (WFI) nothing runs, and we choose how much
emulated time passes: with ``realtime=True`` (a person at the table) as
much as passes on the wall clock; with ``realtime=False`` (tests, benches)
the same, except that when something is due at a known emulated moment (a
panel's BUSY falling, a button to release) the sleeping chip jumps there
at once. So a 2.5 s full refresh costs no wall time in a test, and an
idle board costs almost no CPU either way.

The same contract as okgin.vboard.VirtualBoard (okgin.table.boards.EmulatedBoard:
start, port, press/hold/release, panel_image, refresh_counts, led, stats,
on_event, kill, power_cycle, stop), so the simulator, ``okgin hil`` and
the benches take either.
"""
import atexit
import collections
import fcntl
import json
import math
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
import weakref
from typing import Any, Optional

from ..lib.errors import CommandError
from ..vboard.pins import BUTTONS, IN, OUT, PULL_DOWN, PULL_UP, BoardPins
from ..vboard.vboard import load_board

OUT_LIMIT = 65536       # chip -> host bytes waiting for a client that does not read
IN_WINDOW = 4096        # host -> chip bytes the chip may have queued, unread
SLICE_NS = 2_000_000    # emulated time between two reports while the chip runs
# Waits on the chip count its own time (see ChipBoard.patience_clock):
# wall time counts only once its clock has stood still this long (a hung
# emulator; a running chip reports every 2 ms of its time, an idle one at
# least every second)
STALL_S = 10.0

_LIVE: "weakref.WeakSet[ChipBoard]" = weakref.WeakSet()


@atexit.register
def _stop_all():
    for chip in list(_LIVE):
        try:
            chip.stop()
        except Exception:
            pass


class ChipError(CommandError):
    """An emulated-Pico problem with a one-line explanation."""


def default_flash():
    """The per-user emulated Pico's flash: like a Pico on the desk, it keeps
    its firmware and saved game between runs."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    folder = os.path.join(base, "okgin")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "pico-flash.bin")


class _Script:
    """Input changes the host makes in the chip's time: steps (delay_ns,
    reads, gpio, level) each applied once delay_ns of emulated time has
    passed since the previous one *and* the firmware has read its pins
    that many times since (level None = released, undriven); then ``end``,
    a last (delay_ns, reads) before the caller's wait is over."""

    def __init__(self, steps, end):
        self.steps = collections.deque(steps)
        self.end = end
        self.mark = None            # (emulated ns, pin reads) of the last step
        self.started_at = None      # emulated ns of the first step
        self.done = threading.Event()

    def waiting(self):
        return self.steps[0][:2] if self.steps else self.end


class ChipBoard:
    """See the module docstring. Thread-safety: the public methods may be
    called from any one thread; on_event is called from the board's thread."""

    def __init__(self, flash=None, board="hardware/board.json", firmware=None, bootrom=None,
                 realtime=True, eink=1.0, download=True, out=None, drop=None):
        if os.name != "posix":
            raise ChipError("the emulated Pico needs POSIX ptys (Linux or macOS); on Windows use WSL")
        self.board_path = board if isinstance(board, str) else None
        self.board = load_board(board)
        self.realtime = bool(realtime)
        if eink < 0:
            raise ChipError("eink must be >= 0 (1 = a real panel's refresh times)")
        self.eink = float(eink)
        self.flash_path = os.path.abspath(flash) if flash else ""   # "": a temporary one
        self._firmware = firmware
        self._bootrom = bootrom
        self._download = download
        self._out = sys.stderr if out is None else out
        # a UF2 file dragged onto the Pico's USB drive at the first power-on,
        # BOOTSEL held: the bootrom writes it (uf2drop.mjs) and boots it
        self._drop = os.path.abspath(drop) if drop else None
        self.dropped_blocks = (0, 0)     # (written, in the file) as the bootrom acknowledges them
        self.on_event = None        # ("refresh", p, kind, s), ("ended", p), ("led", p, on), ("reset",), ("exit", code)
        self.on_trace = None        # every raw chip event, for benches: (kind, t_ns, ...)
        self.port: Optional[str] = None
        self.firmware_path: Optional[str] = None
        self._t = 0                 # emulated ns, as of the last report
        # the board around the chip: pins, panels (their time is the chip's)
        self.pins = BoardPins(self.board, speed=self.eink, clock=self.clock)
        self.pins.on_event = self._emit
        self.boots = 0
        self.resets = 0
        self.power_cuts = 0
        self.last_exit: Optional[tuple] = None   # (exit status, the emulator's last message)
        self.flash_ops: "collections.Counter[str]" = collections.Counter()
        self.reports: "collections.Counter[str]" = collections.Counter()   # chip reports by why
        # emulated ns per power state, as glue.mjs counts them ("run 125 SU",
        # "wait 125 SU", "deep 12 -U", "dormant", "flash": docs/power.md)
        self.power_ns: "collections.Counter[str]" = collections.Counter()
        self.wakes = 0              # the core left a sleep (WFI/WFE or DORMANT) to run
        # the supply (board.json "power"): USB plugged in (VBUS sense pin
        # high) and VSYS in volts, which the ADC sees divided by 3
        self._adc_sent = None
        self._reads = 0             # GPIO_IN reads by the firmware, as of the last report
        self._proc: Optional[subprocess.Popen] = None
        self._sock: Any = None
        self._engine = None
        self._work = ""
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._life = threading.RLock()
        self._started = False
        self._closed = False
        self._pending = []          # scripts not finished
        self._usb_out = bytearray()
        self._console: "collections.deque[tuple[int, str]]" = collections.deque(maxlen=200)
        self._line = bytearray()
        self._cut_after = None      # power cut after this many more flash operations
        self._speed: "collections.deque[tuple[float, int]]" = collections.deque(maxlen=200)
        self._sent = None
        self._asleep = False
        self.dropped = 0

    # -- life cycle ---------------------------------------------------------------
    def start(self):
        with self._life:
            if self._closed:
                raise ChipError("this emulated Pico was stopped; make a new one")
            if not self._started:
                self._setup()
                _LIVE.add(self)
            if self._proc is None:
                self._spawn()
        return self

    def _setup(self):
        from . import images
        from .node import ensure_emulator
        self._node, self._glue = ensure_emulator(self._out)
        if self._bootrom is None:
            fw, self._bootrom = images.find_images(self._firmware, download=self._download, out=self._out,
                                                   boots=boot_banner)
        else:
            fw = self._firmware
        self._work = tempfile.mkdtemp(prefix="okgin-chip-")
        if not self.flash_path:
            self.flash_path = os.path.join(self._work, "flash.bin")
        self._lock_flash()
        if self._drop:
            if not os.path.exists(self.flash_path):
                images.new_flash(self.flash_path)
        elif fw is not None and (self._firmware is not None or not images.has_firmware(self.flash_path)):
            # a new Pico, or --firmware: the UF2 as the USB drive would write it
            images.write_uf2(self.flash_path, fw)
        if not self._drop and not images.has_firmware(self.flash_path):
            raise ChipError("the flash file %s holds no firmware" % self.flash_path)
        self.firmware_path = fw
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        tty.setraw(self._master)
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._started = True

    def _lock_flash(self):
        # One Pico, one program: two emulators writing one flash file would
        # corrupt it.
        folder = os.path.dirname(self.flash_path)
        if not os.path.isdir(folder):
            raise ChipError("flash file %s: folder %s does not exist" % (self.flash_path, folder))
        self._flash_lock = open(self.flash_path + ".lock", "w")
        try:
            fcntl.flock(self._flash_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._flash_lock.close()
            raise ChipError("the emulated Pico's flash %s is in use by another program (stop it, "
                            "or give this one its own --flash FILE)" % self.flash_path) from None

    def clock(self):
        """The chip's own time in seconds (emulated), as of its last report."""
        return self._t / 1e9

    def _spawn(self):
        ours, theirs = socket.socketpair()
        log = open(os.path.join(self._work, "node.log"), "ab")
        try:
            proc = subprocess.Popen(
                [self._node, self._glue, self._bootrom, self.flash_path, str(theirs.fileno()),
                 str(self._t)] + ([self._drop] if self._drop else []),
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True)
        except OSError as e:
            raise ChipError("cannot start %s: %s" % (self._node, e)) from None
        finally:
            theirs.close()
            log.close()
        self._drop = None           # the next power-on boots from flash
        with self._lock:
            self._sent = None
            self._cut_after = None
            self._usb_out.clear()
            self._line.clear()
            self._drain_input()
            self.pins.mcu_reset()
        self._proc = proc
        self._sock = ours
        self.boots += 1
        self._engine = threading.Thread(target=self._serve, args=(proc, ours), name="chip", daemon=True)
        self._engine.start()

    def _end_process(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        if self._engine is not None and self._engine is not threading.current_thread():
            self._wake()
            self._engine.join(5)
        try:
            self._sock.close()
        except OSError:
            pass

    def kill(self):
        """Power loss: the emulator dies mid-whatever. The flash file keeps
        every erase and program the chip finished; the panels keep their
        ink but their controllers lose RAM and registers. start() boots
        again."""
        with self._life:
            if self._proc is None:
                return
            self._end_process()
            self._power_lost()

    def _power_lost(self):
        with self._lock:
            self.pins.mcu_reset()
            for panel in self.pins.panels:
                panel.power_on()
            self.power_cuts += 1
            self._cond.notify_all()

    def power_cycle(self):
        """kill() then boot again (the port stays the same)."""
        with self._life:
            if not self._started or self._closed:
                self.start()
                return
            self.kill()
            self._spawn()
        self._emit(("reset",))

    def cut_power_after_flash_writes(self, n):
        """Arm a power cut: after the chip's next n flash erase/program
        operations the board loses power, between two of them (as if the
        plug were pulled during a save). It stays off until start()."""
        with self._lock:
            self._cut_after = int(n)

    def stop(self):
        with self._life:
            if self._closed:
                return
            self._closed = True
            if self._started:
                self._end_process()
                for fd in (self._master, self._slave, self._wake_r, self._wake_w):
                    try:
                        os.close(fd)
                    except OSError:
                        pass
        with self._lock:
            self._cond.notify_all()
        lock = getattr(self, "_flash_lock", None)
        if lock is not None:
            lock.close()
        if self._work:
            shutil.rmtree(self._work, ignore_errors=True)

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
        p = self._proc
        return p is not None and p.poll() is None

    # -- the exchange with the chip ------------------------------------------------
    def _serve(self, proc: subprocess.Popen, sock: socket.socket) -> None:
        rf = sock.makefile("rb")
        why = None
        try:
            while True:
                line = rf.readline()
                if not line:
                    break
                rep = json.loads(line)
                why = rep["why"]
                if why == "halt":
                    self._step(rep)
                    break
                reply = self._step(rep)
                if reply is None:           # a power cut now
                    break
                sock.sendall(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
        except (OSError, ValueError):
            pass
        if self._proc is not proc:
            return                          # killed on purpose
        if why != "halt" and self._cut_now():
            # the armed power cut: between two flash operations
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
            proc.wait()
            if self._proc is proc:
                self._proc = None
                self._power_lost()
            return
        code = proc.wait()
        self.last_exit = (code, self._log_tail())
        self._proc = None
        with self._lock:
            self._cond.notify_all()
        self._emit(("exit", code))

    def _cut_now(self):
        with self._lock:
            return self._cut_after == 0

    def _log_tail(self):
        """The emulator's last word: its log's last line, or for a Node.js
        crash (a stack trace, then "Node.js v24...") the error's own line."""
        try:
            with open(os.path.join(self._work, "node.log"), "rb") as f:
                text = f.read()[-2000:].decode("utf-8", "replace").strip()
        except OSError:
            return ""
        lines = text.splitlines()
        if lines and lines[-1].startswith("Node.js v"):
            errors = [ln for ln in lines if re.match(r"^[A-Za-z]*Error\b", ln)]
            if errors:
                return "%s (%s)" % (errors[-1].strip(), lines[-1])
        return lines[-1] if lines else ""

    def _step(self, rep):
        """One report from the chip: apply what it did, decide what it sees."""
        if self._sent is not None and rep["why"] == "slice":
            # a whole slice of running: how fast the emulator computes
            wall0, t0 = self._sent
            if rep["t"] >= t0:
                self._speed.append((time.monotonic() - wall0, rep["t"] - t0))
        self.reports[rep["why"]] += 1
        self._reads = rep.get("r", 0)
        pw = rep.get("pw")
        if pw:
            if self._asleep and any(k.startswith("run") for k in pw):
                self.wakes += 1
            self.power_ns.update(pw)
        self._asleep = rep["why"] in ("idle", "dormant")
        with self._lock:
            for ev in rep["ev"]:
                self._event(ev)
            self._t = rep["t"]
            why = rep["why"]
            if why == "reset":
                self._chip_reset()
            if why == "flash" and self._cut_after is not None:
                self._cut_after -= 1
                if self._cut_after <= 0:
                    self._cut_after = 0
                    return None
            self._run_scripts()
            for panel in self.pins.panels:
                panel.poll_ended()
            self._cond.notify_all()
        self._flush_usb()
        reply = {}
        if why == "idle":
            reply["adv"] = self._idle(rep)
        elif why == "dormant":
            # every clock stopped: no alarm of the chip's own can end it
            reply["adv"] = self._idle(dict(rep, next=None))
        data = self._read_usb(rep["q"])
        if data:
            reply["usb"] = data.hex()
        with self._lock:
            self._run_scripts()
            reply["bits"] = self.pins.input_bits()
            wake = self._due()
            reply["wake"] = wake
            reply["flashsync"] = self._cut_after is not None
            adc = self._adc()
            if adc != self._adc_sent or why == "start":
                reply["adc"] = self._adc_sent = adc
        if why == "start":
            reply["slice"] = SLICE_NS
        if why == "dormant":
            base = reply["adv"]
        elif why == "idle":
            base = min(x for x in (reply["adv"], rep["next"]) if x is not None)
        else:
            base = self._t
        self._sent = (time.monotonic(), base)
        return reply

    def _event(self, ev):
        kind = ev[0]
        if self.on_trace is not None:
            self.on_trace(ev)
        if kind == "usb":
            data = bytes.fromhex(ev[2])
            self._usb_out += data
            if len(self._usb_out) > OUT_LIMIT:
                n = len(self._usb_out) - OUT_LIMIT
                del self._usb_out[:n]
                self.dropped += n
            self._tap(ev[1], data)
        elif kind == "pin":
            self._t = ev[1]
            self._pin(ev[2], ev[3])
        elif kind == "spi":
            self._t = ev[1]
            bus, sck, mosi = ev[2], ev[3], ev[4]
            self.pins.spi_config(bus, sck, mosi, 0)
            self.pins.spi_write(bus, bytes.fromhex(ev[5]))
        elif kind == "flash":
            self.flash_ops[ev[2]] += 1
        elif kind == "log":
            self._console.append((self._t, "[emulator] " + ev[1]))
        elif kind == "drop":
            self.dropped_blocks = (ev[2], ev[3])

    def _pin(self, gpio, state):
        # rp2040js GPIOPinState -> the board model's mode, level and pull
        if state in (0, 1):
            self.pins.write(gpio, state)
            self.pins.configure(gpio, OUT, -1)
        else:
            pull = {3: PULL_UP, 4: PULL_DOWN}.get(state, 0)
            self.pins.configure(gpio, IN, pull)

    def _tap(self, t, data):
        for b in data:
            if b == 10:
                self._console.append((t, self._line.decode("utf-8", "replace").rstrip("\r")))
                self._line.clear()
            elif len(self._line) < 400:
                self._line.append(b)

    def _chip_reset(self):
        # machine.reset(): the USB device leaves and comes back, the pins
        # return to inputs; what the host had sent and the chip had not
        # read is gone, as on a real Pico.
        self.pins.mcu_reset()
        self.resets += 1
        self._drain_input()
        self._emit(("reset",))

    def _run_scripts(self):
        t, reads = self._t, self._reads
        for s in list(self._pending):
            if s.mark is None:
                s.mark = (t, reads)
                s.started_at = t
            while True:
                delay, need = s.waiting()
                if t < s.mark[0] + delay or reads - s.mark[1] < need:
                    break
                if not s.steps:
                    self._pending.remove(s)
                    s.done.set()
                    break
                _d, _n, gpio, level = s.steps.popleft()
                self._drive(gpio, level)
                s.mark = (t, reads)

    def _drive(self, gpio, level):
        if level is None or level:
            self.pins.pressed.discard(gpio)
        else:
            self.pins.pressed.add(gpio)

    def _due(self):
        """The next emulated ns at which something outside the chip changes."""
        t = self._t
        due = []
        for s in self._pending:
            if s.mark is not None and s.mark[0] + s.waiting()[0] > t:
                due.append(s.mark[0] + s.waiting()[0])
        for panel in self.pins.panels:
            end = panel.busy_end()
            if end is not None and math.ceil(end * 1e9) > t:
                due.append(math.ceil(end * 1e9) + 1)
        return min(due) if due else None

    def _idle(self, rep):
        """The core sleeps: how far may its time go? (Node stops at its next
        alarm anyway.)"""
        t, nxt = rep["t"], rep["next"]
        with self._lock:
            due = self._due()
            polled = any(s.mark is not None for s in self._pending)
        if not self.realtime and due is not None:
            return due
        if not self.realtime and polled and nxt is not None:
            return nxt      # a press waits for the firmware to read its pins
        limit = min(x for x in (nxt, due, t + 1_000_000_000) if x is not None)
        start = time.monotonic()
        deadline = start + (limit - t) / 1e9
        while not self._closed:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            rl = [self._wake_r]
            if rep["q"] < IN_WINDOW:
                rl.append(self._master)
            wl = [self._master] if self._usb_out else []
            try:
                r, w, _ = select.select(rl, wl, [], left)
            except (OSError, ValueError):
                break
            if self._wake_r in r:
                try:
                    os.read(self._wake_r, 512)
                except OSError:
                    pass
                break
            if w:
                self._flush_usb()
            if self._master in r:
                break
        return t + int((time.monotonic() - start) * 1e9)

    def _wake(self):
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    # -- the supply: VBUS, VSYS (board.json "power") -------------------------------
    def _adc(self):
        """The ADC's five inputs as 12-bit counts of its 3.3 V reference:
        GP26-28 unconnected (0), GP29 = VSYS/3 (the Pico's divider), the
        temperature sensor at 27 C (0.706 V, RP2040 datasheet 4.9.5)."""
        def counts(volts):
            return max(0, min(4095, int(round(volts / 3.3 * 4095))))
        return [0, 0, 0, counts(self.pins.vsys / 3), counts(0.706)]

    def set_supply(self, vbus=None, vsys=None):
        """USB plugged in or not (the VBUS sense pin, board.json
        power.vbus_sense) and the voltage on VSYS (what the ADC reads
        through the Pico's divider on power.vsys_adc), as the board's
        batteries and USB would set them. The firmware sees the change at
        its next read; the USB serial link itself stays up (the host tools
        still talk to the chip: see docs/power.md)."""
        if vsys is not None and not 0 <= vsys <= 5.5:
            raise ValueError("vsys must be 0..5.5 V (the Pico's VSYS range), not %r" % (vsys,))
        with self._lock:
            if vbus is not None:
                self.pins.vbus = bool(vbus)
            if vsys is not None:
                self.pins.vsys = float(vsys)
        self._wake()

    def power_states(self):
        """Emulated seconds per power state since power-on (or the last
        reset_power()): {"run 125 SU": s, "deep 12 -U": s, ...}; see
        docs/power.md for what each state is."""
        with self._lock:
            return {k: v / 1e9 for k, v in self.power_ns.items()}

    def reset_power(self):
        """Start counting power states (and the panels' states) afresh."""
        with self._lock:
            self.power_ns.clear()
            self.wakes = 0
            for panel in self.pins.panels:
                panel.reset_states()
            self.pins.reset_states()

    # -- the USB serial port's host side -----------------------------------------------
    def _flush_usb(self):
        if not self._usb_out:
            return
        try:
            n = os.write(self._master, self._usb_out)
            del self._usb_out[:n]
        except BlockingIOError:
            pass
        except OSError:
            self._usb_out.clear()

    def _read_usb(self, queued):
        room = IN_WINDOW - queued
        if room <= 0:
            return b""
        try:
            return os.read(self._master, room)
        except (BlockingIOError, OSError):
            return b""

    def _drain_input(self):
        # bytes a client wrote for the chip before it reset: never delivered
        if not self._started:
            return
        while True:
            try:
                if not os.read(self._master, 65536):
                    return
            except OSError:
                return

    # -- emulated time ---------------------------------------------------------------
    def emulated_ns(self):
        """The chip's clock (ns since it was powered on), as of its last report."""
        return self._t

    def emulation_speed(self):
        """Emulated seconds per wall second while the chip computes (whole
        slices of running, the last 200): ~0.2-0.3 on an idle PC core (a
        real Pico: 1.0), much less on a loaded machine."""
        s = list(self._speed)
        wall = sum(w for w, _ in s)
        return sum(e for _, e in s) / 1e9 / wall if wall > 0.05 else None

    def wait_emulated(self, ns, timeout=60.0):
        """Let ns of emulated time pass (a jump while the chip sleeps, unless
        realtime); ``timeout``: seconds of its time beyond those."""
        self._script([], (ns, 0), timeout + ns / 1e9)

    def patience_clock(self, stall=STALL_S):
        """A clock for waiting on this chip, in seconds: its emulated time
        while it runs (however slowly a loaded machine computes it), and
        the wall time it stands still beyond ``stall`` seconds (a hung
        emulator, or a chip that is off). A wait measured by it never runs
        out because the machine is busy, and still ends when the chip
        makes no progress. Each wait (or client) takes its own."""
        return _Patience(self, stall)

    @property
    def pid(self):
        """The emulator's process id while the chip is on, else None."""
        p = self._proc
        return p.pid if p is not None else None

    def _not_seen(self, what, timeout, clock):
        """Why a wait of ``timeout`` s of the chip's time ended without ``what``."""
        still = clock.still()
        if not self.alive:
            why = "it is off"
        elif still >= clock.stall:
            why = ("its clock stood still for the last %.0f s of wall time: the emulator is hung or "
                   "stopped" % still)
        else:
            why = "it ran on"
        return "%s in %.0f s of the chip's time (%s)" % (what, timeout, why)

    def console_line(self, text, timeout=30.0, since=0):
        """The first line the chip printed (at emulated ns >= since, among
        the last 200) that contains text; waits for it up to ``timeout``
        seconds of the chip's own time (patience_clock: a loaded machine
        gets the wall time it needs). Raises ChipError at once if the chip
        stops, else after the timeout."""
        clock = self.patience_clock()
        deadline = clock() + timeout
        with self._cond:
            while True:
                for t, line in self._console:
                    if text in line and t >= since:
                        return line
                left = deadline - clock()
                if left <= 0 or self._closed or (self._started and self._proc is None):
                    raise ChipError("%s; last: %r; %s" % (
                        self._not_seen("the emulated Pico printed no line with %r" % text, timeout, clock),
                        self._console[-1][1] if self._console else "",
                        self._log_tail() or "no emulator message"))
                self._cond.wait(min(left, 0.5))

    def console_lines(self):
        """[(emulated ns, line)] the chip printed lately."""
        with self._lock:
            return list(self._console)

    # -- buttons, LEDs, panels -----------------------------------------------------------
    def timing_ms(self, key, default):
        """A timing value of the board definition (debounce_ms, long_press_ms...)."""
        return self.board.get("timing", {}).get(key, default)

    def _check_player(self, player):
        if player not in range(len(self.board["players"])):
            raise ValueError("player must be 0..%d, not %r" % (len(self.board["players"]) - 1, player))

    def _need_pins(self):
        if not self._started:
            raise ChipError("the emulated Pico has not been started")

    def _script(self, steps, end, timeout=60.0):
        s = _Script(steps, end)
        with self._lock:
            self._pending.append(s)
        self._wake()
        # in the chip's time (patience_clock): in realtime the script takes
        # its time on the wall clock too; a dead chip never finishes it
        clock = self.patience_clock()
        deadline = clock() + timeout
        while not s.done.wait(min(1.0, max(0.01, deadline - clock()))) and clock() < deadline:
            pass
        if not s.done.is_set():
            with self._lock:
                if s in self._pending:
                    self._pending.remove(s)
            if not self.alive:
                raise ChipError("the emulated Pico is off")
            raise ChipError("%s: %s" % (self._not_seen("the emulated Pico did not take the input", timeout,
                                                       clock), self._script_state(s)))
        return s

    def _script_state(self, s):
        """Where a script stands, for the error when it is not taken."""
        with self._lock:
            t, reads = self._t, self._reads
            why = dict(self.reports)
        if s.mark is None:
            return "the chip never reported after it was asked (at %.3f s emulated)" % (t / 1e9)
        delay, need = s.waiting()
        return ("%d step(s) left; %.3f s emulated since the last (%.3f s needed), %d pin reads "
                "since (%d needed); the chip's reports so far: %s"
                % (len(s.steps), (t - s.mark[0]) / 1e9, delay / 1e9, reads - s.mark[1], need,
                   ", ".join("%s %d" % kv for kv in sorted(why.items()))))

    def hold(self, player, button):
        """Press and keep holding (until release()); returns once applied."""
        self._check_player(player)
        self._need_pins()
        g = self.pins.button_gpio(player, button)
        self._script([(0, 0, g, 0)], (0, 0))

    def release(self, player, button):
        self._check_player(player)
        self._need_pins()
        g = self.pins.button_gpio(player, button)
        self._script([(0, 0, g, None)], (0, 0))

    def press(self, player, button, long=False, bounce_ms=0.0, hold_ms=None, timeout=60.0):
        """Press and release like a patient person, in the chip's time: held
        3 debounce periods (or past long_press_ms when long=True) and until
        the firmware has polled the buttons twice, then released until it
        has polled twice more and 3 debounce periods have passed (a busy
        firmware polls late; a press it never polls is lost, on a Pico too).
        With bounce_ms, the contact chatters that long at the press and at
        the release (on/off every 0.3-0.5 ms), as a worn switch does;
        hold_ms holds it that long instead (still until polled twice).
        ``timeout``: seconds of the chip's time (patience_clock) for it to
        take it all in (a press that starts a long draw is polled again
        only after it).
        Returns the emulated ns at which the pin first went low."""
        self._check_player(player)
        self._need_pins()
        g = self.pins.button_gpio(player, button)
        debounce = self.timing_ms("debounce_ms", 20)
        if hold_ms is None:
            hold_ms = self.timing_ms("long_press_ms", 600) + 200 if long else 3 * debounce
        polls = 2 * len(self.pins.button_pins)     # a poll reads every button
        ms = 1_000_000
        steps = _chatter(g, 0, bounce_ms)
        steps += _chatter(g, None, bounce_ms, int(hold_ms * ms), polls)
        end = (int(3 * debounce * ms), polls)
        timeout += 4 * (hold_ms + 3 * debounce) / 1e3 if self.realtime else 0
        return self._script(steps, end, timeout).started_at

    def led(self, player):
        self._check_player(player)
        self._need_pins()
        with self._lock:
            return self.pins.led(player)

    def settle(self):
        """Nothing to do: every pin and SPI write the chip made is applied
        before the serial bytes it sent after them reach the port."""

    def panel(self, player):
        self._check_player(player)
        self._need_pins()
        return self.pins.panels[player]

    def panel_image(self, player):
        """PIL.Image mode "1", logical orientation (296x128), what the ink shows."""
        return self.panel(player).image()

    def panel_bytes(self, player):
        return self.panel(player).image_bytes()

    def refresh_counts(self, player):
        s = self.panel(player).stats
        return {"full": s["full"], "partial": s["partial"]}

    def stats(self, player):
        return dict(self.panel(player).stats)

    def reset_stats(self):
        self._need_pins()
        for panel in self.pins.panels:
            panel.reset_stats()

    def set_fault(self, player, busy_stuck=True):
        """Fault injection: BUSY of that panel stays high."""
        panel = self.panel(player)
        panel.busy_stuck = bool(busy_stuck)
        self._wake()

    def _emit(self, ev):
        cb = self.on_event
        if cb is not None:
            try:
                cb(ev)
            except Exception as e:   # a front-end bug must not kill the board
                print("okgin chip: on_event(%r) raised %r" % (ev, e), file=sys.stderr)


class _Patience:
    """ChipBoard.patience_clock's clock: call it for the seconds."""

    def __init__(self, chip, stall):
        self.chip = chip
        self.stall = stall
        self._lock = threading.Lock()
        self._seen = chip.emulated_ns()      # the chip's clock as last seen
        self._moved = time.monotonic()       # when it was seen to move
        self._stood = 0.0                    # wall seconds it stood still, beyond ``stall``

    def __call__(self):
        with self._lock:
            t, now = self.chip.emulated_ns(), time.monotonic()
            if t != self._seen:
                self._stood += max(0.0, now - self._moved - self.stall)
                self._seen, self._moved = t, now
            return t / 1e9 + self._stood + max(0.0, now - self._moved - self.stall)

    def still(self):
        """Wall seconds since the chip's clock last moved (as of the last call)."""
        with self._lock:
            return time.monotonic() - self._moved


def boot_banner(firmware, bootrom, timeout=60.0):
    """Boot a firmware image on a scratch emulated Pico and return the first
    line it prints at its REPL (MicroPython's banner names its version):
    how okgin.chip.images checks a firmware it downloaded."""
    chip = ChipBoard(firmware=firmware, bootrom=bootrom, realtime=False)
    try:
        chip.start()
        return chip.console_line("MicroPython", timeout)
    finally:
        chip.stop()


def _chatter(gpio, level, bounce_ms, delay_ns=0, reads=0):
    """Steps that settle the pin at level after bounce_ms of chatter; the
    first waits delay_ns and reads (see _Script)."""
    steps = []
    left = int(bounce_ms * 1_000_000)
    other = None if level == 0 else 0
    flip = level
    while left > 0:
        steps.append((delay_ns, reads, gpio, flip))
        delay_ns, reads = 300_000 + (len(steps) % 3) * 100_000, 0
        left -= delay_ns
        flip = other if flip == level else level
    steps.append((delay_ns, reads, gpio, level))
    return steps


__all__ = ["ChipBoard", "ChipError", "BUTTONS"]
