"""``okgin bench``: print performance figures. Each suite is its own module,
imported only when asked for, so a missing dependency of one never breaks another.
"""
import importlib

from host.errors import CommandError

SUITES = {
    "engine": "host.benches.engine",   # deadwood evals/s, random hands/s, peak MicroPython heap
    "board": "host.benches.board",     # refreshes, e-ink wait per turn, latency, boot, heap
    "flash": "host.benches.flash",     # full and incremental flash: bytes and seconds
    "bots": "host.benches.bots",       # decision times of the computer players
    "memory": "host.benches.memory",   # firmware peak heap and smallest heap a game runs in
    "web": "host.benches.web",         # the web page: size, first screen, ms per key, hands/s
    "chip": "host.benches.chip",       # the emulated Pico: flash, boot, reaction, decisions, heap (emulated 125 MHz)
}


def smallest(fits, lo, hi, step):
    """Bisection for the benches' "smallest heap" figures: the smallest
    multiple of ``step`` above ``lo`` (up to ``hi``) for which ``fits(size)``
    is True, taking larger sizes to fit too; None if ``hi`` does not fit."""
    if not fits(hi):
        return None
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi


def configure(parser):
    parser.add_argument("suite", choices=sorted(SUITES), help="what to measure")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--chip", action="store_true",
                        help="bots: the hard computer's decision times inside the firmware on "
                             "the emulated Pico, over whole games, and the heap after each")
    parser.add_argument("--games", type=int, default=None,
                        help="bots --chip: games against the computer, in a row (default 10; "
                             "--quick: 1)")
    parser.epilog = "examples:\n  okgin bench engine\n  okgin bench board --quick\n"


def run(args):
    try:
        mod = importlib.import_module(SUITES[args.suite])
    except ImportError as e:
        raise CommandError("benchmark %r is not available: %s" % (args.suite, e)) from e
    return mod.run(args)
