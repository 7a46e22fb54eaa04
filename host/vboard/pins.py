"""The board's wiring on the host side: GPIO levels, buttons, LEDs, and the
SPI bus routed to the panels whose CS is low. Built from hardware/board.json.

Levels follow the rp2: a pin configured as an output reads back what it
drives; an input reads what drives it from outside (a panel's BUSY, a button
to ground) or, when nothing does, its pull (pull-up -> 1; no pull -> 0, a
floating pin is read as low here so a missing PULL_UP shows up as "every
button pressed").
"""
import threading
import time

from .ssd1680 import SSD1680
from .ssd1683 import SSD1683
from .uc8151 import UC8151

# board.json's panel.controller -> the emulation of that controller: one for
# every driver the firmware has (firmware/display.py DRIVERS; a test keeps
# the two in step).
EMULATIONS = {"SSD1680": SSD1680, "UC8151": UC8151, "SSD1683": SSD1683}

IN, OUT, OPEN_DRAIN = 0, 1, 2
PULL_UP, PULL_DOWN = 1, 2
NGPIO = 30
BUTTONS = ("left", "right", "ok", "draw", "take", "knock")


class BoardPins:
    def __init__(self, board, speed=0.0, seed=0, clock=time.monotonic):
        # clock: the panels' time in seconds (the emulated Pico passes its
        # emulated time, so BUSY is timed as the chip sees it)
        self.board = board
        self.lock = threading.RLock()
        self.on_change = None      # called (no args) when an input level may have changed
        self.on_event = None       # called with event tuples (player added)
        spi = board["spi"]
        self.spi_bus = (spi["id"], spi["sck"], spi["mosi"])
        self.panels = []
        self.panel_pins = []       # per player: dict cs, dc, rst, busy
        self.button_pins = {}      # (player, name) -> gpio
        self.led_pins = []
        for p, player in enumerate(board["players"]):
            pan = player["panel"]
            controller = pan.get("controller", "SSD1680")
            if controller not in EMULATIONS:
                raise ValueError("players[%d].panel.controller: %r is not emulated (the virtual "
                                 "board has %s)" % (p, controller, ", ".join(sorted(EMULATIONS))))
            w, h, rot = pan["width"], pan["height"], pan.get("rotation", 0)
            sources, gates = (h, w) if rot in (90, 270) else (w, h)
            panel = EMULATIONS[controller](sources=sources, gates=gates, rotation=rot, speed=speed,
                                           clock=clock, seed=seed * 2 + p + 1, name="panel %d" % p)
            panel.on_event = self._panel_event_cb(p)
            self.panels.append(panel)
            self.panel_pins.append({k: pan[k] for k in ("cs", "dc", "rst", "busy")})
            for name in BUTTONS:
                self.button_pins[(p, name)] = player["buttons"][name]
            self.led_pins.append(player.get("led"))
        # the supply (board.json "power", optional): the VBUS sense pin reads
        # 1 while USB is plugged in (self.vbus)
        self.vbus = True
        self.vsys = 4.7            # volts on VSYS (USB: 5 V less the Pico's diode)
        power = board.get("power", {})
        self.vbus_pin = power.get("vbus_sense")
        self.vsys_pin = power.get("vsys_adc")
        self.busy_pins = {pp["busy"]: p for p, pp in enumerate(self.panel_pins)}
        self.rst_pins = {pp["rst"]: p for p, pp in enumerate(self.panel_pins)}
        self.led_of = {g: p for p, g in enumerate(self.led_pins) if g is not None}
        self.pressed = set()       # gpios held low by a button
        self.clock = clock
        self.reset_states()
        self.mcu_reset()

    def _panel_event_cb(self, player):
        def cb(kind, *args):
            if self.on_event is not None:
                self.on_event((kind, player) + args)
        return cb

    # -- MCU side --------------------------------------------------------
    def mcu_reset(self):
        """The MCU restarted: every GPIO back to an unconfigured input. The
        panels keep power (and their state) — their RST line stays high."""
        with self.lock:
            self.mode = [None] * NGPIO
            self.pull = [None] * NGPIO
            self.level = [0] * NGPIO
            self.spi = {}          # bus id -> (sck, mosi, firstbit)
            for p in range(len(self.panel_pins)):
                self.panels[p].set_reset(1)

    def configure(self, gpio, mode, pull):
        with self.lock:
            if pull is not None and pull >= 0:
                self.pull[gpio] = pull or None
            after = None
            if mode is not None and mode >= 0:
                was_out = self.mode[gpio] in (OUT, OPEN_DRAIN)
                old_lit = self._lit(gpio)
                self.mode[gpio] = mode
                if mode in (OUT, OPEN_DRAIN) and not was_out:
                    # Pin(n, Pin.OUT, value=v): the latched level appears now.
                    after = self._driven_changed(gpio, old_lit)
        self._after(after)

    def write(self, gpio, value):
        value = 1 if value else 0
        after = None
        with self.lock:
            old_lit = self._lit(gpio)
            self.level[gpio] = value
            if self.mode[gpio] in (OUT, OPEN_DRAIN):
                after = self._driven_changed(gpio, old_lit)
            # else: rp2 latches the level; it is driven once the pin is an output
        self._after(after)

    def _driven_changed(self, gpio, old_lit):
        """Apply a driven level to what hangs on the pin; returns what to
        tell the world once the lock is released (callbacks take other locks)."""
        changed, event = False, None
        if gpio in self.rst_pins:
            self.panels[self.rst_pins[gpio]].set_reset(self.level[gpio])
            changed = True
        lit = self._lit(gpio)
        if gpio in self.led_of and old_lit != lit:
            event = ("led", self.led_of[gpio], lit)
            self._led_account(self.led_of[gpio], old_lit)
        return changed, event

    def _after(self, after):
        if after is None:
            return
        changed, event = after
        if changed and self.on_change:
            self.on_change()
        if event and self.on_event:
            self.on_event(event)

    # -- the turn lights' on-time (docs/power.md) --------------------------
    def reset_states(self):
        with self.lock:
            now = self.clock()
            self._led_on = [0.0] * len(self.led_pins)
            self._led_since = [now] * len(self.led_pins)

    def _led_account(self, p, was_lit):
        now = self.clock()
        if was_lit:
            self._led_on[p] += now - self._led_since[p]
        self._led_since[p] = now

    def led_seconds(self):
        """Seconds each turn light was lit since reset_states() (by the
        panels' clock: the chip's emulated time on the emulated Pico)."""
        with self.lock:
            out = []
            for p, g in enumerate(self.led_pins):
                on = self._led_on[p]
                if g is not None and self._lit(g):
                    on += self.clock() - self._led_since[p]
                out.append(on)
            return out

    def _lit(self, gpio):
        return self.mode[gpio] in (OUT, OPEN_DRAIN) and self.level[gpio] == 1

    def spi_config(self, bus, sck, mosi, firstbit):
        with self.lock:
            self.spi[bus] = (sck, mosi, firstbit)

    def spi_write(self, bus, data):
        with self.lock:
            cfg = self.spi.get(bus)
            if cfg is None or (bus, cfg[0], cfg[1]) != self.spi_bus:
                for panel in self.panels:
                    panel._note("SPI%d bytes on pins %r never reach the panels (wired: SPI%d sck=%d mosi=%d)"
                                % ((bus, cfg) + self.spi_bus))
                return
            if cfg[2]:   # LSB first: the controller receives every byte mirrored
                data = bytes(int("{:08b}".format(b)[::-1], 2) for b in data)
            targets = []
            for p, pp in enumerate(self.panel_pins):
                if self._driven(pp["cs"]) == 0:
                    targets.append((self.panels[p], self._driven(pp["dc"])))
        for panel, dc in targets:
            panel.feed(data, dc)
        if targets and self.on_change:
            self.on_change()

    def _driven(self, gpio):
        # A CS/DC line the MCU does not drive is pulled up on the modules.
        if self.mode[gpio] in (OUT, OPEN_DRAIN):
            return self.level[gpio]
        return 1

    def input_bits(self):
        """All 30 GPIO levels as the MCU reads them now."""
        bits = 0
        with self.lock:
            for g in range(NGPIO):
                if self.read(g):
                    bits |= 1 << g
        return bits

    def read(self, g):
        if self.mode[g] == OUT or (self.mode[g] == OPEN_DRAIN and self.level[g] == 0):
            return self.level[g]
        if g in self.busy_pins:
            panel = self.panels[self.busy_pins[g]]
            return panel.BUSY_ACTIVE if panel.busy() else 1 - panel.BUSY_ACTIVE
        if g in self.pressed:
            return 0
        if g == self.vbus_pin:
            return 1 if self.vbus else 0
        return 1 if self.pull[g] == PULL_UP else 0

    def adc_u16(self, gpio):
        """What rp2's ADC.read_u16() gives on that pin: VSYS/3 on the
        power.vsys_adc pin (the Pico's divider), 0 elsewhere."""
        if gpio != self.vsys_pin:
            return 0
        raw = max(0, min(4095, int(round(self.vsys / 3 / 3.3 * 4095))))
        return (raw << 4) | (raw >> 8)      # rp2: 12 bits scaled to 16

    # -- outside world ---------------------------------------------------
    def button_gpio(self, player, button):
        try:
            return self.button_pins[(player, button)]
        except KeyError:
            raise ValueError("no button %r for player %r (buttons: %s)"
                             % (button, player, " ".join(BUTTONS))) from None

    def set_button(self, player, button, down):
        g = self.button_gpio(player, button)
        with self.lock:
            if down:
                self.pressed.add(g)
            else:
                self.pressed.discard(g)
        if self.on_change:
            self.on_change()

    def led(self, player):
        g = self.led_pins[player]
        if g is None:
            return False
        with self.lock:
            return bool(self.mode[g] == OUT and self.level[g])
