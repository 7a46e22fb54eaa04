"""`okgin board`: prints the port, serves until Ctrl-C, clear errors."""
import os
import signal
import subprocess
import sys
import threading

import serial

OKGIN = [sys.executable, "-m", "okgin.cli"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(args, env=None, **kw):
    e = dict(os.environ, **(env or {}))
    return subprocess.run(OKGIN + args, capture_output=True, text=True, cwd=ROOT, env=e,
                          timeout=60, **kw)


def test_missing_micropython_says_how_to_get_it():
    r = run(["board"], env={"OKGIN_MICROPYTHON": "/no/such/micropython"})
    assert r.returncode == 1
    assert r.stderr.startswith("okgin: micropython binary '/no/such/micropython'")
    assert "Traceback" not in r.stderr


def test_missing_flash_dir_and_bad_options_are_one_line_errors(tmp_path):
    r = run(["board", "--flash-dir", str(tmp_path / "nope")])
    assert r.returncode == 1 and "--populate" in r.stderr and "Traceback" not in r.stderr
    # malformed values are usage errors, exit 2, as for every command
    # (okgin.table.options; tests/host/test_table_options.py)
    r = run(["board", "--speed", "-1"])
    assert r.returncode == 2 and "argument --speed" in r.stderr and "Traceback" not in r.stderr
    r = run(["board", "--heapsize", "lots"])
    assert r.returncode == 2 and "argument --heapsize" in r.stderr and "Traceback" not in r.stderr


def test_board_prints_its_port_serves_it_and_stops_on_ctrl_c(tmp_path):
    flash = tmp_path / "flash"
    p = subprocess.Popen(OKGIN + ["board", "--flash-dir", str(flash), "--populate", "--speed", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first = p.stdout.readline()
        assert first.startswith("virtual board on /dev/")
        port = first.split()[3]
        assert "mpremote connect %s resume fs ls" % port in p.stdout.readline()
        with serial.Serial(port, timeout=20) as s:
            assert s.read_until(b"READY").endswith(b"READY")   # the real firmware booted
            s.write(b"\r\x03")          # Ctrl-C gives the REPL
            got = s.read_until(b">>> ")
            if b"FATAL: uncaught NLR" in got:
                # the unix port's asynchronous KeyboardInterrupt crashed it
                # (about 1 in 100, docs/virtual-board.md); it rebooted: again
                s.read_until(b"READY")
                s.write(b"\r\x03")
                got = s.read_until(b">>> ")
            assert got.endswith(b">>> ")
            s.write(b"print(40+2)\r")
            assert s.read_until(b"42").endswith(b"42")
        assert (flash / "board.json").exists()
    finally:
        p.send_signal(signal.SIGINT)
        p.wait(20)
    assert p.returncode == 0


def _board_until(flash, args, pattern, stream="stdout"):
    """Run okgin board on ``flash`` until ``pattern`` shows on ``stream``;
    (stdout, stderr, exit status) once Ctrl-C stopped it."""
    p = subprocess.Popen(OKGIN + ["board", "--flash-dir", str(flash), "--speed", "0"] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    seen = []
    stop = threading.Timer(30, p.send_signal, (signal.SIGINT,))   # the pattern never came
    stop.start()
    try:
        for line in getattr(p, stream):
            seen.append(line)
            if pattern in line:
                break
    finally:
        stop.cancel()
        p.send_signal(signal.SIGINT)
        rest = dict(zip(("stdout", "stderr"), p.communicate(timeout=20), strict=True))
    rest[stream] = "".join(seen) + rest[stream]
    return rest["stdout"], rest["stderr"], p.returncode


def test_board_says_whether_a_firmware_that_exited_boots_again(tmp_path):
    # A main.py that dies the first time only (the power-loss kind of exit):
    # the board boots again, and says so.
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text(
        "import os, time\n"
        "try:\n    open('booted').close()\n"
        "except OSError:\n    open('booted', 'w').close()\n    os.system('kill -9 $PPID')\n"
        "print('READY second boot')\n"
        "while True:\n    time.sleep(1)\n")
    out, err, rc = _board_until(flash, [], "boots again")
    assert "micropython exited with status -9; the board boots again" in out
    assert "stays off" not in out + err and rc == 0


def test_board_says_it_stays_off_even_when_quiet(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text("import os\nos.system('kill -9 $PPID')\n")
    out, err, rc = _board_until(flash, ["--quiet"], "stays off", stream="stderr")
    assert "micropython exited with status -9 3 times in a row at boot, so the board stays off" in err
    assert "boots again" not in out and "panel" not in out
