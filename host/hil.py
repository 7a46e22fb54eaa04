"""``okgin hil``: run the hardware-in-loop suite (tests/hil/) against a board.

The suite talks to the board only through its serial port (host/lib/transport.py),
so the same tests run on a real Pico (``--port``, or the one plugged in), on
the virtual board (``--sim``, which starts one and flashes it exactly as
``okgin flash`` flashes a real board) and on the emulated Pico (``--chip``:
stock MicroPython rp2 on an emulated RP2040, flashed by ``okgin flash``).
Where the target can do more than a serial port (press a button on its
GPIO, cut its power), the Target says so and the tests use it. pytest runs in this process; the
board is handed to the tests by the ``okgin_hil`` plugin object below (and,
for a bare ``pytest tests/hil`` run, by the ``OKGIN_HIL_PORT`` variable).
"""
import json
import os
import shutil
import sys
import tempfile
import threading
import time

from .lib.errors import CommandError
from .lib import transport

from .lib.paths import HIL_SUITE as SUITE, ROOT


class Target:
    """What the tests are run against. ``power_cycle`` is a callable that
    cuts and restores power (the virtual board can; on real hardware only a
    person can, so it is None unless ``--interactive``). ``press(player,
    button, long=False)`` presses a button on the board's GPIO (None on
    real hardware: the tests then use the protocol's ``press``).
    ``cut_power_during_save()`` arms a power cut in the middle of the
    board's next save, and ``board`` is the emulated board itself. ``slow``
    scales the suite's timeouts (the emulated Pico runs at 0.03-0.3x a
    real one's speed, depending on the PC and its load); ``clock`` is what
    the suite's serial client counts them in (the emulated Pico's own time,
    ChipBoard.patience_clock: a busy PC makes the suite slower, never
    failed), None for the wall clock."""

    def __init__(self, port, power_cycle=None, press=None, cut_power_during_save=None,
                 board=None, slow=1.0, clock=None):
        self.port = port
        self.slow = slow
        self.clock = clock
        self.power_cycle = power_cycle
        self.press = press
        self.cut_power_during_save = cut_power_during_save
        self.board = board


def _ask_person(port):
    def cycle():
        sys.stderr.write("\n>>> unplug the board's USB cable now, wait 2 s, plug it back in, "
                         "then press Enter ")
        sys.stderr.flush()
        sys.stdin.readline()
    return cycle


def open_hil_table(chip=False, flash=True, heapsize=None, firmware=None, out=None):
    """The table the suite runs against (okgin.table): the virtual board,
    flashed over its serial port as okgin flash flashes a Pico (``flash``
    False: the compiled firmware put in its flash directory), or the
    emulated Pico (stock MicroPython from ``firmware``, flashed by okgin
    flash). Returns (table, cleanup), the firmware up and the port free
    for the suite. ``out``: where to say what it is doing (a few seconds;
    a minute or more on the chip)."""
    from .table.table import open_table
    work = tempfile.mkdtemp(prefix="okgin-hil-")
    if out is not None:
        out.write("starting %s (flash: %s)\n" % ("an emulated Pico" if chip else "a virtual board", work))
        out.flush()
    try:
        # e-ink refreshes at 1/50 of a real panel's time on the chip (the
        # virtual board's suite runs them instantly): the suite tests
        # behaviour; the real timings are okgin bench chip's business
        if chip:
            t = open_table("chip", work, "hil", speed=0.02, firmware=firmware, out=out)
        else:
            t = open_table("vboard", work, "hil", speed=0.0, flashed=flash, heapsize=heapsize, out=out)
        try:
            t.on(300 if chip else 60)
            t.b.close()         # the suite opens the port itself
        except BaseException:
            _stop(t)
            raise
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise

    def cleanup():
        _stop(t)
        shutil.rmtree(work, ignore_errors=True)
    return t, cleanup


def _save_cutter(vb):
    """The virtual board's power cut in the middle of its next save: its
    flash is a host directory (okgin.table.files), so the firmware's test
    hook slows each 64-byte chunk of a save (settings.json "slow_save_ms",
    read at boot) and the board is killed while its .tmp exists. The
    settings are put back once the cut has happened."""
    from .table.files import DirFiles
    files = DirFiles(vb.flash_dir)

    def arm():
        old = files.read("settings.json")
        try:
            settings = json.loads(old) if old else {}
        except ValueError:
            settings = {}
        settings["slow_save_ms"] = 20
        files.put("settings.json", json.dumps(settings))
        vb.power_cycle()            # the firmware reads its settings at boot

        def watch():
            # game.tmp, or test.tmp for test mode's own game (store.sandbox)
            tmps = [files.path(n) for n in ("game.tmp", "test.tmp")]
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and not any(os.path.exists(t) for t in tmps):
                time.sleep(0.002)
            vb.kill()
            if old is None:
                files.remove("settings.json")
            else:
                files.put("settings.json", old)
        threading.Thread(target=watch, name="hil-save-cutter", daemon=True).start()
    return arm


def _stop(t):
    try:
        t.stop()
    except Exception:
        try:
            t.cut()
        except Exception:
            pass


def check_board(port):
    """Stop with one line, before the suite, when the port does not open or
    the okgin firmware does not answer there (else every test would fail
    with the same traceback)."""
    try:
        with transport.Board(port) as b:
            b.wait_ready(15, probe_after=0.0)   # it booted long ago: ask at once
    except transport.BoardTimeout as e:
        raise CommandError("%s; is the okgin firmware on it? okgin flash --port %s" % (e, port)) from e


def run_suite(target, junit=None, keyword=None):
    import pytest

    class Plugin:
        def __init__(self):
            self.target = target

    args = [SUITE, "-q", "-p", "no:cacheprovider", "--rootdir", ROOT]
    if junit:
        args += ["--junitxml", os.path.abspath(junit)]
    if keyword:
        args += ["-k", keyword]
    os.environ["OKGIN_HIL_PORT"] = target.port
    return int(pytest.main(args, plugins=[_named(Plugin())]))


def _named(obj):
    obj.__okgin_hil__ = True
    return obj


def configure(parser):
    from .table import options as table_options
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--port", help="serial port or pyserial URL of the board "
                   "(default: the one plugged-in Pico)")
    g.add_argument("--sim", action="store_true",
                   help="start a virtual board, flash it, and test that")
    table_options.add(g, "chip", help={
        "chip": "start an emulated Pico (stock MicroPython rp2), flash it with okgin "
                "flash over its USB serial port, and test that"})
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    parser.add_argument("-k", dest="keyword", metavar="EXPR",
                        help="only tests matching this pytest -k expression")
    parser.add_argument("--interactive", action="store_true",
                        help="ask a person for what software cannot do (unplug USB)")
    parser.add_argument("--no-flash", action="store_true",
                        help="with --sim: put the compiled firmware straight into the board's "
                             "flash directory instead of flashing it over the serial port")
    table_options.add(parser, "heapsize", help={
        "heapsize": "with --sim: the virtual board's MicroPython heap (default 208K, "
                    "the firmware's budget)"})
    parser.add_argument("--firmware", metavar="UF2",
                        help="with --chip: the MicroPython .uf2 to start from (default: v1.28.0 "
                             "for RPI_PICO, see docs/emulated-pico.md)")
    parser.epilog = ("examples:\n  okgin hil --sim\n  okgin hil --chip\n"
                     "  okgin hil --port /dev/ttyACM0 --junit hil.xml\n"
                     "  okgin hil --sim -k robustness\n")


def run(args):
    from .table import options as table_options
    table_options.resolve(args)
    if args.firmware and not args.chip:
        raise CommandError("--firmware is for the emulated Pico: add --chip")
    if args.heapsize and not args.sim:
        raise CommandError("--heapsize is for the virtual board: add --sim")
    if args.chip:
        if args.no_flash:
            raise CommandError("--no-flash is for --sim; the emulated Pico is always flashed "
                               "by okgin flash")
        t, cleanup = open_hil_table(chip=True, firmware=args.firmware, out=sys.stdout)
        try:
            chip = t.chip
            target = Target(chip.port, power_cycle=chip.power_cycle, press=chip.press,
                            cut_power_during_save=lambda: chip.cut_power_after_flash_writes(2),
                            board=chip, slow=10.0, clock=chip.patience_clock())
            print("running the hardware-in-loop suite (tests/hil) against it", flush=True)
            return run_suite(target, args.junit, args.keyword)
        finally:
            cleanup()
    if args.sim:
        t, cleanup = open_hil_table(flash=not args.no_flash, heapsize=args.heapsize, out=sys.stdout)
        try:
            vb = t.vb
            target = Target(vb.port, power_cycle=vb.power_cycle, press=vb.press,
                            cut_power_during_save=_save_cutter(vb), board=vb)
            print("running the hardware-in-loop suite (tests/hil) against it", flush=True)
            return run_suite(target, args.junit, args.keyword)
        finally:
            cleanup()
    port = transport.find_board(args.port)
    check_board(port)
    target = Target(port, power_cycle=_ask_person(port) if args.interactive else None)
    return run_suite(target, args.junit, args.keyword)
