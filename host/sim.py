"""``okgin sim``: play on the virtual board — in a window, in the terminal,
or headless from a script.

The virtual board runs the real firmware under the MicroPython unix port;
the simulator shows both players' e-paper panels and turns keys and clicks
into button presses. Both panels are shown side by side (on the real table
each is private to its player).
"""
import os
import shutil
import sys
import tempfile

from okgin.engine.levels import LEVELS
from .lib.errors import CommandError

EPILOG = """examples:
  okgin sim                          a window; resume the saved game or open the menu
  okgin sim --vs hard                a new game against the hard computer player
  okgin sim --seed 7 --speed 0       a given deal, e-ink refreshes instant
  okgin sim --lang ko                in Korean (also lt, sw, en; the menu's Language too)
  okgin sim --tui                    in the terminal (also used when there is no display)
  okgin sim --headless --script s.txt --shots out/
                                     play a script of presses, write PNGs of the panels
  okgin sim --chip                   on the emulated Pico (stock MicroPython rp2, flashed first)

keys (hold = long press; Shift+key = long press too):
  player 1 (seat 0)  A/D left/right  S ok  Q draw  W take  E knock
  player 2 (seat 1)  J/L or arrows   K/Down/Enter ok  U draw  I take  O knock
  window    F2 serial console   F3 hide player 2   F5 power cycle   Ctrl-Q quit
  terminal  Esc q quit  Esc p power cycle  Esc c console  Esc s serial line  Esc h hide player 2
Scripts and the serial protocol number the seats 0 and 1.

The game is saved in --flash-dir (default %s) and survives
closing the simulator; --fresh starts without the saved game; --seed or
--vs keeps it aside as replaced-<date>-<time>.okg there, and says so.

script (--headless --script FILE), one step a line, '#' starts a comment:
  press 0 right          seat 0 presses right; `press 1 ok long`: a long press
  hold 0 left            a button down ...
  wait 800               ... for 800 ms of real time (the firmware auto-repeats) ...
  release 0 left         ... and up
  sync                   until every press is handled and the ink has settled
  shot NAME              --shots DIR/NAME.png (both panels), NAME-p0.png, NAME-p1.png
  serial status          a protocol line, its reply printed (ERR stops the script)
  powercycle             power the board off and on; waits for READY
buttons: left right ok draw take knock. Exit 0 at the script's end, 1 with
`okgin: FILE:LINE: what went wrong`.
"""


def _positive_int(text):
    import argparse
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a whole number: %r" % text) from None
    if v < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return v


def _seed(text):
    import argparse
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a whole number: %r" % text) from None
    if not 0 <= v < 1 << 30:
        raise argparse.ArgumentTypeError("must be between 0 and %d" % ((1 << 30) - 1))
    return v


def _langs():
    from .lib import lang
    return lang.codes()


def _lang(text):
    import argparse
    if text.lower() not in _langs():
        raise argparse.ArgumentTypeError("the table speaks %s" % ", ".join(_langs()))
    return text.lower()


def configure(parser):
    from .table import options as table_options
    from .table.session import default_flash_dir
    parser.description = " ".join(__doc__.split("\n\n")[0].split(": ", 1)[1].split())
    parser.epilog = EPILOG % default_flash_dir().replace(os.path.expanduser("~"), "~")
    g = parser.add_argument_group("game")
    g.add_argument("--vs", choices=LEVELS, help="a new game against the computer (it plays seat 1)")
    g.add_argument("--seed", type=_seed, metavar="N", help="start a new game with this deal seed")
    g.add_argument("--lang", type=_lang, metavar="CODE",
                   help="the table's language (kept): %s" % ", ".join(_langs()))
    table_options.add(g, "flash_dir", help={
        "flash_dir": "the board's flash (saved game), an existing directory (made with "
                     "--fresh, --seed or --vs); default: a per-user directory, or a "
                     "temporary one with --headless"})
    g.add_argument("--fresh", action="store_true", help="forget the saved game and settings first")
    table_options.add(g, "speed", "board", "heapsize", "chip", help={
        "speed": "e-ink speed factor: 1 = real panel timing (default), 0 = instant "
                 "(default with --headless)",
        "heapsize": "MicroPython heap of the virtual board (default 208K: the chip's budget on "
                    "this port, docs/memory.md)"})
    u = parser.add_argument_group("front end")
    m = u.add_mutually_exclusive_group()
    m.add_argument("--tui", action="store_true", help="use the terminal, not a window")
    m.add_argument("--headless", action="store_true", help="no UI: run --script")
    u.add_argument("--scale", type=_positive_int, metavar="N",
                   help="screen pixels per panel pixel (default: the largest that fits the screen; "
                        "headless shots: 2)")
    u.add_argument("--script", metavar="FILE", help="with --headless: presses, waits and shots to run")
    u.add_argument("--shots", metavar="DIR", default="shots", help="where `shot` writes PNGs (default ./shots)")
    u.add_argument("--bench-startup", type=_positive_int, nargs="?", const=5, metavar="RUNS",
                   help="measure the start-up time to the first frame (median of RUNS, default 5) and exit")


def run(args):
    from .table import options as table_options
    from .table import session as sess
    # the table's options checked before anything starts; --flash-dir: a
    # mistyped folder would quietly start a new table, the saved game
    # nowhere to be seen, unless a new table is asked for
    new_table = args.fresh or args.seed is not None or args.vs
    opts = table_options.resolve(args, flash_dir_missing=None if new_table else (
        "to start a new table there, add --fresh, or a new game with --seed or --vs"))
    args.board = opts.board
    if args.bench_startup:
        from .simui import bench
        return bench.run(args)
    if args.script and not args.headless:
        raise CommandError("--script needs --headless (the window and terminal are played by hand)")
    if args.headless and not args.script:
        raise CommandError("--headless needs --script FILE (okgin sim --help shows the format)")
    steps = None
    if args.headless:
        from .simui import script
        steps = script.load(args.script)  # check the whole script before booting anything
    speed = args.speed if args.speed is not None else (0.0 if args.headless else 1.0)
    if args.chip:
        return _run_chip(args, steps, speed)

    tmp = None
    flash_dir = opts.flash_dir
    if flash_dir is None:
        if args.headless:
            tmp = flash_dir = tempfile.mkdtemp(prefix="okgin-sim-")
        else:
            flash_dir = sess.default_flash_dir()
    flash_dir = os.path.abspath(os.path.expanduser(flash_dir))
    os.makedirs(flash_dir, exist_ok=True)
    lock = args.flash_lock = _lock_flash(flash_dir)
    if args.fresh:
        sess.clear_saved_state(flash_dir)

    try:
        if args.headless:
            return _run_headless(args, steps, flash_dir, speed)
        ui = "tui" if args.tui else _pick_ui()
        if ui == "tk":
            from .simui import tkapp
            try:
                return tkapp.main(args, flash_dir, speed)
            except tkapp.NoDisplay as e:
                print("okgin: no window (%s); using the terminal" % e, file=sys.stderr)
        from .simui import tui
        return tui.main(args, flash_dir, speed)
    finally:
        lock.close()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _lock_flash(flash_dir):
    """One program per flash directory (host/lib/locks.py): two boards saving
    one game file would overwrite each other's moves. Taken before --fresh
    and populate touch it; the virtual board is handed the same lock."""
    from .vboard import lock_flash
    return lock_flash(flash_dir)


def _pick_ui():
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "tui"
    return "tk"


def _run_chip(args, steps, speed):
    """okgin sim --chip: the same front ends on the emulated Pico."""
    from .chip.chipboard import default_flash
    if args.headless:
        tmp = tempfile.mkdtemp(prefix="okgin-sim-chip-")
        try:
            args.chip_flash = os.path.join(tmp, "flash.bin")
            return _run_headless(args, steps, args.chip_flash, speed)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    args.chip_flash = default_flash()
    ui = "tui" if args.tui else _pick_ui()
    if ui == "tk":
        from .simui import tkapp
        try:
            return tkapp.main(args, args.chip_flash, speed)
        except tkapp.NoDisplay as e:
            print("okgin: no window (%s); using the terminal" % e, file=sys.stderr)
    from .simui import tui
    return tui.main(args, args.chip_flash, speed)


def _run_headless(args, steps, flash_dir, speed):
    from .table.session import open_session
    from .simui import script
    s = open_session(args, flash_dir, speed)
    try:
        script.run(s, steps, args.shots, filename=args.script, scale=args.scale or 2)
    finally:
        s.close()
    return 0
