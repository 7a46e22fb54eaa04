"""One program at a time (docs/reliability.md): a virtual board's
flash directory and a board's serial port are refused to a second program
with a message naming the first, `okgin flash` says what holds a busy port,
and a flasher stopped at any moment leaves a table that gets back to its
game (at once when it can catch the signal, at the next power cycle when
it is SIGKILLed)."""
import os
import re
import signal
import subprocess
import sys
import time

from tests.support.host import ROOT, okgin_cmd
from okgin.lib import transport


def _start_board(flash_dir):
    p = subprocess.Popen(okgin_cmd("board", "--flash-dir", flash_dir, "--populate", "--speed", "0", "--quiet"),
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.match(r"virtual board on (\S+) ", line)
    assert m, line + p.stderr.read()
    return p, m.group(1)


def _stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def test_a_second_program_on_a_flash_directory_is_refused_naming_the_first(tmp_path):
    flash = str(tmp_path / "f")
    os.mkdir(flash)
    first, _port = _start_board(flash)
    try:
        held = "okgin board --flash-dir %s --populate --speed 0 --quiet (pid %d)" % (flash, first.pid)
        r = subprocess.run(okgin_cmd("board", "--flash-dir", flash, "--populate"), cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 1
        assert r.stderr.strip() == ("okgin: the flash directory %s is in use by %s: close it, "
                                    "or use another flash directory" % (flash, held))
        script = tmp_path / "s.txt"
        script.write_text("sync\n")
        r = subprocess.run(okgin_cmd("sim", "--headless", "--script", str(script), "--flash-dir", flash),
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert r.returncode == 1 and held in r.stderr and "Traceback" not in r.stderr
    finally:
        _stop(first)
    # once the first has stopped, the directory is free again
    second, _port = _start_board(flash)
    _stop(second)


def test_a_second_program_on_a_port_is_refused_and_flash_names_it(tmp_path):
    flash = str(tmp_path / "f")
    os.mkdir(flash)
    board, port = _start_board(flash)
    try:
        with transport.Board(port) as b:          # an okgin program holds the port
            b.wait_ready(30, probe_after=0.2)
            try:
                transport.Board(port).open()
                raise AssertionError("a second program opened the port")
            except transport.PortBusy as e:
                assert str(e).startswith("%s is in use by " % port)
            r = subprocess.run(okgin_cmd("flash", "--port", port), cwd=ROOT,
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 1
            assert r.stderr.startswith("okgin: %s is in use by " % port)
            assert "(pid %d)" % os.getpid() in r.stderr and "then try again" in r.stderr
        # mpremote, which locks the port the same way, is named too
        mp = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "mpremote"),
                               "connect", port, "resume", "exec", "import time; time.sleep(60)"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            from okgin.lib.locks import holder
            deadline = time.monotonic() + 30
            while "mpremote" not in (holder(port) or "") and time.monotonic() < deadline:
                time.sleep(0.1)       # mpremote starting
            r = subprocess.run(okgin_cmd("flash", "--port", port), cwd=ROOT,
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 1
            assert r.stderr.startswith("okgin: %s is in use by mpremote connect %s resume exec"
                                       % (port, port))
        finally:
            mp.kill()
            mp.wait()
    finally:
        _stop(board)


def _game_on(vb):
    from okgin.engine import Match
    m = Match(seed=77, dealer=0)
    for a in ("pass", "pass", "draw"):
        m.play(a)
    with open(os.path.join(vb.flash_dir, "game.okg"), "w") as f:
        f.write(m.to_record())
    return m


def _in_its_game(vb, m, timeout=30):
    with transport.Board(vb.port) as b:
        b.wait_ready(timeout, probe_after=1.0)
        st = b.status()
    return st["screen"] == "game" and st["stock"] == str(m.hand.stock_count) \
        and st["phase"] == m.hand.phase


def _flash_and_stop(vb, source_tree, sig, at):
    """Start okgin flash and send it ``sig`` when it prints a line that
    starts with ``at``."""
    p = subprocess.Popen(okgin_cmd("flash", "--port", vb.port, "--source", str(source_tree)),
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = ""
    for line in p.stdout:
        out += line
        if line.lstrip().startswith(at):
            break
    p.send_signal(sig)
    out += p.communicate(timeout=30)[0]
    return p.returncode, out


def test_a_flasher_stopped_by_sigterm_resets_the_table_into_its_game(vboard, source_tree):
    """Before: a killed flasher left the board at its raw REPL until the
    next flash or power cycle. Stopped mid-copy here; SIGKILL at random
    instants, with a power cycle after: okgin faults, row "flash" (its
    short run is in make test)."""
    from okgin.table.flashing import flash_board
    flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                power_cycle=vboard.power_cycle)
    m = _game_on(vboard)
    vboard.power_cycle()
    assert _in_its_game(vboard, m)
    # Every firmware module changed: at "[2/" ~0.4 s of copying is left
    # for the signal to land in. A signal 0.36 s after "board:" (three
    # modules changed) once came after "done in 0.4 s", on a loaded host,
    # and the flasher had nothing left to stop.
    firmware = os.path.join(source_tree, "firmware")
    for mod in sorted(os.listdir(firmware)):
        if mod.endswith(".py") and mod not in ("boot.py", "main.py"):
            with open(os.path.join(firmware, mod), "a") as f:
                f.write("\n_STOP_TEST = 1\n")
    rc, out = _flash_and_stop(vboard, source_tree, signal.SIGTERM, "[2/")
    if "done in" not in out:     # (else it had finished: the board runs the new firmware)
        assert rc != 0, out
        assert "the board was reset into its game" in out, out
    assert _in_its_game(vboard, m), out
