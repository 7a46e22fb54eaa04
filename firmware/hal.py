# The only firmware module that touches pins: builds the SPI bus, the two
# panels, the buttons and the LEDs from a validated board definition
# (boarddef.load), and the chip's ways of waiting (rest, dormant) and of
# measuring its supply (supply). The app only sees the objects below.
#
# On the Pico, Pin and SPI come from `machine`. The unix port's `machine` has
# neither, and there the virtual board puts `vmachine` (same API) on the path;
# the firmware never ships vmachine.

import os

try:
    from machine import SPI, Pin
    import machine as _board
except ImportError:
    from vmachine import SPI, Pin  # type: ignore[import-not-found,no-redef]
    import vmachine as _board  # type: ignore[import-not-found,no-redef]

import time

from buttons import NAMES, Buttons

# IO_BANK0 DORMANT_WAKE_INTE0..3 (RP2040 datasheet 2.19.6.3): 4 bits per
# GPIO, bit 2 = wake on a falling edge, bit 3 on a rising one
_DORMANT_WAKE_INTE0 = 0x40014160
_EDGE_LOW = 4
_EDGE_HIGH = 8


_edge = bytearray(1)   # set by an edge since the last rest()


def _woke(pin):
    # A button or BUSY edge: the interrupt ends a lightsleep by itself; the
    # flag covers an edge that came before it (between the loop's last look
    # at the pins and the sleep), whose IRQ has already been served.
    _edge[0] = 1


class Hardware:
    def __init__(self, board):
        # Nothing of the board definition is kept (about 3 KB of dicts on
        # the unix port): it is freed once the app has read it
        # (docs/memory.md); the drivers get the values they need.
        timing = board["timing"]
        s = board["spi"]
        # polarity/phase 0: the SSD1680 samples SDA on the rising edge of SCL.
        # MISO is named so the pin the rp2 port claims for it is the one
        # board.json reserves (the panels are write-only).
        self.spi = SPI(s["id"], baudrate=s["baudrate"], polarity=0, phase=0,
                       sck=Pin(s["sck"]), mosi=Pin(s["mosi"]), miso=Pin(s["miso"]))
        self.displays = []
        self.leds = []
        pins = []
        wake = []     # GPIOs whose edges end a rest (buttons, BUSY)
        self.buttons_gpio = bytearray()   # what wakes the chip from DORMANT
        from display import DRIVERS
        for player in board["players"]:
            p = player["panel"]
            # The controller's driver module (display.py: the seam); both
            # panels of the usual board share one.
            Display = __import__(DRIVERS[p["controller"]]).Display
            self.displays.append(Display(
                self.spi,
                cs=Pin(p["cs"], Pin.OUT, value=1),
                dc=Pin(p["dc"], Pin.OUT, value=0),
                rst=Pin(p["rst"], Pin.OUT, value=1),
                # Pulled towards "busy": an unplugged panel reads busy and
                # ends in EPDTimeout instead of pretending to have drawn.
                busy=Pin(p["busy"], Pin.IN,
                         Pin.PULL_UP if Display.BUSY_ACTIVE else Pin.PULL_DOWN),
                width=p["width"], height=p["height"], rotation=p["rotation"],
                busy_timeout_ms=timing["busy_timeout_ms"], scale=p.get("scale", 1)))
            wake.append(self.displays[-1].busy_pin)
            pins.append({name: Pin(player["buttons"][name], Pin.IN, Pin.PULL_UP)
                         for name in NAMES})
            for name in NAMES:
                wake.append(pins[-1][name])
                self.buttons_gpio.append(player["buttons"][name])
            self.leds.append(Pin(player["led"], Pin.OUT, value=0))
        self.buttons = Buttons(pins, timing)
        # Every edge on a button or a BUSY line interrupts the core, so rest()
        # can sleep until the next one instead of polling (docs/power.md).
        for pin in wake:
            try:
                pin.irq(_woke, Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
            except (AttributeError, TypeError, ValueError):
                pass   # a port without pin IRQs: rest() still ends on time
        # The supply (board.json "power", optional): VBUS sense, VSYS through
        # the board's divider (a third on a Pico) on an ADC input, and the
        # regulator's mode pin (PWM while the ADC reads: less ripple).
        self._vbus = self._vsys = self._smps = None
        self._vbus_gpio = -1
        power = board.get("power")
        if power:
            self._vbus_gpio = power["vbus_sense"]
            self._vbus = Pin(self._vbus_gpio, Pin.IN)
            ADC = getattr(_board, "ADC", None)
            if ADC is not None:
                self._vsys = ADC(Pin(power["vsys_adc"]))
            if "smps_mode" in power:
                self._smps = Pin(power["smps_mode"], Pin.OUT, value=0)
        # The map is needed only now (boarddef loaded it): let it go. The
        # drivers keep what they use of it (EPDTimeout).
        import sys
        sys.modules.pop("display", None)

    # -- waiting and the supply (docs/power.md) ------------------------------
    def rest(self, ms, more=None):
        """Sleep up to ms, or until a button or BUSY line changes (or the
        host sends a byte). On the rp2: machine.lightsleep, the clocks from
        the crystal and the PLLs off; the pin IRQs above end it early.
        ``more()``: true when work came in (a byte from the host) since the
        caller last looked; it is asked with the interrupts masked, as is
        the edge flag, up to the sleep: an interrupt that comes in between
        stays pending, and a pending interrupt ends the sleep at once (WFI),
        where one served just before the sleep would not end it until its
        time is up (a host's command answered 10 s late). Under 2 ms it
        returns at once: the rp2 port's lightsleep(1) is a plain delay,
        which waits for a timer interrupt that the mask holds back, and
        the chip slept at full clock until the next edge (CI: a table on
        batteries that never went to DORMANT, tests/chip/test_chip.py)."""
        f = getattr(_board, "lightsleep", None)
        if f is None:
            if ms > 0 and not _edge[0]:
                time.sleep_ms(ms)
            _edge[0] = 0
            return
        off = getattr(_board, "disable_irq", None)
        state = off() if off is not None else None
        try:
            if ms < 2 or _edge[0] or (more is not None and more()):
                _edge[0] = 0
                return
            f(ms)
        finally:
            if off is not None:
                _board.enable_irq(state)

    def dormant(self):
        """The deepest sleep a button can end: every clock stopped
        (the RP2040's DORMANT, through machine.lightsleep() with a GPIO
        wake), until a button is pressed or USB is plugged in (VBUS
        rises). The timer stops meanwhile. Only on batteries: USB stops
        with its clock."""
        mem = getattr(_board, "mem32", None)
        f = getattr(_board, "lightsleep", None)
        if f is None:
            time.sleep_ms(1000)
            return
        if mem is None:      # the virtual board: until an input changes
            f()
            return
        regs = [0, 0, 0, 0]
        for g in self.buttons_gpio:
            regs[g >> 3] |= _EDGE_LOW << (4 * (g & 7))
        if self._vbus_gpio >= 0:
            g = self._vbus_gpio
            regs[g >> 3] |= _EDGE_HIGH << (4 * (g & 7))
        for i in range(4):
            mem[_DORMANT_WAKE_INTE0 + 4 * i] = regs[i]
        try:
            f()
        finally:
            for i in range(4):
                mem[_DORMANT_WAKE_INTE0 + 4 * i] = 0

    def supply(self):
        """(on_usb, vsys_mv): USB plugged in, and VSYS in mV (four ADC
        readings averaged); None when board.json names no power pins."""
        if self._vbus is None:
            return None
        usb = self._vbus.value() == 1
        if self._vsys is None:
            return usb, 0
        if self._smps is not None:
            self._smps.value(1)
        s = 0
        for _ in range(4):
            s += self._vsys.read_u16()
        if self._smps is not None:
            self._smps.value(0)
        # VSYS/3 against the ADC's 3.3 V reference: 65535 = 9900 mV
        return usb, (s >> 2) * 9900 // 65535

    def entropy(self):
        """A random 30-bit int (a small int on the Pico) to seed a shuffle."""
        try:
            b = os.urandom(4)  # rp2: the ring oscillator; unix: the kernel
            n = (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]
        except (AttributeError, OSError):
            n = 0
            for _ in range(8):  # jitter between two clocks
                n = (n * 31 + time.ticks_us()) & 0x3FFFFFFF
        return n & 0x3FFFFFFF

    def random_bytes(self, n):
        """``n`` (at most 32) fresh random bytes: a hand's deal key
        (engine Match(entropy=...), docs/reliability.md "Deals"). 32 bytes
        of os.urandom (rp2: the ring oscillator's RANDOMBIT, which the
        RP2040 datasheet calls biased and not for security; unix: the
        kernel) and the time in us are hashed with SHA-256, which keeps
        the 128 bits a key needs out of 256 raw ones that may each hold
        less than a bit."""
        from hashlib import sha256
        try:
            raw = os.urandom(32)
        except (AttributeError, OSError):
            raw = bytes(32)
        t = time.ticks_us()
        return sha256(raw + bytes((t & 255, (t >> 8) & 255, (t >> 16) & 255))).digest()[:n]

    def lock_repl(self, on):
        """The owner's lock: Ctrl-C on the USB port is a plain byte (no
        REPL) while ``on``. micropython.kbd_intr on a board; the virtual
        board's vmachine stands in for it (the unix port's own would make
        Ctrl-C end the process)."""
        f = getattr(_board, "kbd_intr", None)
        if f is None:
            import micropython
            f = micropython.kbd_intr
        f(-1 if on else 3)

    def busy(self):
        """True while any panel is updating."""
        for d in self.displays:
            if d.busy():
                return True
        return False

    def reset(self):
        """Hard reset of the board (the virtual board restarts the process)."""
        _board.reset()
