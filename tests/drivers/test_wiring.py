# hardware/WIRING.md is generated from board.json; a stale copy would send
# someone to solder the wrong pin. (CPython only: the generator is a host
# tool. Its name is not test_*-importable under micropython on purpose.)
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _script(name):
    """hardware/<name>.py, a script (not a package module), loaded by path."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "hardware", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_committed_wiring_sheet_matches_board_json():
    p = subprocess.run([sys.executable, os.path.join(ROOT, "hardware", "gen_wiring.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_wiring_sheet_names_every_wired_gpio():
    gen_wiring = _script("gen_wiring")
    import boarddef
    board = boarddef.load(os.path.join(ROOT, "hardware", "board.json"))
    text = gen_wiring.render(board)
    for gpio, field in boarddef.pin_owners(board).items():
        assert "GP%d (pin %d)" % (gpio, gen_wiring.PHYS[gpio]) in text, field
    # Physical pin numbers follow the Pico pinout (spot checks).
    assert gen_wiring.PHYS[0] == 1 and gen_wiring.PHYS[15] == 20
    assert gen_wiring.PHYS[16] == 21 and gen_wiring.PHYS[22] == 29 and gen_wiring.PHYS[28] == 34


def test_stale_sheet_is_reported(tmp_path):
    # Run the generator against a copy of hardware/ with a changed pin.
    import json
    import shutil
    hw = tmp_path / "hardware"
    shutil.copytree(os.path.join(ROOT, "hardware"), hw)
    shutil.copytree(os.path.join(ROOT, "firmware"), tmp_path / "firmware")
    board = json.loads((hw / "board.json").read_text())
    board["players"][0]["led"] = 28
    (hw / "board.json").write_text(json.dumps(board))
    p = subprocess.run([sys.executable, str(hw / "gen_wiring.py"), "--check"],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "out of date" in p.stderr
    p = subprocess.run([sys.executable, str(hw / "gen_wiring.py")], capture_output=True, text=True)
    assert p.returncode == 0
    assert "GP28 (pin 34) -> 330 ohm" in (hw / "WIRING.md").read_text()


def test_invalid_board_gets_a_message_not_a_traceback(tmp_path):
    import json
    import shutil
    hw = tmp_path / "hardware"
    shutil.copytree(os.path.join(ROOT, "hardware"), hw)
    shutil.copytree(os.path.join(ROOT, "firmware"), tmp_path / "firmware")
    board = json.loads((hw / "board.json").read_text())
    board["players"][1]["buttons"]["ok"] = 17
    (hw / "board.json").write_text(json.dumps(board))
    p = subprocess.run([sys.executable, str(hw / "gen_wiring.py")], capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stderr.strip() == ("gen_wiring: players[1].buttons.ok: pin 17 is already used "
                                "by players[0].panel.cs")


def test_wiring_picture_labels_every_used_pin_and_part():
    gen_wiring = _script("gen_wiring")
    wiring_picture = _script("wiring_picture")
    import boarddef
    board = boarddef.load(os.path.join(ROOT, "hardware", "board.json"))
    svg = wiring_picture.draw(board, gen_wiring.HEADER, gen_wiring.PHYS, boarddef).svg()
    for gpio, field in boarddef.pin_owners(board).items():
        assert ">GP%d " % gpio in svg or ">GP%d<" % gpio in svg, field
    for p in (1, 2):
        for b in boarddef.BUTTONS:
            assert ">P%d %s<" % (p, b) in svg
        assert ">P%d turn LED<" % p in svg and ">Player %d panel<" % p in svg
    # one colour per player, and the player's own signals drawn in it
    for colour in wiring_picture.PLAYER_COLOURS:
        assert svg.count('stroke="%s"' % colour) > 10
    # the committed PNG is this drawing (its text chunk carries the SVG's hash)
    with open(os.path.join(ROOT, "hardware", "wiring.png"), "rb") as f:
        assert gen_wiring.png_text(f.read(), "okgin-source") == wiring_picture.svg_hash(svg)


def test_stale_picture_is_reported(tmp_path):
    import shutil
    hw = tmp_path / "hardware"
    shutil.copytree(os.path.join(ROOT, "hardware"), hw)
    shutil.copytree(os.path.join(ROOT, "firmware"), tmp_path / "firmware")
    (hw / "wiring.png").write_bytes(b"not a picture")
    p = subprocess.run([sys.executable, str(hw / "gen_wiring.py"), "--check"], capture_output=True, text=True)
    assert p.returncode == 1
    assert "hardware/wiring.png is out of date" in p.stderr
