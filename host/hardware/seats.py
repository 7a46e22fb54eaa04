"""Where the players' eyes can be: the eye points the sight-line checks
look from, made from layout.json's ``seats`` (a seated adult at a table,
sitting back or leaning in; the other player across the table, or round
its corner, or half-standing to reach the pile). The figures and their
sources are in layout.json beside them.

Each player's panel is in a **station** at their own edge of the table
(issue 36), so every eye point is taken in a station's frame: origin at
the middle of its player's table edge, x to the player's right, y away
from the player (across the table), z up from the table top. The central
box holds no panel and hides nothing: only the station itself stands
between an eye and its ink.

The seated model: each player sits on a chair at their edge of the
table. Their trunk pivots at the hip, ``hip_above_seat`` over the seat and
``hip_behind_edge`` behind the table's edge; the eye is
``sitting_eye_height - hip_above_seat`` from that pivot, tilted forward by
``lean`` degrees (negative: sitting back against the chair):

    height above the table = seat + hip_above_seat + trunk * cos(lean) - table
    distance behind the edge = hip_behind_edge - trunk * sin(lean)

The owner sits up to ``station_aside`` mm to either side of their
station's centre; the other player sits across a table ``table_depth``
deep, up to ``opponent_aside`` mm to either side of straight across.

The grown model (issue 36; optional fields, ``cases()``): the station
turned on the table up to ``station_turn`` degrees either way (about its
panel); the players at the corner of a square table, the opponent up to
``corner`` degrees round it from straight across; the opponent
half-standing to reach the pile, eyes up to ``half_standing.past_edge`` mm
past their table edge at ``half_standing.eye_above_table`` mm above it.
The privacy check looks from all of them; the owner's readability and
legibility from the seated ones (the station turned included).

World frame (the case's, for the pictures and the checks): the central box
centred on x/y, z = 0 on the table top; station p stands at its player's
edge of a table ``T`` deep (the model's, layout.json station.table_depth):
player 1 (seat 0) at y = -T/2 facing +y, player 2 at +y, turned half round.
"""
import math

FIELDS = ("about", "sources", "table_depth", "station_aside", "opponent_aside", "table_height",
          "seat_height", "sitting_eye_height", "hip_above_seat", "hip_behind_edge", "lean")
RANGES = ("table_depth", "table_height", "seat_height", "sitting_eye_height", "hip_behind_edge", "lean")
OPTIONAL = ("station_turn", "corner", "half_standing")


def _steps(lo, hi, n):
    if n == 1 or hi == lo:
        return [lo] if hi == lo else [(lo + hi) / 2]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def _people(seats):
    """(seat height, sitting eye height, table height): lowest and highest eye."""
    return [(seats["seat_height"][0], seats["sitting_eye_height"][0], seats["table_height"][1]),
            (seats["seat_height"][1], seats["sitting_eye_height"][1], seats["table_height"][0])]


def _seated(seats):
    """(distance behind the edge, height above the table) of every seated
    eye: every corner of the ranges, and the middle of the lean."""
    hip_up = seats["hip_above_seat"]
    out = []
    for chair, eye, table in _people(seats):
        trunk = eye - hip_up
        for hip in seats["hip_behind_edge"]:
            for lean in _steps(seats["lean"][0], seats["lean"][1], 3):
                a = math.radians(lean)
                out.append((hip - trunk * math.sin(a), chair + hip_up + trunk * math.cos(a) - table))
    return out


def _round(pts):
    return sorted({(round(x, 3), round(y, 3), round(z, 3)) for x, y, z in pts})


def owner_points(seats):
    """The owner's seated eye points in their station's frame."""
    return _round((side, -back, z) for side in _steps(-seats["station_aside"], seats["station_aside"], 3)
                  for back, z in _seated(seats))


def opponent_points(seats):
    """The other player's seated eye points in this station's frame:
    across the table, at each table depth."""
    return _round((side, depth + back, z) for depth in seats["table_depth"]
                  for side in _steps(-seats["opponent_aside"], seats["opponent_aside"], 3)
                  for back, z in _seated(seats))


def _turn(p, deg, about=(0.0, 0.0)):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    x, y = p[0] - about[0], p[1] - about[1]
    return (round(about[0] + x * c - y * s, 3), round(about[1] + x * s + y * c, 3), p[2])


def half_standing(seats):
    """The other player half-standing at their edge, leaning over the
    table toward the pile: up to ``past_edge`` mm past their edge, at the
    heights ``eye_above_table`` gives."""
    hs = seats["half_standing"]
    return _round((side, depth - past, z) for depth in seats["table_depth"]
                  for side in _steps(-seats["opponent_aside"], seats["opponent_aside"], 3)
                  for past in _steps(0, hs["past_edge"], 3)
                  for z in _steps(hs["eye_above_table"][0], hs["eye_above_table"][1], 3))


def cases(seats, pivot=(0.0, 0.0)):
    """{case name: (owner's eye points, opponent's eye points)} in a
    station's frame (the owner's None where the case is the opponent's
    alone). ``pivot``: the point of the station (x, y) it turns about."""
    own, opp = owner_points(seats), opponent_points(seats)
    out = {"seated": (own, opp)}
    turn = seats.get("station_turn")
    if turn:
        # the station turned by a on the table: in its frame the eyes turn by -a
        o2: set = set()
        p2: set = set()
        for a in _steps(-turn, turn, 5):
            if a:
                o2.update(_turn(p, -a, pivot) for p in own)
                p2.update(_turn(p, -a, pivot) for p in opp)
        out["station turned"] = (sorted(o2), sorted(p2))
    corner = seats.get("corner")
    if corner:
        # the opponent round the corner of a square table: their seats turn
        # about the table's centre, straight across from them
        around: set = set()
        for depth in seats["table_depth"]:
            front = opponent_points(dict(seats, table_depth=[depth], opponent_aside=0))
            for a in _steps(-corner, corner, 7):
                if a:
                    around.update(_turn(p, a, (0.0, depth / 2)) for p in front)
        out["corner of a square table"] = (None, sorted(around))
    if seats.get("half_standing"):
        out["half-standing"] = (None, half_standing(seats))
    return out


def to_world(pts, seat, table_depth):
    """Station-frame points of station ``seat`` in the world frame (the
    station at its player's edge of a table ``table_depth`` deep)."""
    h = table_depth / 2
    if seat == 0:
        return [(x, y - h, z) for x, y, z in pts]
    return [(-x, h - y, z) for x, y, z in pts]


def describe(p, seat, table_depth=None):
    """A world eye point in words, from player ``seat``'s edge of the table
    (without ``table_depth``: from the table's centre)."""
    x, y, z = p if seat == 0 else (-p[0], -p[1], p[2])
    if table_depth is None:
        return "%.0f mm from the table's centre toward player %d, %.0f mm up, %.0f mm to the %s" % (
            -y, seat + 1, z, abs(x), "right" if x >= 0 else "left")
    y += table_depth / 2
    where = "behind their table edge" if y < 0 else "past their table edge"
    return "%.0f mm %s, %.0f mm up, %.0f mm to the %s" % (abs(y), where, z, abs(x), "right" if x >= 0 else "left")
