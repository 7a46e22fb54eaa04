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

from okgin.hardware import mesh as M

WINDOW_SLACK = 1.5     # mm of panel border a window may show beyond the active area
HOLE_TOLERANCE = 0.15  # mm a hole centre may be off its layout position
TOUCH = 0.01           # mm of overlap that still counts as touching


class Result:
    def __init__(self, name, ok, summary, details=()):
        self.name, self.ok, self.summary, self.details = name, ok, summary, list(details)

    def as_dict(self):
        return {"check": self.name, "ok": self.ok, "summary": self.summary, "details": self.details}


def seat_to_world(p, x, y, D):
    return (x, y - D / 2) if p == 0 else (-x, D / 2 - y)


def describe(point, layout):
    """Name the nearest layout feature, for messages."""
    D = layout["box"]["depth"]
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
    z = layout["box"]["height"] - lid_t / 2
    return [lp for lp in M.slice_z(lid, z) if len(lp) > 3]


def windows(lid, ink, layout, lid_t):
    """ink: the active-area films of both panels (their shells)."""
    loops = _plate_loops(lid, layout, lid_t)
    details, ok = [], True
    films = M.shells(ink)
    if len(films) != 2:
        return Result("windows", False, "expected 2 panels' active areas, found %d" % len(films))
    for film in sorted(films, key=lambda s: M.bbox(s)[0][1]):
        (ax0, ay0, _), (ax1, ay1, _) = M.bbox(film)
        cx, cy = (ax0 + ax1) / 2, (ay0 + ay1) / 2
        seat = 1 if cy > 0 else 0
        hole = None
        for lp in loops:
            (x0, y0), (x1, y1) = M.loop_box(lp)
            if x0 < cx < x1 and y0 < cy < y1 and (x1 - x0) < layout["box"]["width"] - 1:
                hole = (x0, y0, x1, y1)
        if hole is None:
            ok = False
            details.append("player %d: no window above the panel's active area" % (seat + 1))
            continue
        x0, y0, x1, y1 = hole
        margins = [ax0 - x0, x1 - ax1, ay0 - y0, y1 - ay1]
        good = min(margins) >= -TOUCH and max(margins) <= WINDOW_SLACK
        ok &= good
        details.append("player %d: window %.2f x %.2f mm over an active area of %.2f x %.2f mm; "
                       "margins %s mm%s" % (seat + 1, x1 - x0, y1 - y0, ax1 - ax0, ay1 - ay0,
                                            "/".join("%.2f" % m for m in margins),
                                            "" if good else "  (must be 0..%g)" % WINDOW_SLACK))
    return Result("windows", ok, "both windows uncover the whole active area, %g mm slack at most"
                  % WINDOW_SLACK if ok else "a window does not match its panel", details)


def holes(lid, caps, layout, lid_t, cap_d):
    """Every button and LED hole where layout.json puts it, and every switch
    cap (from the bought parts) standing in its hole."""
    D = layout["box"]["depth"]
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


def walls(parts, min_wall):
    details, ok = [], True
    limit = min_wall * 1.5
    for name, tris in parts.items():
        t, where = M.thinnest(tris, M.Grid(tris), limit)
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
    limit = -math.sin(math.radians(max_angle)) - 1e-3
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
