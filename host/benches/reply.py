"""``okgin bench reply``: how long a player waits for the computer's reply.

What a player meets, not what the computer's search costs: the firmware
flashed on a new emulated Pico (stock rp2 MicroPython at 125 MHz), whole
games against the hard computer, the player's buttons pressed on their GPIO
pins and both panels refreshing in a real SSD1680's time (2.5 s full,
0.4 s partial). Per computer turn, from the player's press that hands the
turn over (the pin going low; OK is taken on its release, ~60 ms later, as
on the table), two figures:

- press -> the first SPI byte of the update that shows the computer's
  whole reply on the player's panel (its draw and discard, its upcard
  decision, or its knock's showdown): the first byte the panel's driver
  sends for that update (its wake from deep sleep when it slept);
- press -> the end of that refresh (BUSY falls): the reply fully on the
  ink, what the player waits for.

"The update that shows the reply" is the first refresh of the player's
panel after the press whose ink is the ink the panel settles on once the
computer has played (the bench compares the panel's pixels; nothing is
asked of the firmware while it works: the host leaves it alone for 8 s of
emulated time after each press, then asks ``sync``). Beside them, the
computer's decision as the firmware records it (``bottimes``), and after
each game the lowest free heap since boot (``mem``). The press that leaves
a showdown is counted apart: a new deal's full refresh is on its way.

Times are the chip's own clock (emulated time: CPU cycles at 125 MHz, flash
erase and program at the W25Q16JV's typical times, panels' BUSY timed on
it), so a loaded PC slows the bench, not its figures; the emulator's speed
is printed at the end. The game is test mode's (``newgame seed=...``, the
TEST MODE banner on both panels: test.okg, saved as a game is); the player
is the benches' simple policy, the CPython engine replaying the seed as
the oracle (``status`` must agree after each computer turn).
"""
import statistics
import threading
import time

from ..lib.errors import CommandError

MS = 1_000_000
WINDOW_NS = 8000 * MS       # left alone after a press, before the host asks anything
BORDER = 0x3C               # SSD1680: the first command of every update (firmware/ssd1680.py show)


class Trace:
    """Every update of each panel in the chip's time: its first SPI byte
    (or the RST pulse of a wake from deep sleep before it), its
    activation, the end of its refresh, full or partial, and the ink it
    put on the panel."""

    def __init__(self, chip):
        self.chip = chip
        pins = chip.pins
        self.pins = pins
        self.pp = pins.panel_pins
        self.lock = threading.Lock()
        self.first = [None] * len(self.pp)
        self.updates: "list[list[dict]]" = [[] for _ in self.pp]   # first, start, end, kind, ink
        chip.on_event = self._event
        chip.on_trace = self._trace

    def _trace(self, ev):
        # called before the chip's event is applied, after the ones before it
        if ev[0] == "pin":
            for p, pp in enumerate(self.pp):
                if ev[2] == pp["rst"] and ev[3] == 0 and self.first[p] is None:
                    self.first[p] = ev[1]      # a wake: the update starts here
        elif ev[0] == "spi":
            data = bytes.fromhex(ev[5][:2])
            if not data or data[0] != BORDER:
                return
            for p, pp in enumerate(self.pp):
                if self.pins._driven(pp["cs"]) == 0 and self.pins._driven(pp["dc"]) == 0 \
                        and self.first[p] is None:
                    self.first[p] = ev[1]

    def _event(self, ev):
        if ev[0] != "refresh":
            return
        p, kind, secs = ev[1], ev[2], ev[3]
        t = self.chip.emulated_ns()
        ink = bytes(self.chip.pins.panels[p].ink)
        with self.lock:
            first = self.first[p]
            self.first[p] = None
            self.updates[p].append({"first": t if first is None else first, "start": t,
                                    "end": t + int(secs * 1e9), "kind": kind, "ink": ink})

    def since(self, p, t0):
        with self.lock:
            return [u for u in self.updates[p] if u["start"] >= t0]

    def forget(self):
        with self.lock:
            for u in self.updates:
                del u[:]


def reply(trace, chip, p, pressed):
    """The update of p's panel that shows what it settled on after the
    press at ``pressed``: (first byte, end of refresh) in ms after the
    press, the kinds of p's refreshes in between (the one that shows it
    last), and the first update's end (the player's own move on the ink),
    or None when no update after the press shows it."""
    final = bytes(chip.pins.panels[p].ink)
    ups = trace.since(p, pressed)
    kinds = []
    for u in ups:
        kinds.append(u["kind"])
        if u["ink"] == final:
            return ((u["first"] - pressed) / MS, (u["end"] - pressed) / MS, kinds,
                    (ups[0]["end"] - pressed) / MS)
    return None


def play_game(chip, fw, trace, seed, lang, hands=None, report=None):
    """A game against hard through player 0's GPIO buttons; returns
    ([(first ms, ink ms, kinds) per computer turn after a game action],
    [the same after leaving a showdown], hands played)."""
    from .board import _choose
    from .memory import HandFailed
    from okgin.engine import Match, Rules, bot, deadwood
    from okgin.engine.bots import move_seed
    from ..lib.presses import Presses
    fw.cmd("newgame seed=%d dealer=0 vs=hard lang=%s" % (seed, lang))
    fw.cmd("sync")
    m = Match(Rules(), seed=seed, dealer=0)
    keys = Presses(shortest=True)       # as a person walks the cursor
    turns: "list[tuple]" = []
    deals: "list[tuple]" = []
    played = 0

    def computer():
        while m.winner is None and m.hand._to_move == 1:
            o = m.observation(1)        # as botturn.py decides
            m.play(bot("hard", move_seed(seed, len(o["history"]))).choose(o))

    def check(what):
        st = fw.fields(fw.cmd("status"))
        if st.get("screen") == "error":
            raise HandFailed("error screen after %s" % what)
        h = m.hand
        want = {"hand_no": str(m.hand_no), "scores": "%d,%d" % tuple(m.scores),
                "stock": str(h.stock_count), "discard": h.discard_top or "-"}
        if st.get("screen") == "game":
            got = {k: st.get(k) for k in want}
            if got != want:
                raise HandFailed("after %s the board says %s, the engine %s" % (what, got, want))

    def measured(button, into):
        trace.forget()
        pressed = chip.press(0, button)
        chip.wait_emulated(WINDOW_NS, timeout=600)
        fw.cmd("sync", timeout=600)     # the computer has played, the panels settled
        got = reply(trace, chip, 0, pressed)
        if got is None:
            raise HandFailed("no update of player 0's panel showed the computer's reply")
        into.append(got)
        if report:
            report(got, into is deals)

    computer()
    check("the deal")
    while m.winner is None:
        hand_no = m.hand_no
        p = m.hand._to_move
        assert p == 0
        obs = m.observation(0)
        act = _choose(obs, deadwood)
        before = obs["hand"]
        buttons = keys.for_action(0, act, before)
        for b in buttons[:-1]:
            chip.press(0, b)
            fw.cmd("sync")              # a person looks before the next press
        m.play(act)
        if m.hand_no == hand_no and m.winner is None and m.hand._to_move == 1:
            measured(buttons[-1], turns)
            computer()
        else:
            chip.press(0, buttons[-1])
            fw.cmd("sync")
        check(repr(act))
        if m.hand_no == hand_no and m.winner is None:
            keys.played(0, before, m.observation(0)["hand"])
            continue
        # the showdown (the computer's knock, or the player's): OK deals on
        played += 1
        keys.reset()
        if m.winner is not None or (hands and played >= hands):
            break
        if m.hand._to_move == 1:
            measured("ok", deals)
            computer()
        else:
            chip.press(0, "ok")
            fw.cmd("sync")
        check("the new deal")
    return turns, deals, played


def _stats(xs):
    s = sorted(xs)
    return statistics.median(s), s[min(len(s) - 1, int(0.9 * len(s)))], s[-1]


def line(name, rows):
    if not rows:
        return "  %-46s none" % name
    f = _stats([r[0] for r in rows])
    e = _stats([r[1] for r in rows])
    full = sum(1 for r in rows if "full" in r[2])
    return ("  %-46s %4d  %5.0f %5.0f %5.0f   %5.0f %5.0f %5.0f   %d"
            % (name, len(rows), f[0], f[1], f[2], e[0], e[1], e[2], full))


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="one hand instead of whole games")
    parser.add_argument("--games", type=int, default=None, help="whole games per language (default 1)")
    parser.add_argument("--lang", metavar="CODES",
                        help="the table's languages to measure, comma-separated "
                             "(default: every one; docs/architecture.md \"Languages\")")
    parser.epilog = ("examples:\n  okgin bench reply --quick --lang en\n"
                     "  okgin bench reply --lang en,ko\n")


def run(args):
    from .chip import _bare_chip, _firmware, _langs, _reboot
    from ..chip.chipboard import ChipError
    from ..table.flashing import chip_clock, flash_board
    quick = getattr(args, "quick", False)
    games = getattr(args, "games", None) or 1
    hands = 1 if quick else None
    langs = _langs(args)
    pico = _bare_chip(eink=1.0)
    chip = pico.chip
    t0 = time.monotonic()
    try:
        pico.power_on()
        banner = chip.console_line("MicroPython v", 120)
        flash_board(pico.port, quiet=True, clock=chip_clock(chip))
        chip.console_line("READY", 600)
        trace = Trace(chip)
        fw = _firmware(pico)
        print("reply on the emulated Pico (%s, emulated 125 MHz, panels at real refresh times): "
              "%s against hard per language, player 0's buttons on their GPIO pins; times in "
              "the chip's clock, ms after the press that hands the turn over"
              % (banner.strip().split(";")[0], "one hand" if quick else "%d whole game(s)" % games),
              flush=True)
        results = {}
        try:
            for code in langs:
                _reboot(chip, fw)
                fw.cmd("testmode on")
                fw.cmd("bottimes")          # starts the recording
                turns, deals, bot_ms, lows = [], [], [], []
                for g in range(games):
                    def each(got, deal, code=code):
                        print("    [%s] %s: first byte %5.0f ms, on the ink %5.0f ms; the panel's "
                              "updates since the press: %s (the first one ended at %.0f ms)"
                              % (code, "deal" if deal else "turn", got[0], got[1], ", ".join(got[2]),
                                 got[3]), flush=True)
                    tr, de, played = play_game(chip, fw, trace, 51 + g, code, hands, report=each)
                    turns += tr
                    deals += de
                    us = fw.cmd("bottimes").split("us=", 1)[1]
                    bot_ms += [int(x) / 1000.0 for x in us.split(",") if x]
                    mem = fw.fields(fw.cmd("mem"))
                    total = int(mem["alloc"]) + int(mem["free"])
                    lows.append((total - int(mem["peak"]), total))
                    print("  [%s] game %d (seed %d, %d hands): %d computer turns; lowest free heap "
                          "since boot %d bytes of %d"
                          % (code, g + 1, 51 + g, played, len(tr) + len(de), lows[-1][0],
                             lows[-1][1]), flush=True)
                results[code] = (turns, deals, bot_ms, lows)
        finally:
            fw.close()
        print("  %-46s %4s  %17s   %17s   %s" % ("", "n", "first SPI byte", "on the ink",
                                                 "full refreshes"))
        print("  %-46s %4s  %5s %5s %5s   %5s %5s %5s" % ("", "", "med", "p90", "max",
                                                          "med", "p90", "max"))
        for code, (turns, deals, bot_ms, lows) in results.items():
            print(line("[%s] press -> the computer's reply" % code, turns))
            print(line("[%s]   with no full refresh in the way" % code,
                       [r for r in turns if "full" not in r[2]]))
            print(line("[%s] OK on a showdown -> its first move" % code, deals))
            if turns:
                own = _stats([r[3] for r in turns])
                print("  [%s] the player's own move (the panel's first update after the press) on "
                      "the ink: median %.0f ms, p90 %.0f, max %.0f" % (code, own[0], own[1], own[2]))
            if bot_ms:
                b = _stats(bot_ms)
                print("  [%s] the decision (bottimes: the game asking it to move -> its move "
                      "applied), %d: median %.0f ms, p90 %.0f, max %.0f"
                      % (code, len(bot_ms), b[0], b[1], b[2]))
            print("  [%s] lowest free heap since boot: %d bytes (goal >= 120 KB = %d)"
                  % (code, min(x[0] for x in lows), 120 * 1024))
        print("goals: on the ink <= 1500 ms median, <= 2500 p90, <= 4000 max; emulator speed on "
              "this PC %.2fx a real Pico while computing; %.0f s wall"
              % (chip.emulation_speed() or 0, time.monotonic() - t0))
    except ChipError as e:
        raise CommandError(str(e)) from e
    finally:
        pico.stop()
    return 0
