"""okgin flash's transfer (host/table/repl.py ``Repl.stream``): the files go
on the board's stdin to one exec, in acknowledged blocks. On the real
MicroPython unix port behind a pty (BareBoard: raw, with ISIG, as the
virtual board's and a Pico's USB pass bytes), and on the rules a user
relies on: every byte arrives, an error on the board mid-transfer is the
board's own words, and the REPL is usable afterwards (the next flash, or
the flasher's own clean-up, speaks to it)."""
import base64
import os

import pytest

from tests.support import micropython
from tests.support.ptyboard import BareBoard


@pytest.fixture
def bare(tmp_path):
    (tmp_path / "d").mkdir()
    b = BareBoard(tmp_path / "d", micropython(), ramfs_kb=256).start()
    try:
        yield b
    finally:
        b.stop()


def _entered(port):
    from okgin.table.flashing import DEVICE_HELPERS
    from okgin.table.repl import Repl
    d = Repl(port)
    d.enter()
    d.exec(DEVICE_HELPERS)
    return d


def test_files_streamed_in_blocks_arrive_whole_and_every_block_is_acknowledged(bare):
    from okgin.table.flashing import PIECE, _packed
    # every byte value (Ctrl-C and Ctrl-D among them), sizes around a block,
    # and a file sent compressed (the board inflates it): what is written
    # is the file itself
    files = {"a.bin": bytes(range(256)) * 30, "b.bin": b"", "c.bin": b"\x03\x04\r\n" * (PIECE // 4),
             "d.bin": os.urandom(PIECE + 1), "e.txt": b"okgin deals the cards\n" * 900}
    sent = {n: (_packed(x, True) if n == "e.txt" else x) for n, x in files.items()}
    assert len(sent["e.txt"]) < len(files["e.txt"]) // 10
    blocks = [base64.b64encode(d[i:i + PIECE]) for d in sent.values() for i in range(0, len(d), PIECE)]
    acks = []
    d = _entered(bare.port)
    try:
        out = d.stream("_okrx(%r)\n_okhs(%r)\n" % ([(n, len(x), int(n == "e.txt")) for n, x in sent.items()],
                                                    list(files)), blocks, acks.append)
        back = {n: d.read(n) for n in files}
    finally:
        d.close()
    assert acks == list(range(1, len(blocks) + 1))
    assert back == files
    import hashlib
    assert out.strip() == repr([hashlib.sha256(x).hexdigest() for x in files.values()])


def test_an_error_on_the_board_mid_transfer_is_its_own_words_and_the_repl_answers_after(bare):
    from mpremote.transport import TransportExecError
    from okgin.table.flashing import PIECE
    blocks = [base64.b64encode(bytes(PIECE))] * 6
    acks = []
    d = _entered(bare.port)
    try:
        # the second file cannot be opened (no such folder): the board stops
        # with blocks of it already on their way
        with pytest.raises(TransportExecError) as e:
            d.stream("_okrx(%r)\n" % ([("ok.bin", PIECE, 0), ("nodir/x.bin", 5 * PIECE, 0)],), blocks, acks.append)
        assert "OSError" in e.value.error_output and "ENOENT" in e.value.error_output
        assert acks == [1]
        d.enter()          # as the next flash, or the flasher's abandon(), does
        assert d.exec("print(6 * 7)").strip() == "42"
    finally:
        d.close()


# -- the READY wait after the reset counts the board's own time -------------------
class _SlowClock:
    """A board's own clock running at a tenth of the wall clock's speed (an
    emulated Pico on a loaded PC runs at a few percent of a real one's)."""

    def __init__(self, speed=0.1):
        import time
        self.t0, self.speed = time.monotonic(), speed

    def __call__(self):
        import time
        return (time.monotonic() - self.t0) * self.speed


def _boots_in(port, seconds):
    """The bare board (MicroPython's REPL) prints READY after ``seconds``
    of wall time, as a booting table would (the words split so that the
    REPL's echo of the line is not taken for them)."""
    from okgin.lib import transport
    b = transport.Board(port)
    b.open()
    b.write(b"\r\x02import time\rtime.sleep(%s); print('READY' + ' okgin slow')\r" % str(seconds).encode())
    return b


def test_the_ready_wait_on_a_slowed_board_counts_its_own_time_not_the_wall_clock(bare):
    b = _boots_in(bare.port, 2.0)
    try:
        # 0.5 s of the board's time is 5 s of wall time at a tenth of its speed:
        # the READY 2 s (wall) after the reset is in time
        assert b.wait_reboot(0.5, clock=_SlowClock()) == "READY okgin slow"
    finally:
        b.close()


def test_a_board_that_never_comes_up_still_fails_clearly_on_its_own_clock(bare, monkeypatch):
    from okgin.lib import transport
    b = transport.Board(bare.port)
    b.open()
    # a program that never says READY nor reads what it is sent
    b.write(b"\r\x02import time\rwhile True: time.sleep(1)\r\r\r")
    try:
        with pytest.raises(transport.BoardTimeout) as e:
            b.wait_reboot(0.3, clock=_SlowClock())
        assert "no READY from the firmware on %s" % bare.port in str(e.value) and "of its own time" in str(e.value)
        # an emulator that stopped (its clock stands still) is named, not waited for forever
        monkeypatch.setattr(transport, "CLOCK_STALL", 1.0)
        with pytest.raises(transport.BoardTimeout) as e:
            b.wait_reboot(30, clock=lambda: 7.0)
        assert "its clock stopped" in str(e.value)
    finally:
        b.close()
