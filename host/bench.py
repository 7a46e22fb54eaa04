"""``okgin bench SUITE``: print performance figures. Each suite is its own
module in host/benches/ with ``configure(parser)`` (its options, on a
parser of its own: ``okgin bench power --help`` shows power's) and
``run(args)``; a suite whose module cannot be imported still has its
parser, and says why when it is run, so one missing dependency never
breaks another. Adding a suite: docs/architecture.md "Adding a bench suite".
"""
import argparse
import importlib

from .lib.errors import CommandError

# name -> (module, one-line help)
SUITES = {
    "engine": ("okgin.benches.engine", "deadwood evals/s, random hands/s, peak MicroPython heap"),
    "board": ("okgin.benches.board", "the virtual board: refreshes, e-ink wait per turn, latency, boot, heap"),
    "flash": ("okgin.benches.flash", "full and incremental flash: bytes and seconds"),
    "bots": ("okgin.benches.bots", "decision times of the computer players"),
    "expert": ("okgin.benches.expert",
               "the expert level's decision times: CPython, unix port, WebAssembly in Node"),
    "memory": ("okgin.benches.memory", "firmware peak heap and the smallest heap a game runs in"),
    "web": ("okgin.benches.web", "the web page: size, first screen, ms per key, hands/s"),
    "chip": ("okgin.benches.chip",
             "the emulated Pico: flash, boot, reaction, decisions, heap (emulated 125 MHz)"),
    "power": ("okgin.benches.power", "the emulated Pico on batteries: mA playing, idle, asleep; hours/days"),
    "reply": ("okgin.benches.reply",
              "the emulated Pico: press -> the computer's reply on the ink, through the buttons"),
}


def configure(parser):
    sub = parser.add_subparsers(dest="suite", metavar="SUITE", required=True,
                                help="what to measure (okgin bench SUITE --help: its options)")
    for name, (modname, help_text) in SUITES.items():
        p = sub.add_parser(name, help=help_text, description=help_text,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        try:
            mod = importlib.import_module(modname)
        except ImportError as e:
            p.set_defaults(_unavailable=str(e), _parser=p)
            continue
        mod.configure(p)
        # the suite's own parser names a mistyped option (okgin.cli._unknown)
        p.set_defaults(_suite=mod, _parser=p)
    parser.epilog = ("examples:\n  okgin bench engine\n  okgin bench board --quick\n"
                     "  okgin bench chip --only reaction,heap --lang ko,en\n"
                     "  okgin bench power --quick\n  okgin bench power --help\n")


def run(args):
    if getattr(args, "_unavailable", None):
        raise CommandError("benchmark %r is not available: %s" % (args.suite, args._unavailable))
    return args._suite.run(args)
