"""``okgin``: the command table (after mpremote's).

Each command lives in its own module, ``host/<command>.py`` (or
``host/<package>/command.py`` when a package of its own holds the
command's library: ``faults``, ``hardware``, ``web``), exposing
``configure(parser)`` (adds its arguments and an ``examples:`` epilog; the
parser's description is the one-line help in ``COMMANDS`` below, which a
module may replace) and ``run(args) -> int``; adding a command is one row
here and one module. Modules are imported
only when their command runs, so ``okgin --help`` stays fast and a command's
dependencies (Tk, pyserial, mpremote) load only when needed.
"""
import argparse
import difflib
import errno
import importlib
import os
import sys

from .lib.errors import CommandError, stdout_guarded

# name -> (module, one-line help)
COMMANDS = {
    "sim": ("okgin.sim", "play on the virtual board in a window (or the terminal)"),
    "board": ("okgin.board", "run only the virtual board and print its serial port"),
    "flash": ("okgin.flash", "compile and copy the firmware onto a board"),
    "uf2": ("okgin.uf2", "write one .uf2 file to drag onto a Pico: MicroPython and the game"),
    "hil": ("okgin.hil", "run the hardware-in-loop tests against a board"),
    "replay": ("okgin.replay", "replay a game record on the virtual board"),
    "bench": ("okgin.bench", "print performance figures (engine, board, flash, bots, memory, web, chip, power)"),
    "tourney": ("okgin.tourney", "play computer players against each other"),
    "faults": ("okgin.faults.command", "run the fault campaign (power cuts, damaged files, junk on the port...)"),
    "hardware": ("okgin.hardware.command", "build the printable enclosure, check it, draw its pictures"),
    "web": ("okgin.web.command", "play in a browser: build the static page and serve it here"),
    "screenshots": ("okgin.screenshots", "redraw the README's pictures (window, web page, text view) from the firmware"),
    "stats": ("okgin.stats", "show the table's statistics (games, hands, gins, streaks)"),
    "glyphs": ("okgin.glyphs", "cut the languages' glyph files from GNU Unifont, write their indexes"),
    "doctor": ("okgin.doctor", "list the optional parts (Tk, Node.js, OpenSCAD, the Pico's images...): found, or how to get them"),
}

EPILOG = """examples:
  okgin sim                              play both seats in a window
  okgin sim --vs hard                    play against the computer
  okgin board                            start the virtual board, print its port
  okgin flash                            put the firmware on the plugged-in Pico
  okgin uf2 -o okgin.uf2                 one file to drag onto a new Pico (BOOTSEL)
  okgin hil --sim                        run the hardware-in-loop tests on the virtual board
  okgin replay game.okg --shots out/     replay a saved game, a picture per action
  okgin tourney hard greedy --games 200  computer players against each other
  okgin web                              play in a browser (http://127.0.0.1:8000/)
  okgin screenshots                      redraw the README's pictures (docs/img) from the firmware
  okgin bench engine                     performance figures (also board, flash, bots, memory, web)
  okgin hardware build                   render, check and picture the printable case
  okgin faults --quick                   the fault campaign, short (docs/reliability.md)
  okgin stats                            the table's statistics (the simulator's board)
  okgin glyphs                           glyph files and indexes after editing a catalogue
  okgin doctor                           what this machine has of the optional parts, how to get the rest
"""


# errors of the user's files and disks (the net under every command)
_THEIRS = (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT)


def version():
    """okgin's version, the firmware's and its serial protocol's (read from
    firmware/protocol.py, which runs on the board), and MicroPython's for
    the Pico (okgin uf2, the emulated Pico)."""
    import re
    from importlib import metadata

    from .chip.images import FIRMWARE_VERSION
    from .lib.paths import FIRMWARE
    try:
        tool = metadata.version("okgin")
    except metadata.PackageNotFoundError:
        tool = "unknown (not installed)"
    with open(os.path.join(FIRMWARE, "protocol.py")) as f:
        text = f.read()
    fw = re.search(r'^VERSION = "([^"]+)"', text, re.M)
    proto = re.search(r"^PROTO = (\d+)", text, re.M)
    return "okgin %s (firmware %s, protocol %s; MicroPython v%s for the Pico)" % (
        tool, fw.group(1) if fw else "?", proto.group(1) if proto else "?", FIRMWARE_VERSION)


def build_parser(only=None):
    parser = argparse.ArgumentParser(
        prog="okgin",
        description="Oklahoma Gin card table: simulator, flashing and board tests.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=version(),
                        help="the versions of okgin, its firmware and protocol, and the Pico's MicroPython")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (modname, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if only is None or name == only:
            mod = importlib.import_module(modname)
            mod.configure(p)
            p.set_defaults(_module=mod, _parser=p)
    return parser


def _unknown(args, extra):
    """An argument the command does not take: its own usage and error (not
    the top-level one), with the option it looks like (--seeed: --seed)."""
    p = args._parser
    options = [o for a in p._actions for o in a.option_strings]
    msg = "unrecognized arguments: %s" % " ".join(extra)
    for word in extra:
        close = difflib.get_close_matches(word.split("=")[0], options, n=1, cutoff=0.7)
        if word.startswith("-") and close:
            msg += " (did you mean %s?)" % close[0]
            break
    p.error(msg)


@stdout_guarded
def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    only = next((a for a in argv if not a.startswith("-")), None)
    if only is not None and only not in COMMANDS:
        close = difflib.get_close_matches(only, COMMANDS, n=1, cutoff=0.6)
        build_parser("").error("unknown command %r: %s" % (only, (
            "did you mean okgin %s?" % close[0]) if close else "the commands are %s (okgin --help says "
                                                                "what each does)" % ", ".join(COMMANDS)))
    if only is None:
        only = ""
    parser = build_parser(only)
    args, extra = parser.parse_known_args(argv)
    if not getattr(args, "command", None):
        if extra:
            parser.error("unrecognized arguments: %s" % " ".join(extra))
        parser.print_help()
        return 0
    if extra:
        _unknown(args, extra)
    try:
        return int(args._module.run(args) or 0)
    except CommandError as e:
        print("okgin: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    # a reader that went away (okgin tourney ... | head): BrokenPipeError,
    # an OSError not in _THEIRS, goes on to stdout_guarded (errors.py)
    except OSError as e:
        # the user's machine says no (a read-only or full disk, a folder
        # not theirs): one line naming the file, not a traceback
        if e.errno not in _THEIRS or e.filename is None:
            raise
        print("okgin: %s: %s (choose a file or folder you can write to%s)"
              % (e.filename, e.strerror, ", or free some space" if e.errno in (errno.ENOSPC, errno.EDQUOT) else ""),
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
