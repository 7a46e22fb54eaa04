"""``okgin``: the command table (after mpremote's).

Each command lives in its own module, ``host/<command>.py`` (or
``host/<package>/command.py`` when a package of its own holds the
command's library: ``web``), exposing
``configure(parser)`` (adds its arguments and an ``examples:`` epilog; the
parser's description is the one-line help in ``COMMANDS`` below, which a
module may replace) and ``run(args) -> int``; adding a command is one row
here and one module. Modules are imported
only when their command runs, so ``okgin --help`` stays fast and a command's
dependencies (Tk, pyserial, mpremote) load only when needed.
"""
import argparse
import importlib
import sys

from okgin.errors import CommandError

# name -> (module, one-line help)
COMMANDS = {
    "sim": ("okgin.sim", "play on the virtual board in a window (or the terminal)"),
    "board": ("okgin.board", "run only the virtual board and print its serial port"),
    "flash": ("okgin.flash", "compile and copy the firmware onto a board"),
    "hil": ("okgin.hil", "run the hardware-in-loop tests against a board"),
    "replay": ("okgin.replay", "replay a game record on the virtual board"),
    "bench": ("okgin.bench", "print performance figures (engine, board, flash, bots, memory, web, chip)"),
    "tourney": ("okgin.tourney", "play computer players against each other"),
    "faults": ("okgin.faults", "run the fault campaign (power cuts, damaged files, junk on the port...)"),
    "hardware": ("okgin.hardware", "build the printable enclosure, check it, draw its pictures"),
    "web": ("okgin.web.command", "play in a browser: build the static page and serve it here"),
    "stats": ("okgin.stats", "show the table's statistics (games, hands, gins, streaks)"),
}

EPILOG = """examples:
  okgin sim                              play both seats in a window
  okgin sim --vs hard                    play against the computer
  okgin board                            start the virtual board, print its port
  okgin flash                            put the firmware on the plugged-in Pico
  okgin hil --sim                        run the hardware-in-loop tests on the virtual board
  okgin replay game.okg --shots out/     replay a saved game, a picture per action
  okgin tourney hard greedy --games 200  computer players against each other
  okgin web                              play in a browser (http://127.0.0.1:8000/)
  okgin bench engine                     performance figures (also board, flash, bots, memory, web)
  okgin hardware build                   render, check and picture the printable case
  okgin faults --quick                   the fault campaign, short (docs/reliability.md)
  okgin stats                            the table's statistics (the simulator's board)
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
            p.set_defaults(_module=mod)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    only = next((a for a in argv if not a.startswith("-")), None)
    if only not in COMMANDS:
        only = "" if only is None else only
    parser = build_parser(only)
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return int(args._module.run(args) or 0)
    except CommandError as e:
        print("okgin: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
