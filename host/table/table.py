"""``Table``: one table under test, started and driven as one thing: the
board (the virtual board, or the emulated Pico: ``ChipTable``), its serial
client (okgin.lib.transport), its flash as files (okgin.table.files) and
its power (``on``, ``cut``, ``cycle``). ``open_table`` makes either kind.

A table's files are looked at and written with the firmware stopped, as a
person would with the board unplugged: ``session`` cuts the power, visits
the files and powers on again (on the emulated Pico the visit is one trip
to its raw REPL, okgin.table.repl, and ``machine.reset()`` is the power
coming back)."""
import io
import json
import os
import shutil
import time
from typing import Any

from ..lib import transport
from ..lib.paths import BOARD, ROOT
from .files import DirFiles, Files, FilesBase, ReplFiles
from .repl import Repl, say_missed


def board_with(timing, board=BOARD):
    """The board definition (default hardware/board.json) with some of its
    timing values replaced, as the bytes of a board.json file."""
    with open(board) as f:
        data = json.load(f)
    data["timing"].update(timing)
    return json.dumps(data).encode()


class Table:
    """The virtual board with its own flash directory ``work/name``: power,
    the port (``b``, a transport.Board), the buttons (pins) and the files on
    its flash (``files``, a host directory). ``settings``: a settings.json
    put on the flash first; ``timing``: board.json's timing values replaced
    (the firmware reads its own copy on the flash); ``put``: {name: bytes}
    more files on the flash before the firmware reads them (a saved game).
    ``flashed``: the flash starts empty and the firmware goes onto it over
    the serial port, by okgin flash, as onto a real Pico (else it is laid
    out in the directory, compiled as okgin flash would); ``heapsize``: the
    MicroPython heap (default: the firmware's budget); ``out``: where to
    say what takes time (None: nowhere); ``on_event``: the board's events
    from its power-on (okgin.table.boards); ``crash_restarts``: boots that
    may fail in a row before the board stays off (default 3; the memory
    bench's trials: 1). ``sync``: False opens the flash as it is (the
    firmware not brought up to date, nothing written: ``settings``,
    ``timing``, ``put`` and ``flashed`` are refused) and leaves the table
    powered off, its client not open: the caller powers on (power_on(),
    e.g. to time the boot) and opens the port (``connect()``), as the
    benches and the tests that read the firmware's raw bytes do."""

    kind = "vboard"
    label = "the virtual board"
    source = ROOT           # the firmware tree put on it (okgin faults --source)
    board = BOARD           # the board definition it is wired by (okgin faults --board)
    cheap_files = True      # its flash is a host directory
    chip: "Any" = None      # the ChipBoard, on the emulated Pico
    vb: "Any"               # VirtualBoard, or ChipBoard (the same API)
    files: Files            # the files on its flash
    # a megabyte line or a flood takes the firmware (one byte per read)
    # longer than the transport's 5 s to take in: a write may wait this long
    write_timeout = 300
    answer_slowness = 1     # multiplies the waits for a batch's answers

    def __init__(self, work, name, speed=0.0, settings=None, timing=None, put=None,
                 flashed=False, heapsize=None, out=None, board=None, on_event=None,
                 crash_restarts=3, sync=True):
        from .boards import make_board
        if board is not None:
            self.board = board
        from ..vboard.flash import populate
        self.flash = os.path.join(work, name)
        if not sync:
            _as_it_is(settings=settings, timing=timing, put=put, flashed=flashed)
        elif flashed:
            os.makedirs(self.flash, exist_ok=True)
        else:
            populate(self.flash, root=self.source, board=self.board)
        self.files = DirFiles(self.flash)
        board = self.board
        if timing:
            board = os.path.join(work, name + "-board.json")
            with open(board, "wb") as f:
                f.write(board_with(timing, self.board))
            # the firmware reads its own copy on the flash
            shutil.copy(board, os.path.join(self.flash, "board.json"))
        if settings is not None:
            self.put("settings.json", json.dumps(settings))
        self.files.visit(put=put)
        self.vb = make_board("vboard", flash=self.flash, eink=speed, board=board, heapsize=heapsize,
                             crash_restarts=crash_restarts)
        if on_event is not None:
            self.vb.on_event = on_event
        # its port is named once the board is powered on
        self.b = transport.Board(None, timeout=30.0)
        self._fresh = sync
        if not sync:
            return
        # powered on here, and the port opened before the firmware prints
        # READY; on() waits for it
        self.vb.start()
        if flashed:
            self._flash_over_serial(out)
        self.b.url = str(self.vb.port)
        self.b.open()

    def _flash_over_serial(self, out):
        from .flashing import flash_board
        try:
            _say(out, "flashing it on %s, as okgin flash does a Pico" % self.vb.port)
            # Powered on again by the host rather than machine.reset(): see
            # the report on the virtual board's reset after a Ctrl-C.
            flash_board(self.vb.port, src_root=self.source, quiet=out is None, out=out or io.StringIO(),
                        board_json=self.board, power_cycle=self.vb.power_cycle)
        except BaseException:
            self.vb.stop()
            raise

    # power
    def on(self, timeout=60):
        if self._fresh:
            self._fresh = False
        else:
            self.vb.start()
            self.b.url = self.port
            self.b.reopen()
        self.patient()
        self.b.wait_ready(timeout, probe_after=2.0)
        return self

    def patient(self):
        ser = self.b.ser
        assert ser is not None
        ser.write_timeout = self.write_timeout

    def cut(self):
        """Power loss: the process is SIGKILLed wherever it is."""
        self.vb.kill()
        self.b.close()

    def cycle(self):
        self.cut()
        return self.on()

    def power_on(self):
        """Power on without waiting (on() waits for READY)."""
        self.vb.start()

    @property
    def port(self):
        """The board's serial port (the virtual board's pty, the emulated
        Pico's USB serial): what okgin flash or a REPL client opens."""
        return str(self.vb.port)

    @property
    def serial(self):
        """The open pyserial port under the client ``b`` (raw bytes: the
        boot's lines as they come, what a request would skip), None while
        the port is closed."""
        return self.b.ser

    def connect(self, timeout=60):
        """The table's client ``b`` with its port open (opened again if a
        caller closed it to let another program on the port: okgin flash,
        mpremote's raw REPL); nothing is waited for."""
        if self.b.ser is None:
            self.b.url = self.port
            self.b.reopen(timeout)
        return self.b

    def now(self):
        """Seconds on the table's own clock (the wall clock here)."""
        return time.monotonic()

    def pause(self, s):
        """Let ``s`` seconds of the table's own time pass (the wall clock
        here; the chip's time on the emulated Pico, however slowly a loaded
        machine computes it): a wait for the firmware to act on what it was
        just sent, which a busy host must not cut short."""
        time.sleep(s)

    def stop(self):
        self.b.close()
        self.vb.stop()

    # port
    def req(self, line, timeout=30):
        return self.b.request(line, timeout=timeout * self.answer_slowness)

    def timing_s(self, key, default):
        """A board.json timing value (``key``, ``default`` in ms), in seconds."""
        return self.vb.timing_ms(key, default) / 1000.0

    def status(self):
        return self.b.status()

    def resync(self, timeout=60):
        """Skip answers a caller left unread: ask hello, read up to its
        answer. The lines skipped are returned. A newline goes first: a
        line left unfinished (a flood of Ctrl-C bytes, a cut) ends there
        instead of swallowing the hello (an empty line gets no answer)."""
        self.b.send_raw(b"\nhello\n")
        skipped: "list[str]" = []
        clock = self.b.clock        # the chip's own time on the emulated Pico
        deadline = clock() + timeout
        while clock() < deadline:
            line = self.b.read_line(max(0.1, deadline - clock()))
            if line is None:
                break
            if line.startswith("OK okgin"):
                return skipped
            skipped.append(line)
        raise transport.BoardTimeout("no answer to hello within %d s" % timeout)

    def sync(self, timeout=60):
        self.b.request("sync", timeout=timeout)

    # buttons (a finger on the pins)
    def press(self, p, button, long=False):
        """As VirtualBoard.press, but waiting up to 10 s (not 1) for the
        firmware to read each level: on a loaded machine the firmware's
        process can stall for a second, and a press it never saw is the
        host's fault, not the table's."""
        vb = self.vb
        deb = self.timing_s("debounce_ms", 20)
        vb.hold(p, button)
        self.seen()
        # a person's tap, 120 ms: "seen" is any pin read (a BUSY check
        # too), and the button driver polls between draws, which take
        # their time on a loaded machine (docs/firmware.md, buttons)
        time.sleep(self.timing_s("long_press_ms", 600) + 0.2 if long else 0.12)
        vb.release(p, button)
        self.seen()
        time.sleep(3 * deb)

    def hold(self, p, button):
        self.vb.hold(p, button)
        self.seen()

    def release(self, p, button):
        self.vb.release(p, button)
        self.seen()

    def seen(self, again=False):
        """The firmware has read its pins since the last change (``again``:
        since now, the levels unchanged); on the chip, a press waits for
        that itself."""
        self.vb.wait_seen(10.0, again=again)

    # flash
    def path(self, name):
        return os.path.join(self.flash, name)

    def saved(self, name="game.okg"):
        return self.files.read(name)

    def put(self, name, data):
        self.files.put(name, data)

    def remove(self, name):
        self.files.remove(name)

    def tree(self, off=False):
        """{path: SHA-256 hex} of every file on the flash but .staging/'s
        (the firmware's, its language files included, and the player's);
        ``off``: the power is cut (as ChipTable's, whose look stops the
        firmware)."""
        if off:
            self.cut()
        return self.files.tree()

    def session(self, read=(), digest=(), put=None, remove=(), off=False):
        """With the power off: read files (``read``: their bytes, or None;
        ``digest``: (SHA-256 hex, size), or None), then remove and write
        files, then power on (``off``: the power stays off; the caller
        powers on, e.g. with power_on()). Returns {name: what was read}."""
        self.cut()
        out = self.files.visit(read=read, digest=digest, put=put, remove=remove)
        if not off:
            self.on()
        return out


class ChipTable(Table):
    """The emulated Pico (host/chip: the stock rp2 MicroPython on rp2040js)
    with this checkout's firmware put on it by ``okgin flash``, driven like
    a Table. Its flash is a file in littlefs, reached through the chip's
    raw REPL (slow: a Ctrl-C, then a reset)."""

    kind = "chip"
    label = "the emulated Pico"
    cheap_files = False
    write_timeout = 3000    # the emulator runs at ~0.05-0.3 of a real Pico
    answer_slowness = 10

    def __init__(self, work, name, speed=0.02, settings=None, timing=None, put=None,
                 firmware=None, out=None, board=None, sync=True, flash=None):
        """As Table's; the chip is always flashed by okgin flash over its
        USB serial port (once a run: each table starts from a copy of the
        flashed image), from ``firmware`` (a MicroPython .uf2; default the
        one docs/emulated-pico.md names). ``sync``: False opens the flash
        ``flash`` as it is (a 2 MB image; None: a new Pico, ``firmware``
        alone on it, ``work`` unused), nothing flashed or written, the chip
        powered off and the client not open, as Table's: for what times
        the flash or the boot itself (the chip benches)."""
        from . import flashed
        from .boards import make_board
        if board is not None:
            self.board = board
        if not sync:
            _as_it_is(settings=settings, timing=timing, put=put)
            extra = {"firmware": firmware} if firmware is not None else {}
            self.chip = make_board("chip", flash=flash, realtime=False, eink=speed or 0.02,
                                   board=self.board, **extra)
            self.vb = self.chip
            self.flash = None
            self.files = _ChipFiles(self)
            self.b = transport.Board(None, timeout=120.0, clock=self.chip.patience_clock())
            self._fresh = False
            return
        if flash is not None:
            raise TypeError("flash= is the image opened as it is (sync=False); a synced "
                            "chip starts from a copy of the one flashed this run")
        # one flash (half a minute or more on the emulator) for the whole
        # run, or for every process that shares $OKGIN_CHIP_CACHE: a copy
        # of the flashed chip's image for each table (okgin.table.flashed)
        image = flashed.copy(flashed.folder(work), os.path.join(work, name + ".bin"), self.source,
                             self.board, firmware, out)
        # the panels' refresh times scaled as asked (presses during
        # refreshes): a sleeping chip jumps to BUSY's fall, so little wall time
        self.chip = make_board("chip", flash=image, realtime=False, eink=speed or 0.02,
                               board=self.board)
        self.chip.start()
        self.vb = self.chip          # press, hold, panel_image, set_fault, kill: the same API
        self.flash = None
        self.files = _ChipFiles(self)
        # its waits count the chip's own time: a busy host makes them
        # longer on the wall clock, never fail (ChipBoard.patience_clock)
        self.b = transport.Board(str(self.chip.port), timeout=120.0, clock=self.chip.patience_clock())
        self.b.open()
        self._fresh = True
        put = dict(put or {})
        if settings is not None:
            put["settings.json"] = json.dumps(settings).encode()
        if timing:
            put["board.json"] = board_with(timing, self.board)   # the firmware reads the copy on its flash
        if put:
            # once the firmware is up (the REPL is reached by interrupting it)
            self.patient()
            self.b.wait_ready(300, probe_after=1.0)
            self.session(put=put)

    def path(self, name):
        raise TypeError("the emulated Pico's flash is no host directory: use its files")

    def tree(self, off=False):
        """{path: SHA-256 hex} of every file on the chip's flash but
        .staging/'s (the firmware's, its language files included, and the
        player's); ``off``: the power is cut after the look instead of a
        boot into the firmware (one boot less when the caller cuts next)."""
        return self.at_repl(lambda r: ReplFiles(r).tree(), off=off)

    def on(self, timeout=300):
        if self._fresh:
            self._fresh = False
            self.patient()
            self.b.wait_ready(timeout, probe_after=1.0)
            return self
        self.chip.start()
        self.b.url = self.port
        self.b.reopen(60)
        self.patient()
        self.b.wait_ready(timeout, probe_after=5.0)
        return self

    def cut(self):
        self.chip.kill()
        self.b.close()

    def power_on(self):
        self.chip.start()

    def now(self):
        return self.chip.clock()

    def pause(self, s):
        self.chip.wait_emulated(int(s * 1e9))

    def stop(self):
        self.b.close()
        self.chip.stop()

    def sync(self, timeout=300):
        self.b.request("sync", timeout=timeout)

    def press(self, p, button, long=False):
        # in the chip's time, until polled; a press that opens a page waits
        # for its draw (minutes of wall time on a loaded machine)
        self.chip.press(p, button, long=long, timeout=600.0)

    def hold(self, p, button):
        self.chip.hold(p, button)

    def release(self, p, button):
        self.chip.release(p, button)

    def seen(self, again=False):
        pass

    def repl(self, timeout=5):
        """A Repl on this chip's port that fails as soon as the chip's
        power goes (a cut armed with cut_power_after_flash_writes, or
        cut()), as a real Pico's port does, instead of waiting out the
        command it was running (okgin flash's 90 s)."""
        chip = self.chip
        return Repl(chip.port, timeout=timeout, gone=lambda: not chip.alive)

    def enter_repl(self, repl):
        """``repl`` (a Repl on this chip's port) at its raw REPL. mpremote
        sends one Ctrl-C; a firmware between two looks at its port on a
        loaded machine can miss it (a long seats run, once in 19 cases): a
        person would press it again. Tried again until a minute of the
        chip's time has passed: a busy host slows the chip, and three tries
        of 60 s of wall time once ran out."""
        return repl.enter(tries=3, timeout=60, diagnose=False, clock=self.chip.patience_clock(),
                          patience=60)

    def at_repl(self, work, off=False):
        """``work(repl)`` at the chip's raw REPL (the firmware stops, as the
        power going would), its result returned; then the chip resets into
        the firmware again (``off``: the power is cut instead; the files
        written are closed, so on the flash)."""
        self.b.close()
        with self.repl() as repl:
            self.enter_repl(repl)
            out = work(repl)
            if not off:
                repl.leave(reset=True)
        say_missed(repl)
        if off:
            self.cut()
            return out
        self.b.reopen(60)
        self.patient()
        self.b.wait_ready(300, probe_after=5.0)
        return out

    def session(self, read=(), digest=(), put=None, remove=(), off=False):
        """As Table.session in one visit to the chip's REPL (Ctrl-C stops
        the firmware, as the power going would; ``machine.reset()`` is the
        power coming back, or with ``off`` a power cut that leaves it off):
        the reads first, then the removals and writes, each file written
        to x.tmp and renamed."""
        return self.at_repl(lambda r: ReplFiles(r).visit(read, digest, put, remove), off=off)


class _ChipFiles(FilesBase):
    """The emulated Pico's files, each visit a trip to its REPL with the
    firmware back on after it (okgin.table.files' interface)."""

    def __init__(self, table):
        self.table = table

    def visit(self, read=(), digest=(), put=None, remove=(), tree=False):
        return self.table.at_repl(lambda r: ReplFiles(r).visit(read, digest, put, remove, tree))


def _as_it_is(**writes):
    """sync=False: the flash is opened as it is, so nothing may be written
    on it or flashed first."""
    asked = sorted(k for k, v in writes.items() if v is not None and v is not False)
    if asked:
        raise TypeError("sync=False opens the flash as it is: no %s" % ", ".join(asked))


def _say(out, text):
    if out is not None:
        out.write(text + "\n")
        out.flush()


KINDS = {"vboard": Table, "chip": ChipTable}


def open_table(kind, work, name, **options):
    """A started table of ``kind`` ("vboard" or "chip") on a flash of its own
    in ``work`` (options: ``speed``, ``settings``, ``timing``, ``put``, ``out``,
    ``board`` (a board definition; default the class's, hardware/board.json);
    the virtual board's ``flashed`` and ``heapsize``, the chip's
    ``firmware``); ``on()``
    waits for the firmware's READY. ``sync=False``: the flash as it is,
    the table powered off and its port closed (``power_on()``,
    ``connect()``: the benches that time the flash or the boot, the
    tests that read the firmware's raw bytes); the chip's ``flash`` then
    names the image (None: a new Pico)."""
    from ..lib.errors import CommandError
    if kind not in KINDS:
        raise CommandError("no table kind %r (choose %s)" % (kind, " or ".join(KINDS)))
    return KINDS[kind](work, name, **options)
