"""The wiring picture (wiring.svg and wiring.png) drawn from board.json.

The Pico's header in the middle, every used pin labelled; a wire from each
pin to what it drives: each button (its other leg to ground), each turn LED
(through its 330 ohm resistor), each panel's 8-pin connector. A player's
wires are in that player's colour; the wires both panels share (3V3, GND,
SPI clock and data) are drawn in their own colours to both connectors.

One list of drawing operations feeds both files: the SVG is text (compared
byte for byte by gen_wiring.py --check), the PNG is drawn with Pillow and
carries the SVG's hash in a text chunk, so a stale picture is found without
comparing pixels (which vary with the Pillow version's font).
"""
import hashlib
import io

PITCH = 30           # px between header pins (2.54 mm on the board)
TOP = 150            # y of pin 1
BODY_W = 210
PLAYER_COLOURS = ("#1f6fd1", "#e0720b")
SHARED_COLOURS = {"VCC": "#d62728", "GND": "#222222", "DIN": "#2ca02c", "CLK": "#8e44ad"}
# 8-pin connector order as on the Waveshare module (WeAct's reads the other way round)
CONNECTOR = ("VCC", "GND", "DIN", "CLK", "CS", "DC", "RST", "BUSY")
WEACT = {"VCC": "VCC", "GND": "GND", "DIN": "SDA", "CLK": "SCL", "CS": "CS", "DC": "D/C", "RST": "RES", "BUSY": "BUSY"}


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.ops = []

    def line(self, pts, colour, width=3):
        self.ops.append(("line", [(round(x, 1), round(y, 1)) for x, y in pts], colour, width))

    def rect(self, x, y, w, h, fill, stroke="#000000", width=1, radius=0):
        self.ops.append(("rect", round(x, 1), round(y, 1), round(w, 1), round(h, 1), fill, stroke, width, radius))

    def circle(self, x, y, r, fill, stroke="#000000", width=1):
        self.ops.append(("circle", round(x, 1), round(y, 1), r, fill, stroke, width))

    def poly(self, pts, fill, stroke="#000000", width=1):
        self.ops.append(("poly", [(round(x, 1), round(y, 1)) for x, y in pts], fill, stroke, width))

    def text(self, x, y, s, size=13, colour="#000000", anchor="start", bold=False):
        self.ops.append(("text", round(x, 1), round(y, 1), s, size, colour, anchor, bold))

    def svg(self):
        out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
               'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' % (self.w, self.h, self.w, self.h),
               '<rect width="100%" height="100%" fill="#ffffff"/>']
        for op in self.ops:
            kind = op[0]
            if kind == "line":
                _, pts, c, wd = op
                out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="%g" '
                           'stroke-linejoin="round" stroke-linecap="round"/>'
                           % (" ".join("%g,%g" % p for p in pts), c, wd))
            elif kind == "rect":
                _, x, y, w, h, fill, stroke, wd, r = op
                out.append('<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" stroke="%s" '
                           'stroke-width="%g"/>' % (x, y, w, h, r, fill, stroke, wd))
            elif kind == "circle":
                _, x, y, r, fill, stroke, wd = op
                out.append('<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="%s" stroke-width="%g"/>'
                           % (x, y, r, fill, stroke, wd))
            elif kind == "poly":
                _, pts, fill, stroke, wd = op
                out.append('<polygon points="%s" fill="%s" stroke="%s" stroke-width="%g"/>'
                           % (" ".join("%g,%g" % p for p in pts), fill, stroke, wd))
            else:
                _, x, y, s, size, c, anchor, bold = op
                s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                out.append('<text x="%g" y="%g" font-size="%d" fill="%s" text-anchor="%s" '
                           'dominant-baseline="central"%s>%s</text>'
                           % (x, y, size, c, anchor, ' font-weight="bold"' if bold else "", s))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def png(self, source_hash):
        from PIL import Image, ImageDraw, ImageFont, PngImagePlugin
        img = Image.new("RGB", (self.w, self.h), "#ffffff")
        d = ImageDraw.Draw(img)
        fonts = {}

        def font(size):
            if size not in fonts:
                fonts[size] = ImageFont.load_default(size=size)
            return fonts[size]
        for op in self.ops:
            kind = op[0]
            if kind == "line":
                _, pts, c, wd = op
                d.line(pts, fill=c, width=wd, joint="curve")
            elif kind == "rect":
                _, x, y, w, h, fill, stroke, wd, r = op
                d.rounded_rectangle([x, y, x + w, y + h], radius=r, fill=fill, outline=stroke, width=wd)
            elif kind == "circle":
                _, x, y, r, fill, stroke, wd = op
                d.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=stroke, width=wd)
            elif kind == "poly":
                _, pts, fill, stroke, wd = op
                d.polygon(pts, fill=fill, outline=stroke, width=wd)
            else:
                _, x, y, s, size, c, anchor, bold = op
                a = {"start": "lm", "middle": "mm", "end": "rm"}[anchor]
                d.text((x, y), s, fill=c, font=font(size), anchor=a,
                       stroke_width=1 if bold else 0, stroke_fill=c)
        info = PngImagePlugin.PngInfo()
        info.add_text("okgin-source", source_hash)
        buf = io.BytesIO()
        img.save(buf, "PNG", pnginfo=info, optimize=True)
        return buf.getvalue()


def svg_hash(svg_text):
    return hashlib.sha256(svg_text.encode()).hexdigest()[:16]


def png_source_hash(data):
    from PIL import Image
    return Image.open(io.BytesIO(data)).text.get("okgin-source")


def draw(board, header, phys, boarddef):
    """A Canvas with the whole picture. header: {pin: signal}, phys: {gpio: pin}."""
    c = Canvas(1500, 980)
    cx = c.w / 2
    bx0, bx1 = cx - BODY_W / 2, cx + BODY_W / 2

    def pin_y(pin):
        row = pin - 1 if pin <= 20 else 40 - pin
        return TOP + row * PITCH

    def pin_side(pin):
        return -1 if pin <= 20 else 1

    def pin_x(pin):
        return bx0 if pin <= 20 else bx1

    # wires: (gpio or None, header pin, colour, label, player or None)
    spi = board["spi"]
    owners = boarddef.pin_owners(board)

    c.text(40, 36, "Wiring: %s" % board["name"], 24, bold=True)
    c.text(40, 66, "Generated from hardware/board.json by hardware/gen_wiring.py. Pins are the Pico's "
           "header pins, USB at the top (pin 1 top left). Every GND pin is the same ground.", 14, "#444444")
    # legend
    lx = 40
    for p, col in enumerate(PLAYER_COLOURS):
        c.line([(lx, 96), (lx + 34, 96)], col, 5)
        c.text(lx + 42, 96, "Player %d (seat %d)" % (p + 1, p), 14)
        lx += 200
    for name, col in SHARED_COLOURS.items():
        c.line([(lx, 96), (lx + 34, 96)], col, 5)
        c.text(lx + 42, 96, {"VCC": "3V3", "GND": "GND", "DIN": "SPI data (MOSI)", "CLK": "SPI clock"}[name], 14)
        lx += 170 if name != "DIN" else 200

    # the Pico
    c.rect(bx0, TOP - 40, BODY_W, 19 * PITCH + 80, "#2a8a3a", "#1b5e27", 2, 8)
    c.rect(cx - 22, TOP - 58, 44, 26, "#c0c0c8", "#707078", 1, 3)
    c.text(cx, TOP - 22, "USB", 12, "#ffffff", "middle", True)
    c.text(cx, TOP + 9.5 * PITCH, "Raspberry Pi Pico", 14, "#ffffff", "middle", True)
    c.text(cx, TOP + 9.5 * PITCH + 20, "(top view)", 12, "#dfffe5", "middle")
    for pin in range(1, 41):
        x, y = pin_x(pin), pin_y(pin)
        used = header[pin].startswith("GP") and int(header[pin][2:]) in owners
        c.circle(x, y, 6, "#f2c14e" if used else "#d9d9d9", "#555555", 1)
        inner = x + 12 if pin <= 20 else x - 12
        c.text(inner, y, "%d %s" % (pin, header[pin]) if pin <= 20 else "%s %d" % (header[pin], pin),
               11, "#ffffff", "start" if pin <= 20 else "end")

    lanes = {-1: 0, 1: 0}
    tracks = [0]

    def lane(side):
        lanes[side] += 1
        return cx + side * (BODY_W / 2 + 250 + 16 * lanes[side])

    def route(pin, dest, colour, dest_side):
        """A wire from a header pin to dest (x, y) entering from dest_side."""
        side = pin_side(pin)
        x0, y0 = pin_x(pin), pin_y(pin)
        if side == dest_side:
            lx = lane(side)
            pts = [(x0, y0), (lx, y0), (lx, dest[1]), dest]
        else:
            lx = lane(side)
            tracks[0] += 1
            ty = TOP + 19 * PITCH + 60 + 12 * tracks[0]
            lx2 = lane(dest_side)
            pts = [(x0, y0), (lx, y0), (lx, ty), (lx2, ty), (lx2, dest[1]), dest]
        c.line(pts, colour, 3)

    def ground(x, y):
        c.line([(x, y), (x, y + 10)], "#222222", 2)
        for i, w in enumerate((12, 8, 4)):
            c.line([(x - w, y + 10 + 4 * i), (x + w, y + 10 + 4 * i)], "#222222", 2)

    def pin_label(pin, text, colour):
        side = pin_side(pin)
        c.text(pin_x(pin) + side * 12, pin_y(pin) - 10, text, 11, colour, "start" if side > 0 else "end")

    # buttons and LEDs: next to their own pin, straight wires
    for p, pl in enumerate(board["players"]):
        col = PLAYER_COLOURS[p]
        for b in boarddef.BUTTONS:
            pin = phys[pl["buttons"][b]]
            side, y = pin_side(pin), pin_y(pin)
            sx = cx + side * (BODY_W / 2 + 120)
            c.line([(pin_x(pin), y), (sx - side * 16, y)], col, 3)
            # a push button: two contacts and a bar above them
            a, z = sx - side * 16, sx + side * 16
            c.circle(a, y, 3, "#ffffff", col, 2)
            c.circle(z, y, 3, "#ffffff", col, 2)
            c.line([(a, y - 9), (z, y - 9)], col, 3)
            c.line([(sx, y - 9), (sx, y - 15)], col, 2)
            c.line([(z, y), (z + side * 14, y)], "#222222", 2)
            ground(z + side * 14, y)
            c.text(z + side * 44, y, "P%d %s" % (p + 1, b), 13, col, "start" if side > 0 else "end", True)
            pin_label(pin, "GP%d" % pl["buttons"][b], col)
        pin = phys[pl["led"]]
        side, y = pin_side(pin), pin_y(pin)
        x = pin_x(pin)
        r0 = cx + side * (BODY_W / 2 + 70)
        c.line([(x, y), (r0, y)], col, 3)
        c.rect(min(r0, r0 + side * 36), y - 6, 36, 12, "#f4e3c1", "#555555", 1)
        c.text(r0 + side * 18, y - 16, "330 ohm", 11, "#333333", "middle")
        l0 = r0 + side * 36
        c.line([(l0, y), (l0 + side * 14, y)], col, 3)
        tip = l0 + side * 32
        c.poly([(l0 + side * 14, y - 9), (l0 + side * 14, y + 9), (tip, y)], "#7be07b", "#2b7a2b", 1)
        c.line([(tip, y - 9), (tip, y + 9)], "#2b7a2b", 2)
        c.line([(tip, y), (tip + side * 12, y)], "#222222", 2)
        ground(tip + side * 12, y)
        c.text(tip + side * 42, y, "P%d turn LED" % (p + 1), 13, col, "start" if side > 0 else "end", True)
        pin_label(pin, "GP%d" % pl["led"], col)

    # panel connectors: on the side holding most of that panel's own pins
    shared = {"VCC": 36, "GND": 38, "DIN": phys[spi["mosi"]], "CLK": phys[spi["sck"]]}
    for p, pl in enumerate(board["players"]):
        col = PLAYER_COLOURS[p]
        own = [phys[pl["panel"][f]] for f in boarddef.PANEL_PINS]
        side = 1 if sum(pin_side(q) for q in own) > 0 else -1
        ky = TOP + (min(pin_y(q) for q in own) - TOP) // PITCH * PITCH - PITCH * 1.5
        ky = max(TOP, min(ky, TOP + 19 * PITCH - 8 * PITCH))
        kx = cx + side * (BODY_W / 2 + 480)
        box_x = kx if side > 0 else kx - 70
        c.rect(box_x, ky - 22, 70, 8 * PITCH + 14, "#1c4e8a", "#0e2c52", 2, 4)
        c.text(kx + side * 35, ky - 38, "Player %d panel" % (p + 1), 14, col, "middle", True)
        for i, sig in enumerate(CONNECTOR):
            ty = ky + i * PITCH
            c.circle(kx, ty, 5, "#f2c14e", "#555555", 1)
            c.text(kx + side * 12, ty, sig if sig == WEACT[sig] else "%s/%s" % (sig, WEACT[sig]), 11,
                   "#ffffff", "start" if side > 0 else "end")
            if sig in shared:
                pin = shared[sig]
                route(pin, (kx, ty), SHARED_COLOURS[sig], side)
                pin_label(pin, {"VCC": "3V3 out", "GND": "GND", "DIN": "GP%d MOSI" % spi["mosi"],
                                "CLK": "GP%d SCK" % spi["sck"]}[sig], SHARED_COLOURS[sig])
            else:
                g = pl["panel"][sig.lower()]
                route(phys[g], (kx, ty), col, side)
                pin_label(phys[g], "GP%d P%d %s" % (g, p + 1, sig), col)
    miso = phys[spi["miso"]]
    pin_label(miso, "GP%d MISO: leave free" % spi["miso"], "#888888")

    notes = ["Buttons: one leg to the GPIO, the other to any GND (the firmware turns on the pull-ups: no resistors).",
             "LEDs: GPIO -> 330 ohm -> anode (long leg); cathode (flat side) -> GND.",
             "Panels: both share 3V3, GND, SPI data and clock (two wires on those pins, or a splice); "
             "CS/DC/RST/BUSY are each panel's own.",
             "Connector pins read Waveshare/WeAct names; WeAct's header has them in the opposite order: match by name."]
    for i, n in enumerate(notes):
        c.text(40, c.h - 100 + 22 * i, n, 14, "#333333")
    return c
