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
import importlib
import sys

from okgin.errors import CommandError, stdout_guarded

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
    "stats": ("okgin.stats", "show the table's statistics (games, hands, gins, streaks)"),
    "glyphs": ("okgin.glyphs", "cut the languages' glyph files from GNU Unifont"),
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
  okgin bench engine                     performance figures (also board, flash, bots, memory, web)
  okgin hardware build                   render, check and picture the printable case
  okgin faults --quick                   the fault campaign, short (docs/reliability.md)
  okgin stats                            the table's statistics (the simulator's board)
  okgin glyphs                           cut the glyph files after editing a catalogue
"""


def build_parser(only=None):
    parser = argparse.ArgumentParser(
        prog="okgin",
        description="Oklahoma Gin card table: simulator, flashing and board tests.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
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
    if only not in COMMANDS:
        only = "" if only is None else only
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


if __name__ == "__main__":
    sys.exit(main())
