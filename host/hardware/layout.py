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

PANELS = ("waveshare", "weact")
BUTTON_SIZES = (6, 12)

# Fixed construction sizes (mm), not worth a field each: plate and floor
# thickness, post radii, the pocket a switch sits in. The checks measure the
# result, so a change here that breaks a part fails `okgin hardware build`.
CONSTRUCTION = {
    "lid_t": 2.4, "floor_t": 3.0, "skin": 1.2, "glass_gap": 0.2,
    "lip_h": 3.0, "lip_t": 1.6,
    "post_r": 4.0, "post_gap": 0.5, "case_pilot_d": 2.5, "case_screw_d": 3.4,
    "panel_post_r": 2.4, "tray_post_r": 3.5, "tray_pilot_d": 2.2, "tray_screw_d": 2.9,
    "tray_t": 3.0, "pocket": 1.2, "led_collar": 3.0,
    "pico_standoff": 5.0, "pico_post_r": 2.5, "tie_h": 2.5,
    "window_margin": 1.0, "peg_tip": 1.5,
}
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
    c.obj("", lay, ("description", "box", "seats", "seat", "pico", "cable_ties", "defaults", "print"),
          ("description",))
    if "description" in lay:
        c.text("description", lay["description"])
    box = c.obj("box", lay["box"], ("width", "depth", "height", "corner_radius"))
    W = c.num("box.width", box["width"], 60, 400)
    D = c.num("box.depth", box["depth"], 60, 400)
    c.num("box.height", box["height"], 20, 120)
    c.num("box.corner_radius", box["corner_radius"], 1, min(W, D) / 4)

    _check_seats(c, lay["seats"])
    seat = c.obj("seat", lay["seat"], ("panel", "buttons", "led", "tray_posts"))
    panel = c.obj("seat.panel", seat["panel"], ("x", "y", "connector"))
    c.num("seat.panel.x", panel["x"], -W / 2, W / 2)
    c.num("seat.panel.y", panel["y"], 0, D / 2)
    if panel["connector"] not in ("left", "right"):
        c.fail("seat.panel.connector", "%r: expected \"left\" or \"right\" (which end of the "
               "panel, seen by its player, has the cable)" % (panel["connector"],))
    names = tuple(_button_names(board))
    buttons = c.obj("seat.buttons", seat["buttons"], names)
    for n in names:
        c.vec("seat.buttons." + n, buttons[n], 2, -W / 2, D)
        x, y = buttons[n]
        if abs(x) > W / 2 or not 0 < y < D / 2:
            c.fail("seat.buttons." + n, "[%g, %g] is outside this player's half of the top "
                   "(x within +-%g, y within 0..%g)" % (x, y, W / 2, D / 2))
    c.vec("seat.led", seat["led"], 2, -W / 2, D / 2)
    posts = seat["tray_posts"]
    if not isinstance(posts, list) or len(posts) < 2:
        c.fail("seat.tray_posts", "expected a list of at least two [x, y] positions, got %s"
               % _kind(posts))
    for i, p in enumerate(posts):
        c.vec("seat.tray_posts[%d]" % i, p, 2, -W / 2, D / 2)

    pico = c.obj("pico", lay["pico"], ("x", "y", "usb"))
    c.num("pico.x", pico["x"], -W / 2, W / 2)
    c.num("pico.y", pico["y"], -D / 2, D / 2)
    if pico["usb"] not in ("+x", "-x"):
        c.fail("pico.usb", "%r: expected \"+x\" or \"-x\" (the side wall the USB port faces)"
               % (pico["usb"],))
    ties = lay["cable_ties"]
    if not isinstance(ties, list):
        c.fail("cable_ties", "expected a list of [x, y], got %s" % _kind(ties))
    for i, t in enumerate(ties):
        c.vec("cable_ties[%d]" % i, t, 2, -W / 2, D / 2)

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
    from host.hardware import seats as S
    c.obj("seats", seats, S.FIELDS, ("about", "sources"))
    for f in S.RANGES:
        lo, hi = SEAT_BOUNDS[f]
        a, b = c.vec("seats." + f, seats[f], 2, lo, hi, what="mm (lean: degrees)", shape="[low, high]")
        if a > b:
            c.fail("seats." + f, "[%g, %g]: the low end is above the high end" % (a, b))
    c.num("seats.box_off_centre", seats["box_off_centre"], 0, 1000)
    c.num("seats.box_to_the_side", seats["box_to_the_side"], 0, 2000)
    c.num("seats.hip_above_seat", seats["hip_above_seat"], 0, 300)
    if seats["sitting_eye_height"][0] <= seats["hip_above_seat"]:
        c.fail("seats.hip_above_seat", "is above the lowest eye")


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
    c.obj("", parts, ("description", "panels", "pico", "buttons", "led"), ("description",))
    panels = c.obj("panels", parts["panels"], PANELS)
    for name in PANELS:
        w = "panels." + name
        p = c.obj(w, panels[name], ("name", "pcb", "pcb_source", "holes", "hole_d", "holes_source",
                                    "glass", "glass_offset", "glass_source", "active", "active_offset",
                                    "active_source", "fpc_width", "connector", "connector_source",
                                    "screw", "pilot_d"))
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
                                         "usb", "usb_source", "screw", "pilot_d"))
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
        b = c.obj(w, buttons[s], ("name", "body", "top", "cap_d", "legs", "source"))
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
    pico, led = parts["pico"], parts["led"]
    names = list(seat["buttons"])
    p = {
        "W": box["width"], "D": box["depth"], "H": box["height"], "R": box["corner_radius"],
        "wall": opt["wall"], "tol": opt["tolerance"],
        "panel_pcb": pan["pcb"], "panel_holes": pan["holes"], "panel_hole_d": pan["hole_d"],
        "panel_glass": pan["glass"], "panel_glass_off": pan["glass_offset"],
        "panel_active": pan["active"], "panel_active_off": pan["active_offset"],
        "panel_fpc_w": pan["fpc_width"], "panel_pilot_d": pan["pilot_d"],
        "panel_conn_box": pan["connector"]["box"], "panel_conn_depth": pan["connector"]["depth"],
        "panel_keep": pan["connector"]["keepout"], "panel_keep_depth": pan["connector"]["keepout_depth"],
        "seat_panel": [seat["panel"]["x"], seat["panel"]["y"]],
        "seat_conn": 1 if seat["panel"]["connector"] == "right" else -1,
        "btn_pos": [seat["buttons"][n] for n in names],
        "btn_body": btn["body"], "btn_top": btn["top"], "btn_cap_d": btn["cap_d"], "btn_legs": btn["legs"],
        "btn_protrude": PROTRUDE[opt["buttons"]],
        "led_pos": seat["led"], "led_d": led["d"], "led_flange_d": led["flange_d"],
        "led_flange_h": led["flange_h"], "led_h": led["h"],
        "tray_posts": seat["tray_posts"],
        "pico_pos": [layout["pico"]["x"], layout["pico"]["y"]],
        "pico_dir": 1 if layout["pico"]["usb"] == "+x" else -1,
        "pico_pcb": pico["pcb"], "pico_holes": pico["holes"], "pico_hole_d": pico["hole_d"],
        "pico_usb_size": pico["usb"]["size"], "pico_usb_overhang": pico["usb"]["overhang"],
        "pico_usb_plug": pico["usb"]["plug"], "pico_pilot_d": pico["pilot_d"],
        "cable_ties": layout["cable_ties"],
    }
    p.update(CONSTRUCTION)
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
