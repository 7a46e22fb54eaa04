"""The serial client: clear errors on ERR, timeout and disconnect; board discovery."""
import os
import threading
import time

import pytest

from okgin.lib import transport
from tests.support.ptyboard import _raw


class FakeUSBPort:
    def __init__(self, device, vid):
        self.device, self.vid = device, vid


def test_board_discovery_by_usb_ids(monkeypatch):
    ports = [FakeUSBPort("/dev/ttyS0", None), FakeUSBPort("/dev/ttyUSB0", 0x10C4),
             FakeUSBPort("/dev/ttyACM0", 0x2E8A)]
    monkeypatch.setattr(transport, "list_ports", lambda: ports)
    assert transport.find_board() == "/dev/ttyACM0"
    assert transport.find_board("socket://localhost:1") == "socket://localhost:1"
    ports.append(FakeUSBPort("/dev/ttyACM1", 0xF055))
    with pytest.raises(transport.BoardNotFound) as e:
        transport.find_board()
    assert "several boards" in str(e.value) and "/dev/ttyACM1" in str(e.value)
    del ports[2:]
    with pytest.raises(transport.BoardNotFound) as e:
        transport.find_board()
    assert "ports seen: /dev/ttyS0, /dev/ttyUSB0" in str(e.value)


class ScriptedPty:
    """A pty whose far end we write by hand: the 'firmware' of these tests."""

    def __init__(self):
        self.m, self.s = os.openpty()
        _raw(self.s)
        self.port = os.ttyname(self.s)

    def answer(self, data):
        os.write(self.m, data)

    def read_request(self):
        time.sleep(0.05)
        return os.read(self.m, 1000)

    def unplug(self):
        os.close(self.m)
        self.m = None

    def close(self):
        # Each fd closed once: closing a number twice could close a reused fd
        # that belongs to someone else in this process.
        for fd in (self.m, self.s):
            if fd is not None:
                os.close(fd)


@pytest.fixture
def pty():
    p = ScriptedPty()
    yield p
    p.close()


def test_request_returns_the_answer_and_skips_ready_lines(pty):
    b = transport.Board(pty.port, timeout=2).open()
    pty.answer(b"READY okgin fw=9 proto=1\r\nOK okgin fw=9 proto=1 board=x\r\n")
    assert b.request("hello") == "okgin fw=9 proto=1 board=x"
    assert pty.read_request() == b"hello\n"
    assert b.ready == "READY okgin fw=9 proto=1"
    pty.answer(b"OK lines=2\nline one\nline two\n")
    assert b.request_block("record") == ["line one", "line two"]
    b.close()


def test_err_timeout_and_crash_are_clear_errors(pty):
    b = transport.Board(pty.port, timeout=0.5).open()
    pty.answer(b"ERR test mode required\n")
    with pytest.raises(transport.ProtocolError) as e:
        b.request("press 0 ok")
    assert e.value.reason == "test mode required" and "press 0 ok" in str(e.value)
    with pytest.raises(transport.BoardTimeout) as e:
        b.request("status")
    assert "no answer to 'status'" in str(e.value)
    pty.answer(b"Traceback (most recent call last):\n  File \"main.py\", line 3\nMemoryError: x\n")
    with pytest.raises(transport.TransportError) as e:
        b.request("status")
    assert "not running" in str(e.value) and "MemoryError" in str(e.value)
    b.close()


def test_waits_count_the_boards_own_clock(pty):
    """An emulated Pico's waits count its own time (ChipBoard.patience_clock),
    which a busy host slows down: an answer that comes after the timeout on
    the wall clock but within it on the board's is taken; one that does
    not come within it on the board's clock times out, with the same
    message."""
    t0 = time.monotonic()
    b = transport.Board(pty.port, timeout=0.5, clock=lambda: (time.monotonic() - t0) / 4).open()
    late = threading.Timer(1.2, pty.answer, (b"OK late\n",))
    late.start()
    try:
        assert b.request("status") == "late"           # 1.2 s of wall time, 0.3 s of the board's
    finally:
        late.join()
    late = threading.Timer(1.2, pty.answer, (b"the line\n",))
    late.start()
    try:
        assert b.read_block("record", 1) == ["the line"]
    finally:
        late.join()
    assert b.read_line(0.25) is None                    # a second of wall time: nothing came
    assert time.monotonic() - t0 > 3.4
    with pytest.raises(transport.BoardTimeout) as e:
        b.request("status")
    assert "no answer to 'status'" in str(e.value) and "within 0.5 s" in str(e.value)
    b.close()


def test_disconnect_mid_request_is_reported(pty):
    b = transport.Board(pty.port, timeout=3).open()
    pty.unplug()                          # the board went away (USB unplugged)
    with pytest.raises((transport.Disconnected, transport.BoardTimeout)) as e:
        b.request("hello")
    assert isinstance(e.value, transport.Disconnected), e.value
    assert "lost the connection" in str(e.value)
    b.close()


def test_screen_decodes_to_an_image_with_black_ink_where_bits_are_set():
    row = bytes([0x80] + [0] * 36)        # top-left pixel black
    img = transport.decode_screen("296x128 " + (row + bytes(37) * 127).hex())
    assert img.size == (296, 128)
    assert img.getpixel((0, 0)) == 0 and img.getpixel((1, 0)) == 255
    with pytest.raises(transport.TransportError):
        transport.decode_screen("296x128 abcd")


def test_a_listening_client_shows_the_traffic_as_it_comes(pty):
    # the simulator's console: what the firmware prints between requests
    # is seen at once, requests still get their own answers, and the
    # reader survives a re-open (a reset)
    seen = []
    b = transport.Board(pty.port, timeout=2, on_line=lambda d, t: seen.append((d, t))).listen().open()
    pty.answer(b"READY okgin fw=9 proto=1\r\n")
    deadline = time.monotonic() + 2
    while ("<", "READY okgin fw=9 proto=1") not in seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seen == [("<", "READY okgin fw=9 proto=1")]     # nobody asked: seen anyway
    pty.answer(b"late noise\r\n")
    time.sleep(0.2)
    b.flush_input()                                        # not an answer to what follows
    # the board answers once the request has come (queued before it, the
    # answer could be heard before the request was: a CI run saw that)
    asked = []

    def board():
        asked.append(pty.read_request())
        pty.answer(b"OK lines=2\nline one\nline two\n")
    t = threading.Thread(target=board)
    t.start()
    assert b.request_block("record") == ["line one", "line two"]
    t.join()
    assert asked == [b"record\n"]
    assert ("<", "late noise") in seen
    assert seen[-4:] == [(">", "record"), ("<", "OK lines=2"), ("<", "line one"), ("<", "line two")]
    pty.answer(b"MicroPython v1.28 on unix\r\n>>> ")          # a prompt has no newline
    deadline = time.monotonic() + 2
    while seen[-1] != ("<", ">>> ") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seen[-2:] == [("<", "MicroPython v1.28 on unix"), ("<", ">>> ")]
    b.reopen(2)
    pty.answer(b"OK okgin fw=9\n")
    assert b.request("hello") == "okgin fw=9"
    b.close()
    assert not any(t.name == "okgin-serial" and t.is_alive() for t in threading.enumerate())


class SlowBootBoard:
    """A board whose firmware (this test's thread on a pty) prints READY
    only after the session's `hello` probe, and answers that probe after
    READY: a boot that takes over a second, as on a loaded host."""

    def __init__(self, pty):
        self.pty, self.port, self.on_event = pty, pty.port, None

    def start(self):
        def firmware():
            got = b""
            while b"hello\n" not in got:
                got += os.read(self.pty.m, 1000)
            self.pty.answer(b"READY okgin fw=9 proto=1\r\n")
            got = b""
            while b"lang ko\n" not in got:
                got += os.read(self.pty.m, 1000)
            self.pty.answer(b"OK okgin fw=9 proto=1 board=x\r\nOK lang=ko\r\n")
        self.thread = threading.Thread(target=firmware, daemon=True)
        self.thread.start()

    def stop(self):
        self.thread.join(5)


def test_a_slow_boots_late_hello_answer_is_not_taken_for_the_next_commands(pty):
    """okgin sim --lang ko on a loaded host: the board's READY came after
    the session's hello probe (1 s), the probe's answer after READY, and
    `lang ko` took "OK okgin ..." for its answer; the script's next sync
    then took "OK lang=ko" and returned before the Korean screen was
    drawn (the English and Korean shots were the same)."""
    from okgin.table.session import Session
    s = Session(SlowBootBoard(pty))
    s.start(ready_timeout=10)
    try:
        assert s.send("lang ko", timeout=5) == "OK lang=ko"
    finally:
        s.close()
