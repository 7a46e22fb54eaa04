// okgin table enclosure: two players facing each other. Each player's
// 2.9" e-paper panel sits on their side of a tent in the middle of the box,
// tilted toward them and under a hood, so that it reads well from their
// seat and the other player, across the tent, sees none of its ink (the
// sight-line checks of `okgin hardware build` look from every eye point of
// layout.json's seats). Six buttons and a turn LED per player on the deck in
// front of the tent; the Pico on a carrier board in the base, batteries in
// the base.
//
// Every number that says where something goes comes from
// hardware/layout.json, and every size of a bought part from
// hardware/parts.json, through params.scad (written by `okgin hardware
// build`; the committed one is for the default options). Open this file in
// OpenSCAD to look around; set `part` to see one printed part.
//
// Frame: the box is centred on x/y, z = 0 is the table top. Player 1
// (seat 0) sits at the -y side facing +y; player 2 at +y, the same station
// turned half round. Each station's front edge is station_front mm in from
// its player's edge of a table table_depth deep (station_y0 from the box's
// centre). A seat position [x, y] is measured from the middle of the
// station's front edge: x to the player's right, y away from the player.

include <params.scad>
include <screens.scad>   // the firmware's screens as pixels (written by the build), for the seat views
include <icons.scad>     // the buttons' symbols, the firmware's own icons (written by the build)

part = "assembly";   // assembly | exploded | lid | base | hood | tray0 | components | keepouts | ...
explode = 0;         // mm the parts move apart in the exploded view
stl_dir = "";        // the pictures: draw the printed parts from these exports (clean, no CSG)
cheeks = true;       // the hood's ends closed under the visor (false: only to show what they close)

$fn = 16;
eps = 0.01;

// ---------- derived heights ----------
lid_z = H - lid_t;                       // underside of the box's lid
deck_z = SH - lid_t;                     // underside of a station's deck
// btn_hole_d (params): the cap, and all round the switch's placement
// tolerance, a printed hole's shrink and some play (btn_clear each side);
// drawn round a polygon that is never narrower than that
module round_hole(d, n = 48) { circle(d = d / cos(180 / n), $fn = n); }
switch_z = SH + btn_protrude - btn_top;  // bottom of a switch body
tray_top = switch_z + pocket;            // top face of a button tray
tray_z = tray_top - tray_t;
ct = cos(tilt);
st = sin(tilt);

// ---------- placement helpers ----------
module seat(p) { rotate([0, 0, 180 * p]) translate([0, -station_y0, 0]) children(); }
module seat2d(p) { rotate(180 * p) translate([0, -station_y0]) children(); }

// The ink frame: origin at the centre of the ink's face, x along the
// panel's long side (to its player's right), y up the slope (away from the
// player), z out of the ink toward the player.
module at_ink() { translate([seat_panel[0], seat_panel[1], seat_panel[2]]) rotate([tilt, 0, 0]) children(); }

// The panel module's own frame (parts.json): PCB centre, front face at z = 0,
// connector end toward +x; turned so its connector is at seat_conn's end.
panel_rot = seat_conn > 0 ? 0 : 180;
module at_module() {
    at_ink() translate([0, 0, -panel_glass[2] - ink_t]) rotate([0, 0, panel_rot])
        translate([-panel_active_off[0], -panel_active_off[1], 0]) children();
}
ink_t = 0.05;                            // the ink film on the glass (model only)
w_in = ink_t + glass_gap;                // inner face of the hood's wall, in the ink frame
w_out = w_in + hood_t;                   // its outer face

// A point of the panel's plane (v up the slope, w out of it) in the seat
// frame's y/z: for the hood's profile.
function pp(v, w) = [seat_panel[1] + v * ct - w * st, seat_panel[2] + v * st + w * ct];
function vz(w, z) = (z - seat_panel[2] - w * ct) / st;
function vy(w, y) = (y - seat_panel[1] + w * st) / ct;

// the hood's back wall (its outer face), in the seat frame
mid = hood_back;

module rrect(size, r, h) {
    hull() for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (size[0] / 2 - r), sy * (size[1] / 2 - r), 0]) cylinder(r = r, h = h);
}

module ring2d(r, hole_d) { difference() { circle(r = r); circle(d = hole_d); } }
module box2d(inset) {
    r = max(R - inset, 0.5);
    offset(r = r, $fn = 24) square([W - 2 * inset - 2 * r, D - 2 * inset - 2 * r], center = true);
}
// a station's outline, in the seat frame (its front edge on y = 0)
module sbox2d(inset) {
    r = max(SR - inset, 0.5);
    translate([0, SD / 2]) offset(r = r, $fn = 24) square([SW - 2 * inset - 2 * r, SD - 2 * inset - 2 * r], center = true);
}

corner_posts = [for (sx = [-1, 1], sy = [-1, 1])
    [sx * (W / 2 - wall - post_r - post_gap), sy * (D / 2 - wall - post_r - post_gap)]];
// behind the button tray at the front, in the back corners
station_posts = [for (sx = [-1, 1], y = [44, SD - wall - post_r - post_gap])
    [sx * (SW / 2 - wall - post_r - post_gap), y]];

// ---------- the legends: a stroke font of our own (no font files, the same on every machine) ----------
// Each letter is strokes on a 4 x 6 grid (x 0..4, y 0..6), drawn as
// rounded lines; only the letters of the button names.
GLYPHS = [
    ["A", [[[0, 0], [0, 4], [2, 6], [4, 4], [4, 0]], [[0, 3], [4, 3]]]],
    ["C", [[[4, 6], [0, 6], [0, 0], [4, 0]]]],
    ["D", [[[0, 0], [0, 6], [2.5, 6], [4, 4], [4, 2], [2.5, 0], [0, 0]]]],
    ["E", [[[4, 6], [0, 6], [0, 0], [4, 0]], [[0, 3], [3, 3]]]],
    ["F", [[[4, 6], [0, 6], [0, 0]], [[0, 3], [3, 3]]]],
    ["G", [[[4, 6], [0, 6], [0, 0], [4, 0], [4, 3], [2, 3]]]],
    ["H", [[[0, 0], [0, 6]], [[4, 0], [4, 6]], [[0, 3], [4, 3]]]],
    ["I", [[[2, 0], [2, 6]], [[0.5, 6], [3.5, 6]], [[0.5, 0], [3.5, 0]]]],
    ["K", [[[0, 0], [0, 6]], [[4, 6], [0, 2.5]], [[1.5, 3.8], [4, 0]]]],
    ["L", [[[0, 6], [0, 0], [4, 0]]]],
    ["N", [[[0, 0], [0, 6], [4, 0], [4, 6]]]],
    ["O", [[[0, 0], [0, 6], [4, 6], [4, 0], [0, 0]]]],
    ["R", [[[0, 0], [0, 6], [4, 6], [4, 3], [0, 3]], [[1.5, 3], [4, 0]]]],
    ["T", [[[0, 6], [4, 6]], [[2, 6], [2, 0]]]],
    ["W", [[[0, 6], [0, 0], [2, 2.5], [4, 0], [4, 6]]]],
];
function glyph(ch) = [for (g = GLYPHS) if (g[0] == ch) g[1]][0];

module stroke2d(pts, w) {
    for (i = [0 : len(pts) - 2]) hull() {
        translate(pts[i]) circle(d = w, $fn = 8);
        translate(pts[i + 1]) circle(d = w, $fn = 8);
    }
}
// one word, centred on the origin, letters legend_h tall
module word2d(s) {
    k = (legend_h - legend_w) / 6;                // grid unit
    adv = 4 * k + legend_w + legend_gap;          // letter advance
    n = len(s);
    translate([-(n * adv - legend_gap) / 2 + legend_w / 2, -legend_h / 2 + legend_w / 2])
        for (i = [0 : n - 1]) translate([i * adv, 0])
            for (st_ = glyph(s[i])) stroke2d([for (p = st_) p * k], legend_w);
}

// ---------- a station's deck (printed upside down) ----------
module deck_plate2d() {
    difference() {
        sbox2d(0);
        for (b = btn_pos) translate(b) round_hole(btn_hole_d);
        translate(led_pos) circle(d = led_d + 2 * tol, $fn = 20);
        // under the hood: the panel's back and its cable go down through here
        translate([deck_hole[0], deck_hole[1]]) square([deck_hole[2] - deck_hole[0], deck_hole[3] - deck_hole[1]]);
        for (h = hood_screws) translate(h) circle(d = hood_screw_d);
    }
}

module deck() {
    difference() {
        union() {
            translate([0, 0, deck_z]) linear_extrude(lid_t) deck_plate2d();
            // locating lip just inside the station's walls
            translate([0, 0, deck_z - lip_h]) linear_extrude(lip_h + eps)
                difference() { sbox2d(wall + tol); sbox2d(wall + tol + lip_t); }
            // corner posts: the station's base is screwed to them from below
            translate([0, 0, floor_t + post_gap]) linear_extrude(deck_z - floor_t - post_gap + eps)
                for (c = station_posts) translate(c) ring2d(post_r, case_pilot_d);
            // posts the button tray hangs from (a blind pilot, a skin of deck above it)
            translate([0, 0, tray_top]) linear_extrude(deck_z - tray_top + eps)
                for (t = tray_posts) translate(t) ring2d(tray_post_r, tray_pilot_d);
            // the LED's collar: the LED is pushed in from below; the tray under it holds its rim
            translate([0, 0, tray_top + led_flange_h]) linear_extrude(deck_z - tray_top - led_flange_h + eps)
                translate(led_pos) ring2d((led_d + 2 * tol) / 2 + 1.6, led_d + 2 * tol);
        }
        // the lip is cut away over the ribbon's notch in the back wall
        translate([cable_pos[0] - cable_slot[0] / 2, SD - wall - tol - lip_t - 1, deck_z - lip_h - 1])
            cube([cable_slot[0], lip_t + 2, lip_h + 1]);
        // each button's symbol (the firmware's own icon), engraved into the top face beside it
        for (i = [0 : len(btn_pos) - 1])
            translate([btn_pos[i][0], btn_pos[i][1] + legend_dy, SH - legend_depth])
                linear_extrude(legend_depth + 1) icon2d(i);
    }
}

// ---------- the central box's lid (printed upside down) ----------
module lid_plate2d() {
    difference() {
        box2d(0);
        translate(bootsel_xy) circle(d = bootsel_hole_d, $fn = 12);
        translate(run_pos) circle(d = run_hole_d, $fn = 16);
    }
}

module lid() {
    difference() {
        union() {
            translate([0, 0, lid_z]) linear_extrude(lid_t) lid_plate2d();
            translate([0, 0, lid_z - lip_h]) linear_extrude(lip_h + eps)
                difference() { box2d(wall + tol); box2d(wall + tol + lip_t); }
            // corner posts: the base is screwed to them from below (the pilot runs their length)
            translate([0, 0, floor_t + post_gap]) linear_extrude(lid_z - floor_t - post_gap + eps)
                for (c = corner_posts) translate(c) ring2d(post_r, case_pilot_d);
            // the BOOTSEL pin's guide tube, down to just over the button
            translate([0, 0, bootsel_top + bootsel_gap]) linear_extrude(lid_z - bootsel_top - bootsel_gap + eps)
                translate(bootsel_xy) ring2d(bootsel_hole_d / 2 + 1.5, bootsel_hole_d);
            // the RUN (reset) switch's pocket: a 6 x 6 switch pushed in from below
            translate([0, 0, run_z]) linear_extrude(lid_z - run_z + eps) translate(run_pos) difference() {
                square(run_body[0] + 2 * tol + 2 * 1.6, center = true);
                square(run_body[0] + 2 * tol, center = true);
            }
        }
        // a notch in the lip for the USB plug, and for each station's ribbon
        translate([pico_dir * (W / 2 - wall - tol - lip_t / 2), pico_pos[1], lid_z - lip_h])
            cube([lip_t + 2, pico_usb_plug[0] + 2 * usb_clear + 2, 2 * lip_h], center = true);
        for (p = [0, 1]) rotate([0, 0, 180 * p])
            translate([box_cable[0] - cable_slot[0] / 2, -D / 2 + wall + tol - 1, lid_z - lip_h - 1])
                cube([cable_slot[0], lip_t + 2, lip_h + 1]);
    }
}

// ---------- a station's hood (printed standing as it stands) ----------
// Its profile in y/z (the seat frame, y from the hood's back wall): the
// panel's wall from the deck up its slope, the visor (its underside at
// least 45 degrees steep), a flat top back to the back wall, the back wall
// down to the deck. Both ends are closed, and so is the space under the
// visor (the cheeks): the ink shows only through the front, to its player.
function v_root() = hood_rise - hood_root;                      // where the visor leaves the panel's wall
function hood_outer() = let(
    vf = vz(w_out, SH + hood_foot),                      // the outer face meets the foot (a short upright rim)
    r = pp(v_root(), w_out),
    e = pp(hood_rise, hood_reach))                       // the visor's edge
    [[pp(vf, w_out)[0] - mid, SH], [pp(vf, w_out)[0] - mid, SH + hood_foot],
     [r[0] - mid, r[1]], [e[0] - mid, e[1]], [0, e[1]], [0, SH]];
function hood_inner() = let(vf = vz(w_in, SH - 1), va = vy(w_in, mid - hood_t))
    [[pp(vf, w_in)[0] - mid, SH - 1], [-hood_t, pp(va, w_in)[1]], [-hood_t, SH - 1]];
// the cheek at each end: between the panel's wall and the line from its foot to the visor's edge
function hood_cheek() = let(vf = vz(w_out, SH + hood_foot), r = pp(v_root(), w_out), e = pp(hood_rise, hood_reach))
    [[pp(vf, w_out)[0] - mid, SH], [r[0] - mid, r[1]], [e[0] - mid, e[1]]];

module hood_solid() {
    translate([0, mid, 0]) rotate([90, 0, 90]) translate([0, 0, -hood_len / 2]) {
        difference() {
            linear_extrude(hood_len) polygon(hood_outer());
            translate([0, 0, hood_end]) linear_extrude(hood_len - 2 * hood_end) polygon(hood_inner());
        }
        if (cheeks) for (z = [0, hood_len - hood_end]) translate([0, 0, z]) linear_extrude(hood_end) polygon(hood_cheek());
    }
}

module window_cut() {
    // the active area plus a margin at the inner face, straight for
    // window_land, then opening outward at window_flare degrees so the wall
    // hides nothing within that angle of the panel's normal
    m = window_margin;
    a0 = [panel_active[0] + 2 * m, panel_active[1] + 2 * m];
    grow = 2 * (hood_t + 1) * tan(window_flare);
    at_ink() {
        translate([0, 0, w_in - eps]) linear_extrude(window_land + 2 * eps) square(a0, center = true);
        translate([0, 0, w_in + window_land]) hull() {
            linear_extrude(eps) square(a0, center = true);
            translate([0, 0, hood_t + 1]) linear_extrude(eps) square([a0[0] + grow, a0[1] + grow], center = true);
        }
    }
}

module hood() {
    difference() {
        union() {
            hood_solid();
            // landings the PCB rests on at each mounting hole, and a peg through the hole
            at_module() for (h = panel_holes) translate(h) {
                cylinder(r = panel_post_r, h = w_in + panel_glass[2] + ink_t - eps + 0.3);
                translate([0, 0, -panel_pcb[2] - peg_tip]) cylinder(d = peg_d, h = panel_pcb[2] + peg_tip + eps);
            }
            // bosses at the foot: the deck is screwed to them from below
            translate([0, 0, SH]) linear_extrude(hood_boss_h) for (h = hood_screws) translate(h) circle(r = hood_boss_r);
        }
        window_cut();
        translate([0, 0, SH - eps]) linear_extrude(hood_boss_h - 1.5) for (h = hood_screws) translate(h) circle(d = hood_pilot_d);
        translate([-SW, -1, -1]) cube([2 * SW, SD + 2, SH + 1]);
    }
}

// ---------- the base (printed as it stands) ----------
module usb_cut() {
    translate([pico_dir * (W / 2 - wall / 2 + 0.5), pico_pos[1], pico_usb_z])
        cube([wall + 1 + 2 * eps, pico_usb_plug[0] + 2 * usb_clear, pico_usb_plug[1] + 2 * usb_clear], center = true);
}

module base() {
    difference() {
        union() {
            linear_extrude(floor_t) difference() {
                box2d(0);
                for (c = corner_posts) translate(c) circle(d = case_screw_d);
                for (h = batt_holes) translate(h) circle(d = batt_screw_d);
            }
            translate([0, 0, floor_t - eps]) linear_extrude(lid_z - floor_t + eps)
                difference() { box2d(0); box2d(wall); }
            // the carrier board's standoffs
            translate([0, 0, floor_t - eps]) linear_extrude(carrier_standoff + eps)
                for (h = carrier_holes) translate(h) ring2d(carrier_post_r, carrier_pilot_d);
            // a low rim round the battery holder
            translate([0, 0, floor_t - eps]) linear_extrude(batt_rim + eps) translate(batt_pos) difference() {
                square([batt_size[0] + 2 * tol + 3.2, batt_size[1] + 2 * tol + 3.2], center = true);
                square([batt_size[0] + 2 * tol, batt_size[1] + 2 * tol], center = true);
            }
        }
        usb_cut();
        // the power switch's opening in the same wall as the USB port
        translate([pico_dir * (W / 2 - wall / 2), power_pos[0], power_pos[1]])
            cube([wall + 2, power_cut[0], power_cut[1]], center = true);
        // countersinks for the flat-head screws (into the deck's corner posts, through the battery holder)
        for (c = concat(corner_posts)) translate([c[0], c[1], -eps])
            cylinder(d1 = case_screw_d + 2 * 1.6, d2 = case_screw_d, h = 1.6);
        for (h = batt_holes) translate([h[0], h[1], -eps]) cylinder(d1 = batt_screw_d + 2 * 1.6, d2 = batt_screw_d, h = 1.6);
        // the battery holder's two PC pins go through the floor (parts.json battery.pins); the wires
        // soldered to them run in a groove under the floor to a hole inside the holder's rim
        for (h = batt_pins) {
            translate([h[0], h[1], -1]) cylinder(d = batt_pin_hole_d, h = floor_t + 2, $fn = 16);
            translate([h[0] - 9, h[1] - 1.2, -eps]) cube([9, 2.4, 1.2]);
            translate([h[0] - 9, h[1], -1]) cylinder(d = batt_pin_hole_d, h = floor_t + 2, $fn = 16);
        }
        // each station's ribbon cable leaves through a notch in the top of the wall on its player's
        // side (the lid's lip is cut away over it: the ribbon passes under the lid)
        for (p = [0, 1]) rotate([0, 0, 180 * p]) translate([box_cable[0] - cable_slot[0] / 2, -D / 2 - 1, box_cable[1]])
            cube([cable_slot[0], wall + 2, H]);
    }
}

// ---------- a station's base (printed as it stands) ----------
module sbase() {
    difference() {
        union() {
            linear_extrude(floor_t) difference() {
                sbox2d(0);
                for (c = station_posts) translate(c) circle(d = case_screw_d);
            }
            translate([0, 0, floor_t - eps]) linear_extrude(deck_z - floor_t + eps)
                difference() { sbox2d(0); sbox2d(wall); }
        }
        // the ribbon cable to the central box leaves through a notch in the top of the back wall
        translate([cable_pos[0] - cable_slot[0] / 2, SD - wall - 1, cable_pos[1]]) cube([cable_slot[0], wall + 2, SH]);
        for (c = station_posts) translate([c[0], c[1], -eps])
            cylinder(d1 = case_screw_d + 2 * 1.6, d2 = case_screw_d, h = 1.6);
    }
}

// ---------- a button tray (one per player, printed flat) ----------
module tray_outline2d() {
    pts = concat(tray_posts, btn_pos, [led_pos]);
    xs = [for (t = pts) t[0]];
    ys = [for (t = pts) t[1]];
    x0 = min(xs) - tray_post_r - 2; x1 = max(xs) + tray_post_r + 2;
    y0 = min(ys) - btn_body[1] / 2 - 3; y1 = max(ys) + btn_body[1] / 2 + 3;
    translate([(x0 + x1) / 2, (y0 + y1) / 2]) offset(r = 3) square([x1 - x0 - 6, y1 - y0 - 6], center = true);
}

module tray() {
    // lower layer: the switches' legs go through it; upper layer: a pocket
    // holds each switch body in place. The LED's rim rests on it.
    translate([0, 0, tray_z]) linear_extrude(tray_t - pocket) difference() {
        tray_outline2d();
        for (b = btn_pos) for (sx = [-1, 1], sy = [-1, 1])
            translate([b[0] + sx * btn_legs[0] / 2, b[1] + sy * btn_legs[1] / 2]) circle(d = 1.6, $fn = 10);
        for (t = tray_posts) translate(t) circle(d = tray_screw_d);
        translate(led_pos) circle(d = 3.6, $fn = 12);
    }
    translate([0, 0, tray_top - pocket - eps]) linear_extrude(pocket + eps) difference() {
        tray_outline2d();
        for (b = btn_pos) translate(b) square([btn_body[0] + 2 * tol, btn_body[1] + 2 * tol], center = true);
        for (t = tray_posts) translate(t) circle(d = tray_screw_d);
        translate(led_pos) circle(d = 3.6, $fn = 12);
    }
}

// ---------- bought parts, simplified (for the pictures and the fit checks) ----------
// Three groups whose pieces never touch inside a group (so exporting a
// group needs no costly union): "a" boards and switch bodies, "b" what sits
// on them, "c" the panels' ink and flex cables and the Pico's header spacers.
module panel_module(g) {
    at_module() {
        if (g == "a") color("#1c4e8a") translate([0, 0, -panel_pcb[2]]) linear_extrude(panel_pcb[2])
            difference() {
                offset(r = 1) square([panel_pcb[0] - 2, panel_pcb[1] - 2], center = true);
                for (h = panel_holes) translate(h) circle(d = panel_hole_d);
            }
        if (g == "b") {
            color("#d8d8d0") translate([panel_glass_off[0] - panel_glass[0] / 2, panel_glass_off[1] - panel_glass[1] / 2, 0])
                cube(panel_glass);
            color("#eeeeee") translate([panel_conn_box[0], panel_conn_box[2], -panel_pcb[2] - panel_conn_depth])
                cube([panel_conn_box[1] - panel_conn_box[0], panel_conn_box[3] - panel_conn_box[2], panel_conn_depth]);
        }
        if (g == "c") {
            // the ink: the active area, a film on the glass
            color(ink_colour) translate([panel_active_off[0] - panel_active[0] / 2, panel_active_off[1] - panel_active[1] / 2, panel_glass[2]])
                cube([panel_active[0], panel_active[1], ink_t]);
            // the panel's flex cable wraps round the end away from the connector
            color("#b07020") translate([-panel_pcb[0] / 2 - 0.8, -panel_fpc_w / 2, -panel_pcb[2] - 0.6])
                cube([panel_pcb[0] / 2 + panel_glass_off[0] - panel_glass[0] / 2 + 0.8, panel_fpc_w, panel_pcb[2] + 0.6 + 0.3]);
        }
    }
}
ink_colour = "#f4f4ec";

carrier_top = floor_t + carrier_standoff + carrier_pcb[2];
pico_z = carrier_top + socket_h + pin_spacer;       // underside of the Pico's board
pico_usb_z = pico_z + pico_pcb[2] + pico_usb_size[2] / 2;
bootsel_top = pico_z + pico_pcb[2] + bootsel_size[2];

module pico_place() { translate([pico_pos[0], pico_pos[1], pico_z]) rotate([0, 0, pico_dir > 0 ? 0 : 180]) children(); }
module pico_place2d() { translate(pico_pos) rotate(pico_dir > 0 ? 0 : 180) children(); }

module pico(g) {
    pico_place() {
        if (g == "a") color("#2a8a3a") linear_extrude(pico_pcb[2]) difference() {
            square([pico_pcb[0], pico_pcb[1]], center = true);
            for (h = pico_holes) translate(h) circle(d = pico_hole_d);
        }
        if (g == "b") {
            color("#c0c0c8") translate([pico_pcb[0] / 2 + pico_usb_overhang - pico_usb_size[0], -pico_usb_size[1] / 2, pico_pcb[2]])
                cube(pico_usb_size);
            color("#303030") translate([-6, -3.5, pico_pcb[2]]) cube([7, 7, 1]);   // the RP2040
            color("#f0f0f0") translate([bootsel_at[0] - bootsel_size[0] / 2, bootsel_at[1] - bootsel_size[1] / 2, pico_pcb[2]])
                cube(bootsel_size);
            // the sockets on the carrier, under the Pico's two rows of pins
            for (sy = [-1, 1]) color("#202020") translate([-socket_len / 2, sy * pin_rows / 2 - 1.27, -pin_spacer - socket_h])
                cube([socket_len, 2.54, socket_h]);
        }
        // the black plastic spacers of the Pico's own header pins
        if (g == "c") for (sy = [-1, 1]) color("#202020") translate([-socket_len / 2, sy * pin_rows / 2 - 1.27, -pin_spacer])
            cube([socket_len, 2.54, pin_spacer]);
    }
}

module carrier(g) {
    if (g == "a") color("#b89a5a") translate([carrier_pos[0], carrier_pos[1], carrier_top - carrier_pcb[2]])
        linear_extrude(carrier_pcb[2]) difference() {
            square([carrier_pcb[0], carrier_pcb[1]], center = true);
            for (h = carrier_holes) translate(h - carrier_pos) circle(d = carrier_hole_d);
        }
    // right-angle pin headers at the board's edges: each plug comes off sideways
    if (g == "b") for (h = headers) color("#303030")
        translate([h[0], h[1], carrier_top]) rotate(h[2]) translate([-header_h / 2, -h[3] * 1.27, 0])
            cube([header_h, h[3] * 2.54, 2.54]);
}

module switch(b, g) {
    translate([b[0], b[1], switch_z]) {
        if (g == "a") color("#303030") translate([-btn_body[0] / 2, -btn_body[1] / 2, 0]) cube(btn_body);
        if (g == "b") color("#e0a020") translate([0, 0, btn_body[2]]) cylinder(d = btn_cap_d, h = btn_top - btn_body[2], $fn = 32);
    }
}

module led(g) {
    translate([led_pos[0], led_pos[1], tray_top]) {
        if (g == "a") color("#40d040") cylinder(d = led_flange_d, h = led_flange_h, $fn = 20);
        if (g == "b") color("#40d040") translate([0, 0, led_flange_h]) cylinder(d = led_d, h = led_h - led_flange_h, $fn = 20);
    }
}

module battery(g) {
    translate([batt_pos[0], batt_pos[1], floor_t]) {
        if (g == "a") color("#222222") translate([-batt_size[0] / 2, -batt_size[1] / 2, 0]) cube(batt_size);
    }
}

module run_switch(g) {
    translate([run_pos[0], run_pos[1], run_z]) {
        if (g == "a") color("#303030") translate([-run_body[0] / 2, -run_body[1] / 2, 0]) cube(run_body);
        if (g == "b") color("#e0a020") translate([0, 0, run_body[2]]) cylinder(d = run_cap_d, h = run_top - run_body[2]);
    }
}

module power_switch(g) {
    // a snap-in rocker in the side wall: its body inside, its bezel outside
    translate([pico_dir * (W / 2 - wall), power_pos[0], power_pos[1]]) rotate([0, 0, pico_dir > 0 ? 0 : 180]) {
        if (g == "a") color("#202020") translate([-power_body[0], -power_body[1] / 2, -power_body[2] / 2]) cube(power_body);
        if (g == "b") color("#202020") translate([wall, -power_bezel[0] / 2, -power_bezel[1] / 2]) cube([2, power_bezel[0], power_bezel[1]]);
    }
}

module components(groups = ["a", "b", "c"]) {
    for (g = groups) {
        for (p = [0, 1]) seat(p) {
            panel_module(g);
            for (b = btn_pos) switch(b, g);
            led(g);
        }
        pico(g);
        carrier(g);
        battery(g);
        run_switch(g);
        power_switch(g);
    }
}

// Spaces that must stay empty: the plug and wires behind each panel's
// connector, the USB plug, the plugs on the carrier's headers, the air in
// front of each panel's ink as far as the hood's outer face, and the path
// of the BOOTSEL pin.
module keepouts() {
    for (p = [0, 1]) seat(p) {
        at_module() translate([panel_keep[0], panel_keep[2], -panel_pcb[2] - panel_keep_depth])
            cube([panel_keep[1] - panel_keep[0], panel_keep[3] - panel_keep[2], panel_keep_depth]);
        at_ink() translate([-panel_active[0] / 2, -panel_active[1] / 2, ink_t + eps]) cube([panel_active[0], panel_active[1], hood_t + glass_gap]);
    }
    pico_place() translate([pico_pcb[0] / 2 + pico_usb_overhang, -pico_usb_plug[0] / 2, pico_pcb[2] + pico_usb_size[2] / 2 - pico_usb_plug[1] / 2])
        cube([W, pico_usb_plug[0], pico_usb_plug[1]]);
    for (h = headers) translate([h[0], h[1], carrier_top]) rotate(h[2])
        translate([header_h / 2, -h[3] * 1.27 - 0.5, 0]) cube([plug_len, h[3] * 2.54 + 1, 2.54 + 0.5]);
    translate([bootsel_xy[0], bootsel_xy[1], bootsel_top + eps]) cylinder(d = bootsel_hole_d - 0.2, h = H - bootsel_top);
}

// A screen on each panel for the pictures from the seats: the header and
// footer bars and ten cards, as the firmware draws a hand (dark on the ink).
// The firmware's own screen on each panel, pixel for pixel at the panel's
// pitch (screens.scad: each row's runs of ink from a golden screen of
// tests/app/golden, written by okgin hardware build), so a seat view shows
// what a seated player reads from there.
module screen_art(p) {
    at_ink() color("#202020") translate([0, 0, 0.02]) linear_extrude(0.05) screen_pixels(p);
}

// ---------- what to show ----------
// A station's printed parts are exported where player 1's stands; player
// 2's are the same parts turned half round.
module lid_shape() { if (stl_dir != "") import(str(stl_dir, "/lid.stl")); else lid(); }
module base_shape() { if (stl_dir != "") import(str(stl_dir, "/base.stl")); else base(); }
module station_shape(name, p) {
    if (stl_dir != "") rotate([0, 0, 180 * p]) import(str(stl_dir, "/", name, ".stl"));
    else seat(p) { if (name == "hood") hood(); else if (name == "deck") deck(); else if (name == "sbase") sbase(); else tray(); }
}
module tray_shape(p) { station_shape("tray0", p); }

lid_colour = "#e8e4da";
hood_colour = "#d9d3c4";
station_colour = "#5a6270";
module panels_and_leds() { for (p = [0, 1]) seat(p) { for (g = ["a", "b", "c"]) panel_module(g); led("a"); led("b"); } }
module switches() { for (p = [0, 1]) seat(p) for (b = btn_pos) { switch(b, "a"); switch(b, "b"); } run_switch("a"); run_switch("b"); }
module trays() { for (p = [0, 1]) color("#c9a56a") tray_shape(p); }
module electronics() { for (g = ["a", "b", "c"]) { pico(g); carrier(g); battery(g); power_switch(g); } }
module stations(e = 0) {
    for (p = [0, 1]) {
        translate([0, 0, 2.2 * e]) { color(hood_colour) station_shape("hood", p); seat(p) for (g = ["a", "b", "c"]) panel_module(g); }
        translate([0, 0, 1.4 * e]) { color(lid_colour) station_shape("deck", p); seat(p) { led("a"); led("b"); } }
        translate([0, 0, 0.7 * e]) { color("#c9a56a") tray_shape(p); seat(p) for (b = btn_pos) { switch(b, "a"); switch(b, "b"); } }
        color(station_colour) station_shape("sbase", p);
    }
}

module assembly(e = 0) {
    stations(e);
    translate([0, 0, 1.4 * e]) { color(lid_colour) lid_shape(); run_switch("a"); run_switch("b"); }
    color("#5a6270") base_shape();
    electronics();
}

if (part == "lid") color(lid_colour) lid_shape();
else if (part == "base") color("#5a6270") base_shape();
else if (part == "hood") seat(0) hood();
else if (part == "deck") seat(0) deck();
else if (part == "sbase") seat(0) sbase();
else if (part == "tray0") seat(0) tray();
else if (part == "hood_picture") color(hood_colour) station_shape("hood", 0);
else if (part == "deck_picture") color(lid_colour) station_shape("deck", 0);
else if (part == "station_picture") { stations(0); }
else if (part == "components") components();
else if (part == "components_a") components(["a"]);
else if (part == "components_b") components(["b"]);
else if (part == "components_c") components(["c"]);
else if (part == "keepouts") keepouts();
else if (part == "exploded") assembly(explode);
else if (part == "assembly") assembly(0);
else if (part == "seatview") { assembly(0); for (p = [0, 1]) seat(p) screen_art(p); }
else if (part == "step_electronics") { color("#5a6270") base_shape(); electronics(); }
else if (part == "step_panels") { color(hood_colour) station_shape("hood", 0); seat(0) for (g = ["a", "b", "c"]) panel_module(g); }
else if (part == "step_buttons") { color(lid_colour) station_shape("deck", 0); seat(0) { led("a"); led("b"); } tray_shape(0); seat(0) for (b = btn_pos) { switch(b, "a"); switch(b, "b"); } }
else if (part == "tray_picture") color("#c9a56a") tray_shape(0);
