# Board definition validation (boarddef.py). Plain asserts so that
# test_micropython.py can run this very file under the micropython binary.
import json

import boarddef
import fakes

# The default table (4.2" SSD1683 panels) and the 2.9" variant (SSD1680),
# whose definition the cases below change one field at a time.
BOARD = fakes.repo_root() + "/hardware/board.json"
BOARD_2IN9 = fakes.repo_root() + "/hardware/board-2in9.json"
DELETE = object()


def good():
    with open(BOARD_2IN9) as f:
        return json.loads(f.read())


def changed(path, value):
    b = good()
    obj = b
    for key in path[:-1]:
        obj = obj[key]
    if value is DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return b


def error(board):
    try:
        boarddef.validate(board)
    except boarddef.BoardError as e:
        return str(e)
    raise AssertionError("accepted a bad board definition")


# (where to change, new value, the start of the error message)
BAD = [
    (("players", 1, "buttons", "ok"), 17,
     "players[1].buttons.ok: pin 17 is already used by players[0].panel.cs"),
    (("players", 0, "led"), 19, "players[0].led: pin 19 is already used by spi.mosi"),
    (("players", 0, "buttons", "left"), 16, "players[0].buttons.left: pin 16 is already used by spi.miso"),
    (("players", 0, "buttons", "knock"), 30, "players[0].buttons.knock: pin 30 does not exist"),
    (("players", 0, "buttons", "knock"), -1, "players[0].buttons.knock: pin -1 does not exist"),
    (("players", 1, "led"), 25, "players[1].led: pin 25 is not on the Pico header"),
    (("players", 1, "panel", "busy"), 23, "players[1].panel.busy: pin 23 is not on the Pico header"),
    (("players", 1, "panel", "busy"), "22", "players[1].panel.busy: expected a GPIO number, got a string"),
    (("players", 1, "panel", "busy"), True, "players[1].panel.busy: expected a GPIO number"),
    (("players", 1, "panel", "busy"), 2.5, "players[1].panel.busy: expected a GPIO number"),
    (("players", 0, "buttons", "draw"), DELETE, "players[0].buttons.draw: missing"),
    (("players", 0, "buttons", "pass"), 28, "players[0].buttons.pass: unknown field"),
    (("players", 0, "panel", "controller"), "SSD1681", "players[0].panel.controller: 'SSD1681' is not supported"),
    (("players", 0, "panel", "rotation"), 0, "players[0].panel.rotation: 0 is not supported"),
    (("players", 0, "panel", "rotation"), 180, "players[0].panel.rotation: 180 is not supported"),
    (("players", 0, "panel", "width"), 400, "players[0].panel.width: 400 is out of range 8..296"),
    (("players", 0, "panel", "height"), 100, "players[0].panel.height: 100 is not a multiple of 8"),
    (("players", 0, "panel", "height"), 0, "players[0].panel.height: 0 is out of range"),
    (("players", 0, "panel"), [], "players[0].panel: expected an object, got a list"),
    (("players",), [], "players: expected 2 players, got 0"),
    (("players",), {}, "players: expected a list"),
    (("spi", "sck"), 17, "spi.sck: pin 17 cannot be SPI0 SCK (choose one of 2, 6, 18, 22)"),
    (("spi", "mosi"), 18, "spi.mosi: pin 18 cannot be SPI0 MOSI"),
    (("spi", "id"), 2, "spi.id: 2 is not an SPI bus"),
    (("spi", "id"), 1, "spi.sck: pin 18 cannot be SPI1 SCK"),
    (("spi", "baudrate"), 40000000, "spi.baudrate: 40000000 is out of range"),
    (("spi", "miso"), DELETE, None),   # optional: the port's default, 16
    (("spi", "miso"), 17, "spi.miso: pin 17 cannot be SPI0 MISO"),
    (("timing", "debounce_ms"), 0, "timing.debounce_ms: 0 is out of range 1..200"),
    (("timing", "repeat_ms"), "fast", "timing.repeat_ms: expected a whole number, got a string"),
    (("timing", "busy_timeout_ms"), DELETE, "timing.busy_timeout_ms: missing"),
    (("timing", "long_press_ms"), 150, None),  # valid on its own...
    (("timing", "colour"), 1, "timing.colour: unknown field"),
    (("name",), "okgin pico", "name: 'okgin pico' must be printable ASCII without spaces"),
    (("name",), "", "name: expected a non-empty string"),
    (("mcu",), "esp32", "mcu: 'esp32' is not supported"),
    (("wifi",), True, "wifi: unknown field"),
    (("timing",), DELETE, "timing: missing"),
    # the supply (docs/power.md): the Pico's own pins, not the header's
    (("power",), DELETE, None),        # optional: no battery gauge
    (("power", "smps_mode"), DELETE, None),
    (("power", "vbus_sense"), DELETE, "power.vbus_sense: missing"),
    (("power", "vsys_adc"), 28, None),  # another ADC input (an external divider)
    (("power", "vsys_adc"), 22, "power.vsys_adc: pin 22 cannot be an ADC input (choose one of 26, 27, 28, 29)"),
    (("power", "vsys_adc"), 26, "power.vsys_adc: pin 26 is already used by players[1].buttons.take"),
    (("power", "vbus_sense"), 29, "power.vsys_adc: pin 29 is already used by power.vbus_sense"),
    (("power", "battery"), "AA", "power.battery: unknown field"),
    (("power",), 3, "power: expected an object, got a number"),
    # the ink's size (the host's legibility check): optional, numbers in mm, with its source
    (("players", 0, "panel", "active_mm"), DELETE, None),
    (("players", 0, "panel", "active_mm"), [66.89], "players[0].panel.active_mm: expected [width, height] in mm"),
    (("players", 1, "panel", "active_mm"), [66.89, "29"], "players[1].panel.active_mm: '29' is not a size in mm"),
    (("players", 1, "panel", "active_mm"), [0.2, 29], "players[1].panel.active_mm: 0.2 is not a size in mm"),
    (("players", 0, "panel", "active_source"), DELETE, "players[0].panel.active_source: expected a non-empty string"),
]


def test_the_2in9_board_json_is_valid():
    b = boarddef.load(BOARD_2IN9)
    assert b["name"] == "okgin-pico-2p-2in9"
    assert len(b["players"]) == 2
    for p in b["players"]:
        assert sorted(p["buttons"]) == sorted(boarddef.BUTTONS)


def test_every_malformed_variant_names_its_field():
    for path, value, expected in BAD:
        if expected is None:
            boarddef.validate(changed(path, value))
            continue
        msg = error(changed(path, value))
        assert msg.startswith(expected), "%r -> %r, expected %r" % (path, msg, expected)


def test_long_press_must_outlast_debounce():
    b = good()
    b["timing"]["debounce_ms"] = 150
    b["timing"]["long_press_ms"] = 120
    assert error(b).startswith("timing.long_press_ms: 120 must be longer than timing.debounce_ms")


def test_board_error_is_a_value_error():
    try:
        boarddef.validate(changed(("spi", "id"), 7))
    except ValueError:
        return
    raise AssertionError("BoardError must be a ValueError")


def test_not_an_object_at_all():
    assert error([]).startswith("board: expected an object")


def test_load_reports_bad_json_with_the_path():
    # /tmp exists on Linux and macOS; MicroPython has no tempfile module.
    path = "/tmp/okgin_drivers_bad_board.json"
    with open(path, "w") as f:
        f.write('{"name": "x",')
    try:
        boarddef.load(path)
        raise AssertionError("loaded broken JSON")
    except boarddef.BoardError as e:
        assert str(e).startswith(path + ": not valid JSON"), str(e)
    finally:
        import os
        os.remove(path)


def test_load_reports_missing_file_with_the_path():
    try:
        boarddef.load("no/such/board.json")
        raise AssertionError("loaded a missing file")
    except boarddef.BoardError as e:
        assert str(e).startswith("no/such/board.json: cannot read"), str(e)


def test_pin_owners_lists_every_wired_gpio_once():
    owners = boarddef.pin_owners(boarddef.load(BOARD_2IN9))
    # 3 SPI + 2 x (4 panel + 6 buttons + 1 LED)
    assert len(owners) == 25
    assert owners[18] == "spi.sck"
    assert owners[17] == "players[0].panel.cs"
    assert owners[27] == "players[1].buttons.knock"


def test_spi1_board_is_accepted():
    b = good()
    b["spi"] = {"id": 1, "sck": 10, "mosi": 11, "miso": 28, "baudrate": 8000000}
    # GP10/11 were player 1's busy/rst: move them to free pins.
    b["players"][1]["panel"]["busy"] = 18
    b["players"][1]["panel"]["rst"] = 19
    boarddef.validate(b)


def test_miso_defaults_to_the_pin_micropython_claims():
    b = good()
    del b["spi"]["miso"]
    assert boarddef.validate(b)["spi"]["miso"] == 16
    # On SPI1 the default MISO is GP12, which this board uses for a panel.
    b = good()
    b["spi"] = {"id": 1, "sck": 26, "mosi": 27, "baudrate": 4000000}
    b["players"][1]["buttons"]["take"] = 28
    b["players"][1]["buttons"]["knock"] = 16
    assert error(b) == "players[1].panel.dc: pin 12 is already used by spi.miso"


def test_the_default_4in2_table_is_valid_with_the_2in9s_pins():
    b = boarddef.load(BOARD)
    assert b["name"] == "okgin-pico-2p-4in2"
    for p in b["players"]:
        assert p["panel"]["controller"] == "SSD1683"
        assert (p["panel"]["width"], p["panel"]["height"], p["panel"]["rotation"]) == (400, 300, 0)
        # drawn at 200x150, each pixel 2x2: Unifont 2x, 32 px card ranks
        assert p["panel"]["scale"] == 2
    assert boarddef.pin_owners(b) == boarddef.pin_owners(boarddef.load(BOARD_2IN9))


# The panel's scale (optional, 1 by default): what its driver can draw at,
# and a size it divides.
BAD_SCALES = [
    ("SSD1683", 400, 300, 3, "players[0].panel.scale: 3 is not supported by controller SSD1683 "
                             "(expected 1 or 2)"),
    ("SSD1683", 400, 300, 0, "players[0].panel.scale: 0 is not supported by controller SSD1683 "
                             "(expected 1 or 2)"),
    ("SSD1683", 400, 299, 2, "players[0].panel.scale: 400x299 is not divisible by 2"),
    ("SSD1683", 400, 300, True, "players[0].panel.scale: expected a whole number, got true/false"),
    ("SSD1683", 400, 300, "2", "players[0].panel.scale: expected a whole number, got a string"),
    ("SSD1680", 296, 128, 2, "players[0].panel.scale: 2 is not supported by controller SSD1680 "
                             "(expected 1)"),
]


def _panel_error(controller, w, h, rotation, **more):
    """The error of a good board whose first player's panel is this one."""
    b = good()
    b["players"][0]["panel"].update(controller=controller, width=w, height=h, rotation=rotation, **more)
    msg = error(b)
    assert "\n" not in msg, msg
    return msg


def test_a_scale_the_panel_cannot_take_is_one_clear_line():
    for controller, w, h, scale, expected in BAD_SCALES:
        rotation = 0 if controller == "SSD1683" else 90
        msg = _panel_error(controller, w, h, rotation, scale=scale)
        assert msg == expected, "%r -> %r" % (expected, msg)


def test_scale_1_and_2_are_taken_where_the_driver_draws_them():
    for controller, w, h, rot, scale in (("SSD1683", 400, 300, 0, 2), ("SSD1683", 400, 300, 180, 1),
                                         ("SSD1680", 296, 128, 90, 1)):
        b = good()
        for pl in b["players"]:
            pl["panel"].update(controller=controller, width=w, height=h, rotation=rot, scale=scale)
        assert boarddef.validate(b)["players"][1]["panel"]["scale"] == scale


# A panel the controller cannot drive: one line naming the field, the
# controller and what it takes.
BAD_PANELS = [
    ("SSD1680", 400, 300, 90, "players[0].panel.width: 400 is out of range 8..296 for controller SSD1680"),
    ("UC8151", 296, 120, 90, "players[0].panel.height: 120 is out of range 128..128 for controller UC8151"),
    ("SSD1683", 408, 300, 0, "players[0].panel.width: 408 is out of range 8..400 for controller SSD1683"),
    ("SSD1683", 400, 304, 0, "players[0].panel.height: 304 is out of range 8..300 for controller SSD1683"),
    ("SSD1683", 396, 300, 0, "players[0].panel.width: 396 is not a multiple of 8"),
    ("SSD1683", 400, 300, 90, "players[0].panel.rotation: 90 is not supported by controller SSD1683 "
                              "(expected 0 or 180)"),
    ("SSD1680", 296, 128, 0, "players[0].panel.rotation: 0 is not supported by controller SSD1680 "
                             "(expected 90 or 270)"),
    ("SSD1683", "400", 300, 0, "players[0].panel.width: expected a whole number, got a string"),
    ("SSD1684", 400, 300, 0, "players[0].panel.controller: 'SSD1684' is not supported "
                             "(expected one of SSD1680, SSD1683, UC8151)"),
]


def test_a_panel_the_controller_cannot_drive_is_one_clear_line():
    for controller, w, h, rot, expected in BAD_PANELS:
        msg = _panel_error(controller, w, h, rot)
        assert msg == expected, "%r -> %r" % (expected, msg)
