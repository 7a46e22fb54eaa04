# Board definition: load and validate hardware/board.json.
#
# Runs unchanged on MicroPython (the Pico and the unix port) and CPython (the
# host tool, the virtual board, the docs generator). Every error names the
# field it is about, e.g.
#   "players[1].buttons.ok: pin 14 is already used by players[0].panel.cs"
# so a typo in board.json is found without reading the code.
#
# The layout is documented field by field in hardware/README.md.

import json

from display import DRIVERS   # the controllers there is a driver for

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

PLAYERS = const(2)

# GPIOs that exist on the RP2040/RP2350A but are not on the Pico header:
# GP23 drives the SMPS power-save pin, GP24 senses VBUS, GP25 is the on-board
# LED (on a Pico W it belongs to the radio), GP29 measures VSYS/3.
INTERNAL_PINS = {
    23: "drives the SMPS power-save pin",
    24: "senses VBUS",
    25: "is the on-board LED (the radio on a Pico W)",
    29: "measures VSYS/3",
}

# RP2040 datasheet 2.19.2 (same for RP2350A): SPI functions repeat every four
# GPIOs, RX/CSn/SCK/TX, SPI0 on GP0-7 and GP16-23, SPI1 on GP8-15 and GP24-29.
# Only pins on the Pico header are listed.
SPI_PINS = {
    0: {"sck": (2, 6, 18, 22), "mosi": (3, 7, 19), "miso": (0, 4, 16, 20)},
    1: {"sck": (10, 14, 26), "mosi": (11, 15, 27), "miso": (8, 12, 28)},
}
# MicroPython's rp2 SPI claims a MISO pin even when none is wanted; without
# spi.miso it takes the port's default, so that pin is reserved all the same.
DEFAULT_MISO = {0: 16, 1: 12}

BUTTONS = ("left", "right", "ok", "draw", "take", "knock")
PANEL_PINS = ("cs", "dc", "rst", "busy")
MCUS = ("rp2040", "rp2350")
# Landscape orientations only. The 2.9" panels (SSD1680, UC8151) are
# portrait by nature: 90 streams the frame buffer to the panel as is; 270
# (the panel mounted upside down) costs a byte-reversal pass on every update
# (see ssd1680.py). The 4.2" SSD1683 panel is landscape by nature: 0, or 180
# upside down (ssd1683.py).
ROTATIONS = (90, 270)
# Per controller: (rotations, (min width, max width), (min height, max
# height), scales) of the landscape panel. Width runs along the gates on
# the 2.9" panels (296 at most on an SSD1680), along the sources on the
# 4.2"; height is whole bytes on the SSD1680. The UC8151 driver drives
# 296x128 only; the SSD1683 400x300 at most (whole bytes across).
# "scale" (optional, 1 by default): the app draws in (width/scale) x
# (height/scale) and the driver sends each of its pixels as a scale x
# scale block (display.py); the SSD1683's driver can draw at 2 (the 4.2"
# panel: Unifont 2x, 32 px card ranks, a 3,800 B frame buffer).
PANEL_LIMITS = {
    "SSD1680": (ROTATIONS, (8, 296), (8, 176), (1,)),
    "UC8151": (ROTATIONS, (296, 296), (128, 128), (1,)),
    "SSD1683": ((0, 180), (8, 400), (8, 300), (1, 2)),
}

TOP_FIELDS = ("name", "description", "mcu", "spi", "players", "timing", "power")
TOP_OPTIONAL = ("description", "power")
# The supply (docs/power.md): the GPIO that reads VBUS (1 = USB plugged in),
# the ADC input that reads VSYS through the board's divider, and the GPIO
# that switches the regulator to PWM while the ADC reads (optional). On a
# Pico: 24, 29 (VSYS/3) and 23: pins not on the header, wired on the board.
POWER_FIELDS = ("vbus_sense", "vsys_adc", "smps_mode")
ADC_PINS = (26, 27, 28, 29)
SPI_FIELDS = ("id", "sck", "mosi", "miso", "baudrate")
PLAYER_FIELDS = ("panel", "buttons", "led")
PANEL_FIELDS = ("controller", "width", "height", "rotation") + PANEL_PINS
# The ink's size in mm (width x height, the datasheet's "display size" or
# active area) and where that figure comes from: the host's legibility
# check (okgin hardware build) turns pixels into mm with it.
PANEL_OPTIONAL = ("active_mm", "active_source", "scale")

# name: (minimum, maximum) in ms (or a count for partials_before_full).
TIMING = (
    ("debounce_ms", 1, 200),
    ("long_press_ms", 100, 10000),
    ("repeat_delay_ms", 50, 5000),
    ("repeat_ms", 20, 5000),
    ("busy_timeout_ms", 500, 120000),
    ("partials_before_full", 0, 1000),
)


class BoardError(ValueError):
    """board.json is unreadable or wrong; the message starts with the field."""


def load(path="board.json"):
    """Read and validate a board definition file; returns the dict."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BoardError("%s: cannot read the board definition (%s)" % (path, e))
    try:
        board = json.loads(text)
    except ValueError as e:
        raise BoardError("%s: not valid JSON (%s)" % (path, e))
    return validate(board)


def _fields(where, obj, names, optional=()):
    # Missing and unknown fields are both errors: a misspelt "buton" must not
    # silently fall back to something.
    if not isinstance(obj, dict):
        raise BoardError("%s: expected an object, got %s" % (where or "board", _kind(obj)))
    prefix = where + "." if where else ""
    for name in names:
        if name not in obj and name not in optional:
            raise BoardError("%s%s: missing" % (prefix, name))
    for name in sorted(obj):
        if name not in names:
            raise BoardError("%s%s: unknown field (expected one of %s)"
                             % (prefix, name, ", ".join(names)))


def _kind(v):
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    if v is None:
        return "null"
    return type(v).__name__


def _int(where, v, lo, hi):
    # bool is an int subclass in Python; "true" is never a valid number here.
    if isinstance(v, bool) or not isinstance(v, int):
        raise BoardError("%s: expected a whole number, got %s" % (where, _kind(v)))
    if v < lo or v > hi:
        raise BoardError("%s: %d is out of range %d..%d" % (where, v, lo, hi))
    return v


def _active(pw, panel):
    a = panel["active_mm"]
    if not isinstance(a, list) or len(a) != 2:
        raise BoardError("%s.active_mm: expected [width, height] in mm, got %s" % (pw, _kind(a)))
    for v in a:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 5 <= v <= 500:
            raise BoardError("%s.active_mm: %r is not a size in mm (5..500)" % (pw, v))
    _str(pw + ".active_source", panel.get("active_source"))


def _str(where, v):
    if not isinstance(v, str) or not v:
        raise BoardError("%s: expected a non-empty string, got %s" % (where, _kind(v)))
    return v


class _Pins:
    # Records who uses each GPIO so a collision names both fields.
    def __init__(self):
        self.owner = {}

    def claim(self, where, v, allowed=None, role="", internal=False):
        if isinstance(v, bool) or not isinstance(v, int):
            raise BoardError("%s: expected a GPIO number, got %s" % (where, _kind(v)))
        if v < 0 or v > 29:
            raise BoardError("%s: pin %d does not exist (GPIO 0..29)" % (where, v))
        if v in INTERNAL_PINS and not internal:
            raise BoardError("%s: pin %d is not on the Pico header (it %s)"
                             % (where, v, INTERNAL_PINS[v]))
        if allowed is not None and v not in allowed:
            raise BoardError("%s: pin %d cannot be %s (choose one of %s)"
                             % (where, v, role, ", ".join([str(p) for p in allowed])))
        if v in self.owner:
            raise BoardError("%s: pin %d is already used by %s" % (where, v, self.owner[v]))
        self.owner[v] = where
        return v


def validate(board):
    """Check a board definition dict; returns it, or raises BoardError."""
    _fields("", board, TOP_FIELDS, TOP_OPTIONAL)
    name = _str("name", board["name"])
    # The name goes into the READY/hello protocol lines, which split on spaces.
    for ch in name:
        if ch <= " " or ch > "~":
            raise BoardError("name: %r must be printable ASCII without spaces" % name)
    if "description" in board and not isinstance(board["description"], str):
        raise BoardError("description: expected a string, got %s" % _kind(board["description"]))
    mcu = board["mcu"]
    if mcu not in MCUS:
        raise BoardError("mcu: %r is not supported (expected one of %s)" % (mcu, ", ".join(MCUS)))

    pins = _Pins()
    spi = board["spi"]
    _fields("spi", spi, SPI_FIELDS, ("miso",))
    sid = spi["id"]
    if isinstance(sid, bool) or sid not in SPI_PINS:
        raise BoardError("spi.id: %r is not an SPI bus of the Pico (0 or 1)" % (sid,))
    if "miso" not in spi:
        spi["miso"] = DEFAULT_MISO[sid]
    for field in ("sck", "mosi", "miso"):
        role = "SPI%d %s" % (sid, field.upper())
        pins.claim("spi." + field, spi[field], SPI_PINS[sid][field], role)
    # SSD1680 datasheet: serial clock up to 20 MHz for writes.
    _int("spi.baudrate", spi["baudrate"], 100000, 20000000)

    players = board["players"]
    if not isinstance(players, list):
        raise BoardError("players: expected a list, got %s" % _kind(players))
    if len(players) != PLAYERS:
        raise BoardError("players: expected %d players, got %d" % (PLAYERS, len(players)))
    for p in range(PLAYERS):
        where = "players[%d]" % p
        player = players[p]
        _fields(where, player, PLAYER_FIELDS)
        panel = player["panel"]
        pw = where + ".panel"
        _fields(pw, panel, PANEL_FIELDS + PANEL_OPTIONAL, PANEL_OPTIONAL)
        c = panel["controller"]
        if not isinstance(c, str) or c not in DRIVERS:
            raise BoardError("%s.controller: %r is not supported (expected one of %s)"
                             % (pw, panel["controller"], ", ".join(sorted(DRIVERS))))
        # Logical landscape size and orientation, as the controller allows
        # (PANEL_LIMITS; the byte-aligned side must be whole bytes).
        rots, wlim, hlim, scales = PANEL_LIMITS.get(c, PANEL_LIMITS["SSD1680"])
        w = panel["width"]
        h = panel["height"]
        for field, v, lim in (("width", w, wlim), ("height", h, hlim)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise BoardError("%s.%s: expected a whole number, got %s" % (pw, field, _kind(v)))
            if not lim[0] <= v <= lim[1]:
                raise BoardError("%s.%s: %d is out of range %d..%d for controller %s"
                                 % (pw, field, v, lim[0], lim[1], c))
        aligned = ("width", w) if c == "SSD1683" else ("height", h)
        if aligned[1] % 8:
            raise BoardError("%s.%s: %d is not a multiple of 8" % (pw, aligned[0], aligned[1]))
        if "scale" in panel:
            sc = panel["scale"]
            if isinstance(sc, bool) or not isinstance(sc, int):
                raise BoardError("%s.scale: expected a whole number, got %s" % (pw, _kind(sc)))
            if sc not in scales:
                raise BoardError("%s.scale: %d is not supported by controller %s (expected %s)"
                                 % (pw, sc, c, " or ".join([str(x) for x in scales])))
            if w % sc or h % sc:
                raise BoardError("%s.scale: %dx%d is not divisible by %d" % (pw, w, h, sc))
        if "active_mm" in panel:
            _active(pw, panel)
        rot = panel["rotation"]
        if isinstance(rot, bool) or rot not in rots:
            raise BoardError("%s.rotation: %r is not supported by controller %s (expected %s)"
                             % (pw, rot, c, " or ".join([str(r) for r in rots])))
        for field in PANEL_PINS:
            pins.claim("%s.%s" % (pw, field), panel[field])
        bw = where + ".buttons"
        _fields(bw, player["buttons"], BUTTONS)
        for b in BUTTONS:
            pins.claim("%s.%s" % (bw, b), player["buttons"][b])
        pins.claim(where + ".led", player["led"])

    if "power" in board:
        power = board["power"]
        _fields("power", power, POWER_FIELDS, ("smps_mode",))
        for field in POWER_FIELDS:
            if field in power:
                pins.claim("power." + field, power[field], ADC_PINS if field == "vsys_adc" else None,
                           "an ADC input", internal=True)

    timing = board["timing"]
    _fields("timing", timing, [t[0] for t in TIMING])
    for name, lo, hi in TIMING:
        _int("timing." + name, timing[name], lo, hi)
    if timing["long_press_ms"] <= timing["debounce_ms"]:
        raise BoardError("timing.long_press_ms: %d must be longer than timing.debounce_ms (%d)"
                         % (timing["long_press_ms"], timing["debounce_ms"]))
    return board


def pin_owners(board):
    """{gpio: field} for a validated board, e.g. {18: "spi.sck", ...}."""
    pins = _Pins()
    spi = board["spi"]
    for field in ("sck", "mosi", "miso"):
        pins.owner[spi[field]] = "spi." + field
    for p in range(PLAYERS):
        player = board["players"][p]
        for field in PANEL_PINS:
            pins.owner[player["panel"][field]] = "players[%d].panel.%s" % (p, field)
        for b in BUTTONS:
            pins.owner[player["buttons"][b]] = "players[%d].buttons.%s" % (p, b)
        pins.owner[player["led"]] = "players[%d].led" % p
    # (board.json "power" names pins the Pico wires on its own board, not
    # on the header: they are not part of the wiring)
    return pins.owner
