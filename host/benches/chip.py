"""``okgin bench chip``: the firmware on the emulated Pico, measured.

Stock MicroPython v1.28.0 (rp2 port) on an emulated RP2040 at 125 MHz
(docs/emulated-pico.md): times are *emulated* (the chip's own clock), with
zero-wait flash, so somewhat optimistic against a real Pico; they do not
depend on how loaded this PC is. Only the flash figures are wall time (they
are the host's and the USB link's as much as the chip's). Printed:

- flash: a full flash of a new Pico and a one-module flash, by okgin flash
  over the chip's USB serial (wall seconds, bytes on the wire, files);
- boot: power-on to READY, and to the first complete screen (both panels'
  first full refresh settled: BUSY low);
- reaction: a cursor button pressed on its GPIO to the first SPI byte of
  the refresh it causes; and a cursor move to ink (the refresh ended);
- the hard computer's decision time inside the running firmware (median,
  p90, max over a whole game against it through the buttons: from the game
  asking it to move to its move applied, ``bottimes``), beside the engine
  alone on the chip's REPL (hard against hard), and engine random-play
  hands/s (okgin bench engine's script, on the chip);
- heap: the lowest ``gc.mem_free()`` after a collection over a whole game
  (two players, and against the hard computer), and over ten games in a row
  with the largest free block after each (fragmentation would show as
  falling figures), from the firmware's ``mem`` (in test mode, games played
  through ``press`` as okgin bench memory does).
- coach: the heap of a game against the hard computer in which the player
  asks the coach (hold DRAW) before each of their decisions and the menu's
  "Coach after a hand" reviews every hand (firmware/coachview.py).

Goals: reaction <= 30 ms median; cursor move -> ink within one
partial refresh + 50 ms; hard decision (inside the firmware, as a player
waits for it) <= 300 ms median and <= 1.5 s max;
whole games keep >= 120 KB free at their lowest, ten games in a row too.
``--quick``: one hand instead of whole games, two games in a row, fewer
decisions; about a quarter of the time.

The reaction and the heap are measured in each of the table's languages
(``--lang en,ko``: only these; docs/architecture.md "Languages"), ten
games in a row in the first one only; ``--only reaction,heap`` skips the
other parts (flash, boot, decisions, row).
"""
import os
import shutil
import statistics
import tempfile
import threading
import time

from ..lib.errors import CommandError

from ..lib.paths import copy_source
MS = 1_000_000


def _firmware(table, timeout=600.0):
    """The okgin firmware on the table's chip, spoken to through the
    table's own client (its port opened again if a raw REPL had it),
    exactly as the memory bench speaks to the virtual board."""
    from .board import Firmware
    return Firmware(table.chip, timeout, client=table.connect())


def _bare_chip(board=None, eink=1.0):
    """The emulated Pico the chip benches time: a new one (MicroPython
    alone on its flash, okgin flash still to come), opened as a table with
    its flash as it is, powered off; ``power_on()`` starts it."""
    from ..table.table import open_table
    return open_table("chip", None, "bench", sync=False, board=board, speed=eink)


def _reboot(chip, fw):
    """Power-cycle and wait for READY; the port then has nothing stale."""
    chip.power_cycle()
    t0 = chip.emulated_ns()
    chip.console_line("READY okgin", 600, since=t0)
    time.sleep(0.2)
    fw.flush_input()
    return t0


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _say(text):
    print(text, flush=True)


# -- flash ----------------------------------------------------------------------
def _source_copy():
    src = tempfile.mkdtemp(prefix="okgin-bench-src-")
    return copy_source(src)


def bench_flash(chip, one_module=True, board=None):
    from ..table.flashing import chip_clock, flash_board
    t0 = chip.emulated_ns()
    full = flash_board(chip.port, quiet=True, clock=chip_clock(chip), board_json=board)
    full_emu = (chip.emulated_ns() - t0) / 1e9
    if not one_module:
        return full, full_emu, None, None
    src = _source_copy()
    try:
        # one module changed (a function added: new bytecode, one .mpy)
        with open(os.path.join(src, "firmware", "padview.py"), "a") as f:
            f.write("\n\ndef _bench_one_module():\n    return 1\n")
        chip.console_line("READY", 600)
        t1 = chip.emulated_ns()
        one = flash_board(chip.port, src_root=src, quiet=True, clock=chip_clock(chip), board_json=board)
        one_emu = (chip.emulated_ns() - t1) / 1e9
    finally:
        shutil.rmtree(src, ignore_errors=True)
    return full, full_emu, one, one_emu


# -- boot and reaction --------------------------------------------------------------
class Watch:
    """Emulated times of the board's events and of the chip's SPI bytes."""

    def __init__(self, chip):
        self.chip = chip
        self.lock = threading.Condition()
        self.events = []            # (emulated ns, event)
        self.spi = []               # emulated ns of each SPI burst
        chip.on_event = self._event
        chip.on_trace = self._trace

    def _event(self, ev):
        with self.lock:
            self.events.append((self.chip.emulated_ns(), ev))
            self.lock.notify_all()

    def _trace(self, ev):
        if ev[0] == "spi":
            self.spi.append(ev[1])

    def wait_event(self, pred, after, timeout=600.0):
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for t, ev in self.events:
                    if t >= after and pred(ev):
                        return t
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CommandError("the emulated Pico did not show the expected event in %.0f s"
                                       % timeout)
                self.lock.wait(min(left, 1.0))


def bench_boot(chip, watch):
    chip.power_cycle()
    t0 = chip.emulated_ns()
    chip.console_line("READY okgin", 600, since=t0)
    ready = next(t for t, line in chip.console_lines() if "READY okgin" in line and t >= t0)
    ends = [watch.wait_event(lambda ev, p=p: ev[:2] == ("ended", p), t0) for p in (0, 1)]
    return (ready - t0) / 1e9, (max(ends) - t0) / 1e9


def bench_reaction(chip, watch, fw, moves, lang=None):
    fw.cmd("testmode on")
    fw.cmd("newgame seed=31 dealer=0" + (" lang=" + lang if lang else ""))
    # to player 1's discard (where left/right move a cursor): pass, pass, draw
    for p in (1, 0, 1):
        fw.cmd("press %d draw" % p)
    fw.cmd("sync")
    # the new game's (and a new language's) full refreshes end first: a
    # press that meets a panel still refreshing waits for it, which is not
    # what a cursor move costs (4 s "maxima" in the first move otherwise)
    chip.wait_emulated(5000 * MS)
    react, ink = [], []
    player = 1
    for i in range(moves):
        button = "right" if i % 2 == 0 else "left"
        pressed = chip.press(player, button)
        end = watch.wait_event(lambda ev: ev[:2] == ("ended", player), pressed)
        first = min(t for t in watch.spi if t >= pressed)
        react.append((first - pressed) / MS)
        ink.append((end - pressed) / MS)
        fw.cmd("sync")
    return react, ink


# -- the chip's REPL ---------------------------------------------------------------
DECISIONS = r'''
import gc, time
from engine import Match, Rules, bot
from engine.bots import move_seed
def _okbench(games, seed0, cap):
    times = []
    low = 1 << 30
    for g in range(games):
        seed = seed0 + g
        m = Match(Rules(), seed=seed, dealer=g & 1)
        while m.winner is None and len(times) < cap:
            p = m.hand._to_move
            o = m.observation(p)
            gc.collect()
            low = min(low, gc.mem_free())
            t = time.ticks_us()
            a = bot('hard', move_seed(seed, len(o['history']))).choose(o)
            times.append(time.ticks_diff(time.ticks_us(), t))
            m.play(a)
        print('GAME', g, m.winner, m.scores[0], m.scores[1], len(times))
    print('TIMES', ' '.join(str(x) for x in times))
    print('LOWFREE', low)
'''


def _repl(chip):
    """The chip's raw REPL (okgin.table.repl) after a soft reset (main.py
    does not run after a soft reset in raw REPL)."""
    from ..table.repl import Repl
    repl = Repl(chip.port, timeout=5)
    try:
        return repl.enter(tries=1, timeout=600, soft_reset=True, diagnose=False)
    except BaseException:
        repl.close()
        raise


def _run(repl, code, timeout=3600):
    return repl.run(code, timeout, what="the chip").decode("utf-8", "replace")


def bench_decisions(chip, games, cap):
    t = _repl(chip)
    try:
        _run(t, DECISIONS)
        out = _run(t, "_okbench(%d, 41, %d)" % (games, cap))
        times = [int(x) / 1000 for x in out.split("TIMES", 1)[1].split("\n", 1)[0].split()]
        low = int(out.split("LOWFREE", 1)[1].split()[0])
        games_done = out.count("GAME ")
        from .engine import BENCH_SCRIPT
        # okgin bench engine's script as it runs on the unix port: argv =
        # engine folder, repetitions, deadwood cases, random hands
        script = BENCH_SCRIPT
        for arg, value in (("sys.argv[1]", "''"), ("sys.argv[2]", "'3'"), ("sys.argv[3]", "'200'"),
                           ("sys.argv[4]", "'8'")):
            script = script.replace(arg, value)      # the rp2 port's sys has no argv
        assert "argv" not in script
        eng = _run(t, script)
        figures = dict(line.split() for line in eng.strip().splitlines() if line.count(" ") == 1)
        t.leave(reset=False)
    finally:
        t.close()
    return times, low, games_done, figures


# -- the computer's decisions inside the running firmware ------------------------------
def bot_games(chip, fw, games, seed0=51, hands=None, report=None, lang=None):
    """Whole games against the hard computer, played through the
    firmware's buttons in test mode (``press``) with its own heap settings,
    as a player meets them: the decision times the firmware itself records
    (``bottimes``: from the moment the game asks the computer to move to
    its move applied), and after each game the heap: the lowest free heap
    since the chip booted (total - ``mem``'s peak) and the largest single
    allocation it can still make (``mem block``: a heap that fragments
    shows it there). Returns (times in ms, [(lowest free, largest block,
    hands, total heap) per game]); ``report(game, row, times)`` is called
    after each game."""
    from .memory import play_hand
    fw.cmd("testmode on")
    fw.cmd("bottimes")                  # starts the recording
    times: "list[float]" = []

    def read(b):
        us = b.cmd("bottimes").split("us=", 1)[1]
        times.extend(int(x) / 1000.0 for x in us.split(",") if x)

    rows = []
    for g in range(games):
        mem = play_hand(fw, seed=seed0 + g, vs="hard", hands=hands, on_hand=read, lang=lang)
        block = fw.fields(fw.cmd("mem block"))
        total = int(block["alloc"]) + int(block["free"])
        rows.append((total - int(mem["peak"]), int(block["block"]), mem["hands"], total))
        if report:
            report(g, rows[-1], times)
    return times, rows


COACH = r'''
import gc, time
from engine import Match, Rules, bot
from engine.bots import move_seed
def _okcoach(seed, hands):
    gc.collect()
    a0 = gc.mem_alloc()
    import engine.bots
    gc.collect()
    a1 = gc.mem_alloc()
    from engine.coach import advice
    from engine.review import Review
    gc.collect()
    a2 = gc.mem_alloc()
    adv = []
    steps = []
    whole = []
    low = 1 << 30
    m = Match(Rules(), seed=seed, dealer=0)
    done = 0
    while m.winner is None and done < hands:
        h = m.hand
        p = h._to_move
        o = m.observation(p)
        s = move_seed(seed, len(o['history']))
        if p == 0:
            gc.collect()
            t = time.ticks_us()
            a = advice(o, s)['action']
            adv.append(time.ticks_diff(time.ticks_us(), t))
            low = min(low, gc.mem_free())
        else:
            a = bot('hard', s).choose(o)
        o = None
        m.play(a)
        if h.is_over():
            done += 1
            gc.collect()
            r = Review(h, 0, seed)
            t0 = time.ticks_us()
            while True:
                t = time.ticks_us()
                fin = r.step()
                steps.append(time.ticks_diff(time.ticks_us(), t))
                low = min(low, gc.mem_free())
                if fin:
                    break
            whole.append(time.ticks_diff(time.ticks_us(), t0))
            r = None
    print('IMPORT', a1 - a0, a2 - a1)
    print('ADVICE', ' '.join(str(x) for x in adv))
    print('STEPS', ' '.join(str(x) for x in steps))
    print('WHOLE', ' '.join(str(x) for x in whole))
    print('LOWFREE', low)
'''


def bench_coach(chip, seed=51, hands=4):
    """The coach (engine/coach.py) on the chip's REPL, with no gc.threshold
    (the firmware's UI should lift it around the coach as botturn.py does
    around the computer): a seeded game of hard against hard, player 0's
    every decision advised, each hand reviewed step by step. Returns (advice ms, review step ms, whole
    review ms per hand, heap to import engine.bots and engine.coach, lowest
    free heap)."""
    t = _repl(chip)
    try:
        _run(t, COACH)
        out = _run(t, "_okcoach(%d, %d)" % (seed, hands))
        t.leave(reset=False)
    finally:
        t.close()

    def nums(key):
        return [int(x) / 1000.0 for x in out.split(key, 1)[1].split("\n", 1)[0].split()]
    imp = [int(x) for x in out.split("IMPORT", 1)[1].split("\n", 1)[0].split()]
    return nums("ADVICE"), nums("STEPS"), nums("WHOLE"), imp, int(out.split("LOWFREE", 1)[1].split()[0])


def decisions_line(times, what):
    return ("%d decisions %s: median %.0f ms, p90 %.0f ms, max %.0f ms (goals <= 300 median, "
            "<= 1500 max)" % (len(times), what, statistics.median(times), _pct(times, 0.9),
                              max(times)))


# -- heap ----------------------------------------------------------------------------
def _lowest_free(mem):
    total = int(mem["alloc"]) + int(mem["free"])
    return total - int(mem["peak"]), total


def bench_heap(chip, fw, hands, in_a_row, lang=None):
    """The heap over whole games from a fresh boot: two players, then
    against the hard computer (whose decision times, as the firmware
    records them, come with it: ``bot_games``), then ``in_a_row`` games of
    two players from one boot (the lowest free heap and the largest free
    block after each). ``lang``: the table's language for these games."""
    from .memory import play_hand
    out: dict = {}
    _reboot(chip, fw)                   # a fresh boot: peak counts from here
    mem = play_hand(fw, seed=51, hands=hands, lang=lang)
    out["two players"] = (_lowest_free(mem), mem["hands"])
    _reboot(chip, fw)
    times, rows = bot_games(chip, fw, 1, seed0=51, hands=hands, lang=lang)
    low, _, played, total = rows[0]
    out["vs hard"] = ((low, total), played)
    out["decisions"] = times
    _reboot(chip, fw)
    row = []
    if in_a_row:
        _reboot(chip, fw)
    for g in range(in_a_row):
        mem = play_hand(fw, seed=61 + g, hands=hands, lang=lang)
        block = fw.fields(fw.cmd("mem block"))["block"]
        row.append((_lowest_free(mem)[0], int(block)))
    out["in a row"] = row
    return out


def bench_coach_table(chip, fw, hands, lang=None, report=None):
    """The coach on the table: from a fresh boot, the menu's "Coach after a
    hand" switched on (two LEFTs from the top, OK), then a game against
    the hard computer in which player 0 holds DRAW before each decision
    (the suggestion's notice, closed with LEFT) and each hand's review is
    waited for and closed (the switch stays on: the last part). Returns
    ((lowest free, total), hands). ``report(hand, lowest free so far,
    emulated s)`` after each hand: a whole game takes the better part of an
    hour of wall time on a loaded PC."""
    from .memory import play_hand
    _reboot(chip, fw)
    fw.cmd("testmode on")
    for _ in range(2):
        fw.cmd("press 0 left")
    fw.cmd("press 0 ok")
    t0 = chip.emulated_ns()
    done = [0]

    def on_hand(b):
        done[0] += 1
        if report:
            report(done[0], _lowest_free(b.fields(b.cmd("mem")))[0], (chip.emulated_ns() - t0) / 1e9)
    mem = play_hand(fw, seed=51, vs="hard", hands=hands, lang=lang, coach=True, on_hand=on_hand)
    return _lowest_free(mem), mem["hands"]


GOAL = 120 * 1024     # bytes free at the lowest (docs/memory.md "The chip sets the budget")


def _verdict(lowest):
    return "goal met, %d above" % (lowest - GOAL) if lowest >= GOAL else \
        "goal MISSED by %d" % (GOAL - lowest)


def _langs(args):
    from ..lib import lang
    have = lang.codes()
    want = getattr(args, "lang", None)
    if not want:
        return have
    out = [c.strip() for c in want.split(",") if c.strip()]
    bad = [c for c in out if c not in have]
    if bad:
        raise CommandError("--lang: the table speaks %s, not %s" % (", ".join(have), ", ".join(bad)))
    return out


PARTS = ("flash", "boot", "reaction", "decisions", "heap", "row", "coach")


def configure(parser):
    parser.add_argument("--quick", action="store_true",
                        help="one hand instead of whole games, two games in a row, fewer repetitions")
    parser.add_argument("--lang", metavar="CODES",
                        help="the table's languages to measure, comma-separated "
                             "(default: every one; docs/architecture.md \"Languages\")")
    parser.add_argument("--only", metavar="PARTS",
                        help="only these parts, comma-separated: flash, boot, reaction, "
                             "decisions, heap (whole games), row (ten games in a row), coach")
    from ..table import options as table_options
    table_options.add(parser, "board", help={
        "board": "the board definition to emulate and flash (default "
                 "hardware/board.json, the 4.2in 400x300 panels; board-2in9.json: the 2.9in ones)"})
    parser.epilog = ("examples:\n  okgin bench chip --quick\n"
                     "  okgin bench chip --only reaction,heap --lang ko,en\n")


def run(args):
    from ..chip.chipboard import ChipError
    quick = getattr(args, "quick", False)
    parts = PARTS
    if getattr(args, "only", None):
        parts = tuple(x.strip() for x in args.only.split(",") if x.strip())
        bad = [x for x in parts if x not in PARTS]
        if bad:
            raise CommandError("--only: the parts are %s, not %s" % (", ".join(PARTS), ", ".join(bad)))
    langs = _langs(args)
    # --board: another table's definition (e.g. board-2in9.json, the 2.9"
    # panels): the emulated board around the chip and the flashed board.json
    from ..table import options as table_options
    board = table_options.resolve(args).board
    pico = _bare_chip(board)
    chip = pico.chip
    t_start = time.monotonic()
    try:
        pico.power_on()
        banner = chip.console_line("MicroPython v", 120)
        _say("emulated Pico: %s (times are emulated at 125 MHz)" % banner.strip())
        _say("")
        if board:
            _say("board: %s" % board)
        full, full_emu, one, one_emu = bench_flash(chip, "flash" in parts, board)
        if "flash" in parts:
            _say("flash (okgin flash over the chip's USB serial; wall time on this PC):")
            _say("  full, new Pico:     %5.1f s  %6d bytes on the wire  %d files (%d bytes)  emulated %.1f s"
                 % (full.seconds, full.wire_bytes, len(full.sent), full.payload_bytes, full_emu))
            _say("  one module changed: %5.1f s  %6d bytes on the wire  %d file  (%d bytes)  emulated %.1f s"
                 % (one.seconds, one.wire_bytes, len(one.sent), one.payload_bytes, one_emu))

        watch = Watch(chip)
        boot_ready, boot_screen = bench_boot(chip, watch)
        if "boot" in parts:
            _say("boot (emulated): power-on -> READY %.0f ms; -> first complete screen (both panels' "
                 "full refresh settled) %.0f ms" % (boot_ready * 1000, boot_screen * 1000))

        fw = _firmware(pico)
        heaps = {}
        try:
            if "reaction" in parts:
                for code in langs:
                    react, ink = bench_reaction(chip, watch, fw, 4 if quick else 8, code)
                    _say("[%s] cursor button on its GPIO (emulated, %d moves): -> first SPI byte "
                         "median %.1f ms (max %.1f; goal <= 30); -> ink median %.0f ms (max %.0f; "
                         "goal <= one partial refresh %.0f ms + 50)"
                         % (code, len(react), statistics.median(react), max(react),
                            statistics.median(ink), max(ink),
                            1000 * chip.pins.panels[0].T_PARTIAL * chip.eink))
                    fw.cmd("testmode off")

            if "decisions" in parts:
                games, cap = (1, 40) if quick else (2, 1000)
                fw.close()      # one client at a time on the port: mpremote's raw REPL next
                times, low, done, eng = bench_decisions(chip, games, cap)
                _say("hard computer, the engine alone on the chip's REPL, hard vs hard (%d "
                     "decisions, %d whole game(s)): median %.0f ms, p90 %.0f ms, max %.0f ms; lowest "
                     "free heap %d bytes (what a player waits for is the firmware's figure, below)"
                     % (len(times), done, statistics.median(times), _pct(times, 0.9), max(times),
                        low))
                _say("engine on the chip (okgin bench engine's script): random-play hands/s %s fast "
                     "path, %s safe path; min deadwood %s/s" % (eng.get("hands_fast_per_s"),
                                                                eng.get("hands_safe_per_s"),
                                                                eng.get("deadwood_masks_per_s")))
                fw = _firmware(pico)  # the REPL's soft reset: talk to the firmware anew
                _reboot(chip, fw)

            if "heap" in parts:
                # the heap does not depend on e-ink time: refreshes at 1/50
                for panel in chip.pins.panels:
                    panel.speed = 0.02
                for i, code in enumerate(langs):
                    # ten games in a row once (in the first language): fragmentation
                    # does not depend on the words
                    row = (2 if quick else 10) if i == 0 and "row" in parts else 0
                    heaps[code] = bench_heap(chip, fw, 1 if quick else None, row, code)
            coach = {}
            if "coach" in parts:
                for panel in chip.pins.panels:
                    panel.speed = 0.02
                for code in langs:
                    def hand_done(n, low, secs, code=code):
                        _say("[%s] coach game, hand %d done (%.0f s emulated): lowest free so far %d"
                             % (code, n, secs, low))
                    coach[code] = bench_coach_table(chip, fw, 1 if quick else None, code, hand_done)
        finally:
            fw.close()
        what = "one hand" if quick else "a whole game"
        for code in coach:
            (lowest, total), hands = coach[code]
            _say("[%s] heap with the coach on the table (%s against hard, seed 51: hold DRAW "
                 "before each of the player's decisions, every hand reviewed; %d hands): lowest "
                 "gc.mem_free() after a collection %d bytes of %d (goal >= 120 KB = %d: %s)"
                 % (code, what, hands, lowest, total, GOAL, _verdict(lowest)))
        for code in heaps:
            heap = heaps[code]
            _say("[%s] hard computer inside the firmware, %s against it (seed 51): %s"
                 % (code, what, decisions_line(heap["decisions"], "from the game asking it to "
                                                                  "move to its move applied")))
            for name in ("two players", "vs hard"):
                (lowest, total), hands = heap[name]
                _say("[%s] heap, %s (%s, %d hands): lowest gc.mem_free() after a collection %d "
                     "bytes of %d (goal >= 120 KB = %d: %s)" % (code, name, what, hands, lowest, total,
                                                               GOAL, _verdict(lowest)))
            row = heap["in a row"]
            if row:
                _say("[%s] heap, %d games in a row (two players, %s each): lowest free after "
                     "each: %s; lowest %d; largest free block after each: %s (okgin bench bots "
                     "--chip: the same against the computer)"
                     % (code, len(row), what, ", ".join(str(x[0]) for x in row),
                        min(x[0] for x in row), ", ".join(str(x[1]) for x in row)))
        _say("emulator speed on this PC: %.2fx a real Pico while computing; bench took %.0f s"
             % (chip.emulation_speed() or 0, time.monotonic() - t_start))
    except ChipError as e:
        raise CommandError(str(e)) from e
    finally:
        pico.stop()
    return 0

