"""``okgin board``: run only the virtual board and print its serial port.

The firmware runs under the real MicroPython unix port with emulated pins
and panels (docs/virtual-board.md); the port behaves like a Pico's
/dev/ttyACM0 for pyserial, mpremote and `okgin flash/hil --port`.
With ``--chip``, an emulated Raspberry Pi Pico instead: the stock
MicroPython rp2 image on an emulated RP2040, its flash a file that keeps
what is written to it (docs/emulated-pico.md).
"""
import os
import signal
import sys
import time

from .lib.errors import CommandError
from .lib.paths import BOARD


def _stop_on_ctrl_c_and_term():
    """Ctrl-C (SIGINT) and SIGTERM both end the board cleanly. SIGINT is
    set explicitly: a program started from a background job or a script
    under nohup inherits SIGINT *ignored*, and Python then never raises
    KeyboardInterrupt (CI ran the tests that way: the board ignored Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))


def configure(parser):
    from .table import options as table_options
    table_options.add(parser, "flash_dir", help={
        "flash_dir": "the board's flash: a directory kept between runs (default: a temporary "
                     "one filled from the sources)"})
    parser.add_argument("--populate", action="store_true",
                        help="sync the firmware into --flash-dir first, compiled to .mpy "
                             "as okgin flash does (saved games are kept)")
    parser.add_argument("--source", action="store_true",
                        help="put .py sources on the board instead of .mpy (needs more heap)")
    table_options.add(parser, "speed", "heapsize", "board", defaults={"speed": 1.0}, help={
        "speed": "e-ink timing: 1 = like a real panel, 0 = instant (default 1; with --chip "
                 "1 or 0)",
        "heapsize": "MicroPython GC heap (default 208K, the chip's budget on this port "
                    "(docs/memory.md); 224K with --source, as the board then "
                    "compiles the sources itself)"})
    parser.add_argument("--quiet", action="store_true", help="do not print panel refreshes")
    chip = parser.add_argument_group("emulated Pico (--chip)")
    table_options.add(chip, "chip", help={
        "chip": "an emulated Raspberry Pi Pico running stock MicroPython (rp2 port) "
                "instead of the unix-port virtual board; flash it with okgin flash --port"})
    chip.add_argument("--flash", metavar="FILE",
                      help="with --chip: the Pico's 2 MB flash, kept between runs (default "
                           "~/.local/share/okgin/pico-flash.bin)")
    chip.add_argument("--firmware", metavar="UF2",
                      help="with --chip: write this MicroPython .uf2 to the flash first, as "
                           "dropping it on a Pico's USB drive does (default on a new flash: "
                           "MicroPython v1.28.0 for RPI_PICO, downloaded once)")
    chip.add_argument("--erase", action="store_true",
                      help="with --chip: start from a new Pico (erase the flash, saved game too)")
    chip.add_argument("--drop", metavar="UF2",
                      help="with --chip: power on with BOOTSEL held and drag this .uf2 onto the "
                           "Pico's USB drive (as okgin uf2 makes); its bootrom writes it and "
                           "restarts into it")
    parser.epilog = ("examples:\n"
                     "  okgin board\n"
                     "  okgin board --flash-dir ~/okgin-flash --populate --speed 0\n"
                     "  okgin board --chip              (then: okgin flash --port <port>)\n"
                     "then, in another terminal:\n"
                     "  mpremote connect <port> resume fs ls\n")


def run(args):
    from .table import options as table_options
    opts = table_options.resolve(args, flash_dir_missing=None if args.populate else (
        "add --populate to create it from the sources"))
    if args.chip:
        return run_chip(args, opts)
    for opt in ("flash", "firmware", "erase", "drop"):
        if getattr(args, opt):
            raise CommandError("--%s is for the emulated Pico: add --chip" % opt)
    from .table.boards import make_board
    from .vboard import lock_flash, populate
    lock = None
    if opts.flash_dir:
        if os.path.isdir(opts.flash_dir):
            # before populating it: one program per flash directory
            lock = lock_flash(opts.flash_dir)
        if args.populate:
            populate(opts.flash_dir, board=opts.board, compiled=not args.source)
    vb = make_board("vboard", flash=opts.flash_dir, board=opts.board or BOARD, eink=args.speed,
                    heapsize=args.heapsize, compiled=not args.source, lock=lock)

    def on_event(ev):
        if ev[0] == "exit" and not ev[2]:
            # Said even with --quiet: the board is of no use until restarted.
            print("okgin board: micropython exited with status %s %d times in a row at "
                  "boot, so the board stays off (Ctrl-C, fix the firmware, start again)"
                  % (ev[1], vb.crash_restarts), file=sys.stderr, flush=True)
        if args.quiet:
            return
        if ev[0] == "refresh":
            print("panel %d: %s refresh (%.1f s)" % (ev[1], ev[2], ev[3]), flush=True)
        elif ev[0] == "reset":
            print("board reset", flush=True)
        elif ev[0] == "exit" and ev[2]:
            print("micropython exited with status %s; the board boots again" % ev[1], flush=True)

    vb.on_event = on_event
    _stop_on_ctrl_c_and_term()
    with vb:
        print("virtual board on %s (flash: %s, heap %s, speed %g)" % (
            vb.port, vb.flash_dir, vb.heapsize, vb.speed))
        print("connect with:  mpremote connect %s resume fs ls" % vb.port)
        print("           or: okgin hil --port %s ; python -m serial.tools.miniterm %s" % (vb.port, vb.port))
        print("Ctrl-C stops the board.", flush=True)
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            print("stopping", file=sys.stderr)
    return 0


def _erase(flash):
    """--erase: a new Pico. Said, since the saved game goes with it; refused
    while another program has that flash."""
    import fcntl
    with open(flash + ".lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise CommandError("the emulated Pico's flash %s is in use by another program: not "
                               "erasing it" % flash) from None
        print("okgin board: --erase: a new Pico; the saved game, settings and statistics in %s "
              "are erased" % flash, file=sys.stderr, flush=True)
        os.remove(flash)


def _cut_file(path):
    """Say so when the file to drop is cut (a copy or download that stopped
    part way): what a Pico does with it, and how to recover. Returns
    (blocks whole, blocks announced), or None for a whole file."""
    from .chip import images
    with open(path, "rb") as f:
        cut = images.uf2_cut(f.read())
    if cut:
        print("okgin board: %s is cut: it holds %d of the %d blocks its blocks announce (a copy "
              "or download that stopped part way). A Pico's drive takes it without a word and "
              "does not restart; unplugged, the Pico then starts nothing (MicroPython or the "
              "game half-written). Make the file again (okgin uf2) and drag the whole file: "
              "that repairs it." % (path, cut[0], cut[1]), file=sys.stderr, flush=True)
    return cut


def run_chip(args, opts):
    from .chip.chipboard import default_flash
    from .table.boards import make_board
    for opt in ("populate", "source"):
        if getattr(args, opt):
            raise CommandError("--%s is for the virtual board, not --chip (the emulated Pico "
                               "is flashed with okgin flash --port)" % opt.replace("_", "-"))
    if args.speed not in (0, 1):
        raise CommandError("--chip takes --speed 1 (time as on the wall clock) or 0 (the sleeping "
                           "chip jumps to the end of each e-ink refresh)")
    flash = args.flash or default_flash()
    if args.drop and not os.path.isfile(args.drop):
        raise CommandError("--drop %s: no such file" % args.drop)
    if args.erase and os.path.exists(flash):
        _erase(flash)
    elif args.drop and os.path.exists(flash):
        print("okgin board: dragging %s onto the Pico replaces its filesystem: the saved game, "
              "settings and statistics in %s are erased (okgin flash keeps them)"
              % (args.drop, flash), file=sys.stderr, flush=True)
    cut = _cut_file(args.drop) if args.drop else None
    chip = make_board("chip", flash=flash, board=opts.board or BOARD, firmware=args.firmware,
                      realtime=args.speed == 1, drop=args.drop)

    def on_event(ev):
        if args.quiet:
            return
        if ev[0] == "refresh":
            print("panel %d: %s refresh (%.1f s)" % (ev[1], ev[2], ev[3]), flush=True)
        elif ev[0] == "reset":
            print("chip reset", flush=True)
        elif ev[0] == "exit":
            print("the emulated chip stopped (status %s): %s"
                  % (ev[1], (chip.last_exit or (None, ""))[1]), flush=True)

    chip.on_event = on_event
    _stop_on_ctrl_c_and_term()
    with chip:
        print("emulated Pico on %s (flash: %s; %s)" % (
            chip.port, chip.flash_path, os.path.basename(chip.firmware_path or "firmware on flash")))
        print("connect with:  mpremote connect %s" % chip.port)
        print("           or: okgin flash --port %s ; okgin hil --port %s" % (chip.port, chip.port))
        print("Ctrl-C stops the chip (the flash keeps what was written).", flush=True)
        try:
            waited = 0
            while chip.alive:
                time.sleep(1)
                done, total = chip.dropped_blocks
                if cut and not chip.resets and total and done == total:
                    waited += 1
                    if waited == 3:     # the drive took every block and does not restart
                        print("okgin board: the Pico's drive took the %d blocks of %s and waits "
                              "for the other %d: it stays the RPI-RP2 drive and does not restart. "
                              "Drag the whole file again (okgin uf2 makes it anew)"
                              % (done, os.path.basename(args.drop), cut[1] - cut[0]),
                              file=sys.stderr, flush=True)
            print("the emulated chip stopped: %s" % (chip.last_exit[1] if chip.last_exit else ""),
                  file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("stopping", file=sys.stderr)
    return 0
