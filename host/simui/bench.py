"""Start-up time of the simulator: `okgin sim --bench-startup [RUNS]`.

Measures, from the moment the command would create the board, to
  window      the window is up (with a display)
  ready       the firmware's READY line (booted, first screen sent to the panel)
  flash       the window starts showing the first full refresh (with a display)
  first frame the firmware's first screen is on seat 0's panel; with a
              display: drawn in the window, after the refresh's flash
  settled     both panels' refreshes finished (BUSY low), at --speed
Each run boots a fresh temporary flash (a cold start). Prints medians.
"""
import shutil
import statistics
import sys
import tempfile
import threading
import time

from ..table import session as sess
from . import render


def _one(args, speed, window):
    flash = tempfile.mkdtemp(prefix="okgin-bench-")
    marks = {}
    t0 = time.monotonic()
    ended = set()
    try:
        board = sess.make_board(flash_dir=flash, speed=speed, board_path=args.board,
                                heapsize=getattr(args, "heapsize", None))
        s = sess.Session(board, timing=sess.load_timing(args.board or _board_json()))
        user_cb = board.on_event

        def cb(ev):
            if ev[0] == "ended":
                ended.add(ev[1])
                if len(ended) == 2 and "settled" not in marks:
                    marks["settled"] = time.monotonic() - t0
            user_cb(ev)
        board.on_event = cb
        if window is None:
            s.start()
            marks["ready"] = time.monotonic() - t0
            img = s.panel(0)
            while img.getbbox() is None or img.convert("L").getextrema()[0] != 0:
                time.sleep(0.005)
                img = s.panel(0)
            marks["first frame"] = time.monotonic() - t0
        else:
            from . import tkapp
            root = window
            win = tkapp.SimWindow(root, args.scale or 2, size=tkapp.panel_size(args.board))
            root.update()
            marks["window"] = time.monotonic() - t0
            box: "dict[str, float]" = {}
            seen = None
            th = threading.Thread(target=lambda: (s.start(), box.setdefault("ok", time.monotonic() - t0)))
            th.start()
            while "first frame" not in marks:
                win.poll()
                root.update()
                if "ok" in box and win.session is None:
                    marks["ready"] = box["ok"]
                    win.attach(s)
                cur = getattr(win, "_cur_frame", {}).get(0)
                if cur is not None and cur is not seen:
                    seen = cur
                    if "flash" not in marks and cur.convert("L").getextrema()[0] < 100:
                        marks["flash"] = time.monotonic() - t0   # the refresh starts showing
                    panel = s.panel(0) if win.session is not None else None
                    if panel is not None and panel.convert("L").getextrema()[0] == 0 \
                            and cur.tobytes() == render.to_rgb(panel, win.scale).tobytes():
                        marks["first frame"] = time.monotonic() - t0
                time.sleep(0.002)
            th.join()
            win.close()   # its worker and its watcher thread; quit() is a no-op outside mainloop
            for child in root.winfo_children():
                child.destroy()
        end = time.monotonic() + 10
        while "settled" not in marks and time.monotonic() < end:
            time.sleep(0.01)
        s.close()
    finally:
        shutil.rmtree(flash, ignore_errors=True)
    return marks


def _board_json():
    from ..lib.paths import BOARD
    return BOARD


KEYS = ("window", "ready", "flash", "first frame", "settled")


def measure(runs=5, speed=1.0, window=False, board=None, heapsize=None, scale=2, out=None):
    """Start-up figures for other benchmarks (e.g. `okgin bench board`):
    {"ready": [seconds per run], "first frame": [...], ...}; with
    window=True (needs a display) the window's own marks too."""
    import argparse
    args = argparse.Namespace(board=board, heapsize=heapsize, scale=scale)
    root = None
    if window:
        from . import tkapp
        root = tkapp.open_root()
    results: "dict[str, list]" = {}
    try:
        for i in range(runs):
            marks = _one(args, speed, root)
            for k, v in marks.items():
                results.setdefault(k, []).append(v)
            if out:
                out("run %d: %s" % (i + 1, "  ".join("%s %.2f s" % kv for kv in marks.items())))
    finally:
        if root is not None:
            root.destroy()
    return results


def run(args):
    runs = args.bench_startup
    speed = args.speed if args.speed is not None else 1.0
    window = False
    if not args.tui and not args.headless:
        try:
            from . import tkapp
            tkapp.open_root().destroy()
            window = True
        except Exception:
            window = False

    def out(line):
        print(line)
        sys.stdout.flush()
    results = measure(runs, speed, window, board=args.board, heapsize=getattr(args, "heapsize", None),
                      scale=args.scale or 2, out=out)
    where = "in the window" if window else "headless"
    print("start-up, median of %d cold boots (speed %g, %s):" % (runs, speed, where))
    for key in KEYS:
        vals = results.get(key)
        if vals:
            print("  %-12s %.2f s  (min %.2f, max %.2f)" % (key, statistics.median(vals), min(vals), max(vals)))
    return 0
