"""The routes to a table readable from the chair, weighed with the same
code as the build's legibility check (host/hardware/legibility.py):
``okgin hardware routes`` prints the table docs/legibility.md holds.

Each route is a panel (pixels, pitch along a glyph's height), the height in
pixels each class of glyph would be drawn at, and where the panel stands:
``box`` (in the central hood of the case before issue 36: the panel 16.5 mm
from the box's centre line, 50.5 mm up, tilted 45 degrees, seen from the
seat model of that case, HOOD_SEATS: the box up to 50 mm off the table's
centre line and 250 mm to a side) or ``station`` (each player's panel at
their own edge of the table, on a cable, where the station in layout.json
puts it, seen from the seated eye points of host/hardware/seats.py).

The heights are measured from what the firmware draws (legibility.measure
on the golden screens): the 2.9"'s on its 296x128 screens, the 4.2"'s on
its 400x300 ones (scale 2: each glyph pixel a 2x2 block, and its own
layout: the showdown's card indexes carry the card's own suit, not the
2.9"'s small one). The other routes scale those or take a font's own
figures (Terminus 16x32 from Debian's xfonts-terminus 4.48: capitals 20
px, x-height 14, as measured from ter-u32n_unicode.pcf; it has the
Lithuanian letters and the four suits but no Hangul).
"""
import math
import os

from . import layout as L
from . import legibility as G
from . import seats as S

HOOD_PANEL = (0.0, -16.5, 50.5)   # the 2.9in hood's panel centre (box frame), before issue 36
HOOD_TILT = 45
HOOD_OFF_CENTRE = 50               # that case's seat model: the box's place on the table
HOOD_TO_THE_SIDE = 250

HEAP_TODAY = 137 * 1024        # bytes free on the chip today, two 296x128 buffers (issue 36)
HEAP_GOAL = 120 * 1024


def _panel_place(tilt, centre):
    """The panel of player 1 (seat 0, at -y): its centre and the direction
    of a glyph's height on the glass (away from the player, up the slope)."""
    t = math.radians(tilt)
    return centre, (0.0, math.cos(t), math.sin(t))


def hood_eye_points(seats):
    """Player 1's eye points as the central hood's seat model had them (box
    frame): every corner of the seat ranges, the box up to HOOD_OFF_CENTRE
    off the table's centre line and HOOD_TO_THE_SIDE to a side."""
    pts = set()
    for depth in seats["table_depth"]:
        for off in S._steps(-HOOD_OFF_CENTRE, HOOD_OFF_CENTRE, 3):
            for side in S._steps(-HOOD_TO_THE_SIDE, HOOD_TO_THE_SIDE, 3):
                for back, z in S._seated(seats):
                    pts.add((round(side, 3), round(-(depth / 2 - off + back), 3), round(z, 3)))
    return sorted(pts)


def places(where, layout=None):
    """[(centre, up, eyes)] for player 1's panel."""
    layout = layout or L.load_layout()
    seats = layout["seats"]
    if where == "box":
        centre, up = _panel_place(HOOD_TILT, HOOD_PANEL)
        return [(centre, up, hood_eye_points(seats))]
    if where == "station":
        p = layout["seat"]["panel"]
        centre, up = _panel_place(p["tilt"], (p["x"], layout["station"]["front"] + p["y"], p["z"]))
        return [(centre, up, S.owner_points(seats))]
    raise ValueError(where)


def _heights(today, k=1, text=None, ranks=None):
    """Every class's height in px: today's times k, the text classes
    replaced by ``text`` (caps, accented, Hangul) when given."""
    out = {n: v["px"] * k for n, v in today.items()}
    if ranks:
        out["card rank"] = ranks
        out["suit on a card"] = today["suit on a card"]["px"] * ranks / today["card rank"]["px"]
    if text:
        caps, accented, hangul = text
        for n in ("prompt (capitals)", "opponent's last move", "footer", "scores"):
            out[n] = caps
        out["accented Latin"] = accented
        out["Hangul"] = hangul
    return out


def measured(root=None):
    """(the 2.9"'s heights, the 4.2"'s): legibility.measure on the golden
    screens of each panel size, what the firmware draws there."""
    root = root or L.ROOT
    base = os.path.join(root, "tests", "app", "golden")
    # an installed okgin holds them as golden_400x300 (build.golden_dir,
    # which imports this module)
    t42 = os.path.join(base, "400x300")
    return G.measure(root), G.measure(root, t42 if os.path.isdir(t42) else base + "_400x300")


def routes(today, t42_drawn):
    """The candidate routes: dicts of route, panel, mm (per px), px
    (width, height), glyph (cell w, line h in px), heights, where, note.
    ``today``: the 2.9"'s measured heights; ``t42_drawn``: the 4.2"'s (its
    Unifont 2x text and 32 px ranks, as the firmware draws them at scale
    2), which the other 4.2" and 7.5" routes scale."""
    t29 = 29.05 / 128
    t42 = 63.6 / 300
    t75 = 97.92 / 480
    d42 = t42_drawn
    return [
        {"route": "2.9\" 296x128 in the central hood (the case before issue 36), 1x glyphs", "px": (296, 128), "mm": t29,
         "cell": (8, 16), "heights": _heights(today), "where": "box"},
        {"route": "2.9\" in the hood, every glyph 2x", "px": (296, 128), "mm": t29, "cell": (16, 32),
         "heights": _heights(today, 2), "where": "box"},
        {"route": "4.2\" 400x300 in a hood, Unifont 2x text, 32 px ranks", "px": (400, 300), "mm": t42,
         "cell": (16, 32), "heights": _heights(d42), "where": "box"},
        {"route": "4.2\" 400x300 in a hood, Terminus 16x32 Latin (caps 20 px), Unifont 2x Hangul, 32 px ranks",
         "px": (400, 300), "mm": t42, "cell": (16, 32),
         "heights": _heights(d42, text=(20, d42["accented Latin"]["px"] - 2, d42["Hangul"]["px"])), "where": "box"},
        {"route": "4.2\" 400x300 in a hood, Unifont 3x text (caps 30 px), 48 px ranks", "px": (400, 300),
         "mm": t42, "cell": (24, 48), "heights": _heights(d42, 1.5, ranks=48), "where": "box"},
        {"route": "7.5\" 800x480 in a hood, Unifont 3x text, 48 px ranks", "px": (800, 480), "mm": t75,
         "cell": (24, 48), "heights": _heights(d42, 1.5, ranks=48), "where": "box"},
        {"route": "2.9\" stations at each player's edge, today's glyphs", "px": (296, 128), "mm": t29,
         "cell": (8, 16), "heights": _heights(today), "where": "station"},
        {"route": "2.9\" stations at each player's edge, 2x ranks and suits, today's text", "px": (296, 128),
         "mm": t29, "cell": (8, 16), "heights": _heights(today, ranks=32), "where": "station"},
        {"route": "4.2\" stations at each player's edge, Unifont 2x text, 32 px ranks", "px": (400, 300),
         "mm": t42, "cell": (16, 32), "heights": _heights(d42), "where": "station"},
    ]


RECOMMENDED = "4.2\" stations at each player's edge, Unifont 2x text, 32 px ranks"


def table(layout=None):
    """One row per route: its figures per class (median, 90th percentile),
    whether every goal is met, the room it leaves and its memory."""
    today, t42 = measured()
    cache = {}
    rows = []
    for r in routes(today, t42):
        if r["where"] not in cache:
            cache[r["where"]] = places(r["where"], layout)
        pl = cache[r["where"]]
        figs, ok = {}, True
        for name, px in r["heights"].items():
            med, p90, dist, _ = G.figures(px * r["mm"], pl)
            gm, g90 = G.GOALS[today[name]["goal"]]
            good = med >= gm and p90 >= g90
            # the 2.9"'s showdown draws a small suit beside each rank, which
            # a route may drop; the 4.2"'s draws the card's own suit
            small = name == "suit in the showdown" and px < r["heights"]["suit on a card"]
            if not small:
                ok &= good
            figs[name] = (round(px, 1), round(med, 1), round(p90, 1), good)
        fb = 2 * r["px"][0] * r["px"][1] // 8
        w, h = r["cell"]
        rows.append({"route": r["route"], "mm": r["mm"], "figures": figs, "ok": ok,
                     "chars": r["px"][0] // w, "lines": r["px"][1] // h,
                     "frame_buffers": fb, "heap_free": HEAP_TODAY - (fb - 2 * 296 * 128 // 8),
                     "heap_free_one_buffer": HEAP_TODAY - (fb // 2 - 2 * 296 * 128 // 8),
                     "distance": round(G.figures(1.0, pl)[2]),
                     "recommended": r["route"] == RECOMMENDED})
    return rows


def markdown(rows):
    names = list(rows[0]["figures"])
    out = ["| route | mm/px | eyes (median) | " + " | ".join(names) + " | all goals | chars x lines | "
           "frame buffers (2 panels) | heap free (2 buffers / 1 shared) |",
           "|" + "---|" * (len(names) + 7)]
    for r in rows:
        cells = ["%g px: %.1f / %.1f%s" % (px, med, p90, "" if good else " ✗")
                 for px, med, p90, good in r["figures"].values()]
        out.append("| %s%s | %.3f | %d mm | %s | %s | %d x %d | %s B | %.0f / %.0f KB |" % (
            r["route"], " **(recommended)**" if r["recommended"] else "", r["mm"], r["distance"],
            " | ".join(cells), "yes" if r["ok"] else "no", r["chars"], r["lines"],
            format(r["frame_buffers"], ","), r["heap_free"] / 1024, r["heap_free_one_buffer"] / 1024))
    return "\n".join(out)
