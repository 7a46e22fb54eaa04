"""``okgin bench flash``: full and incremental flash against the virtual board.

Prints the median seconds and the bytes sent (file payload and everything
written to the serial port) over a few runs. Full = a board with empty
flash; incremental = one firmware module changed since the last flash.
"""
import os
import shutil
import statistics
import sys
import tempfile
import time

from ..lib.paths import copy_source


def _copy_source(dst):
    copy_source(dst, ignore=("__pycache__", "*.pyc"))


def _touch_module(src, n):
    """Change one module's bytecode (a new constant), as an edit would."""
    path = os.path.join(src, "firmware", "store.py")
    with open(path, "a") as f:
        f.write("\n_BENCH_EDIT = %d\n" % n)


def measure(runs=3, out=sys.stdout):
    from ..table.flashing import flash_board
    from ..table.boards import start_board
    work = tempfile.mkdtemp(prefix="okgin-bench-flash-")
    results: "dict[str, list]" = {"full": [], "incremental": []}
    try:
        src = os.path.join(work, "src")
        _copy_source(src)
        for i in range(runs):
            flash_dir = os.path.join(work, "flash%d" % i)
            os.makedirs(flash_dir)
            vb = start_board("vboard", flash=flash_dir, eink=0.0)
            try:
                t = time.perf_counter()
                rep = flash_board(vb.port, src_root=src, quiet=True, power_cycle=vb.power_cycle)
                results["full"].append((time.perf_counter() - t, rep))
                _touch_module(src, i)
                t = time.perf_counter()
                rep = flash_board(vb.port, src_root=src, quiet=True, power_cycle=vb.power_cycle)
                results["incremental"].append((time.perf_counter() - t, rep))
            finally:
                vb.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out.write("flash against the virtual board (median of %d; includes the reset "
              "and waiting for READY)\n" % runs)
    for kind, rows in results.items():
        secs = statistics.median(r[0] for r in rows)
        rep = rows[-1][1]
        retries = sum(r[1].boot_retries for r in rows)
        out.write("  %-12s %6.2f s  %2d of %d files  %7d payload bytes  %7d serial bytes%s\n"
                  % (kind, secs, len(rep.sent), rep.files, rep.payload_bytes, rep.wire_bytes,
                     ("  (virtual board powered on twice: %d)" % retries) if retries else ""))
    return results


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="one run of each instead of three")
    parser.epilog = "examples:\n  okgin bench flash\n"


def run(args):
    measure(1 if getattr(args, "quick", False) else 3)
    return 0
