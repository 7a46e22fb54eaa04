// okgin table enclosure: two players facing each other, each with a window
// for their 2.9" e-paper panel, six buttons and a turn LED.
//
// Every number that says where something goes comes from
// hardware/layout.json, and every size of a bought part from
// hardware/parts.json, through params.scad (written by `okgin hardware
// build`; the committed one is for the default options). Open this file in
// OpenSCAD to look around; set `part` to see one printed part.
//
// Frame: the box is centred on x/y, z = 0 is the bottom of the base.
// Player 1 (seat 0) sits at the -y side facing +y; player 2 (seat 1) at +y,
// the same layout turned half round. A seat position [x, y] is measured
// from the middle of that player's edge: x to the player's right, y away
// from the player.

include <params.scad>

part = "assembly";   // assembly | exploded | lid | base | tray0 | tray1 | components | keepouts
explode = 0;         // mm the parts move apart in the exploded view
stl_dir = "";        // the pictures: draw the printed parts from these exports (clean, no CSG)

$fn = 16;
eps = 0.01;

// ---------- derived heights ----------
lid_z = H - lid_t;                      // underside of the lid plate
btn_hole_d = btn_cap_d + 2 * tol + 0.4;  // clearance round a button cap
glass_top = lid_z - glass_gap;          // front of the panel glass
panel_z = glass_top - panel_glass[2];   // front face of the panel PCB
switch_z = H + btn_protrude - btn_top;  // bottom of a switch body
tray_top = switch_z + pocket;           // top face of a button tray
tray_z = tray_top - tray_t;
wall_top = lid_z;

// ---------- placement helpers ----------
module seat(p) { rotate([0, 0, 180 * p]) translate([0, -D / 2, 0]) children(); }

// The panel module: its PCB centre so that the active area's centre lands
// on seat_panel, connector end toward seat_conn (+1 right, -1 left).
panel_rot = seat_conn > 0 ? 0 : 180;
module at_panel() {
    translate([seat_panel[0], seat_panel[1], panel_z])
        rotate([0, 0, panel_rot])
            translate([-panel_active_off[0], -panel_active_off[1], 0]) children();
}

module rrect(size, r, h) {
    // rounded rectangle centred on x/y, from z = 0 to h
    hull() for (sx = [-1, 1], sy = [-1, 1])
        translate([sx * (size[0] / 2 - r), sy * (size[1] / 2 - r), 0]) cylinder(r = r, h = h);
}

module box_outline(inset, h) { rrect([W - 2 * inset, D - 2 * inset], max(R - inset, 0.5), h); }

corner_posts = [for (sx = [-1, 1], sy = [-1, 1])
    [sx * (W / 2 - wall - post_r - post_gap), sy * (D / 2 - wall - post_r - post_gap)]];

// Everything printed is built from extruded 2D outlines where it can be:
// OpenSCAD 2021's CGAL spends its time in 3D booleans (and grows with the
// facet count), 2D ones are nearly free. Hidden round things use $fn = 16.
module ring2d(r, hole_d) { difference() { circle(r = r); circle(d = hole_d); } }
module seat2d(p) { rotate(180 * p) translate([0, -D / 2]) children(); }
module at_panel2d() { translate(seat_panel) rotate(panel_rot) translate(-panel_active_off) children(); }
module box2d(inset) {
    r = max(R - inset, 0.5);
    offset(r = r, $fn = 24) square([W - 2 * inset - 2 * r, D - 2 * inset - 2 * r], center = true);
}

// ---------- the lid (printed upside down) ----------
module lid_plate2d() {
    difference() {
        box2d(0);
        for (p = [0, 1]) seat2d(p) {
            // the window: the active area plus a margin all round
            translate(seat_panel)
                square([panel_active[0] + 2 * window_margin, panel_active[1] + 2 * window_margin], center = true);
            for (b = btn_pos) translate(b) circle(d = btn_hole_d, $fn = 32);
            translate(led_pos) circle(d = led_d + 2 * tol, $fn = 20);
        }
    }
}

module lid() {
    union() {
        translate([0, 0, lid_z]) linear_extrude(lid_t) lid_plate2d();
        // locating lip just inside the base walls
        translate([0, 0, lid_z - lip_h]) linear_extrude(lip_h + eps)
            difference() { box2d(wall + tol); box2d(wall + tol + lip_t); }
        // corner posts: the base is screwed to them from below (the pilot runs their length)
        translate([0, 0, floor_t + post_gap]) linear_extrude(lid_z - floor_t - post_gap + eps)
            for (c = corner_posts) translate(c) ring2d(post_r, case_pilot_d);
        // posts the button trays hang from
        translate([0, 0, tray_top]) linear_extrude(lid_z - tray_top + eps)
            for (p = [0, 1]) seat2d(p) for (t = tray_posts) translate(t) ring2d(tray_post_r, tray_pilot_d);
        // LED collars: each holds a 5 mm LED pushed in from below
        translate([0, 0, lid_z - led_collar]) linear_extrude(led_collar + eps)
            for (p = [0, 1]) seat2d(p) translate(led_pos) ring2d((led_d + 2 * tol) / 2 + 1.6, led_d + 2 * tol);
        // panel mounts: a landing the PCB rests on at each mounting hole, and a
        // peg through the hole (melt its tip with a soldering iron, or glue it)
        translate([0, 0, panel_z]) linear_extrude(lid_z - panel_z + eps)
            for (p = [0, 1]) seat2d(p) at_panel2d() for (h = panel_holes) translate(h) circle(r = panel_post_r);
        translate([0, 0, panel_z - panel_pcb[2] - peg_tip]) linear_extrude(panel_pcb[2] + peg_tip + eps)
            for (p = [0, 1]) seat2d(p) at_panel2d() for (h = panel_holes) translate(h) circle(d = panel_hole_d - 2 * tol);
    }
}

// ---------- the base (printed as it stands) ----------
module usb_cut() {
    // the opening the USB plug goes through, in the wall the Pico faces
    // (only through the wall: nothing inside may be cut)
    translate([pico_dir * (W / 2 - wall / 2 + 0.5), pico_pos[1], pico_usb_z])
        cube([wall + 1 + 2 * eps, pico_usb_plug[0] + 2 * tol, pico_usb_plug[1] + 2 * tol], center = true);
}

module base() {
    difference() {
        union() {
            linear_extrude(floor_t) difference() {
                box2d(0);
                for (c = corner_posts) translate(c) circle(d = case_screw_d);
            }
            translate([0, 0, floor_t - eps]) linear_extrude(wall_top - floor_t + eps)
                difference() { box2d(0); box2d(wall); }
            // Pico standoffs
            translate([0, 0, floor_t - eps]) linear_extrude(pico_standoff + eps)
                pico_place2d() for (h = pico_holes) translate(h) ring2d(pico_post_r, pico_pilot_d);
            // cable-tie bridges: a zip tie threads under each to hold the wire bundle
            for (c = cable_ties) translate([c[0], c[1] + 3, floor_t - eps]) rotate([90, 0, 0])
                linear_extrude(6) difference() {
                    translate([-5, 0]) square([10, tie_h + 1.6]);
                    translate([-3.5, -1]) square([7, tie_h + 1]);
                }
        }
        usb_cut();
        // countersinks for the flat-head screws into the lid's corner posts
        for (c = corner_posts) translate([c[0], c[1], -eps])
            cylinder(d1 = case_screw_d + 2 * 1.6, d2 = case_screw_d, h = 1.6);
    }
}

// ---------- a button tray (one per player, printed flat) ----------
module tray_outline2d() {
    xs = [for (t = tray_posts) t[0]];
    ys = [for (t = concat(tray_posts, btn_pos)) t[1]];
    x0 = min(xs) - tray_post_r - 2; x1 = max(xs) + tray_post_r + 2;
    y0 = min(ys) - btn_body[1] / 2 - 3; y1 = max(ys) + btn_body[1] / 2 + 3;
    translate([(x0 + x1) / 2, (y0 + y1) / 2]) offset(r = 3) square([x1 - x0 - 6, y1 - y0 - 6], center = true);
}

module tray() {
    // lower layer: the switches' legs go through it; upper layer: a pocket
    // holds each switch body in place
    translate([0, 0, tray_z]) linear_extrude(tray_t - pocket) difference() {
        tray_outline2d();
        for (b = btn_pos) for (sx = [-1, 1], sy = [-1, 1])
            translate([b[0] + sx * btn_legs[0] / 2, b[1] + sy * btn_legs[1] / 2]) circle(d = 1.6, $fn = 10);
        for (t = tray_posts) translate(t) circle(d = tray_screw_d);
    }
    translate([0, 0, tray_top - pocket - eps]) linear_extrude(pocket + eps) difference() {
        tray_outline2d();
        for (b = btn_pos) translate(b) square([btn_body[0] + 2 * tol, btn_body[1] + 2 * tol], center = true);
        for (t = tray_posts) translate(t) circle(d = tray_screw_d);
    }
}

// ---------- bought parts, simplified (for the pictures and the fit checks) ----------
// Three groups whose pieces never touch inside a group (so exporting a
// group needs no costly union): "a" boards and switch bodies, "b" what sits
// on them, "c" the panels' flex cables.
module panel_module(g) {
    at_panel() {
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
        // the ink: the active area, a film on the glass (group c: it touches the glass)
        if (g == "c") color("#f4f4ec") translate([panel_active_off[0] - panel_active[0] / 2, panel_active_off[1] - panel_active[1] / 2, panel_glass[2]])
            cube([panel_active[0], panel_active[1], 0.05]);
        // the panel's flex cable wraps round the end away from the connector
        if (g == "c") color("#b07020") translate([-panel_pcb[0] / 2 - 0.8, -panel_fpc_w / 2, -panel_pcb[2] - 0.6])
            cube([panel_pcb[0] / 2 + panel_glass_off[0] - panel_glass[0] / 2 + 0.8, panel_fpc_w, panel_pcb[2] + 0.6 + 0.3]);
    }
}

module pico_place2d() {
    translate(pico_pos) rotate(pico_dir > 0 ? 0 : 180) children();
}

module pico_place() {
    translate([pico_pos[0], pico_pos[1], floor_t + pico_standoff]) rotate([0, 0, pico_dir > 0 ? 0 : 180]) children();
}

pico_usb_z = floor_t + pico_standoff + pico_pcb[2] + pico_usb_size[2] / 2;

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
        }
    }
}

module switch(b, g) {
    translate([b[0], b[1], switch_z]) {
        if (g == "a") color("#303030") translate([-btn_body[0] / 2, -btn_body[1] / 2, 0]) cube(btn_body);
        if (g == "b") color("#e0a020") translate([0, 0, btn_body[2]]) cylinder(d = btn_cap_d, h = btn_top - btn_body[2], $fn = 32);
    }
}

module led(g) {
    translate([led_pos[0], led_pos[1], lid_z - led_collar - eps - led_flange_h]) {
        if (g == "a") color("#40d040") cylinder(d = led_flange_d, h = led_flange_h, $fn = 20);
        if (g == "b") color("#40d040") translate([0, 0, led_flange_h]) cylinder(d = led_d, h = led_h - led_flange_h, $fn = 20);
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
    }
}

// Spaces that must stay empty: the plug and wires behind each panel's
// connector, the USB plug, and the column of air above each active area
// (nothing of the lid may cover the ink).
module keepouts() {
    for (p = [0, 1]) seat(p) {
        at_panel() translate([panel_keep[0], panel_keep[2], -panel_pcb[2] - panel_keep_depth])
            cube([panel_keep[1] - panel_keep[0], panel_keep[3] - panel_keep[2], panel_keep_depth]);
        translate([seat_panel[0] - panel_active[0] / 2, seat_panel[1] - panel_active[1] / 2, glass_top + eps])
            cube([panel_active[0], panel_active[1], H + 10 - glass_top]);
    }
    pico_place() translate([pico_pcb[0] / 2 + pico_usb_overhang, -pico_usb_plug[0] / 2, pico_pcb[2] + pico_usb_size[2] / 2 - pico_usb_plug[1] / 2])
        cube([W, pico_usb_plug[0], pico_usb_plug[1]]);
}

// ---------- what to show ----------
module lid_shape() { if (stl_dir != "") import(str(stl_dir, "/lid.stl")); else lid(); }
module base_shape() { if (stl_dir != "") import(str(stl_dir, "/base.stl")); else base(); }
module tray_shape(p) {
    if (stl_dir != "") rotate([0, 0, 180 * p]) import(str(stl_dir, "/tray0.stl"));
    else seat(p) tray();
}

module panels_and_leds() { for (p = [0, 1]) seat(p) { for (g = ["a", "b", "c"]) panel_module(g); led("a"); led("b"); } }
module switches() { for (p = [0, 1]) seat(p) for (b = btn_pos) { switch(b, "a"); switch(b, "b"); } }
module trays() { for (p = [0, 1]) color("#c9a56a") tray_shape(p); }
module the_pico() { pico("a"); pico("b"); }

module assembly(e = 0) {
    translate([0, 0, 2.2 * e]) { color("#e8e4da") lid_shape(); panels_and_leds(); }
    translate([0, 0, e]) { trays(); switches(); }
    color("#5a6270") base_shape();
    the_pico();
}

if (part == "lid") color("#e8e4da") lid_shape();
else if (part == "base") color("#5a6270") base_shape();
else if (part == "tray0") seat(0) tray();
else if (part == "tray1") seat(1) tray();
else if (part == "components") components();
else if (part == "components_a") components(["a"]);
else if (part == "components_b") components(["b"]);
else if (part == "components_c") components(["c"]);
else if (part == "keepouts") keepouts();
else if (part == "exploded") assembly(explode);
else if (part == "assembly") assembly(0);
else if (part == "step_pico") { color("#5a6270") base_shape(); the_pico(); }
else if (part == "step_panels") { color("#e8e4da") lid_shape(); panels_and_leds(); }
else if (part == "step_buttons") { color("#e8e4da") lid_shape(); panels_and_leds(); trays(); switches(); }
else if (part == "tray_picture") color("#c9a56a") tray_shape(0);
