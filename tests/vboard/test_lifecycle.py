"""Boot after boot: the sequences that used to leave a virtual board without
a working boot, looped (power cycles right after a Ctrl-C, kill and start,
machine.reset() from the REPL, boards made one after another), and no board
thread outliving stop()."""
import os
import sys
import threading
import traceback

import serial

from okgin.vboard import VirtualBoard, populate

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "tiny_main.py")) as f:
    TINY = f.read()


def _board_threads():
    return [t.name for t in threading.enumerate() if t.name.startswith("vboard")]


def _ready(s):
    got = s.read_until(b"READY tiny")
    assert got.endswith(b"READY tiny"), "no READY after a boot, got %r" % got[-300:]


def _echo(s, word):
    # The new process got the line and its pins work (tiny_main's `pins`
    # reads all 12 buttons over the link).
    s.write(b"pins\n")
    got = s.read_until(b"27=1")
    assert got.endswith(b"27=1"), got[-300:]
    s.write(b"echo %s\n" % word)
    assert s.read_until(b"OK %s" % word).endswith(b"OK %s" % word)


def test_boots_survive_ctrl_c_power_cycles_kills_and_resets_board_after_board(tmp_path):
    before = set(_board_threads())
    for i in range(3):
        vb = VirtualBoard(flash_dir=populate(str(tmp_path / ("f%d" % i)), main_py=TINY))
        try:
            vb.start()
            with serial.Serial(vb.port, 115200, timeout=10) as s:
                _ready(s)
                for j in range(3):
                    # A Ctrl-C still in flight when the power goes must not
                    # reach the next boot (it ended that boot at the REPL).
                    s.write(b"pins\n\r\x03")
                    vb.power_cycle()
                    _ready(s)
                    _echo(s, b"pc%d" % j)
                    s.write(b"\r\x03")
                    assert s.read_until(b">>> ").endswith(b">>> ")
                    vb.kill()
                    vb.start()
                    _ready(s)
                    s.write(b"\r\x03")
                    assert s.read_until(b">>> ").endswith(b">>> ")
                    s.write(b"import vmachine; vmachine.reset()\r")
                    _ready(s)
                    _echo(s, b"rs%d" % j)
            assert vb.boots == 10
        finally:
            vb.stop()
    # stop() used to leave the link's accept thread blocked forever.
    left = [t for t in threading.enumerate() if t.name.startswith("vboard") and t.name not in before]
    where = {t.name: "".join(traceback.format_stack(sys._current_frames()[t.ident]))
             for t in left if t.ident in sys._current_frames()}
    assert not left, where
