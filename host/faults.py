"""``okgin faults``: the fault campaign (docs/reliability.md).

Each row injects one kind of fault into the real firmware on the virtual
board, many times, and sorts every injection into survived, lost (a
completed action, a press, a saved game that is gone) or wrong (anything
else: a different game, a crash, a state that does not match the record,
a card shown outside test mode's own game). ``--quick`` is the short run
``make test`` does (tests/host/test_faults.py); the default is the long run
a release needs, whose table goes into docs/reliability.md.

The oracle is the engine: every saved game is read back with
``Match.from_record`` and the board's public ``status`` must match it. The
virtual board's flash is a host directory, so the saved game is read as a
person holding the Pico's flash chip would. ``--chip`` runs every row on
the emulated Pico instead (ChipTable: its flash read and written through
the chip's raw REPL, each visit a reset; docs/reliability.md says what
differs there).
"""
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

from okgin.errors import CommandError
from okgin.lib import transport

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ROWS = ("power", "damage", "serial", "buttons", "panels", "flash", "hidden", "shuffle")

# injections per row: the short run (make test) and the long one (a release)
QUICK = {"power": 6, "damage": 16, "serial": 600, "buttons": 4, "panels": 1,
         "flash": 1, "hidden": 3, "shuffle": 2000}
LONG = {"power": 520, "damage": 540, "serial": 21000, "buttons": 80, "panels": 12,
        "flash": 24, "hidden": 60, "shuffle": 100000}

GOALS = {
    "power": "power cuts at random instants (mid-save, mid-refresh, during a new game, "
             "during the computer's move): zero lost, zero wrong",
    "damage": "damaged game.okg / settings.json (truncation, garbage, bit flips, bad bytes, "
              "huge files): never a different game, loss at most the damaged part",
    "serial": "random bytes, bad UTF-8, control bytes, MB lines, floods, commands out of "
              "order: no crash, state unchanged, heap flat",
    "buttons": "both players, bounce on every press, presses during refreshes, long holds: "
               "no lost or doubled press",
    "panels": "BUSY stuck, a panel that never answers: bounded waits, a message on the other "
              "panel, the game kept",
    "flash": "okgin flash SIGKILLed / SIGTERMed, the board's power cut, at random points: "
             "a complete firmware boots and the game is kept",
    "hidden": "hidden-information attempts over the port: zero cards revealed outside test "
              "mode's own game",
    "shuffle": "deals from seeds drawn by the board's entropy: chi-square on every card "
               "position",
}


class Row:
    """Tally of one row. ``lost``/``wrong`` keep a note per case (the first
    few are printed), so a failure says what happened."""

    def __init__(self, name):
        self.name = name
        self.injected = 0
        self.survived = 0
        self.lost = 0
        self.wrong = 0
        self.notes = []
        self.info = []          # figures for the report (not failures)
        self.seconds = 0.0
        self.deals = 0          # the shuffle row's

    def ok(self):
        self.injected += 1
        self.survived += 1

    def bad(self, kind, note):
        self.injected += 1
        if kind == "lost":
            self.lost += 1
        else:
            self.wrong += 1
        self.notes.append("%s: %s" % (kind, note))

    def bad_many(self, kind, count, note):
        """``count`` inputs of one kind that failed alike: one note."""
        for _ in range(count):
            self.bad(kind, note)
        del self.notes[len(self.notes) - count + 1:]

    def passed(self):
        return self.lost == 0 and self.wrong == 0 and self.injected > 0


# ---------------------------------------------------------------------------
# the virtual board, as the campaign drives it

def _board_with(timing):
    """hardware/board.json with some of its timing values replaced, as the
    bytes of a board.json file."""
    with open(os.path.join(ROOT, "hardware", "board.json")) as f:
        data = json.load(f)
    data["timing"].update(timing)
    return json.dumps(data).encode()


class Table:
    """One virtual board with its own flash directory: power, the port
    (``transport.Board``), the buttons (pins) and the files on its flash."""

    cheap_files = True      # its flash is a host directory
    chip: "Any" = None      # the ChipBoard, on the emulated Pico
    huge_sizes = (100 * 1024, 300 * 1024, 1024 * 1024)   # the damage row's huge files
    vb: "Any"               # VirtualBoard, or ChipBoard (the same API)

    def __init__(self, work, name, speed=0.0, settings=None, timing=None):
        from okgin.vboard import VirtualBoard, populate
        self.flash = os.path.join(work, name)
        populate(self.flash)
        board = os.path.join(ROOT, "hardware", "board.json")
        if timing:
            board = os.path.join(work, name + "-board.json")
            with open(board, "wb") as f:
                f.write(_board_with(timing))
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
        answer. The lines skipped are returned."""
        self.b.send_raw(b"hello\n")
        skipped: "list[str]" = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.b._readline(max(0.1, deadline - time.monotonic()))
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

    def tree(self):
        """{path: SHA-256 hex} of the firmware's files on the flash (.mpy,
        .py, .json but settings.json; not .staging)."""
        import hashlib
        out = {}
        for dirpath, dirnames, filenames in os.walk(self.flash):
            dirnames[:] = [d for d in dirnames if d != ".staging"]
            for fn in filenames:
                if fn.endswith((".mpy", ".py", ".json")) and fn != "settings.json":
                    p = os.path.join(dirpath, fn)
                    with open(p, "rb") as f:
                        out[os.path.relpath(p, self.flash)] = hashlib.sha256(f.read()).hexdigest()
        return out

    def session(self, read=(), digest=(), put=None, remove=()):
        """With the power off: read files (``read``: their bytes, or None;
        ``digest``: (SHA-256 hex, size), or None), then remove and write
        files, then power on. Returns {name: what was read}."""
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
        self.on()
        return out


class ChipTable(Table):
    """The emulated Pico (host/chip: the stock rp2 MicroPython on rp2040js)
    with this checkout's firmware put on it by ``okgin flash``, driven like
    a Table. Its flash is a file in littlefs, read here through the chip's
    REPL (slow: a Ctrl-C, then a reset), so the rows that run on it look at
    test mode's own game (``record``, the same store code and files) and
    read the real game's file only where they must."""

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
        template = os.path.join(work, "chip-flashed.bin")
        if not os.path.exists(template):
            from okgin.flash import flash_board
            import io
            first = ChipBoard(flash=template + ".new", realtime=False, eink=0.02)
            try:
                first.start()
                first.console_line("MicroPython v", 300)
                flash_board(str(first.port), quiet=True, out=io.StringIO())
            finally:
                first.stop()
            os.replace(template + ".new", template)
        image = os.path.join(work, name + ".bin")
        shutil.copy(template, image)
        # the panels' refresh times scaled as the row asks (presses during
        # refreshes): a sleeping chip jumps to BUSY's fall, so little wall time
        self.chip = ChipBoard(flash=image, realtime=False, eink=speed or 0.02)
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
            put["board.json"] = _board_with(timing)   # the firmware reads the copy on its flash
        if put:
            # once the firmware is up (the REPL is reached by interrupting it)
            self.patient()
            self.b.wait_ready(300, probe_after=1.0)
            self.session(put=put)

    def timing_s(self, key, default):
        return self.chip._timing_ms(key, default) / 1000.0

    def tree(self):
        """{path: SHA-256 hex} of the firmware's files on the chip's flash
        (.mpy, .py, .json but settings.json; not .staging)."""
        code = ("import os, hashlib, binascii\n"
                "def _walk(d):\n"
                " for e in os.ilistdir(d or '/'):\n"
                "  p = (d + '/' + e[0]) if d else e[0]\n"
                "  if e[1] == 0x4000:\n"
                "   if e[0] != '.staging':\n"
                "    _walk(p)\n"
                "  elif e[0].rsplit('.', 1)[-1] in ('mpy', 'py', 'json') and e[0] != 'settings.json':\n"
                "   h = hashlib.sha256()\n"
                "   with open(p, 'rb') as f:\n"
                "    h.update(f.read())\n"
                "   print('H', p, binascii.hexlify(h.digest()).decode())\n"
                "_walk('')\n")
        out = {}
        for line in self._repl(code).decode().splitlines():
            w = line.split()
            if len(w) == 3 and w[0] == "H":
                out[w[1]] = w[2]
        return out

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

    def stop(self):
        self.b.close()
        self.chip.stop()

    def sync(self, timeout=300):
        self.b.request("sync", timeout=timeout)

    def press(self, p, button, long=False):
        self.chip.press(p, button, long=long)   # in the chip's time, until polled

    def hold(self, p, button):
        self.chip.hold(p, button)

    def release(self, p, button):
        self.chip.release(p, button)

    def seen(self):
        pass

    def _repl(self, code):
        """Run ``code`` (a string, or a list run one after the other) at
        the chip's raw REPL (the firmware stops), return its output, then
        reset the chip into the firmware again."""
        import contextlib
        import io
        from mpremote.transport_serial import SerialTransport
        self.b.close()
        out = b""
        with contextlib.redirect_stdout(io.StringIO()):
            tr = SerialTransport(str(self.chip.port), baudrate=115200, timeout=5)
            try:
                tr.enter_raw_repl(soft_reset=False, timeout_overall=60)
                for piece in [code] if isinstance(code, str) else code:
                    got, err = tr.exec_raw(piece, timeout=600)
                    if err:
                        raise CommandError("the emulated Pico's REPL: %s"
                                           % err.decode(errors="replace").strip().splitlines()[-1:])
                    out += got
                tr.exec_raw_no_follow("import machine\nmachine.reset()")
            finally:
                tr.close()
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

    def session(self, read=(), digest=(), put=None, remove=()):
        """As Table.session in one visit to the chip's REPL (Ctrl-C stops
        the firmware, as the power going would; ``machine.reset()`` is the
        power coming back): the reads first, then the removals and writes,
        each file written to x.tmp and renamed."""
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
            # a few KB of hex per piece: the chip compiles each in its heap
            mode = "wb"
            for i in range(0, max(len(data), 1), 4096):
                pieces.append("with open('x.tmp',%r) as f:\n f.write(binascii.unhexlify(%r))\n"
                              % (mode, data[i:i + 4096].hex()))
                mode = "ab"
            pieces.append("os.rename('x.tmp', %r)\n" % name)
        out: "dict[str, Any]" = {}
        for line in self._repl(pieces).decode().splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "R":
                out[w[1]] = None if w[2] == "-" else bytes.fromhex(w[2])
            elif len(w) >= 3 and w[0] == "D":
                out[w[1]] = None if w[2] == "-" else (w[2], int(w[3]))
        return out


def row_power_chip(n, rng, work, log):
    """The power row on the emulated Pico, in test mode's own game (the
    same store code, test.okg; read back with ``record``): half the cuts
    fall between two of the chip's flash erase/program operations during
    the save a press starts (``cut_power_after_flash_writes``), half at a
    random instant after the press. littlefs must keep the last completed
    action: after the boot the record is the one before the press, or it
    plus the action (and the computer's answers)."""
    from okgin.engine import Match
    r = Row("power")
    t = ChipTable(work, "power")
    t.on()
    ops: "dict[tuple[str, bool], int]" = {}
    try:
        t.req("testmode on", timeout=300)

        def record():
            return ("\n".join(t.b.request_block("record", timeout=300)) + "\n").encode()

        def fresh():
            vs = rng.choice(("human", "hard"))
            t.req("newgame seed=%d vs=%s" % (rng.randrange(1 << 30), vs), timeout=300)
            t.sync()
        fresh()
        i = 0
        while r.injected < n and i < 3 * n:
            i += 1
            t.sync()
            before = record()
            m = Match.from_record(before.decode())
            if m.winner is not None or m.hand_no > 2:
                fresh()
                continue
            p = m.hand.to_move
            assert p is not None       # (the hand is not over: the engine dealt the next)
            if m.players[1] != "human" and p == 1:
                continue
            legal = m.observation(p)["legal"]
            act = rng.choice(legal)
            kind = "between flash writes" if r.injected % 2 == 0 else "at a random instant"
            if kind == "between flash writes":
                k = rng.randint(1, 6)
                t.chip.cut_power_after_flash_writes(k)
            # the action through the protocol's press (test mode), the last
            # button without waiting for its answer
            # every iteration starts after a boot: both cursors at the left
            from okgin.lib.presses import Presses
            buttons = Presses().for_action(p, act, m.observation(p)["hand"])
            for bt in buttons[:-1]:
                t.req("press %d %s" % (p, bt), timeout=300)
            t.b.send_raw(b"press %d %s\n" % (p, buttons[-1].encode()))
            if kind == "at a random instant":
                time.sleep(rng.uniform(0.0, 3.0))
                t.cut()
            else:
                # the save (and the computer's answer) may take fewer
                # operations than armed: once the chip has written nothing
                # for 5 s of its own time, cut it there
                deadline = time.monotonic() + 120
                writes, quiet = sum(t.chip.flash_ops.values()), t.chip.clock()
                while t.chip.alive and time.monotonic() < deadline:
                    now = sum(t.chip.flash_ops.values())
                    if now != writes:
                        writes, quiet = now, t.chip.clock()
                    elif t.chip.clock() - quiet > 5.0:
                        break
                    time.sleep(0.05)
                if t.chip.alive:
                    t.cut()      # fewer flash writes than armed: cut now
                    kind = "after the writes"
                t.b.close()
            t.on()         # (a boot disarms a cut that did not happen)
            t.req("testmode on", timeout=300)
            t.sync()
            after = record()
            ops[kind, after == before] = ops.get((kind, after == before), 0) + 1
            verdict = _judge_power(before, after, ("action", act, p))
            if verdict[0] == "ok" and not verdict[1]:
                why = agrees(t, parse(after))
                verdict = ("ok", "") if not why else ("wrong", why)
            if verdict[0] == "ok":
                r.ok()
            else:
                r.bad(verdict[0], "%s cut %d: %s" % (kind, i, verdict[1]))
            # a boot starts every cursor at the left: new presses from there
            log("power", r)
        r.info.append("emulated Pico; cuts that kept the record as it was / with the action: %s"
                      % ", ".join("%s %d/%d" % (k, ops.get((k, True), 0), ops.get((k, False), 0))
                                  for k in ("between flash writes", "at a random instant",
                                            "after the writes")))
    finally:
        t.stop()
    return r


TABLE = [Table]     # what the rows run on: Table, or ChipTable (--chip)


def public(m):
    """What ``status`` says of match ``m`` (public fields)."""
    if m is None:
        return {}
    o = m.observation(0)
    return {
        "hand_no": str(o["hand_no"]), "dealer": str(o["dealer"]),
        "to_move": "-" if o["to_move"] is None else str(o["to_move"]),
        "phase": o["phase"], "stock": str(o["stock_count"]),
        "discard": o["discard_top"] or "-", "knock_limit": str(o["knock_limit"]),
        "scores": "%d,%d" % tuple(o["scores"]),
    }


def parse(rec):
    """The match a saved record holds, or None if it is not one."""
    from okgin.engine import Match
    if rec is None:
        return None
    try:
        return Match.from_record(rec.decode("utf-8"))
    except (ValueError, UnicodeError):
        return None


def agrees(t, m):
    """'' if the board's status matches match ``m`` (its game, its seats),
    else what differs."""
    return _agrees(t.status(), m)


def _agrees(st, m):
    if m is None:
        return "" if st["screen"] == "menu" else "status %s, no saved game" % st["screen"]
    if st["screen"] == "error":
        return "the error screen"
    want = public(m)
    diff = ["%s=%s (record: %s)" % (k, st.get(k), v) for k, v in want.items() if st.get(k) != v]
    seat = m.players[1]
    if st.get("vs") != seat:
        diff.append("vs=%s (record: %s)" % (st.get("vs"), seat))
    return ", ".join(diff)


class Player:
    """Plays legal actions with the buttons, predicting the cursor with the
    firmware's own card order (host/lib/presses.py)."""

    def __init__(self, t, rng):
        from okgin.lib.presses import Presses
        self.t = t
        self.rng = rng
        self.keys = Presses(shortest=True)

    def choose(self, m, p):
        legal = m.observation(p)["legal"]
        knocks = [a for a in legal if a.startswith("knock")]
        if knocks and self.rng.random() < 0.7:
            return self.rng.choice(knocks)
        return self.rng.choice(legal)

    def buttons(self, m, act):
        p = m.hand.to_move
        return p, self.keys.for_action(p, act, m.observation(p)["hand"])

    def after(self, m_before, m_after, p):
        if m_after is None or m_after.hand_no != m_before.hand_no or m_after.winner is not None:
            self.keys.reset()
        else:
            self.keys.played(p, m_before.observation(p)["hand"], m_after.observation(p)["hand"])


# ---------------------------------------------------------------------------
# row: power cuts

def _menu_new_game(t, row):
    """Hold OK (the menu), go to ``row`` and press OK: a new game starts.
    Rows with a game in progress: 0 Resume, 1 two players, 2..4 vs easy..hard;
    without one, one less. Returns after the last press's release."""
    t.press(0, "ok", long=True)
    for _ in range(row):
        t.press(0, "right")
    t.press(0, "ok")


def row_power(n, rng, work, log):
    """Cuts while the board saves, refreshes, starts a new game or thinks
    for the computer. Before each cut the board is idle on a saved game
    ``before``; one press (or the menu's new game) starts something; the
    power goes at a random instant within it. After the boot the saved game
    must be ``before`` or ``before`` plus what was started (the human's
    action and the computer's answers, or the whole new game), and the
    board's status must match it."""
    r = Row("power")
    # slow saves and a slowish panel widen the windows a cut can fall in
    t = TABLE[0](work, "power", speed=0.15, settings={"slow_save_ms": 4})
    t.on()
    pl = Player(t, rng)
    kinds = ("save", "refresh", "newgame", "computer")
    outcomes: "dict[tuple[str, bool], int]" = {}
    newgames = 0
    midsave = [0]
    misses: "list[str]" = []
    try:
        _menu_new_game_fresh(t, 0)
        for i in range(n):
            kind = kinds[i % len(kinds)]
            t.sync()
            before = t.saved()
            m = parse(before)
            if m is None or m.winner is not None:
                _menu_new_game_fresh(t, 0)
                continue
            vs = m.players[1] != "human"
            if kind == "computer" and not vs:
                kind = "newgame"       # the next game is against the computer
            if kind == "newgame":
                # mostly against the computer, so the next "computer" cut
                # finds one to cut
                want_vs = "human" if newgames % 3 == 2 else "hard"
                newgames += 1
                t.press(0, "ok", long=True)
                for _ in range(1 if want_vs == "human" else 4):
                    t.press(0, "right")
                t.hold(0, "ok")
                time.sleep(0.06)
                t.release(0, "ok")
                time.sleep(rng.uniform(0.0, 0.35))
                expect = ("newgame", want_vs, None)
            else:
                p = m.hand.to_move
                if vs and p == 1:
                    continue           # the computer is still to move: sync again
                act = pl.choose(m, p)
                p, buttons = pl.buttons(m, act)
                for bt in buttons[:-1]:
                    t.press(p, bt)
                t.hold(p, buttons[-1])
                time.sleep(0.06)
                t.release(p, buttons[-1])
                window = {"save": 0.12, "refresh": 0.9, "computer": 1.5}[kind]
                time.sleep(rng.uniform(0.0, window))
                expect = ("action", act, p)
            t.cut()
            if t.saved("game.tmp") is not None:
                midsave[0] += 1      # the power went while a save was being written
            t.on()
            t.sync()
            after = t.saved()
            outcomes[kind, after == before] = outcomes.get((kind, after == before), 0) + 1
            verdict = _judge_power(before, after, expect)
            if verdict[0] == "ok" and verdict[1]:
                misses.append(verdict[1])
                verdict = ("ok", "")
            if not verdict[1]:
                verdict = (verdict[0], agrees(t, parse(after)))
            if verdict[0] == "ok" and not verdict[1]:
                r.ok()
            else:
                r.bad(verdict[0] if verdict[0] != "ok" else "wrong",
                      "%s cut %d: %s" % (kind, i, verdict[1]))
            # the cursor is not saved: both start at the left after a boot
            pl.keys.reset()
            log("power", r)
        r.info.append("speed 0.15, slow saves 4 ms per 256-byte chunk; cuts that kept the game "
                      "as it was / with what was started: %s" % ", ".join(
                          "%s %d/%d" % (k, outcomes.get((k, True), 0), outcomes.get((k, False), 0))
                          for k in kinds))
        r.info.append("%d cuts fell while a save was being written (game.tmp on the flash)"
                      % midsave[0])
        if misses:
            r.info.append("new games against another opponent than the menu presses meant "
                          "(a press the firmware did not take: not a power matter): %d, e.g. %s"
                          % (len(misses), misses[0]))
    finally:
        t.stop()
    return r


def _menu_new_game_fresh(t, row):
    """A new game from the menu whatever is on the screen."""
    st = t.status()
    if st["screen"] in ("showdown", "over"):
        t.press(0, "ok")
        t.sync()
        st = t.status()
    if st["screen"] == "menu":
        for _ in range(row):
            t.press(0, "right")
        t.press(0, "ok")
    else:
        _menu_new_game(t, row + 1)
    t.sync()


def _judge_power(before, after, expect):
    """("ok"|"lost"|"wrong", why) for a power cut."""
    if after is None:
        return "lost", "no saved game after the boot"
    ma = parse(after)
    if ma is None:
        return "wrong", "the saved game does not read: %r" % after[:80]
    if after == before:
        return "ok", ""
    if expect[0] == "newgame":
        # a whole new game (its status must match its own seats, checked by
        # the caller), never the old deal with another opponent; which
        # opponent the menu presses chose is the buttons row's business
        mb = parse(before)
        if mb is not None and ma.seed == mb.seed:
            return "wrong", "the old deal with other seats or rules (%s)" % (ma.players,)
        if ma.players[1] != expect[1]:
            return "ok", "menu: %s chosen, %s started" % (expect[1], ma.players[1])
        return "ok", ""
    if after.startswith(before):
        added = after[len(before):].decode().splitlines()
        mb = parse(before)
        # the first new line is the action started, the rest the computer's
        first = added[0].rsplit(" ;", 1)[0].split(" ", 2)
        if first[1:] != [str(expect[2]), expect[1]]:
            return "wrong", "saved %r, the press was %s %s" % (added[0], expect[2], expect[1])
        for ln in added[1:]:
            if ln.split(" ")[1] != "1" or mb.players[1] == "human":
                return "wrong", "an extra action %r" % ln
        return "ok", ""
    if before.startswith(after):
        return "lost", "%d completed action(s) gone" % (
            before.count(b"\n") - after.count(b"\n"))
    return "wrong", "the saved game is another one"


# ---------------------------------------------------------------------------
# row: damaged files

def _damage(rng, data, kind, huge=(100 * 1024, 300 * 1024, 1024 * 1024)):
    """(damaged bytes, description); ``huge``: the sizes of huge files."""
    n = len(data)
    if kind == "truncate":
        k = rng.randrange(0, n)
        return data[:k], "cut at byte %d of %d" % (k, n)
    if kind == "flip":
        out = bytearray(data)
        bits = rng.randint(1, 3)
        where = []
        for _ in range(bits):
            i = rng.randrange(n)
            b = rng.randrange(8)
            out[i] ^= 1 << b
            where.append(i)
        return bytes(out), "%d bit(s) flipped at %s" % (bits, where)
    if kind == "garbage":
        i = rng.randrange(n)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
        return data[:i] + junk + data[i:], "%d random bytes inserted at %d" % (len(junk), i)
    if kind == "badbyte":
        i = rng.randrange(n)
        return data[:i] + bytes([rng.choice((0x80, 0xc3, 0xfe, 0xff))]) + data[i + 1:], \
            "byte %d is not UTF-8" % i
    if kind == "overwrite":
        i = rng.randrange(n)
        k = rng.randint(1, 64)
        return data[:i] + bytes(rng.randrange(32, 127) for _ in range(k)) + data[i + k:], \
            "%d printable bytes overwritten at %d" % (k, i)
    if kind == "huge":
        size = rng.choice(huge)
        fill = rng.choice(("random", "zeros", "lines"))
        if fill == "random":
            junk = rng.randbytes(size)
        elif fill == "zeros":
            junk = bytes(size)
        else:
            junk = b"12 0 discard 7h ;00000000\n" * (size // 26)
        where = rng.choice(("after", "instead"))
        return (data + junk if where == "after" else junk), \
            "%d KB of %s %s the record" % (size // 1024, fill, where)
    if kind == "empty":
        return b"", "empty file"
    raise ValueError(kind)


DAMAGE_KINDS = ("truncate", "flip", "garbage", "badbyte", "overwrite", "huge", "empty")
SETTINGS_DAMAGE = (
    None, b"", b"{not json", b"\xff\xfe\x00", b'{"rules": 5, "game": []}',
    b'{"game": {"vs": "hard", "seed": 1}}', b'{"game": {"vs": "human"}}',
    b'{"rules": {"gin_bonus": "lots", "target": -4}}', b"[" * 5000,
    b'{"slow_save_ms": "x", "hold_computer": 1}',
)


def _good_prefix(orig, damaged):
    """The lines of ``orig`` before the first line ``damaged`` changed:
    what must survive. A last line that lost only its newline is whole
    (its check says so): the board keeps it and adds the newline."""
    a = orig.split(b"\n")[:-1]          # orig ends with "\n"
    b = damaged.split(b"\n")
    keep = []
    for i, line in enumerate(a):
        if i < len(b) and a[i] == b[i] and (i + 1 < len(b) or line):
            keep.append(line)
        else:
            break
    return b"".join(x + b"\n" for x in keep)


def _engine_bases(rng):
    """Base games made with the engine (the record the firmware would have
    saved: the same Match.record_lines), for a board whose flash is slow to
    read back after every move (the emulated Pico): one against the
    computer (hard) of 24 actions, one of two players of 16."""
    from okgin.engine import Match
    bases = []
    for players, moves in ((("human", "hard"), 24), (("human", "human"), 16)):
        while True:
            m = Match(seed=rng.randrange(1 << 30), dealer=rng.randrange(2), players=players)
            for _ in range(moves):
                p = m.hand.to_move
                assert p is not None     # (within the first hand)
                legal = m.observation(p)["legal"]
                m.play(rng.choice([a for a in legal if not a.startswith("knock")] or legal), p)
                if m.hand_no > 1 or m.winner is not None:
                    break
            if m.hand_no == 1 and m.winner is None and m.hand.to_move == 0:
                break    # a human to move, so the board waits at the game
        bases.append(("".join(ln + "\n" for ln in m.record_lines()).encode(), None))
    return bases


def row_damage(n, rng, work, log):
    """Damage game.okg and settings.json while the power is off, boot,
    and compare with the record's lines before the first damaged one."""
    r = Row("damage")
    t = TABLE[0](work, "damage")
    t.on()
    try:
        if not t.cheap_files:
            bases = _engine_bases(rng)
            r.info.append("emulated Pico: base games made by the engine, put on the flash "
                          "through the REPL; huge files up to %d KB" % (max(t.huge_sizes) // 1024))
        else:
            # the base games: one against the computer, one of two players,
            # both played by the board itself
            bases = []
            for row, moves in ((3, 10), (0, 14)):
                _menu_new_game_fresh(t, row)
                m = parse(t.saved())
                pl = Player(t, rng)
                for _ in range(moves):
                    m = parse(t.saved())
                    if m.winner is not None or m.hand_no > 1:
                        break
                    if m.players[1] != "human" and m.hand.to_move == 1:
                        t.sync()
                        continue
                    act = pl.choose(m, m.hand.to_move)
                    p, buttons = pl.buttons(m, act)
                    for bt in buttons:
                        t.press(p, bt)
                    t.sync()
                    pl.after(m, parse(t.saved()), p)
                bases.append((t.saved(), t.saved("settings.json")))
        r.info.append("base games: %s" % ", ".join(
            "%d lines (%s)" % (b.count(b"\n"), parse(b).players[1]) for b, _ in bases))
        kinds = {"header": 0, "part": 0, "whole": 0}
        looks = ("game.okg",), ("game.bad",)
        pending = None      # the case the next look judges

        def judge(case, look):
            base, data, good, st, what = case
            verdict, why = _judge_damage(st, look["game.okg"], look["game.bad"], base, data, good)
            if verdict == "ok":
                r.ok()
            else:
                r.bad(verdict, "%s: %s" % (what, why))
            log("damage", r)
        for i in range(n):
            base, settings = bases[i % len(bases)]
            put: "dict[str, bytes]" = {}
            gone = ["game.bad", "game.tmp"]
            if i % 5 == 4:
                # settings.json damaged, the game intact
                sd = SETTINGS_DAMAGE[(i // 5) % len(SETTINGS_DAMAGE)]
                put["game.okg"] = base
                if sd is None:
                    gone.append("settings.json")
                else:
                    put["settings.json"] = sd
                data, what, good = base, "settings.json: %r" % (sd[:30] if sd else sd), base
            else:
                kind = DAMAGE_KINDS[(i - i // 5) % len(DAMAGE_KINDS)]
                data, what = _damage(rng, base, kind, t.huge_sizes)
                good = _good_prefix(base, data)
                put["game.okg"] = data
                if settings is not None:
                    put["settings.json"] = settings
                else:
                    gone.append("settings.json")
            # (the last case's files are read in the same visit, before
            # this case's are written: on the emulated Pico a visit costs
            # a reset and a boot)
            look = t.session(read=looks[0], digest=looks[1], put=put, remove=gone)
            if pending is not None:
                judge(pending, look)
            t.sync()
            kinds[("header" if good.count(b"\n") < 3 else "whole" if good == base
                   else "part")] += 1
            pending = (base, data, good, t.status(), what)
        if pending is not None:
            judge(pending, t.session(read=looks[0], digest=looks[1]))
        r.info.append("damage in the header (the menu, game.bad kept): %d; in the actions "
                      "(their good part resumed): %d; the record whole (settings damaged, "
                      "or only a last newline lost): %d"
                      % (kinds["header"], kinds["part"], kinds["whole"]))
    finally:
        t.stop()
    return r


def _judge_damage(st, saved, bad, base, data, good):
    """``st``: the board's status after the boot; ``saved``: game.okg then;
    ``bad``: game.bad's (SHA-256 hex, size) or None."""
    import hashlib
    kept = bad == (hashlib.sha256(data).hexdigest(), len(data))
    m_good = parse(good) if good.count(b"\n") >= 3 else None
    if m_good is None:
        # the header is damaged: nothing to resume, the file kept as game.bad
        if saved is not None and parse(saved) is not None:
            return "wrong", "a game was resumed from a damaged header (%d lines)" % saved.count(b"\n")
        if data and not kept:
            return "lost", "the damaged file was not kept as game.bad"
        why = _agrees(st, None)
        return ("ok", "") if not why else ("wrong", why)
    if saved is None:
        return "lost", "no saved game (the good part has %d lines)" % good.count(b"\n")
    m = parse(saved)
    if m is None:
        return "wrong", "the saved game does not read"
    if not saved.startswith(good):
        if good.startswith(saved):
            return "lost", "%d good line(s) dropped" % (good.count(b"\n") - saved.count(b"\n"))
        return "wrong", "the saved game is not the good part of the damaged one"
    # after the good part, only the computer's moves (it plays on at once)
    for ln in saved[len(good):].decode().splitlines():
        if m.players[1] == "human" or ln.split(" ")[1] != "1":
            return "wrong", "resumed %r past the good part" % ln
    if data != good and data != good[:-1] and not kept:
        return "lost", "the damaged file was not kept as game.bad"
    why = _agrees(st, m)
    return ("ok", "") if not why else ("wrong", why)


# ---------------------------------------------------------------------------
# row: serial fuzzing

def _expected_answers(data, max_line=200):
    """How many answer lines the protocol owes for ``data`` (docs/protocol.md:
    one per line that is not empty or blank)."""
    n = 0
    for seg in data.split(b"\n")[:-1]:
        if seg.endswith(b"\r"):
            seg = seg[:-1]
        if len(seg) > max_line:
            n += 1
        elif seg and any(c > 126 or (c < 32 and c != 9) for c in seg):
            n += 1
        elif seg.strip(b" \t"):
            n += 1
    return n


def _fuzz_line(rng):
    """(bytes ending in \\n, kind). Never Ctrl-C: on any MicroPython board
    it interrupts into the REPL by design (docs/reliability.md)."""
    kind = rng.choice(("bytes", "bytes", "utf8", "control", "words", "words", "order", "long"))
    if kind == "bytes":
        b = bytes(rng.choice([c for c in range(256) if c not in (3, 10)])
                  for _ in range(rng.randint(0, 120)))
    elif kind == "utf8":
        b = rng.choice((b"caf\xc3\xa9", b"\xc3\x28", b"\xe2\x82", b"\xf0\x9f\x92\xa9 hello",
                        b"\xed\xa0\x80", b"status\xc0\xaf", "résumé".encode()))
    elif kind == "control":
        b = bytes(rng.choice((0, 1, 2, 4, 7, 8, 13, 26, 27, 127)) for _ in range(rng.randint(1, 8)))
    elif kind == "words":
        words = ("press", "screen", "newgame", "record", "sync", "reset", "mem", "status",
                 "hello", "testmode", "entropy", "seed=1", "0", "1", "2", "ok", "left",
                 "long", "on", "off", "vs=hard", "-1", "x" * 30, "seed=+1", "seed=1_0")
        b = " ".join(rng.choice(words) for _ in range(rng.randint(1, 4))).encode()
        # never a working state change: only the commands test mode refuses
        # outside it, with wrong arguments, or harmless ones
        w = b.split()
        if w and w[0] in (b"testmode", b"sync") or (w == [b"status"] or w == [b"hello"]):
            b = b"x" + b
    elif kind == "order":
        b = rng.choice((b"press 0 ok", b"screen 1", b"record", b"newgame seed=5",
                        b"mem", b"reset", b"entropy 5", b"press 1 draw long"))
    else:
        b = rng.choice((b"a", b" ", b"hello ")) * rng.randint(190, 260)
    return b + rng.choice((b"\n", b"\r\n")), kind


def row_serial(n, rng, work, log):
    """Junk on the port outside test mode, with a game in progress: every
    line gets its one ERR, the game (flash, status, both panels) does not
    change, the board keeps answering. Then megabyte lines and floods.
    The heap (``mem``, test mode) before and after the junk."""
    r = Row("serial")
    t = TABLE[0](work, "serial")
    t.on()
    try:
        _menu_new_game_fresh(t, 0)
        t.press(int(t.status()["to_move"]), "draw")
        t.sync()

        def snapshot():
            t.sync()
            # (the emulated Pico's flash is read through its REPL, which
            # stops the firmware: there status and panels say it)
            return (t.saved() if t.cheap_files else None, t.status(),
                    [t.vb.panel_image(p).tobytes() for p in (0, 1)])

        t.req("testmode on")
        t.sync()
        heap0 = _alloc(t)
        t.req("testmode off")
        t.sync()
        ref = snapshot()
        sent = 0
        big = 0
        batch = 0
        while sent < n:
            data = b""
            lines = 0
            kinds = set()
            for _ in range(min(50, n - sent)):
                b, kind = _fuzz_line(rng)
                data += b
                lines += 1
                kinds.add(kind)
            if batch in (5, 60, 150):   # three over-long lines in a long run
                data += b"y" * t.long_line + b"\n"    # a megabyte line (64 KB on the chip)
                lines += 1
                big += 1
            owed = _expected_answers(data)
            t.b.send_raw(data)
            got = _answers(t, owed, timeout=60 * t.answer_slowness)
            sent += lines
            batch += 1
            bad = [a for a in got if not a.startswith(("ERR", "OK"))]
            if len(got) != owed or bad:
                for _ in range(lines):
                    r.bad("wrong", "batch %d (%s): %d answers for %d lines; %r"
                          % (batch, ",".join(sorted(kinds)), len(got), owed, bad[:2]))
                break
            if batch % 20 == 0 or sent >= n:
                now = snapshot()
                if now != ref:
                    what = [k for k, a, b in zip(("flash", "status", "panels"), ref, now, strict=True) if a != b]
                    for _ in range(lines):
                        r.bad("wrong", "batch %d changed the %s" % (batch, ", ".join(what)))
                    break
            for _ in range(lines):
                r.ok()
            log("serial", r)
        # a flood: 5,000 requests at once get 5,000 answers, in order; each
        # answered one survived, a missing answer is lost, another is wrong
        t0 = time.monotonic()
        got = _flood(t, b"hello\n" * FLOOD, FLOOD, idle=60 * t.answer_slowness)
        took = time.monotonic() - t0
        right = sum(1 for a in got if a.startswith("OK okgin"))
        for _ in range(right):
            r.ok()
        if len(got) > right:
            r.bad_many("wrong", len(got) - right, "flood: %d of %d answers were not hello's: %r"
                       % (len(got) - right, FLOOD, [a for a in got if not a.startswith("OK okgin")][:2]))
        if len(got) < FLOOD:
            r.bad_many("lost", FLOOD - len(got), "flood: %d answers to %d hellos (none for %d s)"
                       % (len(got), FLOOD, 60 * t.answer_slowness))
        r.info.append("a flood of %d hellos: %d answers in %.0f s (%.0f a second)"
                      % (FLOOD, len(got), took, len(got) / max(took, 1e-3)))
        if snapshot() != ref:
            r.bad("wrong", "the game changed after the flood")
        t.req("testmode on")
        t.sync()
        heap1 = _alloc(t)
        t.req("testmode off")
        r.info.append("%d line(s) of %d KB; heap in use %d -> %d bytes"
                      % (big, t.long_line // 1024, heap0, heap1))
        if heap1 - heap0 > 2048:
            r.bad("wrong", "the heap grew by %d bytes" % (heap1 - heap0))
    finally:
        t.stop()
    return r


FLOOD = 5000     # hellos sent at once by the serial row


def _flood(t, data, count, idle):
    """Send ``data`` while reading its answers, as a client does, and
    return them (up to ``count``; it stops when none came for ``idle``
    seconds). Writing it all before reading loses answers on a USB board:
    the host keeps only so many unread bytes (a tty's buffer; 64 KB on the
    emulated Pico, host/chip) and the device drops what it cannot send
    (MicroPython's USB serial, after its timeout), so a flood of 5,000 on
    the emulated Pico lost half its answers that way."""
    import threading
    failed: "list[Exception]" = []

    def write():
        try:
            t.b.send_raw(data)
        except transport.TransportError as e:
            failed.append(e)
    w = threading.Thread(target=write, name="flood", daemon=True)
    w.start()
    got: "list[str]" = []
    while len(got) < count:
        line = t.b._readline(idle)
        if line is None:
            break
        got.append(line)
    w.join(idle)
    if failed:
        raise failed[0]
    return got


def _alloc(t):
    text = t.req("mem")
    return int(dict(kv.split("=") for kv in text.split())["alloc"])


def _answers(t, count, timeout=60):
    """Up to ``count`` answer lines (OK/ERR...), skipping nothing else."""
    out: "list[str]" = []
    deadline = time.monotonic() + timeout
    while len(out) < count and time.monotonic() < deadline:
        line = t.b._readline(max(0.05, deadline - time.monotonic()))
        if line is None:
            break
        out.append(line)
    return out


# ---------------------------------------------------------------------------
# row: hidden information

def _banner(img):
    box = img.crop((296 - 76, 0, 296, 10))
    return sum(1 for v in box.tobytes() for b in range(8) if not (v >> b) & 1) > 500


def _screen_image(line):
    from PIL import Image
    data = bytes.fromhex(line.split(" ")[2])
    return Image.frombytes("1", (296, 128), bytes(x ^ 0xFF for x in data))


def _same_below_banner(a, b):
    """Two panel images alike but for the top rows (header, TEST MODE
    banner): the same screen of the same game."""
    a = a.crop((0, 12, 296, 128)).tobytes()
    b = b.crop((0, 12, 296, 128)).tobytes()
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b, strict=True)) < 150


def row_hidden(n, rng, work, log):
    """Attempts to see the game in progress over the port: test mode's
    commands back to back, during refreshes, after presses and resets,
    test-only commands outside test mode. Revealed (wrong) = an answer that
    holds a line of the real game's record (its deal line says the seed,
    from which the engine rebuilds every hand), an image of its panels, or
    a card of a hand; or a test command answered before the TEST MODE
    banner was on both panels."""
    r = Row("hidden")
    t = TABLE[0](work, "hidden", speed=0.1)
    t.on()
    shown = []          # (time, panel, banner?) at each refresh start

    def on_event(ev):
        # on the board's own thread: the emulated panel directly (panel_image
        # would wait for that thread to settle the link)
        if ev[0] == "refresh":
            pins = t.vb.pins
            assert pins is not None
            shown.append((time.monotonic(), ev[1], _banner(pins.panels[ev[1]].image())))
    try:
        _menu_new_game_fresh(t, 0)
        real = t.saved()
        m = parse(real)
        secret = set(real.decode().splitlines()[2:])     # the deal line and the actions
        t.sync()
        ink = [t.vb.panel_image(p) for p in (0, 1)]
        st_real = t.status()
        hands = [set(m.observation(p)["hand"]) for p in (0, 1)]
        t.vb.on_event = on_event
        other_seed = (m.seed + 1) % (1 << 30)
        tries = (
            [b"testmode on", b"screen 1", b"record", b"testmode off"],
            [b"testmode on", b"screen 0", b"screen 1", b"testmode off"],
            [b"record", b"screen 1", b"press 1 ok", b"mem", b"entropy 3"],
            [b"testmode on", b"press 0 ok", b"record", b"testmode off", b"record"],
            [b"testmode on", b"newgame seed=%d" % other_seed, b"record", b"screen 1",
             b"testmode off"],
            [b"testmode on", b"reset"],
            [b"status", b"hello", b"testmode off", b"screen 1", b"sync"],
        )
        for i in range(n):
            seq = tries[i % len(tries)]
            t0 = time.monotonic()
            t.b.send_raw(b"".join(x + b"\n" for x in seq))
            leak = []
            for cmd in seq:
                if cmd == b"reset":
                    t.b.wait_ready(30, probe_after=2.0)
                    break
                line = t.b._readline(30)
                while line is not None and line.startswith("READY"):
                    line = t.b._readline(30)     # unsolicited (a reset's boot)
                if line is None:
                    leak.append("no answer to %r" % cmd)
                    break
                if line == "OK testmode=1":
                    now = time.monotonic()
                    for p in (0, 1):
                        if not any(p == q and b and t0 <= when <= now for when, q, b in shown):
                            leak.append("test mode answered before its banner was on panel %d" % p)
                if line.startswith("OK lines="):
                    block = [t.b._readline(30) for _ in range(int(line[9:]))]
                    if secret & set(block):
                        leak.append("a line of the real game's record")
                elif line.startswith("OK 296x128 "):
                    img = _screen_image(line)
                    if any(_same_below_banner(img, x) for x in ink):
                        leak.append("a panel of the real game")
                elif line.startswith("OK screen="):
                    for w in line.split()[1:]:
                        k, _, v = w.partition("=")
                        if k != "discard" and (v in hands[0] or v in hands[1]):
                            leak.append("a card in status: %s" % w)
            late = [x for x in t.resync() if not x.startswith("READY")]
            if late:
                leak.append("%d answer(s) came late: %r" % (len(late), late[:2]))
            t.req("testmode off")
            t.sync()
            if t.cheap_files and t.saved() != real:
                leak.append("the real game changed")
            if t.status() != st_real:
                leak.append("the real game's status changed")
            if [t.vb.panel_image(p).tobytes() for p in (0, 1)] != [x.tobytes() for x in ink]:
                leak.append("the real game's panels did not come back")
            if leak:
                r.bad("wrong", "try %d %r: %s" % (i, seq, "; ".join(leak)))
            else:
                r.ok()
            log("hidden", r)
    finally:
        t.stop()
    return r


# ---------------------------------------------------------------------------
# row: stuck or absent panels

def _notice(img):
    # notices have a black title bar across the top 12 rows
    return img.crop((0, 0, 200, 12)).tobytes().count(0) > 120


def row_panels(n, rng, work, log):
    """A panel's BUSY line stuck high in the middle of a game (a refresh
    that never ends), or from power-on (a panel that never answers). The
    board must settle within a bounded time (its timeout, at most two
    resets), show a message on the other panel, keep the game, and play
    on with the panel that works."""
    r = Row("panels")
    for i in range(n):
        t = TABLE[0](work, "panels%d" % i, timing={"busy_timeout_ms": 600})
        try:
            t.on()
            _menu_new_game_fresh(t, 0)
            before = t.saved()
            m = parse(before)
            bad_p = i % 2
            other = 1 - bad_p
            from_boot = (i // 2) % 2 == 1
            t0 = time.monotonic()
            e0 = 0 if t.cheap_files else t.chip.emulated_ns()
            t.vb.set_fault(bad_p, True)
            if from_boot:
                t.cycle()
            else:
                t.press(m.hand.to_move, "draw")   # pass or draw: both panels redraw
            notes = []
            settled = told = False
            st = {}
            slow = t.answer_slowness
            while time.monotonic() - t0 < 60 * slow:
                try:
                    t.sync(timeout=5 * slow)
                    # after its resets the board plays on with one panel; the
                    # other one says so (a notice: its black title bar)
                    told = _notice(t.vb.panel_image(other))
                    st = t.status()
                    if told and st.get("screen") in ("game", "showdown"):
                        settled = True
                        break
                except transport.TransportError:
                    try:
                        t.b.wait_ready(5 * slow, probe_after=1.0)
                    except transport.TransportError:
                        pass
            took = time.monotonic() - t0
            chip_s = ""
            if not t.cheap_files:
                chip_s = " (%.1f s of the chip's time)" % ((t.chip.emulated_ns() - e0) / 1e9)
            if not settled:
                notes.append("not settled after %.0f s%s" % (took, chip_s))
            if not told:
                notes.append("no message on the other panel")
            saved = t.saved()     # (on the emulated Pico: a reset; status was read before)
            lost = parse(saved) is None or not saved.startswith(before)
            if lost:
                notes.append("the game was not kept")
            elif saved.count(b"\n") - before.count(b"\n") > 1:
                notes.append("%d actions saved for one press"
                             % (saved.count(b"\n") - before.count(b"\n")))
            elif settled:
                why = _agrees(st, parse(saved))   # it plays on with the saved game
                if why:
                    notes.append(why)
            r.info.append("panel %d stuck %s: settled in %.1f s%s" % (
                bad_p, "from power-on" if from_boot else "mid-game", took, chip_s))
            if notes:
                r.bad("lost" if lost else "wrong", "panel %d %s: %s" % (
                    bad_p, "from power-on" if from_boot else "mid-game", "; ".join(notes)))
            else:
                r.ok()
            log("panels", r)
        finally:
            t.stop()
    return r


# ---------------------------------------------------------------------------
# row: buttons

def row_buttons(n, rng, work, log):
    """Every press and release chatters (2 or 4 extra edges within a few
    ms, inside the debounce time), both players press at once, presses
    land during refreshes, draws are held past the long-press time. Played
    in test mode's own game, whose record is read after each turn: the
    action must be the one the presses mean (the cursor model), exactly
    once. One lost or doubled cursor press discards another card."""
    from okgin.engine.arrange import order as arranged
    from okgin.lib.presses import Presses
    from okgin.engine import Match
    r = Row("buttons")
    t = TABLE[0](work, "buttons", speed=0.2)
    t.on()
    deb = t.timing_s("debounce_ms", 20)
    skipped = 0
    try:
        t.req("testmode on")

        def record():
            return Match.from_record("\n".join(t.b.request_block("record")) + "\n")

        def chatter(p, button, hold_s):
            """Press and release, each edge with chatter; the longest burst."""
            if not t.cheap_files:
                # the emulated Pico: the chatter in the chip's own time (0.3-0.5
                # ms edges for up to 3/4 of the debounce), exact on any machine
                t.chip.press(p, button, hold_ms=hold_s * 1000,
                             bounce_ms=rng.uniform(1.0, 750 * deb))
                return 0.0
            worst = 0.0
            for down in (True, False):
                edge, back = (t.vb.hold, t.vb.release) if down else (t.vb.release, t.vb.hold)
                t0 = time.monotonic()
                for _ in range(rng.randint(1, 2)):
                    edge(p, button)
                    back(p, button)
                edge(p, button)
                worst = max(worst, time.monotonic() - t0)
                t.seen()     # the firmware has read the settled level
                time.sleep(hold_s if down else 3 * deb)
            return worst

        def fresh():
            t.req("newgame seed=%d dealer=0" % rng.randrange(1 << 30))
            keys.reset()

        keys = Presses()
        fresh()
        done = 0
        tries = 0
        while done < n and tries < 4 * n:
            tries += 1
            m = record()
            if m.winner is not None or m.hand_no > 1:
                fresh()
                continue
            p = m.hand.to_move
            o = m.observation(p)
            worst = 0.0
            if o["phase"] != "discard":
                act = "draw" if "draw" in o["legal"] else "pass"
                # held past the long press, or very long: still one action
                worst = chatter(p, "draw", (0.06, 0.9, 3.0)[done % 3])
            else:
                order = arranged(o["hand"])
                q = 1 - p
                k = rng.randint(0, len(order) - 1)
                qk = rng.randint(0, 3)        # the other player mashes meanwhile
                for j in range(max(k, qk)):
                    if j < k:
                        worst = max(worst, chatter(p, "right", 0.03))
                    if j < qk:
                        worst = max(worst, chatter(q, "right", 0.03))
                keys.cursor[q] = (keys.cursor[q] + qk) % len(m.observation(q)["hand"])
                i = (keys.cursor[p] + k) % len(order)
                if "discard " + order[i] not in o["legal"]:
                    worst = max(worst, chatter(p, "right", 0.03))   # the card just taken (R7)
                    i = (i + 1) % len(order)
                act = "discard " + order[i]
                keys.cursor[p] = i
                worst = max(worst, chatter(p, "ok", 0.06))
            t.sync()
            m2 = record()
            if worst > 0.75 * deb:
                skipped += 1    # the host could not chatter inside the debounce time
                fresh()
                continue
            done += 1
            got = _actions_since(m, m2)
            if got != ["%d %s" % (p, act)]:
                r.bad("lost" if not got else "wrong",
                      "the presses meant %d %s, the board played %s" % (p, act, got))
                fresh()
            else:
                r.ok()
                if m2.hand_no == m.hand_no and m2.winner is None:
                    keys.played(p, o["hand"], m2.observation(p)["hand"])
                else:
                    keys.reset()
            log("buttons", r)
        r.info.append("debounce %d ms; %d turns not counted (the host could not chatter "
                      "inside it)%s" % (deb * 1000, skipped, "" if t.cheap_files else
                                        "; emulated Pico: chatter and holds in the chip's time"))
    finally:
        t.stop()
    return r


def _actions_since(m, m2):
    """The actions m2 has after m's (as '<player> <action>')."""
    from okgin.engine.hand import action_str
    return ["%d %s" % (a >> 7, action_str(a & 127)) for a in m2._actions[len(m._actions):]]


# ---------------------------------------------------------------------------
# row: flashing interrupted

def row_flash(n, rng, work, log):
    """``okgin flash`` of a changed firmware, stopped at a random instant
    after it has the board: SIGKILL (then a power cycle), SIGTERM (the
    flasher resets the board itself), or the board's power cut (then power
    on). The board must boot one complete firmware (every file the old or
    every file the new build) and resume its game; the next flash then
    completes."""
    r = Row("flash")
    src = os.path.join(work, "flash-src")
    for d in ("engine", "firmware", "hardware"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(src, d),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    t = TABLE[0](work, "flash")
    t.on()
    try:
        _menu_new_game_fresh(t, 0)
        t.press(parse(t.saved()).hand.to_move, "draw")
        t.sync()
        game = t.saved()
        m = parse(game)

        tree = t.tree    # (on the emulated Pico: through its REPL, then a reset)

        # the board's firmware as okgin flash leaves it (boot.py, manifest)
        _flash(t, src, wait=True)
        kinds = ("sigkill", "sigterm", "power")
        for i in range(n):
            old = tree()
            for mod in ("app.py", "store.py", "screens.py", "protocol.py"):
                with open(os.path.join(src, "firmware", mod), "a") as f:
                    f.write("\n_FAULTS_FLASH = %d\n" % i)
            kind = kinds[i % len(kinds)]
            p = subprocess.Popen([sys.executable, "-m", "okgin.cli", "flash", "--port",
                                  str(t.vb.port), "--source", src], cwd=ROOT,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            t.b.close()
            out = ""
            assert p.stdout is not None
            for line in p.stdout:
                out += line
                if line.startswith("board: "):
                    break
            time.sleep(rng.uniform(0.0, 2.0))
            if kind == "power":
                t.vb.kill()
            else:
                p.send_signal(signal.SIGKILL if kind == "sigkill" else signal.SIGTERM)
            try:
                out += p.communicate(timeout=60 * t.answer_slowness)[0]
            except subprocess.TimeoutExpired:
                p.kill()
                out += p.communicate()[0]
            notes = []
            if kind == "sigterm":
                # no power cycle: the flasher put the board back in its game
                # (or had finished)
                try:
                    t.b.reopen(20 * t.answer_slowness)
                    t.b.wait_ready(20 * t.answer_slowness, probe_after=1.0)
                    st = t.status()
                    if st["screen"] != "game":
                        notes.append("after SIGTERM: screen=%s" % st["screen"])
                except transport.TransportError as e:
                    notes.append("after SIGTERM the board does not answer: %s" % e)
                t.cut()
            else:
                t.cut()
            t.on()
            t.sync()
            now = tree()
            # one complete firmware: no file both changed and unchanged
            changed = [k for k in old if now.get(k) != old[k]]
            if changed and set(changed) != {"app.mpy", "store.mpy", "screens.mpy", "protocol.mpy"}:
                notes.append("a mixed firmware: changed %s" % sorted(changed))
            if t.saved() != game:
                notes.append("the saved game changed")
            why = agrees(t, m)
            if why:
                notes.append(why)
            # and the next flash completes
            _flash(t, src, wait=True)
            if notes:
                r.bad("wrong", "%s after %s: %s" % (kind, out.strip().splitlines()[-1:] or "", "; ".join(notes)))
            else:
                r.ok()
            log("flash", r)
    finally:
        t.stop()
    return r


def _flash(t, src, wait=True):
    from okgin.flash import flash_board
    t.b.close()
    import io
    flash_board(t.vb.port, src_root=src, out=io.StringIO(), quiet=True,
                power_cycle=t.vb.power_cycle)
    t.b.reopen(30 * t.answer_slowness)
    t.patient()
    t.b.wait_ready(30 * t.answer_slowness, probe_after=1.0)


# ---------------------------------------------------------------------------
# row: shuffle fairness

def _chi2_p(x, k):
    """Upper tail of a chi-square with k degrees of freedom at x
    (Wilson-Hilferty: good to a few percent at k = 51)."""
    z = ((x / k) ** (1.0 / 3) - (1 - 2.0 / (9 * k))) / math.sqrt(2.0 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def row_shuffle(n, rng, work, log):
    """Seeds drawn by the board (``entropy``, as its menu draws a new
    game's), each dealt as the firmware deals a new game; for every one of
    the 52 deal positions a chi-square of which card lands there (51
    degrees of freedom). Also the seeds' own spread (top 8 bits, 255 d.o.f.).
    A position is wrong when its p-value is below 1e-4 (chance: 52 in
    10,000 runs of this row)."""
    from okgin.engine import Match
    r = Row("shuffle")
    t = TABLE[0](work, "shuffle")
    t.on()
    try:
        t.req("testmode on")
        seeds: "list[int]" = []
        while len(seeds) < n:
            k = min(1000, n - len(seeds))
            seeds += [int(x, 16) for x in t.b.request_block("entropy %d" % k)]
    finally:
        t.stop()
    counts = [[0] * 52 for _ in range(52)]
    for s in seeds:
        deck = Match(seed=s).hand._stock
        for pos in range(52):
            counts[pos][deck[pos]] += 1
    e = n / 52.0
    worst = 1.0
    for pos in range(52):
        x = sum((c - e) ** 2 / e for c in counts[pos])
        p = _chi2_p(x, 51)
        worst = min(worst, p)
        r.injected += 1
        if p < 1e-4:
            r.wrong += 1
            r.notes.append("wrong: position %d: chi-square %.1f, p=%.2g" % (pos, x, p))
        else:
            r.survived += 1
    top = [0] * 256
    for s in seeds:
        top[s >> 22] += 1
    x = sum((c - n / 256.0) ** 2 / (n / 256.0) for c in top)
    ps = _chi2_p(x, 255)
    r.injected += 1
    if ps < 1e-4:
        r.wrong += 1
        r.notes.append("wrong: the seeds' top 8 bits: chi-square %.1f, p=%.2g" % (x, ps))
    else:
        r.survived += 1
    r.info.append("%d deals, seeds from the board's entropy (%d distinct); smallest p over "
                  "52 positions %.3g; seeds' top byte p=%.3g" % (n, len(set(seeds)), worst, ps))
    r.deals = n
    return r


CHIP_QUICK = {"power": 2, "damage": 2, "serial": 100, "buttons": 2, "panels": 1, "flash": 1,
              "hidden": 2, "shuffle": 1000}
CHIP_LONG = {"power": 40, "damage": 100, "serial": 2000, "buttons": 20, "panels": 4, "flash": 3,
             "hidden": 14, "shuffle": 100000}

RUNNERS = {"power": row_power, "damage": row_damage, "serial": row_serial,
           "buttons": row_buttons, "panels": row_panels, "flash": row_flash,
           "hidden": row_hidden, "shuffle": row_shuffle}


# ---------------------------------------------------------------------------
# the command

def table(rows, target="virtual board"):
    """The Markdown table docs/reliability.md shows."""
    out = ["| row (%s) | injected | survived | lost | wrong |" % target,
           "|---|---:|---:|---:|---:|"]
    for r in rows:
        label = r.name
        if r.name == "shuffle":
            label = "shuffle (%d deals; per card position)" % r.deals
        elif r.name == "serial":
            label = "serial (inputs)"
        out.append("| %s | %d | %d | %d | %d |" % (label, r.injected, r.survived, r.lost, r.wrong))
    return "\n".join(out)


def run_campaign(rows, sizes, seed, out=sys.stdout, progress=True, chip=False):
    rng = random.Random(seed)
    TABLE[0] = ChipTable if chip else Table
    runners = dict(RUNNERS, power=row_power_chip) if chip else RUNNERS
    results = []
    work = tempfile.mkdtemp(prefix="okgin-faults-")
    last = [0.0]

    def log(name, r):
        if progress and time.monotonic() - last[0] > 5:
            last[0] = time.monotonic()
            out.write("  %s: %d injected, %d lost, %d wrong\n" % (name, r.injected, r.lost, r.wrong))
            out.flush()
    try:
        for name in rows:
            t0 = time.monotonic()
            out.write("%s: %s\n" % (name, GOALS[name]))
            out.flush()
            r = runners[name](sizes[name], random.Random(rng.randrange(1 << 30)), work, log)
            r.seconds = time.monotonic() - t0
            results.append(r)
            out.write("  %s: %d injected, %d survived, %d lost, %d wrong (%.0f s)\n"
                      % (name, r.injected, r.survived, r.lost, r.wrong, r.seconds))
            for note in r.info:
                out.write("    %s\n" % note)
            for note in r.notes[:5]:
                out.write("    %s\n" % note)
            out.flush()
    finally:
        TABLE[0] = Table
        shutil.rmtree(work, ignore_errors=True)
    return results


def configure(parser):
    parser.add_argument("--quick", action="store_true",
                        help="the short run (make test does it): a few cases per row")
    parser.add_argument("--rows", default=None,
                        help="rows to run, comma-separated (default: all: %s; the same on "
                             "the emulated Pico)" % ",".join(ROWS))
    parser.add_argument("--chip", action="store_true",
                        help="on the emulated Pico (host/chip) instead of the virtual board: "
                             "every row, fewer cases (it is ~10x slower; --scale raises them)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every row's number of cases")
    parser.epilog = ("examples:\n  okgin faults --quick\n  okgin faults            "
                     "(the long run, ~1 hour: the table of docs/reliability.md)\n"
                     "  okgin faults --rows power,damage --seed 7\n"
                     "  okgin faults --chip --rows damage --scale 5   "
                     "(on the emulated Pico: 500 damaged files)\n")


def run(args):
    chip = getattr(args, "chip", False)
    rows = [x.strip() for x in (args.rows or ",".join(ROWS)).split(",")
            if x.strip()]
    for x in rows:
        if x not in ROWS:
            raise CommandError("unknown row %r (rows: %s)" % (x, ", ".join(ROWS)))
    if chip:
        base = CHIP_QUICK if args.quick else CHIP_LONG
    else:
        base = QUICK if args.quick else LONG
    if args.scale <= 0:
        raise CommandError("--scale must be > 0")
    sizes = {k: max(1, int(round(v * args.scale))) for k, v in base.items()}
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    where = "the emulated Pico" if chip else "the virtual board"
    print("okgin faults (%s run, seed %d) on %s" % ("short" if args.quick else "long", seed, where))
    t0 = time.monotonic()
    results = run_campaign(rows, sizes, seed, chip=chip)
    print()
    print(table(results, "emulated Pico" if chip else "virtual board"))
    print()
    print("%.0f s in all; rerun with: okgin faults%s%s --rows %s --seed %d%s"
          % (time.monotonic() - t0, " --quick" if args.quick else "", " --chip" if chip else "",
             ",".join(rows), seed,
             " --scale %g" % args.scale if args.scale != 1.0 else ""))
    failed = [r.name for r in results if not r.passed()]
    if failed:
        raise CommandError("faults: %s lost or got something wrong (see above)" % ", ".join(failed))
    return 0
