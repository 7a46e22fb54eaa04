"""The checks `okgin hardware build` runs on the exported geometry.

Each one measures the meshes OpenSCAD wrote (the same files you print), not
the numbers that went in:

- bed: every printed part, in its printing position, fits the bed.
- fit: no two parts cut through each other in the assembled model, no
  bought part (panel, Pico, switch, LED) cuts through a printed one or is
  buried in one, and the spaces that must stay empty (the air above the
  ink, the USB plug, each panel's cable plug) are empty.
- windows: each window in the lid, sliced through the plate, uncovers the
  whole active area of the panel mounted under it, with at most
  ``WINDOW_SLACK`` mm of margin on any side.
- buttons: every button hole (and each LED hole) is centred on the
  position layout.json gives, and each switch cap sits in its hole.
- walls: no part is thinner than print.min_wall anywhere a ray cast inward
  from its surface can find.
- supports: laid as printed, no face overhangs more than 45 degrees, and
  every flat face looking down (above the bed) is a bridge of at most
  15 mm.
"""
import math

from . import mesh as M

WINDOW_SLACK = 1.5     # mm of panel border a window may show beyond the active area
HOLE_TOLERANCE = 0.15  # mm a hole centre may be off its layout position
TOUCH = 0.01           # mm of overlap that still counts as touching


class Result:
    def __init__(self, name, ok, summary, details=()):
        self.name, self.ok, self.summary, self.details = name, ok, summary, list(details)

    def as_dict(self):
        return {"check": self.name, "ok": self.ok, "summary": self.summary, "details": self.details}


def station_y0(layout):
    """How far from the box's centre a station's front edge is."""
    return layout["station"]["table_depth"] / 2 - layout["station"]["front"]


def seat_to_world(p, x, y, y0):
    """A seat position (from the station's front edge) in the world frame;
    ``y0`` is station_y0(layout)."""
    return (x, y - y0) if p == 0 else (-x, y0 - y)


def describe(point, layout):
    """Name the nearest layout feature, for messages."""
    D = station_y0(layout)
    best = None
    seat = layout["seat"]
    feats = [("the panel", (seat["panel"]["x"], seat["panel"]["y"])), ("the LED", tuple(seat["led"]))]
    feats += [("the %s button" % n, tuple(v)) for n, v in seat["buttons"].items()]
    for p in (0, 1):
        for name, (x, y) in feats:
            wx, wy = seat_to_world(p, x, y, D)
            d = math.hypot(point[0] - wx, point[1] - wy)
            if best is None or d < best[0]:
                best = (d, "player %d's %s" % (p + 1, name[4:]))
    px, py = layout["pico"]["x"], layout["pico"]["y"]
    if math.hypot(point[0] - px, point[1] - py) < best[0]:
        best = (0, "the Pico")
    return "at (%.1f, %.1f, %.1f), near %s" % (point[0], point[1], point[2], best[1])


def bed(printed, bed_xy):
    """printed: {name: triangles in printing position}."""
    details, ok = [], True
    for name, tris in printed.items():
        (x0, y0, z0), (x1, y1, z1) = M.bbox(tris)
        w, d, h = x1 - x0, y1 - y0, z1 - z0
        fits = (w <= bed_xy[0] and d <= bed_xy[1]) or (d <= bed_xy[0] and w <= bed_xy[1])
        ok &= fits and abs(z0) < 1e-6
        details.append("%s: %.1f x %.1f x %.1f mm%s" % (name, w, d, h, "" if fits else "  DOES NOT FIT"))
    return Result("bed", ok, "every part fits a %g x %g mm bed" % tuple(bed_xy) if ok
                  else "a part does not fit the %g x %g mm bed" % tuple(bed_xy), details)


def fit(parts, bought, keepouts, layout):
    """parts: {name: tris} printed parts in assembled position; bought:
    {group: tris} simplified bought parts; keepouts: tris of spaces that
    must stay empty."""
    problems, checked = [], 0
    grids = {n: M.Grid(t) for n, t in parts.items()}
    names = list(parts)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            checked += 1
            hit = M.crossings(parts[b], grids[a], TOUCH, limit=1)
            if hit:
                problems.append("%s and %s cut through each other %s" % (a, b, describe(hit[0], layout)))
    for g, tris in list(bought.items()) + [("keep-out", keepouts)]:
        what = "a space that must stay empty" if g == "keep-out" else "a bought part"
        for a in names:
            checked += 1
            hit = M.crossings(tris, grids[a], TOUCH, limit=1)
            if hit:
                problems.append("%s cuts into %s %s" % (a, what, describe(hit[0], layout)))
        for shell in M.shells(tris):
            c = tuple(sum(v[k] for v in shell[0]) / 3 for k in range(3))
            for a in names:
                if M.inside(c, grids[a]):
                    problems.append("%s is buried inside %s %s" % (what, a, describe(c, layout)))
    ok = not problems
    return Result("fit", ok, "no overlaps (%d pairs of parts and bought parts checked)" % checked if ok
                  else "%d overlap(s)" % len(problems), problems)


def _plate_loops(lid, layout, lid_t):
    z = layout["station"]["height"] - lid_t / 2
    return [lp for lp in M.slice_z(lid, z) if len(lp) > 3]


def windows(hood, ink_list, depth):
    """Each panel's window, sliced through the hood's wall ``depth`` mm in
    front of the ink (parallel to it), uncovers all of the ink and shows at
    most WINDOW_SLACK mm of its border on any side."""
    details, ok = [], True
    if len(ink_list) != 2:
        return Result("windows", False, "expected 2 panels' active areas, found %d" % len(ink_list))
    for ink in ink_list:
        local = ink.to_local(hood)
        hole = None
        for lp in M.slice_z(local, depth):
            if len(lp) < 4:
                continue
            (x0, y0), (x1, y1) = M.loop_box(lp)
            if x0 < 0 < x1 and y0 < 0 < y1 and x1 - x0 < 2 * ink.size[0]:
                if hole is None or (x1 - x0) < (hole[2] - hole[0]):
                    hole = (x0, y0, x1, y1)
        if hole is None:
            ok = False
            details.append("player %d: no window in front of the panel's active area" % (ink.seat + 1))
            continue
        x0, y0, x1, y1 = hole
        ax, ay = ink.size[0] / 2, ink.size[1] / 2
        margins = [-ax - x0, x1 - ax, -ay - y0, y1 - ay]
        good = min(margins) >= -TOUCH and max(margins) <= WINDOW_SLACK
        ok &= good
        details.append("player %d: window %.2f x %.2f mm over an active area of %.2f x %.2f mm; "
                       "margins %s mm%s" % (ink.seat + 1, x1 - x0, y1 - y0, 2 * ax, 2 * ay,
                                            "/".join("%.2f" % m for m in margins),
                                            "" if good else "  (must be 0..%g)" % WINDOW_SLACK))
    return Result("windows", ok, "both windows uncover the whole active area, %g mm slack at most"
                  % WINDOW_SLACK if ok else "a window does not match its panel", details)


def holes(lid, caps, layout, lid_t, cap_d):
    """Every button and LED hole where layout.json puts it, and every switch
    cap (from the bought parts) standing in its hole."""
    D = station_y0(layout)
    loops = _plate_loops(lid, layout, lid_t)
    round_holes = []
    for lp in loops:
        (x0, y0), (x1, y1) = M.loop_box(lp)
        if max(x1 - x0, y1 - y0) < 30:
            round_holes.append(((x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0)))
    cap_centres = []
    for sh in M.shells(caps):
        (x0, y0, _), (x1, y1, _) = M.bbox(sh)
        if abs((x1 - x0) - cap_d) < 0.3:
            cap_centres.append(((x0 + x1) / 2, (y0 + y1) / 2))
    details, worst, ok = [], 0.0, True
    seat = layout["seat"]
    want = [("%s button" % n, tuple(v), True) for n, v in seat["buttons"].items()]
    want.append(("LED", tuple(seat["led"]), False))
    for p in (0, 1):
        for name, (sx, sy), is_button in want:
            wx, wy = seat_to_world(p, sx, sy, D)
            near = min(round_holes, key=lambda h: math.hypot(h[0] - wx, h[1] - wy), default=None)
            off = math.hypot(near[0] - wx, near[1] - wy) if near else float("inf")
            if off > HOLE_TOLERANCE:
                ok = False
                details.append("player %d's %s: no hole within %g mm of (%.1f, %.1f)%s"
                               % (p + 1, name, HOLE_TOLERANCE, wx, wy,
                                  "" if near is None else "; nearest is %.2f mm away" % off))
                continue
            worst = max(worst, off)
            if is_button:
                cap = min(cap_centres, key=lambda c: math.hypot(c[0] - wx, c[1] - wy), default=None)
                coff = math.hypot(cap[0] - wx, cap[1] - wy) if cap else float("inf")
                if coff > HOLE_TOLERANCE or near[2] <= cap_d:
                    ok = False
                    details.append("player %d's %s: the switch cap is %.2f mm off the hole (hole %.2f mm, cap %.2f mm)"
                                   % (p + 1, name, coff, near[2], cap_d))
    n = 2 * len(want)
    summary = ("all %d holes within %.3f mm of their layout positions, every cap in its hole" % (n, worst)
               if ok else "a hole is not where layout.json puts it")
    return Result("holes", ok, summary, details)


def legends(deck, layout, depth, min_height=3.0):
    """Every button has its symbol engraved beside it on its station's
    deck, at least ``min_height`` mm tall: measured on the deck sliced half
    way down the engraving (the outlines near where layout.json puts it)."""
    D = station_y0(layout)
    seat = layout["seat"]
    off = seat["legends"]["offset"]
    loops = [lp for lp in M.slice_z(deck, layout["station"]["height"] - depth / 2) if len(lp) > 3]
    boxes = [M.loop_box(lp) for lp in loops]
    details, ok, least = [], True, None
    for p in (0, 1):
        for name, (bx, by) in seat["buttons"].items():
            wx, wy = seat_to_world(p, bx, by + off, D)
            near = [b for b in boxes if abs((b[0][0] + b[1][0]) / 2 - wx) < 7 and abs((b[0][1] + b[1][1]) / 2 - wy) < 7
                    and b[1][0] - b[0][0] < 14 and b[1][1] - b[0][1] < 14]
            if not near:
                ok = False
                details.append("player %d's %s button: no symbol engraved beside it" % (p + 1, name))
                continue
            h = max(b[1][1] for b in near) - min(b[0][1] for b in near)
            least = h if least is None else min(least, h)
            if h < min_height:
                ok = False
                details.append("player %d's %s button: its symbol is %.2f mm tall (at least %g)"
                               % (p + 1, name, h, min_height))
    n = 2 * len(seat["buttons"])
    summary = ("all %d buttons have their symbol engraved beside them, %.1f mm tall"
               % (n, least) if ok else "a symbol is missing or too small")
    return Result("legends", ok, summary, details)


def _holes_in(loops, limit=30):
    out = []
    for lp in loops:
        (x0, y0), (x1, y1) = M.loop_box(lp)
        if max(x1 - x0, y1 - y0) < limit:
            out.append(((x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0)))
    return out


def parts_fit(lid, base, decks, caps, layout, params):
    """The bought parts' datasheet positions (parts.json, each with its
    source) against the printed parts, measured on the meshes:

    - the BOOTSEL pin's hole in the box's lid is over the switch (the Pico's
      place in layout.json plus the switch's place on the board), within
      HOLE_TOLERANCE;
    - every button's cap hole leaves the cap ``btn_clear`` all round at
      least: the switch's placement tolerance plus what a printed hole
      loses (layout.CONSTRUCTION hole_shrink); the narrowest width of the
      hole as sliced, not the drawn circle;
    - the battery holder's PC pins each have a hole through the floor."""
    details, ok = [], True
    # BOOTSEL
    want = params["bootsel_xy"]
    loops = [lp for lp in M.slice_z(lid, params["H"] - params["lid_t"] / 2) if len(lp) > 3]
    near = min(_holes_in(loops, 6), key=lambda h: math.hypot(h[0] - want[0], h[1] - want[1]), default=None)
    off = math.hypot(near[0] - want[0], near[1] - want[1]) if near else float("inf")
    good = off <= HOLE_TOLERANCE
    ok &= good
    details.append("BOOTSEL: the pin hole is %.2f mm from the switch's centre (%.1f, %.1f) (parts.json pico.bootsel, "
                   "%s)%s" % (off, want[0], want[1], "at most %g" % HOLE_TOLERANCE, "" if good else "  OFF THE SWITCH"))
    # cap holes
    need = params["btn_cap_d"] / 2 + params["btn_clear"] - params["cap_play"] - TOUCH
    plate = _holes_in([lp for lp in M.slice_z(decks, params["SH"] - params["lid_t"] / 2) if len(lp) > 3])
    D = station_y0(layout)
    least = None
    for p in (0, 1):
        for name, (bx, by) in layout["seat"]["buttons"].items():
            wx, wy = seat_to_world(p, bx, by, D)
            h = min(plate, key=lambda h: math.hypot(h[0] - wx, h[1] - wy), default=None)
            if h is None or math.hypot(h[0] - wx, h[1] - wy) > 1.0:
                ok = False
                details.append("player %d's %s button: no cap hole" % (p + 1, name))
                continue
            room = h[2] / 2 - params["btn_cap_d"] / 2
            least = room if least is None else min(least, room)
    good = least is not None and least >= need - params["btn_cap_d"] / 2
    ok &= good
    details.append("cap holes: %.2f mm round a %.2f mm cap at the narrowest (at least %.2f: the switch's placement "
                   "%.2f mm and a printed hole's shrink %.2f mm)%s"
                   % (least or 0, params["btn_cap_d"], need - params["btn_cap_d"] / 2,
                      params["btn_clear"] - params["hole_shrink"] - params["cap_play"], params["hole_shrink"],
                      "" if good else "  TOO TIGHT"))
    # battery pins
    floor = _holes_in([lp for lp in M.slice_z(base, params["floor_t"] / 2) if len(lp) > 3], 6)
    for i, (px, py) in enumerate(params["batt_pins"]):
        h = min(floor, key=lambda h: math.hypot(h[0] - px, h[1] - py), default=None)
        d = math.hypot(h[0] - px, h[1] - py) if h else float("inf")
        good = d <= 0.5 and h[2] >= params["batt_pin_hole_d"] - 0.1
        ok &= good
        details.append("battery pin %d at (%.1f, %.1f): %s" % (
            i + 1, px, py, "a %.1f mm hole through the floor" % h[2] if good else "NO HOLE through the floor"))
    return Result("parts", ok, "the BOOTSEL hole, the cap holes and the battery pins' holes fit the parts' drawings"
                  if ok else "a printed part does not fit a bought part's drawing", details)


def usb(base, keepouts, params, clear=0.5):
    """The USB opening in the base's wall, sliced in the wall's middle
    plane, clears the largest micro-B overmold (parts.json's plug, the
    keep-out box the plug's path is in the model, centred on the
    receptacle) by at least ``clear`` mm on every side."""
    W, wall, pdir = params["W"], params["wall"], params["pico_dir"]
    plug = params["pico_usb_plug"]
    x = pdir * (W / 2 - wall / 2)
    plug_box = None
    for sh in M.shells(keepouts):
        (x0, y0, z0), (x1, y1, z1) = M.bbox(sh)
        if x0 < x < x1 and abs((y1 - y0) - plug[0]) < 0.02 and abs((z1 - z0) - plug[1]) < 0.02:
            plug_box = (y0, z0, y1, z1)
    if plug_box is None:
        return Result("usb", False, "no USB plug keep-out (%g x %g mm) crosses the wall" % tuple(plug))
    cy, cz = (plug_box[0] + plug_box[2]) / 2, (plug_box[1] + plug_box[3]) / 2
    turned = M.transform(base, lambda v: (v[1], v[2], v[0]))      # the wall's plane becomes z = x
    # from the plug's centre, the nearest wall edge in the slice along
    # each axis: left, right, below, above
    reach = [float("inf")] * 4
    for lp in M.slice_z(turned, x):
        for (a0, b0), (a1, b1) in zip(lp, lp[1:] + lp[:1], strict=True):
            if (b0 - cz) * (b1 - cz) <= 0 and b0 != b1:
                a = a0 + (cz - b0) * (a1 - a0) / (b1 - b0)
                k = 0 if a < cy else 1
                reach[k] = min(reach[k], abs(a - cy))
            if (a0 - cy) * (a1 - cy) <= 0 and a0 != a1:
                b = b0 + (cy - a0) * (b1 - b0) / (a1 - a0)
                k = 2 if b < cz else 3
                reach[k] = min(reach[k], abs(b - cz))
    if max(reach) > 30:
        return Result("usb", False, "no opening in the wall round the USB plug's path")
    hole = (cy - reach[0], cz - reach[2], cy + reach[1], cz + reach[3])
    margins = [plug_box[0] - hole[0], hole[2] - plug_box[2], plug_box[1] - hole[1], hole[3] - plug_box[3]]
    ok = min(margins) >= clear - TOUCH
    detail = ("opening %.2f x %.2f mm round the largest micro-B overmold (%g x %g mm): %.2f mm at the sides, "
              "%.2f below, %.2f above" % (hole[2] - hole[0], hole[3] - hole[1], plug[0], plug[1],
                                          min(margins[:2]), margins[2], margins[3]))
    return Result("usb", ok, "the USB opening clears the largest micro-B plug by %.2f mm or more" % min(margins)
                  if ok else "the USB opening clears the largest micro-B plug by only %.2f mm (at least %g)"
                  % (min(margins), clear), [detail])


def walls(parts, min_wall, engraved=None):
    """``engraved``: {part: z}: above that height the part's top face has
    engraved legends, whose strokes leave ridges narrower than a wall
    between them (the legends check measures those): not counted here."""
    details, ok = [], True
    limit = min_wall * 1.5
    for name, tris in parts.items():
        top = (engraved or {}).get(name)
        keep = None if top is None else (lambda p, top=top: p[2] < top)
        t, where = M.thinnest(tris, M.Grid(tris), limit, keep=keep)
        if t is None:
            details.append("%s: nothing thinner than %.2f mm" % (name, limit))
        else:
            good = t >= min_wall - 0.02
            ok &= good
            details.append("%s: thinnest %.2f mm at (%.1f, %.1f, %.1f)%s"
                           % (name, t, where[0], where[1], where[2], "" if good else "  TOO THIN"))
    return Result("walls", ok, "no wall thinner than %g mm" % min_wall if ok
                  else "a wall is thinner than %g mm" % min_wall, details)


def supports(printed, max_bridge=15.0, max_angle=45.0):
    """Printable without supports: in each part's printing position, every
    face that looks down (other than the one on the bed) is either no more
    than ``max_angle`` degrees past vertical, or flat and part of a bridge
    spanning at most ``max_bridge`` mm (both ends held, like the top of the
    USB opening)."""
    # half a degree for the rounding of small facets in the STL (a 45-degree peg tip reads 45.1)
    limit = -math.sin(math.radians(max_angle + 0.5))
    details, ok = [], True
    for name, tris in printed.items():
        down = [t for t in tris if M.normal(*t)[2] < limit and min(v[2] for v in t) > 0.05]
        flat = [t for t in down if M.normal(*t)[2] < -0.999]
        steep = [t for t in down if M.normal(*t)[2] >= -0.999]
        spans = []
        for sh in M.shells(flat):
            # the longer side: a bridge's real span is at most this
            (x0, y0, _), (x1, y1, _) = M.bbox(sh)
            spans.append(max(x1 - x0, y1 - y0))
        too_long = [s for s in spans if s > max_bridge]
        good = not steep and not too_long
        ok &= good
        if good:
            details.append("%s: %s" % (name, "%d bridge(s), longest %.1f mm" % (len(spans), max(spans))
                                       if spans else "nothing overhangs"))
        else:
            details.append("%s: %d face(s) overhang more than %g degrees, %d bridge(s) longer than %g mm"
                           % (name, len(steep), max_angle, len(too_long), max_bridge))
    return Result("supports", ok, "printable without supports (bridges up to %g mm)" % max_bridge if ok
                  else "a part needs supports", details)


# ---------- sight lines: who sees which panel's ink ----------

PANEL_PX = (296, 128)     # the panel's pixels: long side, short side
FOOTER_ROWS = 10          # the bottom line of every screen (firmware/screens.py footer)
MAX_VIEW_ANGLE = 45.0     # degrees off the panel's normal the owner may have to read it from
# Where the ink is sampled: columns across the long side, rows up from the
# edge nearest its player (pixel rows; the first three are in the footer).
INK_COLUMNS = 12
INK_ROWS = (0.5, 5.0, 9.5, 30.0, 55.0, 80.0, 105.0, 127.5)


class Ink:
    """One panel's ink (its active area) as the sight lines see it: a
    rectangle on the glass, its outward normal, and a grid of points on it.
    Built from the ink film in the bought-part model (a thin slab): its
    large face that looks up is the ink's face."""

    def __init__(self, shell):
        up = [t for t in shell if M.normal(*t)[2] > 0.05]
        if not up:
            raise ValueError("an ink film with no face looking up")
        n = M.normal(*max(up, key=M.area))
        faces = [t for t in up if M.dot(M.normal(*t), n) > 0.999]
        corners = sorted(set(v for t in faces for v in t))
        self.normal = n
        c = tuple(sum(v[k] for v in corners) / len(corners) for k in range(3))
        self.centre = c
        self.seat = 0 if c[1] < 0 else 1
        # the long side, and the short side from the edge nearest the owner
        a = corners[0]
        others = sorted(corners[1:], key=lambda v: math.dist(a, v))
        e1, e2 = M.sub(others[0], a), M.sub(others[1], a)
        long_, short = (e1, e2) if math.dist(a, others[0]) > math.dist(a, others[1]) else (e2, e1)
        origin = a
        # rows count from the long edge nearest the owner (seat 0 sits at -y)
        toward_owner = -1 if self.seat == 0 else 1
        if short[1] * toward_owner > 0:          # the short side runs toward the owner: flip it
            origin = tuple(origin[k] + short[k] for k in range(3))
            short = tuple(-s for s in short)
        lu, ls = math.sqrt(M.dot(long_, long_)), math.sqrt(M.dot(short, short))
        self.size = (lu, ls)
        self.ex = tuple(v / lu for v in long_)
        self.ey = tuple(v / ls for v in short)
        self.points, self.footer = [], []
        lift = 0.01
        for row in INK_ROWS:
            fv = row / PANEL_PX[1]
            for i in range(INK_COLUMNS):
                fu = (0.5 + i * (PANEL_PX[0] - 1) / (INK_COLUMNS - 1)) / PANEL_PX[0]
                p = tuple(origin[k] + fu * long_[k] + fv * short[k] + lift * n[k] for k in range(3))
                self.points.append(p)
                self.footer.append(row < FOOTER_ROWS)

    def to_local(self, tris):
        """Triangles in the ink's own frame: x along its long side, y across
        it (from the owner's edge), z out of it; origin at the ink's centre."""
        c, ex, ey, n = self.centre, self.ex, self.ey, self.normal

        def f(v):
            d = M.sub(v, c)
            return (M.dot(d, ex), M.dot(d, ey), M.dot(d, n))
        return M.transform(tris, f)

    def angle(self, eye, p):
        d = M.sub(eye, p)
        cos = M.dot(d, self.normal) / math.sqrt(M.dot(d, d))
        return math.degrees(math.acos(max(-1.0, min(1.0, cos))))

    def occluders(self, tris):
        """Only what stands in front of the ink's plane can hide it from an
        eye in front of it (from behind, the panel itself hides it)."""
        n, c = self.normal, self.centre
        front = [t for t in tris if max(M.dot(M.sub(v, c), n) for v in t) > 1e-4]
        return M.Occluders(front)

    def seen_from(self, eye, occ):
        """How many of the ink's points the eye sees: [(seen?, is footer)]."""
        out = []
        for p, foot in zip(self.points, self.footer, strict=True):
            ok = M.dot(M.sub(eye, p), self.normal) > 0 and not occ.blocked(p, eye)
            out.append((ok, foot))
        return out


def inks(film_tris):
    """The two panels' inks from the ink films (thin shells) of the model."""
    return sorted((Ink(sh) for sh in M.shells(film_tris)), key=lambda k: k.seat)


def _opaque(opaque, ink):
    """``opaque``: triangles, or {seat: triangles} (what stands between an
    eye and that seat's ink)."""
    return opaque[ink.seat] if isinstance(opaque, dict) else opaque


def worst_share(opaque, ink_list, eyes):
    """The largest share of a panel's ink any eye of the other player sees."""
    worst = 0.0
    for ink in ink_list:
        occ = ink.occluders(_opaque(opaque, ink))
        for eye in eyes[1 - ink.seat]:
            seen = ink.seen_from(eye, occ)
            worst = max(worst, sum(ok for ok, _ in seen) / len(seen))
    return worst


def owner_view(opaque, ink_list, eyes):
    """(the least share of their own ink a player sees, the steepest angle
    off its normal they look at it from)."""
    least, steep = 1.0, 0.0
    for ink in ink_list:
        occ = ink.occluders(_opaque(opaque, ink))
        for eye in eyes[ink.seat]:
            seen = ink.seen_from(eye, occ)
            least = min(least, sum(ok for ok, _ in seen) / len(seen))
            steep = max(steep, max(ink.angle(eye, p) for p in ink.points))
    return least, steep


def privacy(opaque, ink_list, eyes, table_depth=None):
    """From every eye point of each player, the share of the OTHER panel's
    ink they can see (sight lines blocked by the case and the opaque bought
    parts). Goal 0."""
    from . import seats as S
    details, worst_all = [], 0.0
    for ink in ink_list:
        occ = ink.occluders(_opaque(opaque, ink))
        other = 1 - ink.seat
        worst, where, seen_any = 0.0, None, 0
        for eye in eyes[other]:
            seen = sum(ok for ok, _ in ink.seen_from(eye, occ))
            share = seen / len(ink.points)
            seen_any += seen > 0
            if share > worst:
                worst, where = share, eye
        worst_all = max(worst_all, worst)
        msg = ("player %d sees none of player %d's ink from any of %d eye points"
               % (other + 1, ink.seat + 1, len(eyes[other])) if worst == 0 else
               "player %d sees up to %.0f%% of player %d's ink (from %d of %d eye points; worst %s)"
               % (other + 1, 100 * worst, ink.seat + 1, seen_any, len(eyes[other]),
                  S.describe(where, other, table_depth)))
        details.append(msg)
    ok = worst_all == 0
    return Result("privacy", ok, "no eye point of either player sees any of the other panel's ink" if ok
                  else "the opponent sees up to %.0f%% of a panel's ink" % (100 * worst_all), details)


def readability(opaque, ink_list, eyes, max_angle=MAX_VIEW_ANGLE, table_depth=None):
    """From every eye point of its own player, all of a panel's ink (footer
    included) is in sight, and no sight line is more than ``max_angle``
    degrees off the panel's normal."""
    from . import seats as S
    details, ok = [], True
    for ink in ink_list:
        occ = ink.occluders(_opaque(opaque, ink))
        own = eyes[ink.seat]
        worst_angle, angle_at, least, least_at, foot_least = 0.0, None, 1.0, None, 1.0
        for eye in own:
            seen = ink.seen_from(eye, occ)
            share = sum(s for s, _ in seen) / len(seen)
            foot = [s for s, f in seen if f]
            fshare = sum(foot) / len(foot)
            if share < least:
                least, least_at = share, eye
            foot_least = min(foot_least, fshare)
            a = max(ink.angle(eye, p) for p in ink.points)
            if a > worst_angle:
                worst_angle, angle_at = a, eye
        good = least == 1.0 and worst_angle <= max_angle
        ok &= good
        details.append("player %d: sees %.0f%% of the ink (footer %.0f%%) from the worst of %d eye points%s; "
                       "steepest view %.1f degrees off the normal (%s)%s"
                       % (ink.seat + 1, 100 * least, 100 * foot_least, len(own),
                          "" if least_at is None else " (%s)" % S.describe(least_at, ink.seat, table_depth),
                          worst_angle, S.describe(angle_at, ink.seat, table_depth),
                          "" if good else "  (must be 100%% within %g degrees)" % max_angle))
    return Result("readability", ok, "each player sees all of their ink, footer included, within %g degrees "
                  "of its normal" % max_angle if ok else "a player cannot read all of their panel", details)
