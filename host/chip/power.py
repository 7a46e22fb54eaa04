"""The power model (docs/power.md): emulated time per power state, as the
emulated Pico counts it (ChipBoard.power_states(), the panels' states()),
turned into current with published figures.

What is measured on the emulated Pico: how long the core runs, and at which
clock; how long it waits in WFI/WFE with its clocks on, in deep sleep
(machine.lightsleep: clk_sys from the 12 MHz crystal, the PLLs off) and in
DORMANT; how long each panel refreshes, is awake and sleeps. What is
modelled: what each of those states costs, below. Every figure has its
source in SOURCES; the Pico's are board-level (the regulator, flash, LED
off, everything on the board) measured at 5 V on VBUS, so the board's power
is 5 V x that current, and the battery supplies the same power at its own
voltage (a switching regulator: power, not current, is what passes).
"""

SOURCES = {
    "pico-mp": "cpottle9/RP2-PowerControl, POWER_MEASUREMENTS.md (a Raspberry Pi Pico running "
               "MicroPython 1.23.0, 5 V on VBUS, FNB58 USB tester, +-0.3 mA)",
    "mp-lightsleep": "MicroPython commit b004e7e397, 'rp2/modmachine: Implement lightsleep() with "
                     "optional sleep period' (Damien George, 2022): a Pico from its USB port draws "
                     "~1.5 mA in machine.lightsleep(5000) and ~0.9 mA in machine.lightsleep() (DORMANT)",
    "panel": "Waveshare 2.9inch e-Paper (SSD1680, 296x128) specification: refresh power 26.4 mW "
             "typ., standby current < 0.01 uA",
    "panel-4in2": "Waveshare wiki, Pico e-Paper 4.2 specification (the 4.2inch black/white module, "
                  "400x300; its V2 is the SSD1683 of hardware/board.json, raw panel Good Display "
                  "GDEY042T81): full refresh 4 s, refreshing power 26.4 mW typ., sleep current "
                  "< 0.01 uA",
    "partial-4in2": "GxEPD2's author, a partial refresh of a GDEY042T81 (SSD1683) measured at 358 ms "
                    "(docs/firmware.md, \"The 4.2\" panel\"); no partial time in the module's "
                    "specification",
    "emulation-2in9": "host/vboard/ssd1680.py: full 2.5 s, partial 0.4 s, typical of 2.9in SSD1680 "
                      "modules (2-4 s full, 0.3-0.5 s partial); the 2.9in figures of docs/power.md "
                      "were measured with them",
    "led": "hardware/WIRING.md: each turn light is an LED behind 330 ohm from a GPIO at 3.3 V, "
           "about 3-4 mA (a green LED's ~2.0 V at that current: (3.3 - 2.0) / 330 = 3.9 mA)",
    "assumed": "not in any specification found: an assumption, stated as one",
}

VBUS_V = 5.0          # the Pico figures' supply
RAIL_V = 3.3          # the panels' supply (the Pico's 3V3 out)

# Board current (mA at 5 V) while the core runs or waits at a clock (MHz),
# with MicroPython's usual clocks (PLL_SYS, PLL_USB at 48 MHz) on:
# measured at 125, 64 and 18 MHz, interpolated in between ("pico-mp":
# busy wait, and time.sleep_ms = WFE with every clock running).
RUN_MA = ((18, 7.83), (64, 14.45), (125, 21.24))
WAIT_MA = ((18, 7.45), (64, 13.00), (125, 18.80))
# machine.lightsleep: clk_sys 12 MHz from the crystal, both PLLs off, only
# the timer clocked ("pico-mp" 1.29 mA; "mp-lightsleep" ~1.5 mA): the
# lower figure is the newer, on a Pico with nothing attached
DEEP_MA = 1.29
# ... plus what keeping USB alive costs in that sleep (PLL_USB and the USB
# controller's clocks: "pico-mp" timer+USB sleep_ms 8.70 - timer only 6.68
# at 125 MHz). MicroPython keeps them only while a USB host has the port
# (a table on batteries has none: see correct_for_battery below).
DEEP_USB_MA = 2.02
DORMANT_MA = 0.9      # "mp-lightsleep": machine.lightsleep() with no timeout
# a panel awake but idle (its clock and booster off: "assumed"), mA at 3.3 V;
# refreshing and in deep sleep: PANELS (e.g. "panel": 26.4 mW / 3.3 V)
PANEL_IDLE_MA = 0.05
# Each board's panels, by board.json's controller: refreshing power (mW),
# deep sleep (uA) and the refresh times (s) the power bench runs the
# emulated panels at (okgin bench power --board; the emulations' own
# defaults are host/vboard/ssd1680.py's and ssd1683.py's), with the
# SOURCES each comes from. The two modules' specifications give the same
# refreshing power; the 4.2in module's full refresh is the longer.
PANELS = {
    "SSD1680": {"name": "2.9in 296x128", "refresh_mw": 26.4, "sleep_ua": 0.01, "full_s": 2.5,
                "partial_s": 0.4, "sources": ("panel", "emulation-2in9")},
    "SSD1683": {"name": "4.2in 400x300", "refresh_mw": 26.4, "sleep_ua": 0.01, "full_s": 4.0,
                "partial_s": 0.4, "sources": ("panel-4in2", "partial-4in2")},
}
LED_MA = (RAIL_V - 2.0) / 330 * 1000     # a lit turn light, at 3.3 V ("led")
# the panels' 3.3 V comes through the Pico's regulator: at the battery it
# costs 3.3 V x I / efficiency ("assumed": typical of a buck-boost at a few mA)
REGULATOR_EFFICIENCY = 0.85


def _interp(table, mhz):
    """Linear between the measured clocks; below the lowest, its figure
    (the PLLs' share does not shrink with the clock); above the highest,
    the last slope."""
    if mhz <= table[0][0]:
        return table[0][1]
    for k in range(1, len(table)):
        (f0, i0), (f1, i1) = table[k - 1], table[k]
        if mhz <= f1 or k == len(table) - 1:
            return i0 + (i1 - i0) * (mhz - f0) / (f1 - f0)
    return table[-1][1]


def state_ma(state, battery=True):
    """Board current (mA at 5 V) of one of glue.mjs's states, e.g.
    "run 125 SU", "wait 125 SU", "deep 12 -U", "dormant", "flash".
    battery=True: no USB host, so a lightsleep stops PLL_USB (MicroPython
    keeps it only for a mounted USB port, which the emulated Pico always has)."""
    parts = state.split()
    kind = parts[0]
    if kind == "dormant":
        return DORMANT_MA
    if kind == "flash":
        # the core stalls in the bootrom while the flash programs or erases:
        # counted as running at 125 MHz (the flash chip's own program
        # current is not in the model: docs/power.md)
        return _interp(RUN_MA, 125)
    mhz = float(parts[1])
    plls = parts[2] if len(parts) > 2 else "SU"
    if kind == "run":
        return _interp(RUN_MA, mhz)
    if kind == "wait":
        return _interp(WAIT_MA, mhz)
    # deep sleep: the crystal, the timer, and whatever PLL stayed on
    ma = DEEP_MA
    if "U" in plls and not battery:
        ma += DEEP_USB_MA
    if "S" in plls:
        ma += _interp(WAIT_MA, mhz) - DEEP_MA   # clocks kept: as a plain wait
    return ma


def panel_figures(controller):
    """PANELS' figures for a board.json controller; ValueError for one the
    model has no published figures for."""
    try:
        return PANELS[controller]
    except KeyError:
        raise ValueError("no power figures for a %s panel (host/chip/power.py PANELS has %s)"
                         % (controller, ", ".join(sorted(PANELS)))) from None


def breakdown(chip_states, panel_states, led_seconds=(), volts=3.6, battery=True, controllers=None):
    """{part: mA at the battery} averaged over the emulated time.

    chip_states: {state: seconds} (ChipBoard.power_states()); panel_states:
    one {state: seconds} per panel (SSD1680.states()); led_seconds: seconds
    each turn light was lit (BoardPins.led_seconds()); volts: the battery's
    voltage (3 x AA, mid-discharge: 3.6 V); controllers: each panel's
    controller (PANELS; None: the SSD1680's figures, the 2.9in panels')."""
    total = sum(chip_states.values())
    if total <= 0:
        raise ValueError("no emulated time was counted")
    out: "dict[str, float]" = {}
    for state, s in chip_states.items():
        key = "cpu " + state.split()[0]
        out[key] = out.get(key, 0.0) + state_ma(state, battery) * s
    for k in out:
        out[k] = out[k] * VBUS_V / volts / total
    for i, st in enumerate(panel_states):
        fig = panel_figures(controllers[i] if controllers else "SSD1680")
        refresh = fig["refresh_mw"] / RAIL_V
        for state, s in st.items():
            ma = {"refresh": refresh, "busy": refresh,
                  "idle": PANEL_IDLE_MA, "sleep": fig["sleep_ua"] / 1000}[state]
            key = "panels " + state
            out[key] = out.get(key, 0.0) + ma * s * RAIL_V / REGULATOR_EFFICIENCY / volts / total
    lit = sum(led_seconds)
    if lit:
        out["turn lights"] = LED_MA * lit * RAIL_V / REGULATOR_EFFICIENCY / volts / total
    return out


def average_ma(chip_states, panel_states, led_seconds=(), volts=3.6, battery=True, controllers=None):
    return sum(breakdown(chip_states, panel_states, led_seconds, volts, battery, controllers).values())
