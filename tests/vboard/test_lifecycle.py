"""Boot after boot: the sequences that used to leave a virtual board without
a working boot, looped (power cycles right after a Ctrl-C, kill and start,
machine.reset() from the REPL, boards made one after another), Ctrl-C
right after a boot or a kbd_intr while the host is slow, and no board
thread outliving stop()."""
import os
import sys
import threading
import time
import traceback

import pytest
import serial

from okgin.vboard import VirtualBoard, populate
from okgin.vboard.console import Console

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


# Takes the owner's lock, reads one byte, lets go of it, then waits for
# input: a Ctrl-C sent right after LOCKED must arrive as a byte, one sent
# right after OPEN must end at the REPL.
LOCK_MAIN = """import sys, vmachine
vmachine.kbd_intr(-1)
print("LOCKED")
print("GOT", repr(sys.stdin.read(1)))
vmachine.kbd_intr(3)
print("OPEN")
while True:
    sys.stdin.read(1)
"""


@pytest.mark.parametrize("late", ["on", "off"])
def test_kbd_intr_holds_when_it_returns_even_if_the_host_is_slow(tmp_path, monkeypatch, late):
    # A Pico's micropython.kbd_intr acts at once: the first Ctrl-C after it
    # (after main.py's READY, after the lock) meets the new setting. The
    # host's link thread switches the pty's ISIG; on a loaded machine (the
    # CI run of test_boots_survive... above) it did so after the firmware
    # had printed READY, and the client's Ctrl-C arrived as a plain byte.
    # Here that thread is made late on purpose, for one direction.
    switch = Console.set_interrupt

    def slow(self, on):
        if bool(on) == (late == "on"):
            time.sleep(0.4)
        switch(self, on)

    monkeypatch.setattr(Console, "set_interrupt", slow)
    vb = VirtualBoard(flash_dir=populate(str(tmp_path / "f"), main_py=LOCK_MAIN))
    try:
        vb.start()
        with serial.Serial(vb.port, 115200, timeout=5) as s:
            got = s.read_until(b"LOCKED\n")
            assert got.endswith(b"LOCKED\n"), got[-300:]
            s.write(b"\x03")
            got = s.read_until(b"GOT '\\x03'")
            assert got.endswith(b"GOT '\\x03'"), "the lock let a Ctrl-C through: %r" % got[-300:]
            got = s.read_until(b"OPEN\n")
            assert got.endswith(b"OPEN\n"), got[-300:]
            s.write(b"\x03")
            got = s.read_until(b">>> ")
            assert got.endswith(b">>> "), "a Ctrl-C after kbd_intr(3) did not reach the REPL: %r" % got[-300:]
    finally:
        vb.stop()
