"""Build the enclosure: parameters from layout.json + parts.json, one
OpenSCAD export per printed part (and three for the simplified bought
parts), print-ready STLs, the checks, the pictures, and manifest.json.

The STLs OpenSCAD writes are in the assembled position; the checks run on
those, and the print-ready files are the same triangles turned and moved
onto the bed (no second CGAL render). Player 2's button tray is player 1's
turned half round, so it is exported once.
"""
import hashlib
import json
import os
import shutil
import sys
import time

from ..lib.errors import CommandError
from . import checks as C
from . import icons
from . import layout as L
from . import legibility as G
from . import mesh as M
from . import scad
from . import seats

CASE_DIR = os.path.join(L.HARDWARE, "case")
CASE_SCAD = os.path.join(CASE_DIR, "case.scad")
HERE = os.path.dirname(os.path.abspath(__file__))

# name in case.scad -> (print-ready file, how to lay it on the bed, copies)
# A station's parts (hood, deck, sbase, tray0) are printed twice, one
# station per player; the central box's lid and base once.
PRINTED = {
    "hood": ("okgin-hood.stl", "as is", 2),
    "deck": ("okgin-deck.stl", "flip", 2),
    "sbase": ("okgin-station-base.stl", "as is", 2),
    "tray0": ("okgin-tray.stl", "as is", 2),
    "lid": ("okgin-lid.stl", "flip", 1),
    "base": ("okgin-base.stl", "as is", 1),
}
STATION_PARTS = ("hood", "deck", "sbase", "tray0")
EXPORTS = ["hood", "deck", "sbase", "tray0", "lid", "base", "components_a", "components_b", "components_c",
           "keepouts"]

# picture name -> (part, camera rotation x, y, z, size, explode mm, what it shows)
RENDERS = {
    "assembled": ("assembly", 52, 0, 28, (960, 720), 0, "the finished table"),
    "exploded": ("exploded", 62, 0, 28, (960, 900), 40, "every part, pulled apart"),
    "station": ("station_picture", 55, 0, 20, (960, 720), 0, "both stations, each at its player's edge of the table"),
    "lid": ("lid", 38, 0, 18, (800, 560), 0, "the central box's lid, top side: the BOOTSEL pin hole and RESET"),
    "deck": ("deck_picture", 38, 0, 18, (800, 560), 0,
             "a station's deck: six button holes, each button's symbol engraved beside it, the LED"),
    "lid-underside": ("lid", 140, 0, 18, (800, 560), 0,
                      "the box's lid from below: the RESET pocket and the BOOTSEL tube"),
    "hood": ("hood_picture", 60, 0, 30, (800, 560), 0,
             "a station's hood: the window, the visor and the cheeks closing both ends"),
    "hood-underside": ("hood_picture", 150, 0, 30, (800, 560), 0,
                       "the hood from below: panel pegs and landings, deck bosses"),
    "base": ("base", 45, 0, 30, (800, 560), 0,
             "the box's base: carrier standoffs, battery rim and pin holes, USB and power-switch openings, "
             "the ribbon slots"),
    "tray": ("tray_picture", 50, 0, 12, (800, 300), 0, "a button tray"),
    "step-electronics": ("step_electronics", 50, 0, 30, (800, 560), 0,
                         "step: the carrier with the Pico in its sockets, the batteries, the power switch"),
    "step-panels": ("step_panels", 150, 0, 30, (800, 560), 0, "step: the panel in a station's hood (seen from below)"),
    "step-buttons": ("step_buttons", 140, 0, 18, (800, 560), 0, "step: switches in their tray, the tray on the deck"),
}
# The same table from the seats (eye points in the station's frame: mm from
# the player's table edge, the other player across a 600 mm table), what it shows.
SEAT_VIEWS = {
    "seat-player1": ((0, -460, 455), "from player 1's chair (a seated adult of median size): their station's panel, "
                     "whole, showing the firmware's own screen (tests/app/golden/400x300/en/turn-2-0.png) pixel for "
                     "pixel at the panel's pitch (cropped round the table: a zoom, the glyphs look bigger than "
                     "from the chair)"),
    "seat-player2-half-standing": ((0, 500, 700), "from player 2 half-standing, eyes 100 mm past their edge and "
                                   "700 mm over the table: player 1's station shows its back, no ink"),
    "seat-player2-corner": ((-420, 540, 455), "from a chair at the corner of the table, 45 degrees round from "
                            "player 2's place: player 1's panel is behind its hood's cheek"),
}


# A rough print estimate from the solid volume (the slicer gives the real
# figure for your printer): walls of 2-3 mm print nearly solid with 3
# perimeters, so about 85% of the volume is extruded; 5 mm^3/s is a 0.4 mm
# nozzle at 0.2 mm layers and about 60 mm/s, travel included; PLA 1.24 g/cm^3.
EXTRUDED = 0.85
RATE_MM3_S = 5.0
PLA_G_CM3 = 1.24


def print_estimate(printed):
    cm3 = sum(M.volume(tris) / 1000 * PRINTED[name][2]
              for name, (fname, _, _) in PRINTED.items() for tris in [printed[fname]])
    return {"solid_cm3": round(cm3, 1), "pla_g": round(cm3 * EXTRUDED * PLA_G_CM3),
            "hours": round(cm3 * 1000 * EXTRUDED / RATE_MM3_S / 3600, 1),
            "assumes": "%d%% of the solid extruded at %g mm^3/s, PLA %g g/cm^3" % (EXTRUDED * 100, RATE_MM3_S, PLA_G_CM3)}


def _crop(png, margin=40, width=900):
    """A picture from a seat is drawn from the real eye point with OpenSCAD's
    wide lens: keep the part round the table (the same as a narrower lens
    from the same place) at ``width`` pixels."""
    from PIL import Image
    img = Image.open(png).convert("RGB")
    grey = img.convert("L")
    bg = grey.getpixel((0, 0))
    mask = grey.point(lambda v: 255 if abs(v - bg) > 3 else 0)
    box = mask.getbbox()
    if box:
        x0, y0, x1, y1 = box
        img = img.crop((max(0, x0 - margin), max(0, y0 - margin), min(img.size[0], x1 + margin),
                        min(img.size[1], y1 + margin)))
    h = round(img.size[1] * width / img.size[0])
    img.resize((width, h), Image.LANCZOS).save(png, optimize=True)


def _say(progress, msg):
    if progress:
        progress(msg)


def input_hash(opt, files):
    """What the outputs depend on: the model, the layout and parts data, the
    board definition, the options and this build code."""
    h = hashlib.sha256()
    h.update(json.dumps(opt, sort_keys=True).encode())
    for path in files:
        with open(path, "rb") as f:
            h.update(os.path.basename(path).encode() + b"\0" + f.read())
    return h.hexdigest()[:16]


def source_files():
    return [CASE_SCAD, os.path.join(L.HARDWARE, "layout.json"), os.path.join(L.HARDWARE, "parts.json"),
            os.path.join(L.HARDWARE, "board.json")] + \
        [os.path.join(L.HARDWARE, n) for n in sorted(os.listdir(L.HARDWARE)) if n.startswith("board-") and n.endswith(".json")] + \
        [os.path.join(HERE, n) for n in ("build.py", "checks.py", "layout.py", "legibility.py", "mesh.py", "seats.py",
                                         "icons.py")]


class ChecksFailed(CommandError):
    """A check failed: the outputs and manifest.json are written (look at
    them); ``manifest`` is the manifest, ``failed`` the failing checks' names."""

    def __init__(self, msg, manifest, failed):
        super().__init__(msg)
        self.manifest, self.failed = manifest, failed


def golden_dir(board, root=None):
    """The golden screens of the board's panel size: tests/app/golden/<lang>
    for 296x128, tests/app/golden/<w>x<h>/<lang> for another size."""
    base = os.path.join(root or L.ROOT, "tests", "app", "golden")
    panel = board["players"][0]["panel"]
    size = (panel["width"], panel["height"])
    if sorted(size) == [128, 296]:
        return base
    name = "%dx%d" % (max(size), min(size))
    # installed, the folder is golden_<w>x<h> (a package's name may not begin with a digit: pyproject.toml)
    installed = base + "_" + name
    return installed if os.path.isdir(installed) and not os.path.isdir(os.path.join(base, name)) \
        else os.path.join(base, name)


def legibility(board, inks, eyes, root=None):
    """The legibility check (host/hardware/legibility.py) on the built
    panels: each panel's ink where it stands, seen from its own player's
    seated eye points; the pixel pitch from board.json; the glyphs in the
    golden screens of that panel's size."""
    panel = board["players"][0]["panel"]
    mm = G.pitch(panel)
    if mm is None:
        return C.Result("legibility", False, "board.json gives no players[0].panel.active_mm: the pixel "
                        "pitch is unknown"), []
    places = [(ink.centre, ink.ey, eyes[ink.seat]) for ink in inks]
    try:
        measured = G.measure(root or L.ROOT, golden_dir(board, root))
    except (OSError, ValueError) as e:
        return C.Result("legibility", False, "the glyphs could not be measured: %s" % e), []
    return G.check(measured, mm, places)


def variants(layout=None):
    """The 2.9in panel in the central hood (the case before issue 36), kept
    as a variant: its legibility figures from the seats of that case
    (routes.py), reported beside the station build's; not a check."""
    from . import routes
    try:
        rows = routes.table(layout)
    except (OSError, ValueError) as e:
        return {"error": str(e)}
    return {r["route"]: {"all_goals": r["ok"], "eyes_median_mm": r["distance"],
                         "figures": {n: {"px": f[0], "median": f[1], "p90": f[2], "ok": f[3]}
                                     for n, f in r["figures"].items()}}
            for r in rows if r["route"].startswith("2.9\" 296x128 in the central hood")}


def sight_lines(opaque, inks, seats_def, table_depth, pivot):
    """The privacy and readability checks from every case of the seat model
    (seats.cases: seated, the station turned, the corner of a square table,
    the opponent half-standing), each station's ink seen by its own player
    and by the other; and the per-case figures for the manifest."""
    cs = seats.cases(seats_def, pivot)
    priv_ok, read_ok, priv_d, read_d, figures = True, True, [], [], {}
    worst_seen, least_own = 0.0, 1.0
    for case, (own, opp) in cs.items():
        # player k's eyes looking at the other station (1 - k): that station's opponent points
        looking = [seats.to_world(opp, 1, table_depth), seats.to_world(opp, 0, table_depth)]
        r = C.privacy(opaque, inks, looking, table_depth=table_depth)
        priv_ok &= r.ok
        priv_d += ["%s: %s" % (case, d) for d in r.details]
        seen = C.worst_share(opaque, inks, looking)
        worst_seen = max(worst_seen, seen)
        fig = {"opponent_eye_points": len(opp), "opponent_sees_pct": round(100 * seen, 1)}
        if own is not None:
            mine = [seats.to_world(own, 0, table_depth), seats.to_world(own, 1, table_depth)]
            r = C.readability(opaque, inks, mine, table_depth=table_depth)
            read_ok &= r.ok
            read_d += ["%s: %s" % (case, d) for d in r.details]
            least, steep = C.owner_view(opaque, inks, mine)
            least_own = min(least_own, least)
            fig.update({"owner_eye_points": len(own), "owner_sees_pct": round(100 * least, 1),
                        "owner_steepest_deg": round(steep, 1)})
        figures[case] = fig
    n_opp = sum(len(o) for _, o in cs.values())
    privacy = C.Result("privacy", priv_ok, "no eye point of the seat model (%d per station, %d cases) sees any of the "
                       "other player's ink" % (n_opp, len(cs)) if priv_ok else
                       "the opponent sees up to %.0f%% of a panel's ink" % (100 * worst_seen), priv_d)
    readability = C.Result("readability", read_ok, "each player sees all of their ink, footer included, within %g "
                           "degrees of its normal, the station turned included" % C.MAX_VIEW_ANGLE if read_ok else
                           "a player cannot read all of their panel (%.0f%% at worst)" % (100 * least_own), read_d)
    return privacy, readability, figures


# The screen each player's panel shows in the seat views: the firmware's
# own pixels (the golden screens tests/app/test_fit.py keeps current).
SEAT_SCREENS = ("en/turn-2-0.png", "en/turn-2-1.png")


def screens_scad(active, golden=None):
    """OpenSCAD for ``screen_pixels(p)``: player p's screen (SEAT_SCREENS)
    as squares, a run of ink a square, in the ink frame of case.scad (x to
    the player's right, y up the slope, the screen's top row farthest from
    the player), at the pitch of the active area ``active`` (mm)."""
    from PIL import Image
    golden = golden or os.path.join(L.ROOT, "tests", "app", "golden")
    rel = os.path.relpath(golden, L.ROOT).replace(os.sep, "/")
    out = ["// Generated by `okgin hardware build` from %s (the firmware's own screens)." % ", ".join(
        rel + "/" + s for s in SEAT_SCREENS), "// Do not edit.", ""]
    for p, name in enumerate(SEAT_SCREENS):
        try:
            img = Image.open(os.path.join(golden, name)).convert("L")
        except OSError:     # an installed okgin has no golden screens: blank panels
            out.append("module screen_pixels_%d() {}" % p)
            continue
        w, h = img.size
        px = img.load()
        sx, sy = active[0] / w, active[1] / h
        sq = []
        for y in range(h):
            x = 0
            while x < w:
                if px[x, y] < 128:
                    x0 = x
                    while x < w and px[x, y] < 128:
                        x += 1
                    sq.append("translate([%.4f, %.4f]) square([%.4f, %.4f]);"
                              % (-active[0] / 2 + x0 * sx, active[1] / 2 - (y + 1) * sy, (x - x0) * sx, sy))
                else:
                    x += 1
        out.append("module screen_pixels_%d() {\n    %s\n}" % (p, "\n    ".join(sq)))
    out.append("module screen_pixels(p) { if (p == 0) screen_pixels_0(); else screen_pixels_1(); }")
    return "\n".join(out) + "\n"


def board_for(px):
    """The board definition whose panels are ``px`` (w, h) pixels: board.json
    when its panel is that size, else the first hardware/board-*.json that
    is (the 4.2in table's is board-4in2.json)."""
    names = ["board.json"] + sorted(n for n in os.listdir(L.HARDWARE) if n.startswith("board-") and n.endswith(".json"))
    for n in names:
        try:
            with open(os.path.join(L.HARDWARE, n)) as f:
                panel = json.load(f)["players"][0]["panel"]
        except (OSError, ValueError, KeyError, IndexError):
            continue
        if sorted((panel.get("width"), panel.get("height"))) == sorted(px):
            return os.path.join(L.HARDWARE, n)
    return os.path.join(L.HARDWARE, "board.json")


def load_inputs(opts, layout_path=None, parts_path=None, board_path=None):
    sys.path.insert(0, os.path.join(L.ROOT, "firmware"))
    import boarddef
    try:
        parts = L.load_parts(parts_path)
    except L.LayoutError as e:
        raise CommandError(str(e))
    if board_path is None:
        # the board whose panel the case is built for (parts.json's px)
        try:
            with open(layout_path or os.path.join(L.HARDWARE, "layout.json")) as f:
                default = json.load(f).get("defaults", {}).get("panel")
        except (OSError, ValueError, AttributeError):
            default = None
        name = opts.get("panel") or default
        if name in parts["panels"]:
            board_path = board_for(parts["panels"][name]["px"])
    try:
        board = boarddef.load(board_path or os.path.join(L.HARDWARE, "board.json"))
    except boarddef.BoardError as e:
        raise CommandError("%s: %s" % (os.path.basename(board_path or "board.json"), e))
    try:
        layout = L.load_layout(layout_path, board)
        opt = L.options(layout, **opts)
    except L.LayoutError as e:
        raise CommandError(str(e))
    return board, layout, parts, opt


def build(out, opts=None, renders=True, progress=None, layout_path=None, parts_path=None,
          board_path=None, keep_work=False):
    """Build everything into ``out``; returns the manifest dict. Raises
    CommandError when an input is wrong, OpenSCAD fails or a check fails
    (the outputs and manifest.json are written first, so you can look)."""
    t_start = time.monotonic()
    board, layout, parts, opt = load_inputs(opts or {}, layout_path, parts_path, board_path)
    params = L.params(layout, parts, opt)
    scad.find_openscad()
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    shutil.copy(CASE_SCAD, os.path.join(work, "case.scad"))
    with open(os.path.join(work, "params.scad"), "w") as f:
        f.write(L.params_scad(params, opt))
    model = os.path.join(work, "case.scad")
    shutil.copy(os.path.join(work, "params.scad"), os.path.join(out, "params.scad"))
    with open(os.path.join(work, "screens.scad"), "w") as f:
        f.write(screens_scad(params["panel_active"], golden_dir(board)))
    shutil.copy(os.path.join(work, "screens.scad"), os.path.join(out, "screens.scad"))
    icon_art = icons.load(L.ROOT)
    with open(os.path.join(work, "icons.scad"), "w") as f:
        f.write(icons.scad(icon_art, list(layout["seat"]["buttons"])))
    shutil.copy(os.path.join(work, "icons.scad"), os.path.join(out, "icons.scad"))

    _say(progress, "rendering %d solids with OpenSCAD (CGAL; the lid takes longest)" % len(EXPORTS))
    t0 = time.monotonic()
    jobs = [(name, model, os.path.join(work, name + ".stl"), {"part": name}, (), None) for name in EXPORTS]
    times = scad.run_all(jobs, parallel=2, progress=lambda m: _say(progress, "  " + m))
    t_scad = time.monotonic() - t0

    mesh = {}
    for n in EXPORTS:
        # in a fixed order, and written back so the pictures draw the same file
        mesh[n] = M.canonical(M.read_stl(os.path.join(work, n + ".stl")))
        M.write_stl(os.path.join(work, n + ".stl"), mesh[n])
    # each station's parts where they stand: player 2's are player 1's turned half round
    assembled = {"lid": mesh["lid"], "base": mesh["base"]}
    for n in STATION_PARTS:
        assembled["%s (player 1)" % n] = mesh[n]
        assembled["%s (player 2)" % n] = M.rotate_z180(mesh[n])
    stl_dir = os.path.join(out, "stl")
    os.makedirs(stl_dir, exist_ok=True)
    printed = {}
    digest = input_hash(opt, source_files())
    for name, (fname, how, _) in PRINTED.items():
        tris = mesh[name]
        if how == "flip":
            tris = M.flip_over(tris)
        tris = M.canonical(M.place_on_bed(tris))
        printed[fname] = tris
        M.write_stl(os.path.join(stl_dir, fname), tris,
                    header=("okgin %s %s" % (fname, digest)).encode())

    _say(progress, "checking the geometry")
    t0 = time.monotonic()
    bought = {"boards and switch bodies": mesh["components_a"], "glass, caps and connectors": mesh["components_b"],
              "ink and flex cables": mesh["components_c"]}
    inks = C.inks(M.thin_shells(mesh["components_c"], 0.2))
    # what stands between an eye and a station's ink: that station (its
    # printed parts and the bought parts in it); the box between the
    # players is left out (it would only hide more)
    T = layout["station"]["table_depth"]
    y_box = layout["box"]["depth"] / 2
    everything = [t for part in assembled.values() for t in part] + mesh["components_a"] + mesh["components_b"]
    opaque = {0: [], 1: []}
    for t in everything:
        cy = (t[0][1] + t[1][1] + t[2][1]) / 3
        if abs(cy) > y_box:
            opaque[0 if cy < 0 else 1].append(t)
    sp = layout["seat"]["panel"]
    pivot = (sp["x"], layout["station"]["front"] + sp["y"])
    privacy, readability, grown = sight_lines(opaque, inks, layout["seats"], T, pivot)
    seated = seats.owner_points(layout["seats"])
    own = [seats.to_world(seated, 0, T), seats.to_world(seated, 1, T)]
    legible, legible_rows = legibility(board, inks, own)
    decks = mesh["deck"] + M.rotate_z180(mesh["deck"])
    hoods = mesh["hood"] + M.rotate_z180(mesh["hood"])
    results = [
        privacy,
        readability,
        legible,
        C.bed(printed, layout["print"]["bed"]),
        C.fit(assembled, bought, mesh["keepouts"], layout),
        C.windows(hoods, inks, params["glass_gap"] + params["window_land"] / 2),
        C.holes(decks, mesh["components_b"], layout, params["lid_t"], params["btn_cap_d"]),
        C.legends(decks, layout, params["legend_depth"]),
        C.usb(mesh["base"], mesh["keepouts"], params),
        C.parts_fit(mesh["lid"], mesh["base"], decks, mesh["components_b"], layout, params),
        C.walls({"hood": mesh["hood"], "deck": mesh["deck"], "station base": mesh["sbase"], "lid": mesh["lid"],
                 "base": mesh["base"], "tray": mesh["tray0"]},
                layout["print"]["min_wall"], engraved={"deck": params["SH"] - params["legend_depth"] - 0.05}),
        C.supports(printed),
    ]
    t_checks = time.monotonic() - t0
    for r in results:
        _say(progress, "  %s %s: %s" % ("ok  " if r.ok else "FAIL", r.name, r.summary))
        for d in r.details:
            _say(progress, "       " + d)
    for case, g in grown.items():
        _say(progress, "  seats %s: the opponent sees up to %s%% of a panel's ink from %d eye points%s"
             % (case, g["opponent_sees_pct"], g["opponent_eye_points"],
                "" if "owner_sees_pct" not in g else "; the owner sees %s%% of theirs from %d, %s degrees off its "
                "normal at worst" % (g["owner_sees_pct"], g["owner_eye_points"], g["owner_steepest_deg"])))

    t_render = 0.0
    pictures = {}
    if renders:
        _say(progress, "drawing %d pictures" % len(RENDERS))
        t0 = time.monotonic()
        img_dir = os.path.join(out, "img")
        os.makedirs(img_dir, exist_ok=True)
        display = scad.Display()
        try:
            jobs = []
            for name, (part, rx, ry, rz, size, explode, what) in RENDERS.items():
                png = os.path.join(img_dir, name + ".png")
                extra = ("--camera=0,0,0,%g,%g,%g,500" % (rx, ry, rz), "--viewall", "--autocenter",
                         "--imgsize=%d,%d" % size, "--colorscheme=Tomorrow", "--projection=p")
                jobs.append((name + ".png", model, png, {"part": part, "explode": explode, "stl_dir": work}, extra, display.env))
                pictures[name + ".png"] = what
            for name, (eye, what) in SEAT_VIEWS.items():
                png = os.path.join(img_dir, name + ".png")
                # the real eye point (from player 1's table edge), looking at player 1's panel
                T = layout["station"]["table_depth"]
                look = -T / 2 + layout["station"]["front"] + params["seat_panel"][1]
                extra = ("--camera=%g,%g,%g,0,%g,%g" % (eye[0], eye[1] - T / 2, eye[2], look, params["seat_panel"][2]),
                         "--imgsize=2400,1800", "--colorscheme=Tomorrow", "--projection=p")
                jobs.append((name + ".png", model, png, {"part": "seatview", "stl_dir": work}, extra, display.env))
                pictures[name + ".png"] = what
            scad.run_all(jobs, parallel=2)
            for name in SEAT_VIEWS:
                _crop(os.path.join(img_dir, name + ".png"))
        finally:
            display.close()
        t_render = time.monotonic() - t0

    manifest = {
        "inputs": digest,
        "options": opt,
        "parts": {fname: {"size_mm": [round(b - a, 1) for a, b in zip(*M.bbox(tris))],
                          "copies": PRINTED[name][2], "triangles": len(tris),
                          "volume_cm3": round(M.volume(tris) / 1000, 1)}
                  for name, (fname, _, _) in PRINTED.items() for tris in [printed[fname]]},
        "checks": [r.as_dict() for r in results],
        "legibility": legible_rows,
        "seats": grown,
        "icons": icon_art["source"],
        "variants": variants(),
        "print": print_estimate(printed),
        "pictures": pictures,
        "seconds": {"openscad": round(t_scad, 1), "checks": round(t_checks, 1),
                    "pictures": round(t_render, 1), "total": round(time.monotonic() - t_start, 1),
                    "per_solid": {k: round(v, 1) for k, v in times.items()}},
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        # no build times in the file: a rebuild with nothing changed writes the same bytes
        json.dump({k: v for k, v in manifest.items() if k != "seconds"}, f, indent=1, sort_keys=True)
        f.write("\n")
    if not keep_work:
        shutil.rmtree(work, ignore_errors=True)
    failed = [r for r in results if not r.ok]
    if failed:
        raise ChecksFailed("%d check(s) failed: %s (details above and in %s)"
                           % (len(failed), ", ".join(r.name for r in failed),
                              os.path.join(out, "manifest.json")), manifest, [r.name for r in failed])
    return manifest
