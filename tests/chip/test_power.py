"""The emulated Pico's power books (docs/power.md): what glue.mjs counts
per power state, the clock machine.freq sets, machine.lightsleep and the
DORMANT state (woken by a GPIO), and the supply a test sets (VBUS sense,
VSYS on the ADC), all with stock MicroPython on the chip."""
import threading

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
    r("machine.lightsleep(800)")
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
    r = Prompt(ser)
    g = chip.pins.button_gpio(0, "left")
    r("import machine, time; p = machine.Pin(%d, machine.Pin.IN, machine.Pin.PULL_UP)" % g)
    # IO_BANK0 DORMANT_WAKE_INTE0: wake on that GPIO's falling edge
    r("machine.mem32[0x40014160] = 4 << (4 * %d)" % g)
    before = chip.power_states()
    woke = []

    def press_later():
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
    r = Prompt(ser)
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
