"""The tables the campaign drives: the virtual board (Table) and the emulated
Pico (ChipTable), each with power, the port, the buttons and the files on
its flash. A row gets the table class and makes its own boards with it."""
import json
import os
import shutil
import sys
import time
from typing import Any

from okgin.errors import CommandError
from okgin.lib import transport

from okgin.lib.paths import BOARD, ROOT


def _board_with(timing, board=BOARD):
    """The board definition (default hardware/board.json) with some of its
    timing values replaced, as the bytes of a board.json file."""
    with open(board) as f:
        data = json.load(f)
    data["timing"].update(timing)
    return json.dumps(data).encode()


class Table:
    """One virtual board with its own flash directory: power, the port
    (``transport.Board``), the buttons (pins) and the files on its flash."""

    label = "the virtual board"
    source = ROOT           # the firmware tree put on it (okgin faults --source)
    board = BOARD           # the board definition it is wired by (okgin faults --board)
    cheap_files = True      # its flash is a host directory
    chip: "Any" = None      # the ChipBoard, on the emulated Pico
    huge_sizes = (100 * 1024, 300 * 1024, 1024 * 1024)   # the damage row's huge files
    vb: "Any"               # VirtualBoard, or ChipBoard (the same API)

    def __init__(self, work, name, speed=0.0, settings=None, timing=None):
        from okgin.vboard import VirtualBoard, populate
        self.flash = os.path.join(work, name)
        populate(self.flash, root=self.source, board=self.board)
        board = self.board
        if timing:
            board = os.path.join(work, name + "-board.json")
            with open(board, "wb") as f:
                f.write(_board_with(timing, self.board))
            # the firmware reads its own copy on the flash
            shutil.copy(board, os.path.join(self.flash, "board.json"))
        if settings is not None:
            self.put("settings.json", json.dumps(settings))
        self.vb = VirtualBoard(flash_dir=self.flash, speed=speed, board=board)
        # powered on here, and the port opened before the firmware prints
        # READY; on() waits for it
        self.vb.start()
        self.b = transport.Board(str(self.vb.port), timeout=30.0)
        self.b.open()
        self._fresh = True

    # power
    def on(self, timeout=60):
        if self._fresh:
            self._fresh = False
        else:
            self.vb.start()
            self.b.reopen()
        self.patient()
        self.b.wait_ready(timeout, probe_after=2.0)
        return self

    # a megabyte line or a flood takes the firmware (one byte per read)
    # longer than the transport's 5 s to take in: a write may wait this long
    write_timeout = 300
    answer_slowness = 1     # multiplies the waits for a batch's answers
    long_line = 1024 * 1024     # the serial row's over-long lines

    def patient(self):
        ser = self.b.ser
        assert ser is not None
        ser.write_timeout = self.write_timeout

    def cut(self):
        """Power loss: the process is SIGKILLed wherever it is."""
        self.vb.kill()
        self.b.close()

    def cycle(self):
        self.cut()
        return self.on()

    def power_on(self):
        """Power on without waiting (on() waits for READY)."""
        self.vb.start()

    def now(self):
        """Seconds on the table's own clock (the wall clock here)."""
        return time.monotonic()

    def stop(self):
        self.b.close()
        self.vb.stop()

    # port
    def req(self, line, timeout=30):
        return self.b.request(line, timeout=timeout * self.answer_slowness)

    def timing_s(self, key, default):
        """A board.json timing value (``key`` in ms), in seconds."""
        return self.vb._timing(key, default)

    def status(self):
        return self.b.status()

    def resync(self, timeout=60):
        """Skip answers a caller left unread: ask hello, read up to its
        answer. The lines skipped are returned. A newline goes first: a
        line left unfinished (a flood of Ctrl-C bytes, a cut) ends there
        instead of swallowing the hello (an empty line gets no answer)."""
        self.b.send_raw(b"\nhello\n")
        skipped: "list[str]" = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.b.read_line(max(0.1, deadline - time.monotonic()))
            if line is None:
                break
            if line.startswith("OK okgin"):
                return skipped
            skipped.append(line)
        raise transport.BoardTimeout("no answer to hello within %d s" % timeout)

    def sync(self, timeout=60):
        self.b.request("sync", timeout=timeout)

    # buttons (a finger on the pins)
    def press(self, p, button, long=False):
        """As VirtualBoard.press, but waiting up to 10 s (not 1) for the
        firmware to read each level: on a loaded machine the firmware's
        process can stall for a second, and a press it never saw is the
        host's fault, not the table's."""
        vb = self.vb
        deb = vb._timing("debounce_ms", 20)
        vb.hold(p, button)
        self.seen()
        # a person's tap, 120 ms: "seen" is any pin read (a BUSY check
        # too), and the button driver polls between draws, which take
        # their time on a loaded machine (docs/firmware.md, buttons)
        time.sleep(vb._timing("long_press_ms", 600) + 0.2 if long else 0.12)
        vb.release(p, button)
        self.seen()
        time.sleep(3 * deb)

    def hold(self, p, button):
        self.vb.hold(p, button)
        self.seen()

    def release(self, p, button):
        self.vb.release(p, button)
        self.seen()

    def seen(self):
        link = self.vb.link
        with link.seen_cond:
            link.polling = True      # a timeout before must not skip this wait
        link.wait_seen(10.0)

    # flash
    def path(self, name):
        return os.path.join(self.flash, name)

    def saved(self, name="game.okg"):
        try:
            with open(self.path(name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def put(self, name, data):
        if isinstance(data, str):
            data = data.encode()
        with open(self.path(name), "wb") as f:
            f.write(data)

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError:
            pass

    def fill(self, name, head, unit, leave):
        """With the power off: ``name`` becomes ``head`` then ``unit`` again
        and again, ``leave`` bytes short of filling the flash (a host
        directory here: ``leave`` is taken as the junk's size instead);
        then power on. Returns the file's size."""
        self.cut()
        with open(self.path(name), "wb") as f:
            f.write(head)
            f.write(unit * (leave // len(unit)))
        size = os.path.getsize(self.path(name))
        self.on()
        return size

    def tree(self, off=False):
        """{path: SHA-256 hex} of every file on the flash but .staging/'s
        (the firmware's, its language files included, and the player's);
        ``off``: the power is cut (as ChipTable's, whose look stops the
        firmware)."""
        import hashlib
        if off:
            self.cut()
        out = {}
        for dirpath, dirnames, filenames in os.walk(self.flash):
            dirnames[:] = [d for d in dirnames if d != ".staging"]
            for fn in filenames:
                p = os.path.join(dirpath, fn)
                with open(p, "rb") as f:
                    out[os.path.relpath(p, self.flash)] = hashlib.sha256(f.read()).hexdigest()
        return out

    def session(self, read=(), digest=(), put=None, remove=(), off=False):
        """With the power off: read files (``read``: their bytes, or None;
        ``digest``: (SHA-256 hex, size), or None), then remove and write
        files, then power on (``off``: the power stays off; the caller
        powers on, e.g. with power_on()). Returns {name: what was read}."""
        import hashlib
        self.cut()
        out: "dict[str, Any]" = {}
        for name in read:
            out[name] = self.saved(name)
        for name in digest:
            data = self.saved(name)
            out[name] = None if data is None else (hashlib.sha256(data).hexdigest(), len(data))
        for name in remove:
            self.remove(name)
        for name, data in (put or {}).items():
            self.put(name, data)
        if not off:
            self.on()
        return out


class ChipTable(Table):
    """The emulated Pico (host/chip: the stock rp2 MicroPython on rp2040js)
    with this checkout's firmware put on it by ``okgin flash``, driven like
    a Table. Its flash is a file in littlefs, read here through the chip's
    REPL (slow: a Ctrl-C, then a reset), so the rows that run on it look at
    test mode's own game (``record``, the same store code and files) and
    read the real game's file only where they must."""

    label = "the emulated Pico"
    cheap_files = False
    # a file goes onto the chip as hex through its raw REPL
    huge_sizes = (16 * 1024, 32 * 1024, 64 * 1024)
    write_timeout = 3000    # the emulator runs at ~0.05-0.3 of a real Pico
    answer_slowness = 10
    # it took in under 1 MB in 3,000 s on a loaded machine (a byte per
    # read, docs/reliability.md): 64 KB lines there
    long_line = 64 * 1024

    def __init__(self, work, name, speed=0.02, settings=None, timing=None):
        from okgin.chip import ChipBoard
        # one flash (a minute or two on the emulator) for the whole run: a
        # copy of the flashed chip's image for each row
        template = os.path.join(work, "chip-flashed-%s.bin" % abs(hash((self.source, self.board))))
        if not os.path.exists(template):
            from okgin.lib.flashing import flash_board
            import io
            first = ChipBoard(flash=template + ".new", realtime=False, eink=0.02, board=self.board)
            try:
                first.start()
                first.console_line("MicroPython v", 300)
                flash_board(str(first.port), src_root=self.source, quiet=True, out=io.StringIO(),
                            board_json=self.board)
            finally:
                first.stop()
            os.replace(template + ".new", template)
        image = os.path.join(work, name + ".bin")
        shutil.copy(template, image)
        # the panels' refresh times scaled as the row asks (presses during
        # refreshes): a sleeping chip jumps to BUSY's fall, so little wall time
        self.chip = ChipBoard(flash=image, realtime=False, eink=speed or 0.02, board=self.board)
        self.chip.start()
        self.vb = self.chip          # press, hold, panel_image, set_fault, kill: the same API
        self.flash = None
        self.b = transport.Board(str(self.chip.port), timeout=120.0)
        self.b.open()
        self._fresh = True
        put = {}
        if settings is not None:
            put["settings.json"] = json.dumps(settings).encode()
        if timing:
            put["board.json"] = _board_with(timing, self.board)   # the firmware reads the copy on its flash
        if put:
            # once the firmware is up (the REPL is reached by interrupting it)
            self.patient()
            self.b.wait_ready(300, probe_after=1.0)
            self.session(put=put)

    def timing_s(self, key, default):
        return self.chip._timing_ms(key, default) / 1000.0

    def tree(self, off=False):
        """{path: SHA-256 hex} of every file on the chip's flash but
        .staging/'s (the firmware's, its language files included, and the
        player's); ``off``: the power is cut after the look instead of a
        boot into the firmware (one boot less when the caller cuts next)."""
        code = ("import os, hashlib, binascii\n"
                "def _walk(d):\n"
                " for e in os.ilistdir(d or '/'):\n"
                "  p = (d + '/' + e[0]) if d else e[0]\n"
                "  if e[1] == 0x4000:\n"
                "   if e[0] != '.staging':\n"
                "    _walk(p)\n"
                "  else:\n"
                "   h = hashlib.sha256()\n"
                "   b = bytearray(1024)\n"
                "   with open(p, 'rb') as f:\n"
                "    while True:\n"
                "     k = f.readinto(b)\n"
                "     if not k:\n"
                "      break\n"
                "     h.update(b[:k])\n"
                "   print('H', p, binascii.hexlify(h.digest()).decode())\n"
                "_walk('')\n")
        out = {}
        for line in self._repl(code, off=off).decode().splitlines():
            w = line.split()
            if len(w) == 3 and w[0] == "H":
                out[w[1]] = w[2]
        return out

    def fill(self, name, head, unit, leave):
        """Through the chip's REPL: ``name`` becomes ``head`` then ``unit``
        again and again until the filesystem has about ``leave`` bytes
        free (written on the chip: nothing large goes over the port); the
        old files of the game go first. Returns the file's size."""
        code = ("import os, binascii\n"
                "for _n in ('game.okg', 'game.bad', 'game.tmp', 'game.fix', 'x.tmp'):\n"
                " try:\n  os.remove(_n)\n except OSError:\n  pass\n"
                "_v = os.statvfs('/')\n"
                "_room = _v[0] * _v[3] - %d - %d\n"
                "_u = binascii.unhexlify(%r) * 64\n"
                "with open('x.tmp', 'wb') as f:\n"
                " f.write(binascii.unhexlify(%r))\n"
                " try:\n"
                "  while _room >= len(_u):\n"
                "   f.write(_u)\n"
                "   _room -= len(_u)\n"
                " except OSError as e:\n"
                "  print('FULL', e)\n"
                "os.rename('x.tmp', %r)\n"
                "print('SIZE', os.stat(%r)[6])\n"
                % (leave, len(head), unit.hex(), head.hex(), name, name))
        out = self._repl(code).decode()
        for line in out.splitlines():
            if line.startswith("SIZE "):
                return int(line.split()[1])
        raise CommandError("the emulated Pico did not fill %s: %r" % (name, out[-200:]))

    def on(self, timeout=300):
        if self._fresh:
            self._fresh = False
            self.patient()
            self.b.wait_ready(timeout, probe_after=1.0)
            return self
        self.chip.start()
        self.b.reopen(60)
        self.patient()
        self.b.wait_ready(timeout, probe_after=5.0)
        return self

    def cut(self):
        self.chip.kill()
        self.b.close()

    def power_on(self):
        self.chip.start()

    def now(self):
        return self.chip.clock()

    def stop(self):
        self.b.close()
        self.chip.stop()

    def sync(self, timeout=300):
        self.b.request("sync", timeout=timeout)

    def press(self, p, button, long=False):
        # in the chip's time, until polled; a press that opens a page waits
        # for its draw (minutes of wall time on a loaded machine)
        self.chip.press(p, button, long=long, timeout=600.0)

    def hold(self, p, button):
        self.chip.hold(p, button)

    def release(self, p, button):
        self.chip.release(p, button)

    def seen(self):
        pass

    def _repl(self, code, off=False):
        """Run ``code`` (a string, or a list run one after the other) at
        the chip's raw REPL (the firmware stops), return its output, then
        reset the chip into the firmware again (``off``: cut the power
        instead; the files written are closed, so on the flash)."""
        import contextlib
        import io
        from mpremote.transport_serial import SerialTransport
        from mpremote.transport import TransportError
        self.b.close()
        out = b""
        missed = 0
        with contextlib.redirect_stdout(io.StringIO()):
            tr = SerialTransport(str(self.chip.port), baudrate=115200, timeout=5)
            try:
                # mpremote sends one Ctrl-C; a firmware between two looks at
                # its port on a loaded machine can miss it (a long seats
                # run, once in 19 cases): a person would press it again
                while True:
                    try:
                        tr.enter_raw_repl(soft_reset=False, timeout_overall=60)
                        break
                    except TransportError:
                        missed += 1
                        if missed == 3:
                            raise
                for piece in [code] if isinstance(code, str) else code:
                    got, err = tr.exec_raw(piece, timeout=600)
                    if err:
                        raise CommandError("the emulated Pico's REPL: %s"
                                           % err.decode(errors="replace").strip().splitlines()[-1:])
                    out += got
                if not off:
                    tr.exec_raw_no_follow("import machine\nmachine.reset()")
            finally:
                tr.close()
        if missed:
            sys.stdout.write("  (the chip's REPL missed %d Ctrl-C; sent again)\n" % missed)
        if off:
            self.cut()
            return out
        self.b.reopen(60)
        self.patient()
        self.b.wait_ready(300, probe_after=5.0)
        return out

    def saved(self, name="game.okg"):
        out = self._repl("import binascii\ntry:\n print(binascii.hexlify(open(%r,'rb').read()).decode())\n"
                         "except OSError:\n print('-')\n" % name).decode().strip()
        return None if out == "-" else bytes.fromhex(out)

    def put(self, name, data):
        if isinstance(data, str):
            data = data.encode()
        self._repl("import binascii\nwith open('x.tmp','wb') as f:\n f.write(binascii.unhexlify(%r))\n"
                   "import os\nos.rename('x.tmp', %r)\n" % (data.hex(), name))

    def remove(self, name):
        self._repl("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass\n" % name)

    def session(self, read=(), digest=(), put=None, remove=(), off=False):
        """As Table.session in one visit to the chip's REPL (Ctrl-C stops
        the firmware, as the power going would; ``machine.reset()`` is the
        power coming back, or with ``off`` a power cut that leaves it off):
        the reads first, then the removals and writes, each file written
        to x.tmp and renamed."""
        code = ["import os, binascii, hashlib",
                "def _rd(n):\n try:\n  with open(n,'rb') as f:\n   return f.read()\n except OSError:\n  return None",
                "def _dg(n):\n try:\n  f = open(n,'rb')\n except OSError:\n  return '-'\n h = hashlib.sha256()\n k = 0\n"
                " b = bytearray(1024)\n while True:\n  m = f.readinto(b)\n  if not m:\n   break\n"
                "  h.update(b[:m])\n  k += m\n f.close()\n return binascii.hexlify(h.digest()).decode() + ' ' + str(k)"]
        for name in read:
            code.append("d = _rd(%r)\nprint('R', %r, '-' if d is None else binascii.hexlify(d).decode())"
                        % (name, name))
        for name in digest:
            code.append("print('D', %r, _dg(%r))" % (name, name))
        for name in remove:
            code.append("try:\n os.remove(%r)\nexcept OSError:\n pass" % name)
        pieces = ["\n".join(code) + "\n"]
        for name, data in (put or {}).items():
            if isinstance(data, str):
                data = data.encode()
            # a few KB of hex per piece: the chip compiles each in its heap
            mode = "wb"
            for i in range(0, max(len(data), 1), 4096):
                pieces.append("with open('x.tmp',%r) as f:\n f.write(binascii.unhexlify(%r))\n"
                              % (mode, data[i:i + 4096].hex()))
                mode = "ab"
            pieces.append("os.rename('x.tmp', %r)\n" % name)
        out: "dict[str, Any]" = {}
        for line in self._repl(pieces, off=off).decode().splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "R":
                out[w[1]] = None if w[2] == "-" else bytes.fromhex(w[2])
            elif len(w) >= 3 and w[0] == "D":
                out[w[1]] = None if w[2] == "-" else (w[2], int(w[3]))
        return out
