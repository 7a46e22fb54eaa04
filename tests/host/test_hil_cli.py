"""CI runs the hardware-in-loop suite on the virtual board: `okgin hil --sim`."""
import subprocess
import xml.etree.ElementTree as ET

import pytest

from tests.support.host import ROOT, okgin_cmd


@pytest.mark.slow
def test_okgin_hil_sim_passes_and_writes_junit(tmp_path):
    junit = tmp_path / "hil.xml"
    r = subprocess.run(okgin_cmd("hil", "--sim", "--junit", str(junit)), cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    # It says what it does while the board starts and is flashed (seconds
    # that used to pass in silence), before the suite's own output.
    lines = r.stdout.splitlines()
    assert lines[0].startswith("starting a virtual board")
    assert lines[1].startswith("flashing it on ")
    suite_at = lines.index("running the hardware-in-loop suite (tests/hil) against it")
    assert any(ln.startswith("verified ") for ln in lines[:suite_at])
    suite = ET.parse(junit).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    names = {c.get("name").split("[")[0] for c in suite.iter("testcase")}
    # every part of the suite ran: handshake, the scripted hand, screens,
    # power (reset and power cut), protocol robustness
    for name in ("test_hello_names_firmware_protocol_and_board", "test_scripted_hand_by_button_presses",
                 "test_screens_show_each_players_view", "test_reset_resumes_the_saved_game",
                 "test_power_cut_resumes_the_saved_game", "test_screens_equal_the_golden_images",
                 "test_a_bouncing_contact_moves_the_cursor_once",
                 "test_power_cut_during_a_save_keeps_a_whole_record", "test_binary_bytes_get_err",
                 "test_test_mode_commands_are_locked_outside_test_mode"):
        assert name in names, name
    assert int(suite.get("failures")) == 0 and int(suite.get("errors")) == 0
    assert int(suite.get("skipped")) == 0          # the virtual board can cut power


def test_okgin_hil_stops_with_one_line_when_the_firmware_does_not_answer(tmp_path):
    # A board without the okgin firmware (stock MicroPython at the REPL):
    # one line naming what it saw and the fix, not the same failure once
    # per test of the suite.
    from tests.support import micropython
    from tests.support.ptyboard import BareBoard
    (tmp_path / "d").mkdir()
    b = BareBoard(tmp_path / "d", micropython()).start()
    try:
        r = subprocess.run(okgin_cmd("hil", "--port", b.port), cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    finally:
        b.stop()
    assert r.returncode == 1
    assert r.stderr.startswith("okgin: the firmware on %s is not running" % b.port)
    assert "okgin flash" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    assert "failed" not in r.stdout                 # the suite did not run


def test_okgin_hil_on_a_missing_port_is_one_line():
    r = subprocess.run(okgin_cmd("hil", "--port", "/dev/nonexistent"), cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == "okgin: cannot open /dev/nonexistent: no such port; plug the board in, " \
                       "or leave out --port to find it\n"
