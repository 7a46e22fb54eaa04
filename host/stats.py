"""``okgin stats``: the table's statistics, read over its serial port.

Games and hands won per seat, between two people and against each computer
level, gins, undercuts, the longest winning streak, the biggest hand and
the last games' results, as the board keeps them (firmware/stats.py) and
answers the ``stats`` command (docs/protocol.md; no test mode needed).
Without ``--port`` it asks the simulator's virtual board, on the
simulator's flash (where `okgin sim` games are counted).
"""
import json
import os
import sys

from okgin.engine.levels import LEVELS
from .lib.errors import CommandError

# (key in the board's statistics, label, the two seats' names)
KINDS = (("human", "2 players", ("P1", "P2")),) + tuple(
    (level, "vs " + level, ("You", "CPU")) for level in LEVELS)

EPILOG = """examples:
  okgin stats                      the simulator's table (its virtual board)
  okgin stats --port /dev/ttyACM0  a real table
  okgin stats --json               the board's answer as JSON
"""


def configure(parser):
    parser.epilog = EPILOG
    parser.add_argument("--port", help="the board's serial port (default: the simulator's "
                                       "virtual board)")
    from .table import options as table_options
    table_options.add(parser, "flash_dir", help={
        "flash_dir": "without --port: the virtual board's flash (default: the "
                     "simulator's, as `okgin sim` uses it)"})
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")


def read_stats(board):
    """The board's statistics as a dict (firmware/stats.py's)."""
    from .lib.transport import TransportError
    lines = board.request_block("stats")
    try:
        d = json.loads(lines[0]) if len(lines) == 1 else None
    except ValueError:
        d = None
    if not isinstance(d, dict) or not isinstance(d.get("by"), dict):
        raise TransportError("the board's statistics are not readable: %r" % (lines[:1],))
    return d


def _pair(v):
    return "%d-%d" % (v[0], v[1])


def table(d):
    """The statistics as `okgin stats` prints them."""
    labels = {}
    seats = {}
    for kind, label, names in KINDS:
        labels[kind] = label
        seats[kind] = names
    n = d.get("games", 0)
    out = ["okgin statistics: %d game%s" % (n, "" if n == 1 else "s"), "",
           "%-21s %7s %7s %6s %10s %12s" % ("", "games", "hands", "gins", "undercuts",
                                            "best streak")]
    for kind, label, names in KINDS:
        c = d["by"].get(kind)
        if c is not None:
            out.append("%-21s %7s %7s %6s %10s %12s" % (
                "%s (%s-%s)" % (label, names[0], names[1]), _pair(c["games"]),
                _pair(c["hands"]), _pair(c["gins"]), _pair(c["undercuts"]),
                _pair(c["best_streak"])))
    b = d.get("biggest")
    out.append("")
    if b:
        out.append("biggest hand: %d points, %s (%s)" % (
            b[0], seats.get(b[2], ("P1", "P2"))[b[1]], labels.get(b[2], b[2])))
    else:
        out.append("biggest hand: -")
    last = d.get("last") or []
    out.append("last games, newest first:%s" % ("" if last else " -"))
    for vs, w, t0, t1, ngames in last:
        tot = (t0, t1) if w == 0 else (t1, t0)
        out.append("  %-10s %s won %d-%d%s" % (labels.get(vs, vs), seats.get(vs, ("P1", "P2"))[w],
                                               tot[0], tot[1],
                                               " (Hollywood: 3 games)" if ngames == 3 else ""))
    return "\n".join(out)


def run(args):
    from .lib.transport import Board
    from .table import options as table_options
    if args.port and args.flash_dir:
        raise CommandError("--flash-dir is the virtual board's; leave it out with --port")
    opts = table_options.resolve(args, flash_dir_missing="okgin sim --flash-dir DIR --fresh "
                                                          "makes a table there")
    if args.port:
        with Board(args.port).open() as b:
            b.wait_ready(5.0, probe_after=0.5)
            d = read_stats(b)
    else:
        from .table.session import default_flash_dir
        from .table.table import open_table
        flash = opts.flash_dir or default_flash_dir()
        print("starting the virtual board (flash: %s)" % flash,
              file=sys.stderr, flush=True)
        # the table on that flash (its firmware brought up to date, the
        # player's files kept), as okgin sim opens it
        t = open_table("vboard", os.path.dirname(os.path.abspath(flash)), os.path.basename(os.path.abspath(flash)))
        try:
            t.on(30.0)
            d = read_stats(t.b)
        finally:
            t.stop()
    if args.json:
        print(json.dumps(d, indent=1, sort_keys=True))
    else:
        print(table(d))
    return 0
