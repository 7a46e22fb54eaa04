"""``okgin bench``: print performance figures. Each suite is its own module,
imported only when asked for, so a missing dependency of one never breaks another.
"""
import importlib

from okgin.errors import CommandError

SUITES = {
    "engine": "okgin.benches.engine",   # deadwood evals/s, random hands/s, peak MicroPython heap
    "board": "okgin.benches.board",     # refreshes, e-ink wait per turn, latency, boot, heap
    "flash": "okgin.benches.flash",     # full and incremental flash: bytes and seconds
    "bots": "okgin.benches.bots",       # decision times of the computer players
    "expert": "okgin.benches.expert",   # the expert level's decision times: CPython, unix port, WebAssembly in Node
    "memory": "okgin.benches.memory",   # firmware peak heap and smallest heap a game runs in
    "web": "okgin.benches.web",         # the web page: size, first screen, ms per key, hands/s
    "chip": "okgin.benches.chip",       # the emulated Pico: flash, boot, reaction, decisions, heap (emulated 125 MHz)
    "power": "okgin.benches.power",     # the emulated Pico on batteries: mA playing, idle, asleep; hours/days
    "reply": "okgin.benches.reply",     # the emulated Pico: press -> the computer's reply on the ink, through the buttons
}


def configure(parser):
    parser.add_argument("suite", choices=sorted(SUITES), help="what to measure")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--chip", action="store_true",
                        help="bots: the hard computer's decision times inside the firmware on "
                             "the emulated Pico, over whole games, and the heap after each")
    parser.add_argument("--games", type=int, default=None,
                        help="bots --chip: games against the computer, in a row (default 10; "
                             "--quick: 1); reply: games per language (default 1)")
    parser.add_argument("--hands", type=int, default=None, help="power: hands per game scenario (1)")
    parser.add_argument("--idle-s", type=float, default=None,
                        help="power: seconds of the idle scenario (3600; --quick: 600)")
    parser.add_argument("--volts", type=float, default=None, help="power: battery voltage (3.6)")
    parser.add_argument("--mah", type=float, default=None, help="power: battery capacity (2000)")
    parser.add_argument("--pace", type=float, default=None,
                        help="power: seconds from one move (one action's buttons) to the next (5)")
    parser.add_argument("--lang", metavar="CODES",
                        help="chip, reply: the table's languages to measure, comma-separated "
                             "(default: every one; docs/architecture.md \"Languages\")")
    parser.add_argument("--only", metavar="PARTS",
                        help="chip: only these parts, comma-separated: flash, boot, reaction, "
                             "decisions, heap (whole games), row (ten games in a row)")
    parser.add_argument("--board", metavar="FILE",
                        help="chip: the board definition to emulate and flash (default "
                             "hardware/board.json; board-4in2.json: the 4.2in 400x300 panels)")
    parser.epilog = ("examples:\n  okgin bench engine\n  okgin bench board --quick\n"
                     "  okgin bench chip --only reaction,heap --lang ko,en\n"
                     "  okgin bench power --quick\n  okgin bench expert --quick\n")


def run(args):
    try:
        mod = importlib.import_module(SUITES[args.suite])
    except ImportError as e:
        raise CommandError("benchmark %r is not available: %s" % (args.suite, e)) from e
    return mod.run(args)
