# The drivers against the virtual board's controller emulations
# (host/vboard), which decode the byte stream per the datasheets: the image
# the ink ends up showing must be exactly the frame buffer the firmware
# drew, for a full refresh, a differential partial one (a full one on the
# UC8151, which has no partial refresh), an update after deep sleep, and a
# recovery after a BUSY timeout; on both rotations (player 1 is set to 270
# here, 180 on the 4.2" SSD1683 panel, landscape by nature), for each
# controller the firmware has a driver for (display.py).
# The emulators' own tests are in tests/vboard/.
import json
import os
import time

import pytest
import serial

from okgin.vboard import VirtualBoard
from tests.support import vlsb_to_rows

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
W, H = 296, 128


class Console:
    def __init__(self, port):
        self.s = serial.Serial(port, 115200, timeout=20)

    def line(self):
        got = self.s.readline()
        assert got.endswith(b"\n"), "no line from the board (got %r)" % got
        return got.decode().strip()

    def until(self, prefix):
        seen = []
        for _ in range(100):
            ln = self.line()
            if ln.startswith(prefix):
                return ln, seen
            seen.append(ln)
        raise AssertionError("no %r line; got %r" % (prefix, seen[-10:]))

    def go(self):
        self.s.write(b"go\n")

    def step(self, tag):
        self.go()
        ln, seen = self.until("STEP " + tag)
        fbs = {}
        for s in seen:
            if s.startswith("FB %s " % tag):
                _, _, p, hx = s.split(" ", 3)
                fbs[int(p)] = bytes.fromhex(hx)
        assert sorted(fbs) == [0, 1], seen[-5:]
        return fbs


# Refresh counts a panel shows after each step: (full, partial).
COUNTS = {
    "SSD1680": {"full": (1, 0), "partial": (1, 1), "wake": (1, 2), "recovered": 2},
    "UC8151": {"full": (1, 0), "partial": (2, 0), "wake": (3, 0), "recovered": 4},
    "SSD1683": {"full": (1, 0), "partial": (1, 1), "wake": (1, 2), "recovered": 2},
}
COUNTS["SSD1683-x2"] = COUNTS["SSD1683"]
# Each controller's panel as board.json (4.2") / board-2in9.json have it:
# (width, height, rotation of player 0, of player 1, scale); SSD1683-x2 is
# board.json's (the frame buffer 200x150, each pixel a 2x2 block).
PANELS = {"SSD1680": (296, 128, 90, 270, 1), "UC8151": (296, 128, 90, 270, 1),
          "SSD1683": (400, 300, 0, 180, 1), "SSD1683-x2": (400, 300, 0, 180, 2)}
# ("recovered": fulls of panel 0 in all; the UC8151's timed-out show()
# stops at power-on, before its refresh.)


@pytest.fixture(scope="module", params=sorted(COUNTS))
def board(tmp_path_factory, request):
    with open(os.path.join(ROOT, "hardware", "board.json")) as f:
        b = json.load(f)
    w, h, rot0, rot1, scale = PANELS[request.param]
    for player, rot in zip(b["players"], (rot0, rot1), strict=True):
        player["panel"].update(controller=request.param.split("-")[0], width=w, height=h,
                               rotation=rot, scale=scale)
    b["timing"]["busy_timeout_ms"] = 500     # the smallest boarddef allows
    path = tmp_path_factory.mktemp("board") / "board.json"
    path.write_text(json.dumps(b))
    with open(os.path.join(HERE, "vboard_main.py")) as f:
        main = f.read()
    vb = VirtualBoard(board=str(path), speed=0.0, main_py=main)
    vb.start()
    con = Console(vb.port)
    con.until("HELLO")
    try:
        yield vb, con, COUNTS[request.param], (w, h, scale)
    finally:
        con.s.close()
        vb.stop()


def scaled(rows, w, h, s):
    """Rows MSB first of a w x h image, each pixel an s x s block."""
    if s == 1:
        return rows
    out = bytearray(w * s * h * s // 8)
    for y in range(h * s):
        for x in range(w * s):
            src = (y // s) * (w // 8) + (x // s >> 3)
            if rows[src] & 0x80 >> (x // s & 7):
                out[y * (w * s // 8) + (x >> 3)] |= 0x80 >> (x & 7)
    return bytes(out)


def check_ink(vb, fbs, size):
    w, h, s = size
    for p in (0, 1):
        ink = vb.panel_bytes(p)
        want = scaled(vlsb_to_rows(fbs[p], w // s, h // s), w // s, h // s, s)
        assert any(want), "nothing was drawn"
        if ink != want:
            wrong = sum(bin(a ^ b).count("1") for a, b in zip(ink, want, strict=True))
            raise AssertionError("panel %d: %d pixels differ from the frame buffer "
                                 "(emulator log: %r)" % (p, wrong, vb.panel(p).log[-5:]))


def test_driver_sequence_on_the_emulated_panels(board):
    # One board boot for the whole story (a boot costs a micropython start);
    # each stage asserts what a player would see.
    vb, con, counts, size = board

    def counted(step):
        return {"full": counts[step][0], "partial": counts[step][1]}

    fbs = con.step("full")
    check_ink(vb, fbs, size)
    for p in (0, 1):
        assert vb.refresh_counts(p) == counted("full")

    fbs = con.step("partial")
    check_ink(vb, fbs, size)
    for p in (0, 1):
        assert vb.refresh_counts(p) == counted("partial")

    fbs = con.step("wake")
    check_ink(vb, fbs, size)   # so (SSD1680) 0x26 was restored after the reset
    for p in (0, 1):
        s = vb.stats(p)
        assert vb.refresh_counts(p) == counted("wake")
        assert s["sleeps"] == 1 and s["hw_resets"] == 2
        assert s["ignored"] == 0 and s["unknown"] == 0, vb.panel(p).log[-5:]

    con.go()
    con.until("LISTENING")
    # Pin writes reach the host asynchronously (vmachine batches them until
    # the next input read), so give the LED level a moment to arrive.
    deadline = time.monotonic() + 5
    while not vb.led(1) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert vb.led(1) and not vb.led(0)
    vb.press(0, "right")
    vb.press(1, "knock", long=True)
    vb.press(1, "ok")
    events = [con.until("EV ")[0] for _ in range(3)]
    assert events == ["EV 0 right short", "EV 1 knock long", "EV 1 ok short"]

    vb.set_fault(0, True)
    con.go()
    assert con.until("TIMEOUT")[0] == "TIMEOUT True"
    vb.set_fault(0, False)
    fbs = con.step("recovered")
    check_ink(vb, fbs, size)
    assert vb.refresh_counts(0)["full"] == counts["recovered"]
