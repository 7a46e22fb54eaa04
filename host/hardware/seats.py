"""Where the players' eyes can be: the eye points the sight-line checks
look from, made from layout.json's ``seats`` (a seated adult at a table,
sitting back or leaning in, the box anywhere in a range of places on the
table). The figures and their sources are in layout.json beside them.

The model: each player sits on a chair at their edge of the table. Their
trunk pivots at the hip, ``hip_above_seat`` over the seat and
``hip_behind_edge`` behind the table's edge; the eye is ``sitting_eye_height
- hip_above_seat`` from that pivot, tilted forward by ``lean`` degrees
(negative: sitting back against the chair). The eye is then

    height above the table = seat + hip_above_seat + trunk * cos(lean) - table
    distance behind the edge = hip_behind_edge - trunk * sin(lean)

The box stands on the table, ``box_off_centre`` or less from the table's
centre line toward either player, and up to ``box_to_the_side`` to either
side of the players (near a side edge of the table).

The grown model (issue 36; optional fields, ``cases()``): the box turned
on the table up to ``box_turn`` degrees either way; the players at the
corner of a square table, the opponent up to ``corner`` degrees round it
from straight across; a player half-standing to reach the pile, eyes up
to ``half_standing.past_edge`` mm past their table edge at
``half_standing.eye_above_table`` mm above it. The privacy check looks
from all of them; the owner's readability from the seated ones (the box
turned included).

World frame (the case's): the box centred on x/y, z = 0 on the table top;
player 1 (seat 0) sits at -y facing +y, player 2 at +y.
"""
import math

FIELDS = ("about", "sources", "table_depth", "box_off_centre", "box_to_the_side", "table_height",
          "seat_height", "sitting_eye_height", "hip_above_seat", "hip_behind_edge", "lean")
RANGES = ("table_depth", "table_height", "seat_height", "sitting_eye_height", "hip_behind_edge", "lean")
OPTIONAL = ("box_turn", "corner", "half_standing")


def _steps(lo, hi, n):
    if n == 1 or hi == lo:
        return [lo] if hi == lo else [(lo + hi) / 2]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def eye_points(seats, seat):
    """The eye points of player ``seat`` (0 or 1) as (x, y, z) in mm, world
    frame: every corner of the ranges (and the middle of the box's place
    and of the lean), so the extremes a player can reach are all looked from."""
    people = [  # (seat height, sitting eye height, table height): lowest and highest eye
        (seats["seat_height"][0], seats["sitting_eye_height"][0], seats["table_height"][1]),
        (seats["seat_height"][1], seats["sitting_eye_height"][1], seats["table_height"][0]),
    ]
    hip_up = seats["hip_above_seat"]
    pts = []
    for depth in seats["table_depth"]:
        for off in _steps(-seats["box_off_centre"], seats["box_off_centre"], 3):
            edge = depth / 2 - off          # this player's table edge, from the box centre
            for side in _steps(-seats["box_to_the_side"], seats["box_to_the_side"], 3):
                for chair, eye, table in people:
                    trunk = eye - hip_up
                    for hip in seats["hip_behind_edge"]:
                        for lean in _steps(seats["lean"][0], seats["lean"][1], 3):
                            a = math.radians(lean)
                            back = edge + hip - trunk * math.sin(a)     # from the box centre
                            z = chair + hip_up + trunk * math.cos(a) - table
                            x, y = side, -back
                            pts.append((x, y, z) if seat == 0 else (-x, -y, z))
    return sorted({(round(x, 3), round(y, 3), round(z, 3)) for x, y, z in pts})


def describe(p, seat):
    """An eye point in words, from the player's side: how far out, up, aside."""
    x, y, z = p if seat == 0 else (-p[0], -p[1], p[2])
    return "%.0f mm from the box centre toward player %d, %.0f mm up, %.0f mm to the %s" % (
        -y, seat + 1, z, abs(x), "right" if x >= 0 else "left")


def _turn(p, deg):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return (round(p[0] * c - p[1] * s, 3), round(p[0] * s + p[1] * c, 3), p[2])


def half_standing(seats, seat):
    """Eye points of a player half-standing at their edge of the table,
    leaning over it: up to ``past_edge`` mm past the edge toward the box,
    at the heights ``eye_above_table`` gives, across the box's places."""
    hs = seats["half_standing"]
    pts = []
    for depth in seats["table_depth"]:
        for off in _steps(-seats["box_off_centre"], seats["box_off_centre"], 3):
            edge = depth / 2 - off
            for side in _steps(-seats["box_to_the_side"], seats["box_to_the_side"], 3):
                for past in _steps(0, hs["past_edge"], 3):
                    for z in _steps(hs["eye_above_table"][0], hs["eye_above_table"][1], 3):
                        x, y = side, -(edge - past)
                        pts.append((x, y, z) if seat == 0 else (-x, -y, z))
    return sorted({(round(x, 3), round(y, 3), round(z, 3)) for x, y, z in pts})


def cases(seats, seat):
    """{case name: eye points of player ``seat``}, the box's frame: the
    seated model, and the grown model's cases the seats give."""
    seated = eye_points(seats, seat)
    out = {"seated": seated}
    turn = seats.get("box_turn")
    if turn:
        # the box turned by a on the table: in the box's frame the eyes turn by -a
        pts: set = set()
        for a in _steps(-turn, turn, 5):
            if a:
                pts.update(_turn(p, -a) for p in seated)
        out["box turned"] = sorted(pts)
    corner = seats.get("corner")
    if corner:
        # the box at the corner, in front of both: not also pushed aside
        front = eye_points(dict(seats, box_to_the_side=0), seat)
        around: set = set()
        for a in _steps(-corner, corner, 7):
            if a:
                around.update(_turn(p, a) for p in front)
        out["corner of a square table"] = sorted(around)
    if seats.get("half_standing"):
        out["half-standing"] = half_standing(seats, seat)
    return out
