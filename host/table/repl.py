"""The one raw-REPL client of okgin: a MicroPython board's port (a real
Pico's, the emulated Pico's, the virtual board's) at its raw REPL, after
mpremote's transport (used here as a library, its prints silenced).

- ``enter``: Ctrl-C, retried as a person would (a board still booting, or
  busy drawing, can miss one), and a port where the okgin firmware answers
  with its owner's lock on is named as such (``LOCKED``);
- ``exec`` / ``eval`` / ``run``: code on the board, its output back;
  ``stream``: code that reads blocks of data from its stdin, sent as it
  acknowledges them (okgin flash's files: one command, not one a block);
- ``read``, ``digest``, ``put`` (a temporary file, then a rename),
  ``remove``, ``tree``, and ``visit`` (several of those in one script):
  the board's files, as okgin.table.files offers them;
- ``leave``: back to the firmware by ``machine.reset()``, or to MicroPython
  with the REPL left (``reset=False``); a table whose power we hold may
  instead be cut (the caller does that after ``close``).

Every tool that needs a board's REPL opens this one: okgin flash
(okgin.table.flashing), the simulator's --fresh/--seed on the emulated Pico
(okgin.table.session), the fault campaign's chip table and okgin bench chip.
"""
import ast
import contextlib
import io
import sys
import time
from typing import Any

from ..lib import transport
from ..lib.errors import CommandError
from .files import FilesBase

PUT_PIECE = 4096                 # bytes per piece of a visit's writes (hex)
ACK = b"#"                       # the board's word for "that block is written" (stream)

LOCKED = ("%s is an okgin table with its owner's lock on (a game is in progress, and "
          "Ctrl-C does not reach its REPL): hold player 1's OK while plugging it in "
          "(that lifts the lock; the game is kept, docs/reliability.md), then run "
          "okgin flash again")
NO_REPL = ("%s does not answer like a MicroPython board (no raw REPL); "
           "is it the Pico's port, running MicroPython? Install MicroPython "
           "(hold BOOTSEL, copy the .uf2), then run okgin flash again")

# the board's side of digest() and tree(): SHA-256 a file in 1 KB pieces
# (a whole file read at once can exceed a Pico's heap)
_DIGEST = ("import os, hashlib, binascii\n"
           "def _okdg(n):\n try:\n  f = open(n,'rb')\n except OSError:\n  return '-'\n"
           " h = hashlib.sha256()\n k = 0\n"
           " b = bytearray(1024)\n while True:\n  m = f.readinto(b)\n  if not m:\n   break\n"
           "  h.update(b[:m])\n  k += m\n f.close()\n return binascii.hexlify(h.digest()).decode() + ' ' + str(k)\n"
           "def _okrd(n):\n try:\n  with open(n,'rb') as f:\n   return f.read()\n except OSError:\n  return None\n")
_TREE = ("def _okwalk(d):\n"
         " for e in os.ilistdir(d or '/'):\n"
         "  p = (d + '/' + e[0]) if d else e[0]\n"
         "  if e[1] == 0x4000:\n"
         "   if e[0] != '.staging':\n"
         "    _okwalk(p)\n"
         "  else:\n"
         "   print('H', p, _okdg(p).split()[0])\n"
         "_okwalk('')\n")
RESET = "import machine\nmachine.reset()"


class _CountingSerial:
    """Wraps the pyserial object mpremote uses, counting bytes written.
    ``gone`` (a table whose power we hold): True once the board is off, and
    a read that found nothing then fails as a real Pico's port does when
    its power goes, instead of waiting out mpremote's timeout."""

    def __init__(self, ser, gone=None):
        self._ser = ser
        self.written = 0
        self._gone = gone

    def write(self, data):
        self.written += len(data)
        return self._ser.write(data)

    def read(self, size=1):
        data = self._ser.read(size)
        if not data and self._gone is not None and self._gone():
            import serial
            raise serial.SerialException("the board's power is off: its port went away")
        return data

    def __getattr__(self, name):
        return getattr(self._ser, name)


class Repl(FilesBase):
    """A board's port at its raw REPL (mpremote's SerialTransport). Opened
    here; ``enter()`` reaches the REPL; ``close()`` frees the port.
    ``timeout``: seconds a read waits for a byte. ``gone``: for a board
    whose power the caller holds (an emulated Pico), a function that says
    it is off; a read then fails within ``timeout`` (the port went away,
    as a real Pico's does), not after a command's whole timeout."""

    def __init__(self, port, timeout=2, gone=None):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
        self.port = str(port)
        self.TransportError = TransportError
        self.missed = 0           # Ctrl-C the board missed before the REPL answered
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                # A read timeout: on a pty mpremote reads without checking
                # in_waiting, and a silent port would block it forever.
                self.t = SerialTransport(self.port, baudrate=115200, timeout=timeout)
        except (TransportError, OSError, ValueError) as e:
            raise self._open_failure(e) from e
        self.ser = _CountingSerial(self.t.serial, gone)
        self.t.serial = self.ser

    def _open_failure(self, e):
        """mpremote says "failed to access PORT" whatever went wrong: open
        the port with pyserial ourselves to learn and name the cause."""
        import serial
        try:
            serial.serial_for_url(self.port, exclusive=True).close()
        except (serial.SerialException, OSError, ValueError) as cause:
            return transport.open_failure(self.port, cause)
        return transport.BoardNotFound("cannot open %s: %s" % (self.port, transport._short(e)))

    # -- in and out --------------------------------------------------------
    def enter(self, tries=2, timeout=2, soft_reset=False, diagnose=True, clock=None, patience=0.0):
        """Reach the raw REPL: ``tries`` Ctrl-C, each waited for
        ``timeout`` s (mpremote's wait: the wall clock). ``clock`` (the
        board's own, an emulated Pico's patience clock): more tries until
        ``patience`` seconds of it have passed, as a busy host slows the
        chip and not the wall clock. ``soft_reset``: a soft reset first (a real Pico's
        main.py does not run after one at the raw REPL; the unix port
        cannot). With ``diagnose``, a board that never answers is a
        CommandError that says what it is (an okgin table with its
        owner's lock on, or no MicroPython); else mpremote's error."""
        deadline = None if clock is None else clock() + patience
        attempt = 0
        while True:
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    self.t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
                return self
            except self.TransportError:
                attempt += 1
                if attempt < tries or (deadline is not None and clock() < deadline):
                    self.missed += 1
                    continue
                if not diagnose:
                    raise
                break
        if self._is_locked_table():
            raise CommandError(LOCKED % self.port)
        raise CommandError(NO_REPL % self.port)

    def _is_locked_table(self):
        """No raw REPL: is it the okgin firmware answering its protocol
        (the owner's lock turns Ctrl-C into a plain byte)?"""
        try:
            ser = self.t.serial
            ser.timeout = 0.2
            ser.write(b"\nhello\n")
            got = b""
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and b"OK okgin" not in got:
                got += ser.read(512)
            return b"OK okgin" in got
        except Exception:
            return False

    def leave(self, reset=True):
        """Back to the firmware: ``machine.reset()`` (not waited for: the
        port of a real Pico goes away), or (``reset=False``) the friendly
        REPL, the board as it was."""
        if reset:
            self.t.exec_raw_no_follow(RESET)
        else:
            self.t.exit_raw_repl()

    def close(self):
        if self.t.serial is None:
            return          # handed over to a transport.Board
        try:
            self.t.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- code ----------------------------------------------------------------
    def exec(self, code, timeout=15):
        """Run ``code``; its output (text). The board's traceback is
        mpremote's TransportExecError (okgin flash names its step)."""
        from mpremote.transport import TransportExecError
        out, err = self.t.exec_raw(code, timeout=timeout)
        if err:
            raise TransportExecError(out, err.decode("utf-8", "replace"))
        return out.decode("utf-8", "replace")

    def eval(self, code, timeout=15):
        """The last line ``code`` printed, as a Python literal."""
        return ast.literal_eval(self.exec(code, timeout).strip().splitlines()[-1])

    def run(self, code, timeout=600, what="the board"):
        """Run ``code`` (a string, or pieces run one after the other: each
        is compiled in the board's heap); its output (bytes). The board's
        traceback is a CommandError with its last line."""
        out = b""
        for piece in [code] if isinstance(code, str) else code:
            got, err = self.t.exec_raw(piece, timeout=timeout)
            if err:
                raise CommandError("%s's REPL: %s" % (
                    what, err.decode(errors="replace").strip().splitlines()[-1:]))
            out += got
        return out

    # -- files ---------------------------------------------------------------
    def stream(self, code, blocks, on_ack=None, timeout=90, window=2):
        """Run ``code``, which reads ``blocks`` (bytes, in order) from its
        stdin and answers ACK after each; its output (text) once it ends.
        One exec for any number of blocks: the code is compiled once, the
        blocks go as they are (no REPL round trip, no compile per block), at
        most ``window`` of them unanswered, and ``on_ack(n)`` is told of
        each. A block must hold neither Ctrl-C nor Ctrl-D (base64 does
        not): the raw REPL and a Pico's USB take those as signals. If the
        board stops early (its traceback, where an ACK was due) that is
        mpremote's TransportExecError, as ``exec`` raises it."""
        from mpremote.transport import TransportError, TransportExecError
        t = self.t
        t.exec_raw_no_follow(code)
        ser = t.serial
        sent = acked = 0
        while acked < len(blocks):
            while sent < len(blocks) and sent - acked < window:
                ser.write(blocks[sent])
                sent += 1
            deadline = time.monotonic() + timeout
            got = b""
            while not got:
                got = ser.read(1)
                if not got and time.monotonic() > deadline:
                    raise TransportError("no answer from the board for %.0f s while sending" % timeout)
            if got == ACK:
                acked += 1
                if on_ack:
                    on_ack(acked)
                continue
            # not an ACK: the code ended (an error); what it said, up to its
            # two end marks, as follow() would have read it
            while got.count(b"\x04") < 2:
                more = ser.read(1)
                if not more and time.monotonic() > deadline:
                    raise TransportError("no answer from the board for %.0f s while sending" % timeout)
                got += more
            out, err = got.split(b"\x04")[:2]
            raise TransportExecError(out, (err or out).decode("utf-8", "replace"))
        out, err = t.follow(timeout)
        if err:
            raise TransportExecError(out, err.decode("utf-8", "replace"))
        return out.decode("utf-8", "replace")

    def visit(self, read=(), digest=(), put=None, remove=(), tree=False, timeout=600):
        """The files of one visit, in one script: the reads first (their
        bytes, or None), the digests ((SHA-256 hex, size), or None), the
        tree ({path: SHA-256 hex} of every file but .staging/'s), then the
        removals and the writes, each file written to x.tmp and renamed.
        Returns {name: what was read} (the tree under ``None``)."""
        code = [_DIGEST]
        for name in read:
            code.append("d = _okrd(%r)\nprint('R', %r, '-' if d is None else binascii.hexlify(d).decode())\n"
                        % (name, name))
        for name in digest:
            code.append("print('D', %r, _okdg(%r))\n" % (name, name))
        if tree:
            code.append(_TREE)
        for name in remove:
            code.append("try:\n os.remove(%r)\nexcept OSError:\n pass\n" % name)
        pieces = ["".join(code)]
        for name, data in (put or {}).items():
            if isinstance(data, str):
                data = data.encode()
            mode = "wb"
            for i in range(0, max(len(data), 1), PUT_PIECE):
                pieces.append("with open('x.tmp',%r) as f:\n f.write(binascii.unhexlify(%r))\n"
                              % (mode, data[i:i + PUT_PIECE].hex()))
                mode = "ab"
            pieces.append("os.rename('x.tmp', %r)\n" % name)
        out: "dict[Any, Any]" = {}
        found = {}
        for line in self.run(pieces, timeout).decode().splitlines():
            w = line.split()
            if len(w) >= 2 and w[0] == "R":       # (an empty file: no third word)
                out[w[1]] = None if w[2:] == ["-"] else bytes.fromhex("".join(w[2:]))
            elif len(w) >= 3 and w[0] == "D":
                out[w[1]] = None if w[2] == "-" else (w[2], int(w[3]))
            elif len(w) == 3 and w[0] == "H":
                found[w[1]] = w[2]
        if tree:
            out[None] = found
        return out


def say_missed(repl, out=None):
    """A line for the log when the board missed Ctrl-C and it was sent again."""
    if repl.missed:
        (out or sys.stdout).write("  (the chip's REPL missed %d Ctrl-C; sent again)\n" % repl.missed)
