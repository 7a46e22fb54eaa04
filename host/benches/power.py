"""``okgin bench power``: the table's current on batteries, measured on the
emulated Pico (docs/power.md).

The firmware of this checkout runs on the emulated Pico (stock MicroPython
v1.28.0, rp2 port), flashed by ``okgin flash``, on "batteries" (VBUS sense
low, VSYS 4.2 V). The emulator counts emulated time per power state (the
core running at its clock, waiting in WFI/WFE, in lightsleep, in DORMANT;
each panel refreshing, awake, asleep); host/chip/power.py turns the time
into current with published figures (each cited there and in
docs/power.md). Scenarios, each from a fresh boot:

- two players at human pace: a move every 5 s (each action's buttons
  pressed on the GPIOs 5 s after the last one's), one hand or more
  (``--hands``), the CPython engine as the oracle choosing and checking;
- against the computer (hard): the human's moves as above, the computer
  moving on its own;
- an hour idle (``--idle-s``): nobody presses anything in the middle of a
  hand; the table sleeps (auto-off) when its setting says so; reported as
  the hour's average and, separately, the part asleep.

Printed per scenario: average current at the battery (3 x AA at 3.6 V,
``--volts``) and its parts, energy per hand, hours of play or days asleep
on the chosen battery (2,000 mAh, ``--mah``), and the emulated seconds per
state. Between actions the bench sends ``sync`` over USB to stay in step
with the firmware (one short command per action; its CPU time is in the
figures). ``--quick``: one hand, 10 idle minutes.

``--board``: the table measured (default hardware/board.json, the 4.2"
SSD1683 panels; board-2in9.json the 2.9" SSD1680 ones): the emulated
board around the chip and the flashed board.json, and its panels' figures
from host/chip/power.py PANELS (their specifications' refreshing power and
deep sleep; the emulated panels refresh for the times PANELS gives: the
4.2" module's full refresh is 4 s, the 2.9" emulation's 2.5 s).
"""
import json
import time

from ..lib.errors import CommandError

SEC = 1_000_000_000
VSYS_BATTERY = 4.2          # what the firmware's gauge reads: fresh cells less the diode


def _say(text):
    print(text, flush=True)


class ChipFirmware:
    """The firmware on the emulated Pico, spoken to over its USB serial."""

    def __init__(self, chip, fw):
        self.chip = chip
        self.fw = fw

    def cmd(self, line):
        return self.fw.cmd(line)

    def boot(self):
        chip = self.chip
        # on batteries from power-on, as a table on the kitchen table boots:
        # supplied after the boot, the firmware read USB at its first reading
        # and kept the turn light lit until the next one (20 s)
        chip.set_supply(vbus=False, vsys=VSYS_BATTERY)
        chip.power_cycle()
        t0 = chip.emulated_ns()
        chip.console_line("READY okgin", 600, since=t0)
        time.sleep(0.2)
        self.fw.flush_input()

    def think(self, seconds):
        """A person at the table, not touching it: while the chip sleeps its
        time jumps to the end of the wait (or to its own next alarm)."""
        self.chip.wait_emulated(int(seconds * SEC), timeout=600 + seconds)


def _auto_off_default():
    """The menu's default auto-off, minutes, as the firmware of this checkout
    has it (firmware/power.py DEFAULT_AUTO_OFF); None if it cannot be read."""
    import os
    import re
    from ..lib.paths import FIRMWARE
    try:
        with open(os.path.join(FIRMWARE, "power.py")) as f:
            m = re.search(r"^DEFAULT_AUTO_OFF = (\d+)", f.read(), re.M)
    except OSError:
        return None
    return int(m.group(1)) if m else None


def play(table, seed, vs=None, hands=1, pace_s=5.0, on_hand=None):
    """Hands through the GPIO buttons at human pace (seat 0 always a
    person, seat 1 a person or the computer ``vs``). Returns the hands
    played. The oracle checks ``status`` after every human action."""
    from okgin.engine import Match, Rules, bot, deadwood
    from okgin.engine.bots import move_seed
    from .board import _choose
    from ..lib.presses import Presses
    chip = table.chip
    table.cmd("testmode on")
    table.cmd("newgame seed=%d dealer=0%s" % (seed, " vs=" + vs if vs else ""))
    table.cmd("sync")
    m = Match(Rules(), seed=seed, dealer=0)
    keys = Presses(shortest=True)
    played = 0
    while True:
        hand_no = m.hand_no
        while True:
            if vs:
                table.cmd("sync")
                while m.hand._to_move == 1 and m.hand_no == hand_no and m.winner is None:
                    o = m.observation(1)
                    m.play(bot(vs, move_seed(seed, len(o["history"]))).choose(o))
            if m.hand_no != hand_no or m.winner is not None:
                break
            p = m.hand._to_move
            obs = m.observation(p)
            act = _choose(obs, deadwood)
            before = obs["hand"]
            table.think(pace_s)
            for button in keys.for_action(p, act, before):
                chip.press(p, button)
            m.play(act)
            table.cmd("sync")
            st = table.fw.fields(table.cmd("status"))
            if st.get("screen") == "error":
                raise CommandError("the firmware shows its error screen after %r" % act)
            if not vs or m.hand._to_move != 1:
                o = m.observation(0)
                want = {"hand_no": str(o["hand_no"]), "stock": str(o["stock_count"]),
                        "discard": o["discard_top"] or "-"}
                got = {k: st.get(k) for k in want}
                if got != want:
                    raise CommandError("after %r the table says %s, the engine %s" % (act, got, want))
            if m.hand_no == hand_no and m.winner is None:
                keys.played(p, before, m.observation(p)["hand"])
        table.think(pace_s)
        chip.press(0, "ok")                   # the showdown read: on to the next hand
        table.cmd("sync")
        played += 1
        keys.reset()
        if on_hand:
            on_hand(played)
        if m.winner is not None or played >= hands:
            return played


def controllers(board):
    """Each player's panel controller in a board definition (a path)."""
    try:
        with open(board, encoding="utf-8") as f:
            players = json.load(f)["players"]
        return [pl["panel"]["controller"] for pl in players]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CommandError("--board: %s is not a board definition with its panels' controllers (%s)"
                           % (board, e)) from None


def panel_times(chip, ctrls):
    """The emulated panels refresh for the times of the power model's
    figures (host/chip/power.py PANELS), not the emulations' defaults."""
    from ..chip.power import panel_figures
    for panel, c in zip(chip.pins.panels, ctrls, strict=True):
        fig = panel_figures(c)
        panel.T_FULL = fig["full_s"]
        panel.T_PARTIAL = fig["partial_s"]


def measure(chip, volts, ctrls=None):
    from ..chip.power import breakdown
    states = chip.power_states()
    panels = [p.states() for p in chip.pins.panels]
    parts = breakdown(states, panels, chip.pins.led_seconds(), volts=volts, controllers=ctrls)
    return states, panels, parts


def report(name, chip, volts, mah, seconds, hands=None, asleep=None, ctrls=None):
    states, panels, parts = measure(chip, volts, ctrls)
    avg = sum(parts.values())
    _say("%s: %.0f s emulated, %d wake-ups of the core" % (name, seconds, chip.wakes))
    _say("  average %.2f mA at the battery (%.1f V): %s" % (
        avg, volts, ", ".join("%s %.2f" % (k, v) for k, v in sorted(parts.items(), key=lambda kv: -kv[1])
                              if v >= 0.005)))
    if hands:
        mah_hand = avg * seconds / 3600 / hands
        _say("  per hand: %.0f s, %.3f mAh (%.1f J at %.1f V)" % (
            seconds / hands, mah_hand, mah_hand * 3.6 * volts, volts))
    _say("  on %d mAh: %.0f hours" % (mah, mah / avg) + (" of play" if hands else ""))
    busy = {k: round(v, 2) for k, v in sorted(states.items(), key=lambda kv: -kv[1])}
    _say("  cpu states (s): %s" % busy)
    _say("  panels (s): %s" % ["%s" % {k: round(v, 1) for k, v in st.items() if v} for st in panels])
    return avg


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="10 idle minutes instead of an hour")
    parser.add_argument("--hands", type=int, default=None, help="hands per game scenario (1)")
    parser.add_argument("--idle-s", type=float, default=None,
                        help="seconds of the idle scenario (3600; --quick: 600)")
    parser.add_argument("--volts", type=float, default=None, help="battery voltage (3.6)")
    parser.add_argument("--mah", type=float, default=None, help="battery capacity (2000)")
    parser.add_argument("--pace", type=float, default=None,
                        help="seconds from one move (one action's buttons) to the next (5)")
    from ..table import options as table_options
    table_options.add(parser, "board", help={
        "board": "the board definition to emulate and flash (default hardware/board.json, "
                 "the 4.2in panels; board-2in9.json: the 2.9in ones)"})
    parser.epilog = ("examples:\n  okgin bench power --quick\n  okgin bench power --pace 2.5\n"
                     "  okgin bench power --quick --board board-2in9.json\n"
                     "  okgin bench power --pace 10 --volts 4.5 --mah 2500\n")


def run(args):
    from ..chip.chipboard import ChipError
    from .chip import _bare_chip, _firmware
    from ..table.flashing import chip_clock, flash_board
    quick = getattr(args, "quick", False)
    hands = getattr(args, "hands", None) or 1
    idle_s = getattr(args, "idle_s", None) or (600 if quick else 3600)
    volts = getattr(args, "volts", None) or 3.6
    mah = getattr(args, "mah", None) or 2000
    pace = getattr(args, "pace", None) or 5.0
    from ..chip.power import SOURCES, panel_figures
    from ..lib.paths import BOARD
    from ..table import options as table_options
    board = table_options.resolve(args).board
    ctrls = controllers(board or BOARD)
    try:
        figs = [panel_figures(c) for c in ctrls]
    except ValueError as e:
        raise CommandError("--board: %s" % e) from None
    pico = _bare_chip(board)
    chip = pico.chip
    t_start = time.monotonic()
    figures = {}
    try:
        pico.power_on()
        banner = chip.console_line("MicroPython v", 120)
        _say("emulated Pico: %s; the firmware of this checkout, on batteries (VSYS %.1f V)"
             % (banner.strip(), VSYS_BATTERY))
        _say("board: %s; panels: %s" % (board or BOARD, ", ".join(
            "%s %s (refreshing %.1f mW, deep sleep %.2f uA, full refresh %.1f s, partial %.1f s)"
            % (c, f["name"], f["refresh_mw"], f["sleep_ua"], f["full_s"], f["partial_s"])
            for c, f in sorted(dict(zip(ctrls, figs, strict=True)).items()))))
        for key in sorted({k for f in figs for k in f["sources"]}):
            _say("  %s: %s" % (key, SOURCES[key]))
        flash_board(pico.port, quiet=True, board_json=board, clock=chip_clock(chip))
        panel_times(chip, ctrls)
        fw = _firmware(pico)
        table = ChipFirmware(chip, fw)
        try:
            for name, vs in (("two players, a move every %g s" % pace, None),
                             ("against the computer (hard), a move every %g s" % pace, "hard")):
                table.boot()
                chip.reset_power()
                t0 = chip.emulated_ns()
                n = play(table, 51, vs=vs, hands=hands, pace_s=pace)
                secs = (chip.emulated_ns() - t0) / SEC
                figures[name] = report(name, chip, volts, mah, secs, hands=n, ctrls=ctrls)
            table.boot()
            table.cmd("testmode on")
            table.cmd("newgame seed=52 dealer=0")
            table.cmd("sync")
            chip.reset_power()
            t0 = chip.emulated_ns()
            table.think(idle_s)
            secs = (chip.emulated_ns() - t0) / SEC
            figures["idle"] = report("%.0f minutes idle in a game" % (idle_s / 60), chip, volts, mah,
                                     secs, ctrls=ctrls)
            # asleep: DORMANT and the panels in deep sleep, the model's
            # figures (the same whether the idle scenario reached auto-off)
            from ..chip.power import breakdown
            asleep = breakdown({"dormant": 1.0}, [{"sleep": 1.0} for _ in ctrls], volts=volts,
                               controllers=ctrls)
            ma = sum(asleep.values())
            seen = chip.power_states().get("dormant", 0.0) > 0
            why = "the table went to sleep in the idle scenario"
            if not seen:
                off = _auto_off_default()
                why = "not reached in %.0f idle minutes" % (idle_s / 60)
                if off is not None and idle_s < off * 60:
                    why += (" (auto-off: the menu's default, %d min; --idle-s %d reaches it)"
                            % (off, off * 60 + 300))
            _say("asleep (auto-off: DORMANT, panels in deep sleep; %s): %.2f mA at the battery; "
                 "%.0f days on %d mAh" % (why, ma, mah / ma / 24, mah))
        finally:
            fw.close()
        _say("wall time %.0f s; emulator speed %.2fx a real Pico while computing"
             % (time.monotonic() - t_start, chip.emulation_speed() or 0))
    except ChipError as e:
        raise CommandError(str(e)) from e
    finally:
        pico.stop()
    return 0

