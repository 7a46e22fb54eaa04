"""Running the real firmware for the tests: a flash directory with the device
layout (engine/ and the firmware modules compiled with mpy-cross, main.py,
board.json) on the virtual board (okgin.vboard: the real micropython binary,
pins and SPI emulated), talked to over its pty with pyserial, exactly as the
host tool would.

The tests of the firmware run on the 2.9" table (BOARD_2IN9) unless they
say otherwise: their goldens (tests/firmware/golden), crops and counts are
its 296x128 panels' and its SSD1680s' (faster to emulate than the 4.2"
panels, whose own tests pass ``board=BOARD``).

``OKGIN_UPDATE_GOLDEN=1`` makes golden-image comparisons write the PNGs
instead of comparing (look at them before committing).
"""
import os
import re
import time

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "firmware", "golden")

from okgin.table.table import open_table
from tests.support import BOARD, BOARD_2IN9  # noqa: F401  (BOARD: for the tests of the default table)

# The virtual board's heap: its default (host/vboard/vboard.py HEAPSIZE, the
# unix port's stand-in for the chip's budget, docs/memory.md), unless
# OKGIN_HEAP says otherwise.
HEAP = os.environ.get("OKGIN_HEAP")
DRIVERS = ("boarddef.py", "hal.py", "ssd1680.py", "buttons.py")


def make_flash(path, compiled=True, board=BOARD_2IN9):
    """The device's flash root as `okgin flash` lays it out: engine/ and the
    firmware modules compiled to .mpy, main.py as source, ``board`` as
    board.json (the virtual board's own populate(), so the tests run what
    ships)."""
    from okgin.vboard.flash import populate
    return populate(path, root=ROOT, board=board, compiled=compiled)


class ProtocolError(AssertionError):
    pass


class RunningFirmware:
    """The firmware on the virtual board, opened as a Table (okgin.table)
    on the flash as the test laid it out, read and written raw over its
    pty (the table's pyserial port, ``ser``)."""

    def __init__(self, flash, speed=0.0, board_json=None):
        self.flash = flash
        self.board_json = board_json or BOARD_2IN9
        self.speed = speed
        self.table = None     # an okgin Table (the flash as it is), from start()
        self.vb = None
        self.ser = None       # the table's pyserial port: the firmware's raw bytes
        self.boot_lines = []

    # ----- lifecycle -----
    def start(self, timeout=20):
        t0 = time.monotonic()
        flash = os.path.abspath(self.flash)
        # the flash as the test laid it out (nothing brought up to date)
        self.table = open_table("vboard", os.path.dirname(flash), os.path.basename(flash),
                                sync=False, speed=self.speed, board=self.board_json, heapsize=HEAP)
        self.vb = self.table.vb
        self.table.power_on()
        self.connect()
        line = self.readline(timeout)
        self.boot_lines = [line]
        if not line.startswith("READY"):
            more = [line]
            try:
                for _ in range(20):
                    more.append(self.readline(1))
            except ProtocolError:
                pass
            raise ProtocolError("expected READY, got:\n" + "\n".join(more))
        self.boot_s = time.monotonic() - t0
        return line

    def connect(self):
        """The table's port, opened (again): ``ser``. A write may wait as
        long as a Table's (a flood takes the firmware minutes to read)."""
        self.ser = self.table.connect().ser
        self.table.patient()

    def readline(self, timeout=20):
        self.ser.timeout = timeout
        raw = self.ser.readline()
        if not raw.endswith(b"\n"):
            raise ProtocolError("no complete line from the board (got %r)" % raw[:200])
        return raw.decode("ascii").rstrip("\r\n")

    def write(self, data):
        self.ser.write(data)
        self.ser.flush()

    def stop(self):
        if self.table is not None:
            try:
                self.table.stop()
            finally:
                self.ser = None
                self.table = self.vb = None

    def refused(self):
        """Bytes the panels refused because they were in deep sleep: a
        driver that sent them without waking the controller first (a missed
        wake-up loses that update on a real panel)."""
        if self.vb is None:
            return [0, 0]
        return [self.vb.stats(p).get("refused", 0) for p in range(2)]

    def after_kill(self):
        """Hook: look at the flash while the power is off."""

    def power_cut_and_boot(self):
        """Kill the micropython process (power loss) and boot again on the
        same flash; returns the READY line."""
        self.table.cut()
        self.ser = None
        self.after_kill()
        self.table.power_on()
        self.connect()
        self.ser.reset_input_buffer()
        line = self.readline(20)
        while not line.startswith("READY"):
            line = self.readline(20)   # output of the killed run
        return line

    # ----- protocol -----
    def cmd(self, line, timeout=20):
        data = line if isinstance(line, bytes) else line.encode("ascii")
        self.write(data + b"\n")
        return self.readline(timeout)

    def ok(self, line, timeout=20):
        r = self.cmd(line, timeout)
        if not r.startswith("OK"):
            raise ProtocolError("%s -> %s" % (line, r))
        return r

    def block(self, line):
        head = self.ok(line)
        m = re.match(r"OK lines=(\d+)$", head)
        if not m:
            raise ProtocolError("%s -> %s (expected a block)" % (line, head))
        return [self.readline() for _ in range(int(m.group(1)))]

    def status(self):
        r = self.ok("status")
        return dict(kv.split("=", 1) for kv in r.split()[1:])

    def press(self, player, button, long=False):
        return self.ok("press %d %s%s" % (player, button, " long" if long else ""))

    def screen(self, player):
        """The player's framebuffer via the protocol, as a PIL image."""
        r = self.ok("screen %d" % player)
        _ok, size, hexdata = r.split(" ")
        w, h = (int(x) for x in size.split("x"))
        data = bytes.fromhex(hexdata)
        return Image.frombytes("1", (w, h), bytes(b ^ 0xFF for b in data))

    def panel(self, player):
        """What the ink of the (emulated) panel shows, once it has settled
        (``sync``: test mode)."""
        self.ok("sync")
        return self.vb.panel_image(player)

    def record(self):
        return "\n".join(self.block("record")) + "\n"


def golden_check(img, name):
    """Compare with tests/firmware/golden/<name>.png (or write it)."""
    path = os.path.join(GOLDEN, name + ".png")
    img = img.convert("1")
    if os.environ.get("OKGIN_UPDATE_GOLDEN") == "1" or not os.path.exists(path):
        if os.environ.get("OKGIN_UPDATE_GOLDEN") != "1":
            raise AssertionError("no golden image %s: run with OKGIN_UPDATE_GOLDEN=1, "
                                 "look at it, commit it" % path)
        os.makedirs(GOLDEN, exist_ok=True)
        img.save(path)
        img.resize((img.width * 3, img.height * 3)).save(
            os.path.join("/tmp", "okgin_golden_x3_" + name + ".png"))
        return
    want = Image.open(path).convert("1")
    if want.tobytes() != img.tobytes():
        bad = os.path.join("/tmp", "okgin_failed_" + name + ".png")
        img.save(bad)
        raise AssertionError("screen %s differs from its golden image (got %s)" % (name, bad))
