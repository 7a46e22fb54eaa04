"""The README's test command runs the hardware-in-loop suite on the emulated
Pico: `okgin hil --chip` starts a new Pico with the firmware put on it by
okgin flash (raw REPL over its USB serial; in a test run a copy of the
Pico the run flashed once, okgin.table.flashed), and runs tests/hil
against it."""
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.support.chip import ROOT


# The suite in three parts, each its own `okgin hil --chip -k ...` on its
# own Pico (make test hands them to different workers: one part of the
# whole took 270 s on one core), and what each must have run on the chip:
# handshake, the scripted hand by GPIO presses checked against the engine,
# golden screens, reset, power cut mid-game and mid-save (between two flash
# writes), robustness.
PARTS = {
    "test_game": ("test_scripted_hand_by_button_presses", "test_screens_equal_the_golden_images",
                  "test_a_bouncing_contact_moves_the_cursor_once"),
    "test_power": ("test_reset_resumes_the_saved_game", "test_power_cut_resumes_the_saved_game",
                   "test_power_cut_during_a_save_keeps_a_whole_record"),
    "test_handshake or test_robustness": ("test_hello_names_firmware_protocol_and_board",
                                          "test_binary_bytes_get_err",
                                          "test_test_mode_commands_are_locked_outside_test_mode"),
}


def test_the_parts_cover_every_file_of_the_suite():
    import pathlib
    files = {p.stem for p in (pathlib.Path(ROOT) / "tests" / "hil").glob("test_*.py")}
    named = {w for expr in PARTS for w in expr.split(" or ")}
    assert files == named


@pytest.mark.slow
@pytest.mark.parametrize("part", PARTS)
def test_okgin_hil_chip_flashes_and_passes_the_whole_suite(rp2_images, tmp_path, part):
    junit = tmp_path / "hil.xml"
    r = subprocess.run([sys.executable, "-m", "okgin.cli", "hil", "--chip", "-k", part, "--junit", str(junit)],
                       cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    suite = ET.parse(junit).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    cases = list(suite.iter("testcase"))
    # every test of the part's files ran, and only those
    modules = {c.get("classname").rsplit(".", 1)[-1] for c in cases}
    assert modules == set(part.split(" or ")), modules
    names = {c.get("name").split("[")[0] for c in cases}
    for name in PARTS[part]:
        assert name in names, name
    assert int(suite.get("failures")) == 0 and int(suite.get("errors")) == 0
    assert int(suite.get("skipped")) == 0
