"""``okgin faults``: the fault campaign's command (docs/reliability.md): its
arguments, then the library (okgin.faults) runs the rows and prints the
table. ``--quick`` is the short run ``make test`` does (tests/host/
test_faults.py on the virtual board, tests/chip/test_faults_chip.py on the
emulated Pico); the default is the long run a release needs."""
import os
import random
import time

from ..lib.errors import CommandError


def configure(parser):
    from .registry import registry
    rows = ",".join(registry())
    parser.add_argument("--quick", action="store_true",
                        help="the short run (make test does it): a few cases per row")
    parser.add_argument("--rows", default=None,
                        help="rows to run, comma-separated (default: all: %s)" % rows)
    from ..table import options as table_options
    table_options.add(parser, "chip", help={
        "chip": "on the emulated Pico (host/chip) instead of the virtual board: "
                "fewer cases (it is ~10x slower; --scale raises them)"})
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every row's number of cases")
    parser.add_argument("--source", default=None,
                        help="the firmware tree to put on the table (engine/, firmware/, "
                             "hardware/; default: this checkout), e.g. an older one")
    table_options.add(parser, "board", help={
        "board": "board definition of the table (default hardware/board.json, the 4.2in "
                 "table, or SOURCE's with --source; board-2in9.json: the 2.9in one)"})
    parser.epilog = ("examples:\n  okgin faults --quick\n  okgin faults            "
                     "(the long run, ~1 hour: the table of docs/reliability.md)\n"
                     "  okgin faults --rows power,damage --seed 7\n"
                     "  okgin faults --chip --rows damage --scale 5   "
                     "(on the emulated Pico: 500 damaged files)\n")


def run(args):
    from .campaign import run_campaign
    from .registry import registry
    from .tables import CampaignChipTable, CampaignTable
    from .tally import table as markdown
    kinds = registry()
    rows = [x.strip() for x in (args.rows or ",".join(kinds)).split(",") if x.strip()]
    for x in rows:
        if x not in kinds:
            raise CommandError("unknown row %r (rows: %s)" % (x, ", ".join(kinds)))
    if args.scale <= 0:
        raise CommandError("--scale must be > 0")
    from ..table import options as table_options
    opts = table_options.resolve(args)
    chip = opts.chip
    table: "type[CampaignTable | CampaignChipTable]" = CampaignChipTable if chip else CampaignTable
    from ..lib.paths import board_json
    board = opts.board
    if args.source:
        if not os.path.isdir(os.path.join(args.source, "firmware")):
            raise CommandError("--source %s: no firmware/ folder there" % args.source)
        if board is None:
            board = table_options.check_board(board_json(args.source))

    if args.source or board is not None:
        class From(table):     # type: ignore[valid-type,misc]
            pass
        if args.source:
            From.source = os.path.abspath(args.source)
        if board is not None:
            From.board = os.path.abspath(board)
        table = From
    sizes = {}
    for name in rows:
        n = kinds[name].size(chip, args.quick)
        sizes[name] = max(1, int(round(n * args.scale))) if n else 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print("okgin faults (%s run, seed %d) on %s" % ("short" if args.quick else "long", seed,
                                                   table.label))
    t0 = time.monotonic()
    results = run_campaign(rows, sizes, seed, table=table)
    print()
    print(markdown(results, "emulated Pico" if chip else "virtual board"))
    print()
    print("%.0f s in all; rerun with: okgin faults%s%s --rows %s --seed %d%s%s%s"
          % (time.monotonic() - t0, " --quick" if args.quick else "", " --chip" if chip else "",
             ",".join(rows), seed,
             " --scale %g" % args.scale if args.scale != 1.0 else "",
             " --source %s" % args.source if args.source else "",
             " --board %s" % args.board if args.board else ""))
    failed = [r.name for r in results if not r.passed()]
    if failed:
        raise CommandError("faults: %s lost, got something wrong, got stuck or stopped "
                           "early (see above)"
                           % ", ".join(failed))
    return 0
