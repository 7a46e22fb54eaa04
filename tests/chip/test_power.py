"""The emulated Pico's power books (docs/power.md): what glue.mjs counts
per power state, the clock machine.freq sets, machine.lightsleep and the
DORMANT state (woken by a GPIO), and the supply a test sets (VBUS sense,
VSYS on the ADC), all with stock MicroPython on the chip."""
import threading
import time

import pytest

from tests.support.chip import Prompt


def _states(chip, before):
    return {k: v - before.get(k, 0.0) for k, v in chip.power_states().items()
            if v - before.get(k, 0.0) > 1e-6}


def test_the_clock_machine_freq_sets_is_the_pace_of_the_code(repl):
    chip, r = repl
    r("import machine, time")
    r("exec(%r)" % "def spin():\n t = time.ticks_us()\n for i in range(20000): pass\n"
                    " return time.ticks_diff(time.ticks_us(), t)\n")
    fast = int(r("print(spin())"))
    r("machine.freq(48_000_000)")
    before = chip.power_states()
    slow = int(r("print(spin())"))
    spent = _states(chip, before)
    r("machine.freq(125_000_000)")
    # the same instructions take 125/48 as long at 48 MHz
    assert slow / fast == pytest.approx(125 / 48, rel=0.03)
    assert spent.get("run 48 SU", 0) > 0.9 * slow / 1e6
    assert not any(k.startswith("run 125") for k in spent)


def test_lightsleep_runs_from_the_crystal_with_the_pll_off_and_restores_it(repl):
    chip, r = repl
    r("import machine")
    before = chip.power_states()
    # a byte from the host wakes the core (USB's interrupt, as on a Pico
    # plugged in): a loop first lets the rest of the line in, should the
    # pty hand its "\r\n" over in two reads (a busy-loop CI run slept
    # 0.27 ms of the 800)
    r("exec('for i in range(2000): pass'); machine.lightsleep(800)")
    spent = _states(chip, before)
    # USB stays mounted here (the host is plugged in), so its PLL runs on
    deep = spent.get("deep 12 -U", 0)
    assert deep == pytest.approx(0.8, abs=0.01)
    assert sum(v for k, v in spent.items() if k.startswith("wait")) < 0.01
    assert r("print(machine.freq())") == "125000000"
    before = chip.power_states()
    r("exec('for i in range(3000): pass')")
    assert [k for k in _states(chip, before) if k.startswith("run")] == ["run 125 SU"]


def test_dormant_stops_every_clock_until_a_button_edge(make_chip):
    import serial
    chip = make_chip()
    chip.console_line("MicroPython v", 60)
    ser = serial.Serial(chip.port, timeout=30)
    r = Prompt(ser, chip)
    g = chip.pins.button_gpio(0, "left")
    r("import machine, time; p = machine.Pin(%d, machine.Pin.IN, machine.Pin.PULL_UP)" % g)
    # IO_BANK0 DORMANT_WAKE_INTE0: wake on that GPIO's falling edge
    r("machine.mem32[0x40014160] = 4 << (4 * %d)" % g)
    before = chip.power_states()
    woke = []

    dormant = chip.reports["dormant"]

    def press_later():
        # once the chip is in DORMANT (its report), not before: a host slow
        # to hand it the rest of the line left it idle meanwhile, and a jump
        # begun then pressed the button before the lightsleep (a busy-loop
        # CI run); the loop's wall-time bound only keeps a thread from
        # outliving a failed test
        give_up = time.monotonic() + 600
        while chip.reports["dormant"] == dormant and time.monotonic() < give_up:
            time.sleep(0.005)
        chip.wait_emulated(3_000_000_000)        # the chip sleeps; its time jumps
        chip.hold(0, "left")
        woke.append(True)
    t = threading.Thread(target=press_later, daemon=True)
    t.start()
    out = r("t0 = time.ticks_ms(); machine.lightsleep(); print('woke', machine.freq())", timeout=60)
    t.join(60)
    chip.release(0, "left")
    assert woke and out == "woke 125000000"
    spent = _states(chip, before)
    assert spent["dormant"] == pytest.approx(3.0, abs=0.05)
    assert sum(v for k, v in spent.items() if k != "dormant") < 0.1
    ser.close()


def test_a_test_sets_vbus_and_vsys_and_the_firmware_reads_them(make_chip, tmp_path):
    import json
    import os
    import serial
    from tests.support.chip import ROOT
    with open(os.path.join(ROOT, "hardware", "board.json")) as f:
        board = json.load(f)
    power = board["power"]
    chip = make_chip()
    chip.console_line("MicroPython v", 60)
    ser = serial.Serial(chip.port, timeout=10)
    r = Prompt(ser, chip)
    r("from machine import ADC, Pin; a = ADC(%d); v = Pin(%d, Pin.IN)" % (power["vsys_adc"],
                                                                        power["vbus_sense"]))
    read = "print(v.value(), round(a.read_u16() * 3 * 3.3 / 65535, 2))"
    assert r(read) == "1 4.7"                    # on USB: VSYS = 5 V less the diode
    chip.set_supply(vbus=False, vsys=3.62)
    assert r(read) == "0 3.62"
    chip.set_supply(vsys=2.5)
    assert r(read) == "0 2.5"
    chip.set_supply(vbus=True)
    assert r(read) == "1 2.5"
    with pytest.raises(ValueError):
        chip.set_supply(vsys=9)
    ser.close()


# ---- the model's panels, per board (okgin bench power --board) ----
# No chip: the figures the bench turns the emulated time into, and the
# command line's errors, which come before any chip is started.

def test_each_boards_panels_take_their_own_modules_figures():
    from okgin.benches.power import controllers
    from okgin.chip import power
    from okgin.lib.paths import BOARD, resolve_board
    assert controllers(BOARD) == ["SSD1683", "SSD1683"]
    assert controllers(resolve_board("board-2in9.json")) == ["SSD1680", "SSD1680"]
    big, small = power.panel_figures("SSD1683"), power.panel_figures("SSD1680")
    # the 4.2in module's specification: a 4 s full refresh at 26.4 mW, the
    # 2.9in one's 2.5 s at the same power: a full refresh costs 1.6x the charge
    assert big["full_s"] == 4.0 and small["full_s"] == 2.5
    assert big["refresh_mw"] == small["refresh_mw"] == 26.4
    for f in (big, small):
        assert all(k in power.SOURCES for k in f["sources"])
    # the same seconds in the same states cost the same, whatever the
    # board: the boards differ by how long their refreshes last
    secs = {"refresh": 10.0, "idle": 5.0, "sleep": 85.0}
    chip = {"deep 12 --": 100.0}
    a = power.breakdown(chip, [secs, secs], controllers=["SSD1683", "SSD1683"])
    b = power.breakdown(chip, [secs, secs])
    assert a == pytest.approx(b)
    # 10 s of 100 refreshing at 26.4 mW, two panels, through the regulator, at 3.6 V
    assert a["panels refresh"] == pytest.approx(2 * 0.1 * 26.4 / 0.85 / 3.6)
    with pytest.raises(ValueError, match="no power figures for a UC8151 panel"):
        power.breakdown(chip, [secs], controllers=["UC8151"])


def test_the_bench_runs_the_emulated_panels_at_the_modules_refresh_times():
    from types import SimpleNamespace
    from okgin.benches.power import panel_times
    from okgin.vboard.ssd1683 import SSD1683, T_FULL
    panels = [SSD1683(), SSD1683()]
    assert T_FULL == 3.0     # the emulation's own (not timed on a real panel)
    panel_times(SimpleNamespace(pins=SimpleNamespace(panels=panels)), ["SSD1683", "SSD1683"])
    assert [(p.T_FULL, p.T_PARTIAL) for p in panels] == [(4.0, 0.4), (4.0, 0.4)]


def test_bench_power_refuses_a_board_it_has_no_figures_for(tmp_path):
    import json
    import os
    import subprocess
    from tests.support.host import ROOT, okgin_cmd
    from okgin.lib.paths import HARDWARE
    # the 2.9in table with UC8151 panels: a board the firmware drives
    with open(os.path.join(HARDWARE, "board-2in9.json")) as f:
        board = json.load(f)
    for pl in board["players"]:
        pl["panel"]["controller"] = "UC8151"
    path = tmp_path / "uc.json"
    path.write_text(json.dumps(board))
    env = dict(os.environ, OKGIN_RP2_DIR=str(tmp_path / "no-images"))
    for arg, want in ((str(path), "okgin: --board: no power figures for a UC8151 panel"),
                      (str(tmp_path / "none.json"), "okgin: board definition %s not found" % (tmp_path / "none.json"))):
        r = subprocess.run(okgin_cmd("bench", "power", "--quick", "--board", arg), cwd=ROOT,
                           capture_output=True, text=True, timeout=60, env=env)
        assert r.returncode != 0 and r.stderr.startswith(want), r.stderr
        assert "Traceback" not in r.stderr
