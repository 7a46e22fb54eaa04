"""``okgin bench memory``: how much heap the whole firmware needs.

The game firmware runs on the virtual board (the real micropython unix-port
binary, pins and panels emulated) compiled with mpy-cross as `okgin flash`
lays it out, at speed 0. Games are played through the serial protocol in
test mode (``press``): two players, with the CPython engine replaying the
same seed as the oracle that chooses the moves and checks ``status``; then
against the computer (hard), whose moves the oracle makes with the same bot
and seed as the firmware. Printed for each:

- the live heap after the first deal and the largest live heap seen during
  a whole game to the target score (``--quick``: one hand) (the firmware's
  ``mem``: in use right after a collection), in a 256K heap;
- the smallest ``-X heapsize`` in which one hand completes for each of
  three deals (bisection between 64K and 256K, confirmed two sizes up):
  that figure includes the transient allocations and the fragmentation the
  live figure does not. ``--quick`` only tries the budget; ``--games``
  bisects in 1K steps with whole games to
  100 instead of one hand (a few minutes).

The budget on the unix port is the heap the memory test's games run in,
200K (184K until 2026-12-07, when the layout's luck decided there; the
tools run at 208K; docs/memory.md "The warning at 200K", where the
warning itself became the live heap's figure): the 64-bit
stand-in for the chip's budget (docs/memory.md "The chip sets the budget":
the same game needs 1.4x the heap here that it needs on the Pico, whose
MicroPython has 240 KB; ``okgin bench chip`` measures the chip itself).
docs/memory.md explains where the heap goes.
"""
import os
import shutil
import tempfile
import time

from .board import BenchFailed, VboardFirmware
from ..lib.errors import CommandError

BUDGET_K = 200     # tests/firmware/test_memory.py's BUDGET (docs/memory.md "The warning
#                   at 200K"; the tools' heap: host/vboard/vboard.py HEAPSIZE)
LOW_K = 64
HIGH_K = 256
STEP_K = 4          # bisection resolution
SEED = 21
SEEDS = (21, 22, 23)  # a heap size counts as enough only if every one of these deals completes


# The firmware did not boot, or did not finish the hand, in this heap.
HandFailed = BenchFailed


class HeapTrial(VboardFirmware):
    """The firmware on a virtual board with a given heap (okgin bench
    board's VboardFirmware: okgin.lib.transport over its pty, as the host tool
    does), off for good after a failed boot."""

    def __init__(self, flash, heap, timeout=20.0):
        VboardFirmware.__init__(self, flash, heap, timeout=timeout, crash_restarts=1)


def play_hand(board, seed=SEED, vs=None, hands=1, on_hand=None, lang=None, coach=False):
    """Whole hands through ``press`` (hands=None: until the game is won);
    raises HandFailed if the firmware shows its error screen (a MemoryError
    is caught there), answers ERR or goes quiet, or if its status differs
    from the oracle's. Returns the ``mem`` fields and ``hands`` played.

    The oracle replays the deal locally (not the board's ``record``: that
    test command builds the whole record text, which the game itself never
    does). vs="easy"/"normal"/"hard": seat 1 is the computer; after ``sync``
    the oracle makes the computer's moves with the same bot and seed as the
    firmware (botturn.py ``play``; the bots decide identically on both
    runtimes), and ``status`` must agree after each of the human's moves.
    ``on_hand(board)`` is called as each hand ends (its showdown on the
    screens; coach=True: its review done, the notice up). coach=True:
    player 0 asks the coach (hold DRAW) before each of their decisions and
    closes its notice (LEFT), and, with the menu's "Coach after a hand" on
    (the caller's), closes each hand's review."""
    from okgin.engine import Match, Rules, bot, deadwood
    from okgin.engine.bots import move_seed
    from .board import _choose
    from ..lib.presses import Presses
    b = board
    b.cmd("testmode on")
    b.cmd("newgame seed=%d dealer=0%s%s" % (seed, " vs=" + vs if vs else "",
                                              " lang=" + lang if lang else ""))
    m = Match(Rules(), seed=seed, dealer=0)
    boot = b.fields(b.cmd("mem"))
    keys = Presses()                    # the cursors, as the firmware moves them
    played = 0

    def press(p, button):
        b.cmd("press %d %s" % (p, button))

    def check(what):
        st = b.fields(b.cmd("status"))
        if st.get("screen") == "error":
            raise HandFailed("error screen after %s (MemoryError?)" % what)
        return st

    while True:
        hand_no = m.hand_no
        while True:
            if vs:
                b.cmd("sync")               # the computer has made its moves
                check("the computer's move")
                while m.hand._to_move == 1 and m.hand_no == hand_no and m.winner is None:
                    o = m.observation(1)    # as botturn.py chooses
                    m.play(bot(vs, move_seed(seed, len(o["history"]))).choose(o))
            if m.hand_no != hand_no or m.winner is not None:
                break
            p = m.hand._to_move
            obs = m.observation(p)
            if coach and p == 0:
                press(0, "draw long")       # the coach's suggestion, a notice
                check("the coach's suggestion")
                press(0, "left")            # closes it, and does nothing else
            act = _choose(obs, deadwood)
            before = obs["hand"]
            for button in keys.for_action(p, act, before):
                press(p, button)
            m.play(act)
            st = check(repr(act))
            if not vs or m.hand._to_move != 1:   # vs: before the computer has moved
                o = m.observation(0)
                want = {"hand_no": str(o["hand_no"]), "scores": "%d,%d" % tuple(o["scores"]),
                        "stock": str(o["stock_count"]), "discard": o["discard_top"] or "-"}
                got = {k: st.get(k) for k in want}
                if got != want:
                    raise HandFailed("after %r the board says %s, the engine %s" % (act, got, want))
            if m.hand_no == hand_no and m.winner is None:
                keys.played(p, before, m.observation(p)["hand"])
        if coach:
            b.cmd("sync")               # a review under way is done: its notice is up
            check("the coach's review")
        if on_hand:
            on_hand(b)
        if coach and _notice_up(b, 0):
            press(0, "ok")              # closes it (the menu's "Coach after a hand")
        press(0, "ok")                  # leave the showdown: the next hand's screens
        check("leaving the showdown")
        played += 1
        keys.reset()
        if m.winner is not None or (hands and played >= hands):
            break
    mem = b.fields(b.cmd("mem"))
    mem["boot_alloc"] = boot.get("alloc")
    mem["hands"] = played
    return mem


def _notice_up(b, p):
    """A notice (a black title bar across the top rows) on p's screen: the
    ``screen`` command's rows, 1 = ink."""
    from ..lib.screen import screen_of
    from ..lib.transport import decode_screen
    # "<w>x<h> <hex>" (the text after OK): the panel's pixels (its screen's
    # in 2x2 blocks on the 4.2")
    img = screen_of(decode_screen(b.cmd("screen %d" % p)))
    row = img.crop((0, 2, min(200, img.width), 3))      # the third row, x 0..199
    return row.histogram()[0] > 150


def try_heap(flash, heap_k, seed=SEED, vs=None, hands=1):
    """(True, mem) if the firmware boots and plays `hands` hands (None: a
    whole game) in heap_k KB, else (False, why)."""
    try:
        b = HeapTrial(flash, "%dK" % heap_k)
    except HandFailed as e:
        return False, str(e)
    try:
        return True, play_hand(b, seed, vs, hands)
    except HandFailed as e:
        return False, str(e)
    finally:
        b.stop()


def smallest_heap(flash, low=LOW_K, high=HIGH_K, step=STEP_K, seeds=SEEDS, report=None,
                  vs=None, hands=1):
    """The smallest heap (KB, a multiple of step) in which `hands` hands
    (None: a whole game) complete for every seed in `seeds`, or None if
    even `high` fails.

    Near the edge the outcome is not monotonic: the GC does not move
    objects, and when the app collects depends on when serial bytes
    arrive, so one heap size can fail where a smaller one passed (a 512-byte
    allocation failing with 15 KB free, in pieces). So after the bisection
    the answer must also pass at the next two sizes up; a failure there
    moves it above the failure."""
    results = {}

    def ok_at(k):
        if k not in results:
            why = None
            for seed in seeds:
                ok, got = try_heap(flash, k, seed, vs, hands)
                if not ok:
                    why = "seed %d: %s" % (seed, got)
                    break
            results[k] = why is None
            if report:
                report(k, results[k], why)
        return results[k]

    if not ok_at(high):
        return None
    lo, hi = low, high           # lo: assumed to fail, hi: passes
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if mid <= lo:
            break
        if ok_at(mid):
            hi = mid
        else:
            lo = mid
    k = hi
    while k < high:
        bad = [c for c in (k + step, k + 2 * step) if c < high and not ok_at(c)]
        if not bad:
            break
        k = bad[-1] + step
        while k < high and not ok_at(k):
            k += step
    return k


MODES = ((None, "two players"), ("hard", "against the computer (hard)"))


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="one hand; only the budget's heap")
    parser.add_argument("--heap", type=int, metavar="KB",
                        help="try this heap size with each deal and say where it fails")
    parser.add_argument("--games", action="store_true",
                        help="the smallest heap for whole games to 100 (1K steps; a few minutes)")
    parser.epilog = ("examples:\n  okgin bench memory --quick\n  okgin bench memory --heap 120\n"
                     "  okgin bench memory --games\n")


def run(args):
    try:
        from ..vboard import populate   # is the virtual board there?
    except ImportError as e:
        raise CommandError("the virtual board is not available: %s" % e) from e
    quick = getattr(args, "quick", False)
    heap = getattr(args, "heap", None)   # KB: where and why one size fails
    games = getattr(args, "games", False)   # the bisection plays whole games
    work = tempfile.mkdtemp(prefix="okgin-bench-mem-")
    try:
        flash = populate(os.path.join(work, "flash"))   # compiled, as `okgin flash` does
        t0 = time.monotonic()
        print("okgin bench memory: firmware compiled with mpy-cross on the virtual board"
              " (64-bit unix port), hands through the serial protocol, speed 0;"
              " budget %dK" % BUDGET_K)
        for vs, label in MODES:
            ok, mem = try_heap(flash, HIGH_K, vs=vs, hands=1 if quick or heap else None)
            if not ok:
                raise CommandError("the firmware does not play %s even in %dK: %s"
                                   % (label, HIGH_K, mem))
            print("%s, seed %d: live heap after the first deal %s bytes, largest live heap"
                  " during %s %s bytes (after a collection)"
                  % (label, SEED, mem["boot_alloc"],
                     "the hand" if quick or heap else "a whole game (%d hands)" % mem["hands"],
                     mem["peak"]))
            if heap:
                for seed in SEEDS:
                    ok, why = try_heap(flash, heap, seed, vs)
                    print("  heapsize %dK, seed %d: %s" % (
                        heap, seed, "completes the hand" if ok else "FAILS: %s" % why))
            elif quick:
                ok, why = try_heap(flash, BUDGET_K, vs=vs)
                print("  heapsize %dK: %s" % (
                    BUDGET_K, "boots and completes the hand" if ok else "FAILS (%s)" % why))
            else:
                def report(k, passed, why=None):
                    print("  heapsize %dK: %s" % (k, "every deal completes" if passed
                                                  else "fails (%s)" % why), flush=True)
                step = 1 if games else STEP_K
                best = smallest_heap(flash, low=96 if games else LOW_K, step=step,
                                     report=report, vs=vs, hands=None if games else 1)
                print("  smallest heapsize that boots and completes %s %s (seeds %s): %sK"
                      " (resolution %dK): budget %s" % (
                          "a whole game" if games else "a hand", label,
                          ",".join(map(str, SEEDS)), best, step,
                          "met" if best is not None and best <= BUDGET_K else "NOT met"))
        print("(%.0f s)" % (time.monotonic() - t0))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0

