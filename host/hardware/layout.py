"""Read and check hardware/layout.json (where things go) and
hardware/parts.json (what the bought parts measure), and turn them into the
parameters of the enclosure model (hardware/case/params.scad).

Every error names the field, as firmware/boarddef.py does for board.json:
``layout.json: seat.buttons.ok: expected [x, y] in mm, got a string``. The
button names must be exactly the ones board.json gives each player, so the
case and the wiring can never disagree about which buttons exist.
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARDWARE = os.path.join(ROOT, "hardware")

PANELS = ("waveshare42", "waveshare", "weact")
BUTTON_SIZES = (6, 12)

# Fixed construction sizes (mm), not worth a field each: plate and floor
# thickness, post radii, the pocket a switch sits in. The checks measure the
# result, so a change here that breaks a part fails `okgin hardware build`.
CONSTRUCTION = {
    "lid_t": 2.4, "floor_t": 3.0, "skin": 1.2, "glass_gap": 0.2,
    "lip_h": 3.0, "lip_t": 1.6,
    "post_r": 4.0, "post_gap": 0.5, "case_pilot_d": 2.5, "case_screw_d": 3.4,
    "panel_post_r": 2.4, "tray_post_r": 3.5, "tray_pilot_d": 2.2, "tray_screw_d": 2.9,
    "tray_t": 3.0, "pocket": 1.2,
    # the window: the active area plus window_margin all round at the
    # hood's inner face, straight for window_land (a printable edge), then
    # opening outward at window_flare degrees: the wall hides no ink from
    # anyone within that angle of the panel's normal
    "window_margin": 1.2, "window_land": 1.1, "peg_tip": 1.5,
    # pegs through the panel's mounting holes: thin enough for the smallest
    # hole the community models give (2.0 mm), melted or glued at the tip
    "peg_d": 1.6,
    # the hood: wall thickness, end walls, the bosses the deck is screwed to
    "hood_t": 2.0, "hood_end": 2.4, "hood_boss_h": 6.0, "hood_boss_r": 3.5,
    "hood_pilot_d": 2.2, "hood_screw_d": 2.9, "hood_root": 8.0, "hood_foot": 1.5,
    "window_flare": 45.0,
    # the legends: engraved strokes, 0.8 mm wide (two lines of a 0.4 mm nozzle)
    "legend_w": 0.8, "legend_gap": 0.5, "legend_depth": 0.6,
    # BOOTSEL: a paper clip (1 mm wire) through a 1.6 mm tube to 1 mm over the button
    "bootsel_hole_d": 1.6, "bootsel_gap": 1.0,
    # RESET: a 6 x 6 switch under the deck, its plunger 0.8 mm below the top (a pen presses it)
    "run_hole_d": 4.0, "run_recess": 0.8,
    # the USB opening: parts.json's plug (the largest micro-B overmold the
    # spec allows) and this much round it (issue 36: at least 0.5 mm)
    "usb_clear": 0.5,
    # a button's cap hole (issue 36): the cap, plus all round the switch's
    # placement tolerance (parts.json), what a printed hole loses (an FDM
    # hole comes out up to 0.2 mm small all round) and 0.1 mm of play
    "hole_shrink": 0.2, "cap_play": 0.1,
    "carrier_standoff": 5.0, "carrier_post_r": 2.5,
    "batt_rim": 3.0, "batt_screw_d": 3.4,
}
# The ribbon cable's notch in the station's back wall and the box's wall
# (width, and the height it leaves under the lid's lip): a 16-way 1.27 mm
# ribbon is 20.3 mm wide.
CABLE_SLOT = [24.0, 3.0]
# The words engraved beside each button (board.json's names).
WORDS = {"left": "LEFT", "right": "RIGHT", "ok": "OK", "draw": "DRAW", "take": "TAKE", "knock": "KNOCK"}
# How far the top of a button stands above the lid.
PROTRUDE = {12: 2.0, 6: 1.5}


class LayoutError(ValueError):
    """layout.json or parts.json is unreadable or wrong; the message names the field."""


def _kind(v):
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return "null" if v is None else type(v).__name__


def _load(path):
    name = os.path.basename(path)
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise LayoutError("%s: cannot read it (%s)" % (name, e.strerror or e))
    try:
        return json.loads(text)
    except ValueError as e:
        raise LayoutError("%s: not valid JSON (%s)" % (name, e))


class _Checker:
    def __init__(self, filename):
        self.filename = filename

    def fail(self, where, msg):
        raise LayoutError("%s: %s: %s" % (self.filename, where, msg))

    def obj(self, where, v, names, optional=()):
        if not isinstance(v, dict):
            self.fail(where, "expected an object, got %s" % _kind(v))
        for n in names:
            if n not in v and n not in optional:
                self.fail("%s.%s" % (where, n) if where else n, "missing")
        for n in sorted(v):
            if n not in names:
                self.fail("%s.%s" % (where, n) if where else n,
                          "unknown field (expected one of %s)" % ", ".join(names))
        return v

    def num(self, where, v, lo, hi):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            self.fail(where, "expected a number in mm, got %s" % _kind(v))
        if v < lo or v > hi:
            self.fail(where, "%g is out of range %g..%g" % (v, lo, hi))
        return float(v)

    def vec(self, where, v, n, lo, hi, what="mm", shape=None):
        if not isinstance(v, list) or len(v) != n:
            shape = shape or ("[x, y]" if n == 2 else "[%s]" % ", ".join("v%d" % i for i in range(n)))
            self.fail(where, "expected %s in %s, got %s" % (shape, what, _kind(v)))
        return [self.num("%s[%d]" % (where, i), x, lo, hi) for i, x in enumerate(v)]

    def text(self, where, v):
        if not isinstance(v, str):
            self.fail(where, "expected a string, got %s" % _kind(v))
        return v


def load_layout(path=None, board=None):
    """Validated layout.json as a dict. ``board`` (a validated board.json)
    supplies the button names every seat must place."""
    path = path or os.path.join(HARDWARE, "layout.json")
    c = _Checker(os.path.basename(path))
    lay = _load(path)
    c.obj("", lay, ("description", "box", "seats", "station", "seat", "pico", "carrier", "battery", "power_switch",
                    "reset_button", "defaults", "print"), ("description",))
    if "description" in lay:
        c.text("description", lay["description"])
    box = c.obj("box", lay["box"], ("width", "depth", "height", "corner_radius"))
    W = c.num("box.width", box["width"], 60, 400)
    D = c.num("box.depth", box["depth"], 60, 400)
    c.num("box.height", box["height"], 20, 120)
    c.num("box.corner_radius", box["corner_radius"], 1, min(W, D) / 4)

    _check_seats(c, lay["seats"])
    st = c.obj("station", lay["station"], ("table_depth", "front", "width", "depth", "height", "corner_radius"))
    c.num("station.table_depth", st["table_depth"], 300, 3000)
    SW = c.num("station.width", st["width"], 60, 400)
    SD = c.num("station.depth", st["depth"], 60, 400)
    c.num("station.height", st["height"], 20, 120)
    c.num("station.corner_radius", st["corner_radius"], 1, min(SW, SD) / 4)
    c.num("station.front", st["front"], 0, st["table_depth"] / 2 - SD - D / 2)
    seat = c.obj("seat", lay["seat"], ("panel", "hood", "hood_screws", "cable", "buttons", "legends", "led",
                                       "tray_posts"))
    panel = c.obj("seat.panel", seat["panel"], ("x", "y", "z", "tilt", "connector"))
    c.num("seat.panel.x", panel["x"], -SW / 2, SW / 2)
    c.num("seat.panel.y", panel["y"], 0, SD)
    c.num("seat.panel.z", panel["z"], st["height"], st["height"] + 200)
    c.num("seat.panel.tilt", panel["tilt"], 10, 80)
    hood = c.obj("seat.hood", seat["hood"], ("reach", "rise", "length"))
    c.num("seat.hood.reach", hood["reach"], 0, 100)
    c.num("seat.hood.rise", hood["rise"], 0, 100)
    c.num("seat.hood.length", hood["length"], 40, SW)
    hs = seat["hood_screws"]
    if not isinstance(hs, list) or len(hs) < 2:
        c.fail("seat.hood_screws", "expected a list of at least two [x, y] positions, got %s" % _kind(hs))
    for i, h in enumerate(hs):
        c.vec("seat.hood_screws[%d]" % i, h, 2, -SW / 2, SD)
    c.vec("seat.cable", seat["cable"], 2, -SW / 2, SW / 2, shape="[x, z]")
    leg = c.obj("seat.legends", seat["legends"], ("offset", "height"))
    c.num("seat.legends.offset", leg["offset"], -40, 40)
    c.num("seat.legends.height", leg["height"], 1, 12)
    if panel["connector"] not in ("left", "right"):
        c.fail("seat.panel.connector", "%r: expected \"left\" or \"right\" (which end of the "
               "panel, seen by its player, has the cable)" % (panel["connector"],))
    names = tuple(_button_names(board))
    buttons = c.obj("seat.buttons", seat["buttons"], names)
    for n in names:
        c.vec("seat.buttons." + n, buttons[n], 2, -SW / 2, SD)
        x, y = buttons[n]
        if abs(x) > SW / 2 or not 0 < y < SD:
            c.fail("seat.buttons." + n, "[%g, %g] is outside the station's top "
                   "(x within +-%g, y within 0..%g)" % (x, y, SW / 2, SD))
    c.vec("seat.led", seat["led"], 2, -SW / 2, SD)
    posts = seat["tray_posts"]
    if not isinstance(posts, list) or len(posts) < 2:
        c.fail("seat.tray_posts", "expected a list of at least two [x, y] positions, got %s"
               % _kind(posts))
    for i, p in enumerate(posts):
        c.vec("seat.tray_posts[%d]" % i, p, 2, -SW / 2, SD)

    pico = c.obj("pico", lay["pico"], ("x", "y", "usb"))
    c.num("pico.x", pico["x"], -W / 2, W / 2)
    c.num("pico.y", pico["y"], -D / 2, D / 2)
    if pico["usb"] not in ("+x", "-x"):
        c.fail("pico.usb", "%r: expected \"+x\" or \"-x\" (the side wall the USB port faces)"
               % (pico["usb"],))
    car = c.obj("carrier", lay["carrier"], ("x", "y"))
    c.num("carrier.x", car["x"], -W / 2, W / 2)
    c.num("carrier.y", car["y"], -D / 2, D / 2)
    bat = c.obj("battery", lay["battery"], ("x", "y"))
    c.num("battery.x", bat["x"], -W / 2, W / 2)
    c.num("battery.y", bat["y"], -D / 2, D / 2)
    ps = c.obj("power_switch", lay["power_switch"], ("y", "z"))
    c.num("power_switch.y", ps["y"], -D / 2, D / 2)
    c.num("power_switch.z", ps["z"], 0, box["height"])
    c.vec("reset_button", lay["reset_button"], 2, -W / 2, W / 2)

    d = c.obj("defaults", lay["defaults"], ("panel", "buttons", "wall", "tolerance"))
    check_options(c, "defaults.", d["panel"], d["buttons"], d["wall"], d["tolerance"])
    pr = c.obj("print", lay["print"], ("bed", "min_wall"))
    c.vec("print.bed", pr["bed"], 2, 50, 1000)
    c.num("print.min_wall", pr["min_wall"], 0.4, 5)
    _check_spacing(c, lay, names)
    return lay


# Plausible bounds (mm, degrees) for each range in "seats": a typo (cm for
# mm, a sign) fails with the field's name instead of building a case for
# giants.
SEAT_BOUNDS = {"table_depth": (300, 3000), "table_height": (400, 1200), "seat_height": (200, 900),
               "sitting_eye_height": (400, 1100), "hip_behind_edge": (0, 1000), "lean": (-45, 60)}


def _check_seats(c, seats):
    from . import seats as S
    c.obj("seats", seats, S.FIELDS + S.OPTIONAL, ("about", "sources") + S.OPTIONAL)
    for f in S.RANGES:
        lo, hi = SEAT_BOUNDS[f]
        a, b = c.vec("seats." + f, seats[f], 2, lo, hi, what="mm (lean: degrees)", shape="[low, high]")
        if a > b:
            c.fail("seats." + f, "[%g, %g]: the low end is above the high end" % (a, b))
    c.num("seats.station_aside", seats["station_aside"], 0, 1000)
    c.num("seats.opponent_aside", seats["opponent_aside"], 0, 2000)
    c.num("seats.hip_above_seat", seats["hip_above_seat"], 0, 300)
    if seats["sitting_eye_height"][0] <= seats["hip_above_seat"]:
        c.fail("seats.hip_above_seat", "is above the lowest eye")
    # the grown seat model (issue 36): optional
    if "station_turn" in seats:
        c.num("seats.station_turn", seats["station_turn"], 0, 90)
    if "corner" in seats:
        c.num("seats.corner", seats["corner"], 0, 90)
    if "half_standing" in seats:
        hs = seats["half_standing"]
        c.obj("seats.half_standing", hs, ("past_edge", "eye_above_table"))
        c.num("seats.half_standing.past_edge", hs["past_edge"], 0, 500)
        a, b = c.vec("seats.half_standing.eye_above_table", hs["eye_above_table"], 2, 100, 1500,
                     shape="[low, high]")
        if a > b:
            c.fail("seats.half_standing.eye_above_table", "[%g, %g]: the low end is above the high end" % (a, b))


def _button_names(board):
    if board is None:
        sys.path.insert(0, os.path.join(ROOT, "firmware"))
        import boarddef
        return boarddef.BUTTONS
    names = list(board["players"][0]["buttons"])
    for p, pl in enumerate(board["players"]):
        if sorted(pl["buttons"]) != sorted(names):
            raise LayoutError("board.json: players[%d].buttons names differ from players[0]'s" % p)
    return names


def _check_spacing(c, lay, names):
    # Two button holes closer than a 12 mm cap plus a wall cannot both be cut.
    b = lay["seat"]["buttons"]
    for i, n in enumerate(names):
        for m in names[i + 1:]:
            dist = math.hypot(b[n][0] - b[m][0], b[n][1] - b[m][1])
            if dist < 14:
                c.fail("seat.buttons." + m, "only %.1f mm from %s: buttons need at least 14 mm "
                       "between centres" % (dist, n))


def check_options(c, prefix, panel, buttons, wall, tolerance):
    if panel not in PANELS:
        c.fail(prefix + "panel", "%r: expected one of %s" % (panel, ", ".join(PANELS)))
    if isinstance(buttons, bool) or buttons not in BUTTON_SIZES:
        c.fail(prefix + "buttons", "%r: expected 6 or 12 (mm)" % (buttons,))
    c.num(prefix + "wall", wall, 0.4, 10)
    c.num(prefix + "tolerance", tolerance, 0, 1.0)


def load_parts(path=None):
    path = path or os.path.join(HARDWARE, "parts.json")
    c = _Checker(os.path.basename(path))
    parts = _load(path)
    c.obj("", parts, ("description", "panels", "pico", "buttons", "led", "carrier", "battery", "power_switch"),
          ("description",))
    panels = c.obj("panels", parts["panels"], PANELS)
    for name in PANELS:
        w = "panels." + name
        p = c.obj(w, panels[name], ("name", "px", "pcb", "pcb_source", "holes", "hole_d", "holes_source",
                                    "glass", "glass_offset", "glass_source", "active", "active_offset",
                                    "active_source", "fpc_width", "connector", "connector_source",
                                    "screw", "pilot_d"))
        c.vec(w + ".px", p["px"], 2, 8, 4000)
        L, Wd, _ = c.vec(w + ".pcb", p["pcb"], 3, 0.5, 300)
        for i, h in enumerate(p["holes"]):
            c.vec("%s.holes[%d]" % (w, i), h, 2, -L / 2, L / 2)
        c.num(w + ".hole_d", p["hole_d"], 0.5, 10)
        g = c.vec(w + ".glass", p["glass"], 3, 0.3, 300)
        c.vec(w + ".glass_offset", p["glass_offset"], 2, -L / 2, L / 2)
        a = c.vec(w + ".active", p["active"], 2, 1, 300)
        ao = c.vec(w + ".active_offset", p["active_offset"], 2, -L / 2, L / 2)
        if a[0] > g[0] or a[1] > g[1]:
            c.fail(w + ".active", "%g x %g is larger than the glass (%g x %g)" % (a[0], a[1], g[0], g[1]))
        if abs(ao[0]) + a[0] / 2 > L / 2 or abs(ao[1]) + a[1] / 2 > Wd / 2:
            c.fail(w + ".active_offset", "puts the active area off the board")
        c.num(w + ".fpc_width", p["fpc_width"], 1, 60)
        con = c.obj(w + ".connector", p["connector"], ("box", "depth", "keepout", "keepout_depth"))
        c.vec(w + ".connector.box", con["box"], 4, -200, 200)
        c.num(w + ".connector.depth", con["depth"], 0.5, 30)
        c.vec(w + ".connector.keepout", con["keepout"], 4, -200, 200)
        c.num(w + ".connector.keepout_depth", con["keepout_depth"], 0.5, 40)
        c.num(w + ".pilot_d", p["pilot_d"], 0.5, 6)
        for f in ("name", "screw", "pcb_source", "holes_source", "glass_source", "active_source",
                  "connector_source"):
            c.text(w + "." + f, p[f])
    pico = c.obj("pico", parts["pico"], ("name", "pcb", "pcb_source", "holes", "hole_d", "holes_source",
                                         "usb", "usb_source", "bootsel", "bootsel_source", "headers",
                                         "headers_source", "screw", "pilot_d"))
    bs = c.obj("pico.bootsel", pico["bootsel"], ("at", "size"))
    c.vec("pico.bootsel.at", bs["at"], 2, -30, 30)
    c.vec("pico.bootsel.size", bs["size"], 3, 0.5, 10)
    hd = c.obj("pico.headers", pico["headers"], ("spacer", "rows", "length"))
    for f in ("spacer", "rows", "length"):
        c.num("pico.headers." + f, hd[f], 0.5, 100)
    car = c.obj("carrier", parts["carrier"], ("name", "pcb", "holes", "hole_d", "source", "socket_h", "header_h",
                                              "plug_len", "plug_source", "screw", "pilot_d"))
    cl, cw, _ = c.vec("carrier.pcb", car["pcb"], 3, 0.5, 300)
    for i, h in enumerate(car["holes"]):
        c.vec("carrier.holes[%d]" % i, h, 2, -cl / 2, cl / 2)
    for f in ("hole_d", "socket_h", "header_h", "plug_len", "pilot_d"):
        c.num("carrier." + f, car[f], 0.5, 60)
    bat = c.obj("battery", parts["battery"], ("name", "size", "holes", "hole_d", "pins", "pin_hole_d", "source",
                                              "screw"))
    for i, h in enumerate(bat["pins"]):
        c.vec("battery.pins[%d]" % i, h, 2, -100, 100)
    c.num("battery.pin_hole_d", bat["pin_hole_d"], 0.5, 10)
    c.vec("battery.size", bat["size"], 3, 5, 200)
    for i, h in enumerate(bat["holes"]):
        c.vec("battery.holes[%d]" % i, h, 2, -100, 100)
    c.num("battery.hole_d", bat["hole_d"], 0.5, 10)
    ps = c.obj("power_switch", parts["power_switch"], ("name", "cut", "body", "bezel", "source"))
    c.vec("power_switch.cut", ps["cut"], 2, 1, 50)
    c.vec("power_switch.body", ps["body"], 3, 1, 50)
    c.vec("power_switch.bezel", ps["bezel"], 2, 1, 60)
    c.vec("pico.pcb", pico["pcb"], 3, 0.5, 200)
    for i, h in enumerate(pico["holes"]):
        c.vec("pico.holes[%d]" % i, h, 2, -100, 100)
    usb = c.obj("pico.usb", pico["usb"], ("size", "overhang", "plug"))
    c.vec("pico.usb.size", usb["size"], 3, 0.5, 30)
    c.num("pico.usb.overhang", usb["overhang"], 0, 10)
    c.vec("pico.usb.plug", usb["plug"], 2, 1, 40)
    c.num("pico.pilot_d", pico["pilot_d"], 0.5, 6)
    buttons = c.obj("buttons", parts["buttons"], tuple(str(s) for s in BUTTON_SIZES))
    for s in buttons:
        w = "buttons." + s
        b = c.obj(w, buttons[s], ("name", "body", "top", "cap_d", "legs", "placement", "source"))
        c.num(w + ".placement", b["placement"], 0, 2)
        body = c.vec(w + ".body", b["body"], 3, 1, 40)
        c.num(w + ".top", b["top"], body[2], 40)
        c.num(w + ".cap_d", b["cap_d"], 1, 30)
        c.vec(w + ".legs", b["legs"], 2, 0, 40)
    led = c.obj("led", parts["led"], ("name", "d", "flange_d", "flange_h", "h", "source"))
    for f in ("d", "flange_d", "flange_h", "h"):
        c.num("led." + f, led[f], 0.2, 30)
    return parts


def options(layout, panel=None, buttons=None, wall=None, tolerance=None):
    """The build options: command-line values over layout.json's defaults."""
    d = layout["defaults"]
    opt = {"panel": d["panel"] if panel is None else panel,
           "buttons": d["buttons"] if buttons is None else buttons,
           "wall": d["wall"] if wall is None else wall,
           "tolerance": d["tolerance"] if tolerance is None else tolerance}
    c = _Checker("option")
    check_options(c, "--", opt["panel"], opt["buttons"], opt["wall"], opt["tolerance"])
    if opt["wall"] < layout["print"]["min_wall"]:
        c.fail("--wall", "%g mm is thinner than print.min_wall in layout.json (%g mm)"
               % (opt["wall"], layout["print"]["min_wall"]))
    return opt


def params(layout, parts, opt):
    """Every parameter of case.scad, as a dict name -> number or list."""
    box, seat = layout["box"], layout["seat"]
    pan = parts["panels"][opt["panel"]]
    btn = parts["buttons"][str(opt["buttons"])]
    small = parts["buttons"]["6"]
    pico, led, car, bat, ps = parts["pico"], parts["led"], parts["carrier"], parts["battery"], parts["power_switch"]
    names = list(seat["buttons"])
    k = dict(CONSTRUCTION)
    W, D, H = box["width"], box["depth"], box["height"]
    panel = seat["panel"]
    pdir = 1 if layout["pico"]["usb"] == "+x" else -1
    pico_pos = [layout["pico"]["x"], layout["pico"]["y"]]
    bs = pico["bootsel"]
    cx, cy = layout["carrier"]["x"], layout["carrier"]["y"]
    cl, cw = car["pcb"][0], car["pcb"][1]
    hh = car["header_h"]
    # right-angle headers along the carrier's edges: [x, y, turn, pins]; a
    # plug comes off each toward the turn's +x
    headers = [
        [cx - cl / 2 + hh / 2, cy - 12.0, 180, 8],     # player 1's panel
        [cx - cl / 2 + hh / 2, cy + 12.0, 180, 8],     # player 2's panel
        [cx - 15.0, cy - cw / 2 + hh / 2, 270, 8],     # player 1's tray (buttons, LED, GND)
        [cx - 15.0, cy + cw / 2 - hh / 2, 90, 8],      # player 2's tray
        [cx + 2.0, cy + cw / 2 - hh / 2, 90, 2],       # battery, through the switch
        [cx + 9.0, cy + cw / 2 - hh / 2, 90, 2],       # RESET
    ]
    # the station's frame: y from its front edge; the opening under the hood
    # runs from just behind the inner face's foot to just before its back wall
    st = layout["station"]
    SW, SD, SH = st["width"], st["depth"], st["height"]
    t = math.radians(panel["tilt"])
    w_in = 0.05 + k["glass_gap"]
    v_foot = (SH - panel["z"] - w_in * math.cos(t)) / math.sin(t)
    y_foot = panel["y"] + v_foot * math.cos(t) - w_in * math.sin(t)
    hood_back = SD - 2.0                       # the hood's back wall's outer face
    x_hole = min(abs(h[0]) for h in seat["hood_screws"]) - k["hood_boss_r"] - 0.5
    y0, y1 = y_foot + 2.0, hood_back - k["hood_t"] - 2.0
    clear = btn["placement"] + k["hole_shrink"] + k["cap_play"]
    p = {
        "W": W, "D": D, "H": H, "R": box["corner_radius"],
        "wall": opt["wall"], "tol": opt["tolerance"],
        "panel_pcb": pan["pcb"], "panel_holes": pan["holes"], "panel_hole_d": pan["hole_d"],
        "panel_glass": pan["glass"], "panel_glass_off": pan["glass_offset"],
        "panel_active": pan["active"], "panel_active_off": pan["active_offset"],
        "panel_fpc_w": pan["fpc_width"], "panel_pilot_d": pan["pilot_d"],
        "panel_conn_box": pan["connector"]["box"], "panel_conn_depth": pan["connector"]["depth"],
        "panel_keep": pan["connector"]["keepout"], "panel_keep_depth": pan["connector"]["keepout_depth"],
        "seat_panel": [panel["x"], panel["y"], panel["z"]], "tilt": panel["tilt"],
        "seat_conn": 1 if panel["connector"] == "right" else -1,
        "hood_reach": seat["hood"]["reach"], "hood_rise": seat["hood"]["rise"], "hood_len": seat["hood"]["length"],
        "hood_screws": seat["hood_screws"], "hood_back": hood_back,
        "deck_hole": [-x_hole, y0, x_hole, y1],
        "SW": SW, "SD": SD, "SH": SH, "SR": st["corner_radius"],
        "table_depth": st["table_depth"], "station_front": st["front"],
        "station_y0": st["table_depth"] / 2 - st["front"],
        "cable_pos": seat["cable"], "cable_slot": CABLE_SLOT,
        # the ribbons leave the box beside the carrier's button headers, below the lid's lip
        "box_cable": [cx - 15.0, H - k["lid_t"] - k["lip_h"] - 3.5],
        "btn_clear": clear, "btn_hole_d": btn["cap_d"] + 2 * clear,
        "btn_pos": [seat["buttons"][n] for n in names],
        "btn_words": [WORDS[n] for n in names],
        "legend_h": seat["legends"]["height"], "legend_dy": seat["legends"]["offset"],
        "btn_body": btn["body"], "btn_top": btn["top"], "btn_cap_d": btn["cap_d"], "btn_legs": btn["legs"],
        "btn_protrude": PROTRUDE[opt["buttons"]],
        "led_pos": seat["led"], "led_d": led["d"], "led_flange_d": led["flange_d"],
        "led_flange_h": led["flange_h"], "led_h": led["h"],
        "tray_posts": seat["tray_posts"],
        "pico_pos": pico_pos, "pico_dir": pdir,
        "pico_pcb": pico["pcb"], "pico_holes": pico["holes"], "pico_hole_d": pico["hole_d"],
        "pico_usb_size": pico["usb"]["size"], "pico_usb_overhang": pico["usb"]["overhang"],
        "pico_usb_plug": pico["usb"]["plug"],
        "bootsel_at": bs["at"], "bootsel_size": bs["size"],
        "bootsel_xy": [pico_pos[0] + pdir * bs["at"][0], pico_pos[1] + pdir * bs["at"][1]],
        "pin_spacer": pico["headers"]["spacer"], "pin_rows": pico["headers"]["rows"],
        "socket_len": pico["headers"]["length"], "socket_h": car["socket_h"],
        "carrier_pos": [cx, cy], "carrier_pcb": car["pcb"],
        "carrier_holes": [[cx + h[0], cy + h[1]] for h in car["holes"]], "carrier_hole_d": car["hole_d"],
        "carrier_pilot_d": car["pilot_d"], "headers": headers, "header_h": hh, "plug_len": car["plug_len"],
        "batt_pos": [layout["battery"]["x"], layout["battery"]["y"]], "batt_size": bat["size"],
        "batt_holes": [[layout["battery"]["x"] + h[0], layout["battery"]["y"] + h[1]] for h in bat["holes"]],
        "batt_pins": [[layout["battery"]["x"] + h[0], layout["battery"]["y"] + h[1]] for h in bat["pins"]],
        "batt_pin_hole_d": bat["pin_hole_d"],
        "power_pos": [layout["power_switch"]["y"], layout["power_switch"]["z"]], "power_cut": ps["cut"],
        "power_body": ps["body"], "power_bezel": ps["bezel"],
        "run_pos": layout["reset_button"], "run_body": small["body"], "run_top": small["top"],
        "run_cap_d": small["cap_d"], "run_z": H - k["run_recess"] - small["top"],
    }
    p.update(k)
    return p


def _scad_value(v):
    if isinstance(v, list):
        return "[" + ", ".join(_scad_value(x) for x in v) + "]"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, (int, float)) else json.dumps(v)


def params_scad(p, opt):
    lines = ["// Generated by `okgin hardware build` from hardware/layout.json and",
             "// hardware/parts.json (panel %s, %d mm buttons, wall %g, tolerance %g)."
             % (opt["panel"], opt["buttons"], opt["wall"], opt["tolerance"]),
             "// Do not edit: change those files and rebuild.", ""]
    for k in sorted(p):
        lines.append("%s = %s;" % (k, _scad_value(p[k])))
    return "\n".join(lines) + "\n"
