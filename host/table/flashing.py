"""Flashing, as a library (``okgin flash`` is its command, host/flash.py; the
benches, ``okgin hil``, the emulated Pico and the fault campaign call it
too): compile the engine and firmware to .mpy and copy them onto a
MicroPython board, crash-safely (see docs/flashing.md).

Steps: find the board; read its MicroPython version and .mpy ABI; compile with
the matching mpy-cross; hash what is on the device and send only what
differs, into ``.staging/``; verify; switch the staged files into place with a
small idempotent journal (``main.py`` last); verify every file; reset into the
game. The player's saved game (``game.okg``) and ``settings.json`` are never
touched.
"""
import ast
import base64
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
import zlib

from ..lib.errors import CommandError
from ..lib import transport
from .repl import Repl
from ..lib.build import (  # noqa: F401 - okgin flash's names for what it builds
    ARCHS, BOOT_MARK, JOURNAL, KEEP, MANIFEST, MIN_VERSION, STAGING, boot_py, build, check_supported,
    choose_mpy_cross, mpy_abi, source_files, switch_code, validate_board)

from ..lib.paths import ROOT, board_json as _tree_board

SLACK = 8192                     # free-space margin for directory entries

# The board's boot.py is the firmware's own (firmware/boot.py): at every
# power-up it makes Ctrl-C a plain byte (the owner's lock, main.py decides)
# and finishes an interrupted switch. Its second part (SWITCH_CODE) is what
# this flasher runs over the REPL to switch, and to finish an earlier
# interrupted switch before a new flash: for every path the journal names,
# the staged copy is moved over the live one; the journal goes only once no
# staged file it names is left. Safe to run any number of times, at any
# point of a previous run (a power cut inside a rename included: littlefs
# may then say a staged file is absent until its next write, so the code
# renames without asking first; issue 29).
# A step over the whole firmware (hash every file, move every staged file
# into place, delete a folder) takes about a second on a Pico's littlefs;
# an emulated Pico on a busy machine runs 10-50 times slower (CI run a4563ba
# timed out switching 37 files at 15 s). A board that really went away is
# seen at once (the port fails); this only bounds a board that hangs.
FS_TIMEOUT = 90

SWITCH_CODE = switch_code()

# The staged files go as base64 (no Ctrl-C, Ctrl-D or CR: the raw REPL, a
# Pico's USB and a pty's line discipline pass it as it is) on the board's
# stdin to one exec (``_okrx``), PIECE bytes of a file per block, each
# answered once taken; a file's last block once the file is written and
# closed (a compressed file is inflated only then), so a file the progress
# shows as copied is on the flash even if the host is killed right after.
# Raw-paste execs of 1.5 KB each cost the chip a compile and ~50 ms of flow
# control a piece: 9.9 of a full flash's 17.6 emulated s. 3 KB: the
# board's buffer and a piece, 7 KB of its heap.
PIECE = 3072

# Helpers defined once per session on the device (raw REPL globals persist).
DEVICE_HELPERS = """\
import os, sys, hashlib, binascii
_okb = bytearray(2048)
_okv = memoryview(_okb)
def _okh(p):
    try:
        h = hashlib.sha256()
        with open(p, 'rb') as f:
            while True:
                n = f.readinto(_okb)
                if n == 2048:
                    h.update(_okb)
                elif n:
                    h.update(_okv[:n])
                else:
                    break
        return binascii.hexlify(h.digest()).decode()
    except OSError:
        return None
def _okhs(ps):
    print(repr([_okh(p) for p in ps]))
def _okmk(p):
    q = ''
    for part in p.split('/'):
        q = q + '/' + part if q else part
        try:
            os.mkdir(q)
        except OSError as e:
            if e.args[0] != 17:
                raise
def _okrm(p):
    try:
        os.remove(p)
        return 1
    except OSError:
        return 0
def _okrmtree(p):
    try:
        for e in os.ilistdir(p):
            q = p + '/' + e[0]
            if e[1] == 0x4000:
                _okrmtree(q)
            else:
                os.remove(q)
        os.rmdir(p)
    except OSError:
        pass
_oka = binascii.a2b_base64
try:
    import deflate, io
    _okz = 1
except ImportError:
    _okz = 0
def _okrx(items):
    r = sys.stdin.buffer.readinto
    m = memoryview(bytearray(%(block)d))
    for p, n, z in items:
        q = bytearray(n) if z else None
        o = 0
        w = n
        with open(p, 'wb') as f:
            while n > 0:
                k = n if n < %(piece)d else %(piece)d
                c = (k + 2) // 3 * 4
                g = 0
                while g < c:
                    x = r(m[g:c])
                    if not x:
                        raise OSError(5)
                    g += x
                if z:
                    q[o:o + k] = _oka(m[:c])
                    o += k
                else:
                    f.write(_oka(m[:c]))
                n -= k
                if n:
                    sys.stdout.write('#')
            if z:
                d = deflate.DeflateIO(io.BytesIO(q), deflate.ZLIB)
                while True:
                    k = d.readinto(m)
                    if not k:
                        break
                    f.write(m[:k])
                q = d = None
        if w:
            sys.stdout.write('#')
def _okls(ds):
    out = []
    for d in ds:
        try:
            for e in (os.ilistdir(d) if d else os.ilistdir()):
                out.append(d + '/' + e[0] if d else e[0])
        except OSError:
            pass
    return out
def _okplan(m, ps, ds):
    try:
        with open(m) as f:
            o = f.read()
    except OSError:
        o = None
    print(repr((o, [_okh(p) for p in ps], _okls(ds), _okz)))
""" % {"block": PIECE // 3 * 4, "piece": PIECE}

# First thing on the board: the interrupted program's objects leave the
# heap. Its globals (the raw REPL runs in __main__'s, where main.py left
# the whole game) and its modules that are files of this filesystem (a
# running okgin game: 24 modules, ~85 KB of the virtual board's 176K heap);
# what the flash sends replaces them anyway. With them the helpers below
# met "MemoryError ... allocating 3592 bytes" while comparing files, on a
# loaded machine where the Ctrl-C fell mid-boot, and on the chip every
# allocation of the hashing collected the game's ~100 KB again: 1.12 s to
# hash the firmware, 0.65 s without them. The board's own shims (vmachine:
# no file here) stay. The folders are listed once, not a lookup per module
# and suffix. (A board where this fails, not a MicroPython one, is named by
# INFO_CODE, which follows it in the same exec.)
FREE_CODE = """\
try:
    for _n in list(globals()):
        if _n[:2] != '__':
            del globals()[_n]
    import gc, os, sys
    _l = {}
    for _n in list(sys.modules):
        _p = _n.replace('.', '/').rsplit('/', 1)
        _d, _b = (_p[0], _p[1]) if len(_p) == 2 else ('', _p[0])
        if _d not in _l:
            try:
                _l[_d] = [e[0] for e in (os.ilistdir(_d) if _d else os.ilistdir())]
            except OSError:
                _l[_d] = []
        if _b + '.mpy' in _l[_d] or _b + '.py' in _l[_d] or _b in _l[_d]:
            del sys.modules[_n]
    _n = _p = _d = _b = _l = None
    gc.collect()
except Exception:
    pass
"""

INFO_CODE = """\
import sys, os
_i = sys.implementation
try:
    _v = os.statvfs('.')
    _f = _v[0] * _v[4]
except Exception:
    _f = -1
print(repr((_i.name, tuple(_i.version[:3]), getattr(_i, '_mpy', None), _f, sys.platform)))
"""

# hal.py's order: the board's own machine first, the virtual board's vmachine
# (on its path, never flashed) where machine has no reset().
RESET_CODE = """\
import machine as _m
if not hasattr(_m, 'reset'):
    import vmachine as _m
_m.reset()
"""


# --------------------------------------------------------------------------
# progress

class Progress:
    """Per-file and byte progress: on a tty one line, redrawn for every file
    and ended once (close()); otherwise a line per file."""

    def __init__(self, out, total_files, total_bytes, quiet=False):
        self.out = out
        self.tty = hasattr(out, "isatty") and out.isatty()
        self.total_files = total_files
        self.total_bytes = max(1, total_bytes)
        self.done_bytes = 0
        self.n = 0
        self.quiet = quiet
        self._open = False      # a tty line drawn and not yet ended

    def close(self):
        """End the tty line (after the last file, or an interruption)."""
        if self._open:
            self.out.write("\n")
            self.out.flush()
            self._open = False

    def start(self, name, size):
        self.n += 1
        self.name, self.size, self.cur = name, size, 0
        self._draw()

    def update(self, written):
        self.done_bytes += written - self.cur
        self.cur = written
        if self.tty:
            self._draw()

    def finish(self):
        if self.quiet:
            return
        if self.tty:
            self._draw()
            self._open = True
        else:
            self.out.write("  [%d/%d] %s %d bytes\n" % (self.n, self.total_files, self.name, self.size))
        self.out.flush()

    def _draw(self):
        if self.quiet or not self.tty:
            return
        frac = self.done_bytes / self.total_bytes
        bar = "#" * int(frac * 24)
        self.out.write("\r  [%d/%d] %-22s %6.1f/%.1f KB [%-24s]\033[K" % (
            self.n, self.total_files, self.name[:22], self.done_bytes / 1024.0,
            self.total_bytes / 1024.0, bar))
        self._open = True
        self.out.flush()


# --------------------------------------------------------------------------
# the device side

class FlashReport:
    def __init__(self):
        self.sent = []            # device paths transferred
        self.removed = []         # stale files deleted
        self.payload_bytes = 0    # file bytes transferred
        self.wire_bytes = 0       # bytes written to the serial port
        self.files = 0            # files in the firmware
        self.seconds = 0.0
        self.info = None          # (name, version, _mpy, free, platform)
        self.ready = None         # READY/hello line after the reset
        self.boot_retries = 0     # in-process virtual board powered on again


def _boot_in_process_board(board, power_cycle, rep):
    """Wait for READY from a virtual board we power ourselves. Its boot
    sometimes fails for reasons of the virtual board, not of the flash (its
    pin link refuses the new process: OSError 32 in vmachine, or no output at
    all; reported to its owner): power it on once more, and count it."""
    try:
        board.wait_reboot(6)        # it boots in well under a second
    except transport.TransportError:
        rep.boot_retries += 1
        board.close()
        power_cycle()
        board.reopen(10)
        board.wait_ready(30, probe_after=2.0)


def _switch(dev, code=SWITCH_CODE):
    _switched(dev.exec(code, timeout=FS_TIMEOUT))


def _packed(data, inflates):
    """What goes on the wire for ``data``: zlib-compressed with a 1 KB
    window (the board's deflate module inflates it with little heap) if the
    board can inflate and it gets smaller; else ``data`` itself. The
    firmware's files shrink to 58 % (.mpy, the language files and fonts), and
    an emulated Pico's USB moves ~30 KB/s: the bytes were most of a full
    flash's time there."""
    if not inflates or len(data) < 64:
        return data
    z = zlib.compressobj(9, zlib.DEFLATED, 10)
    packed = z.compress(data) + z.flush()
    return packed if len(packed) < len(data) else data


def _dirs(paths):
    """The folders of ``paths`` ('' the root), each once, parents first."""
    out = [""]
    for p in paths:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in out:
                out.append(d)
    return out


def _switched(text):
    """The switch code's output: its own error line is the board's."""
    if "okgin boot:" in text:
        raise CommandError("switching to the new files failed on the board: %s"
                           % text.strip().splitlines()[-1])


def _disconnected(port, what):
    return CommandError(
        "the board on %s went away %s; the board keeps its previous firmware "
        "(or finishes the update at its next boot): plug it in and run okgin "
        "flash again" % (port, what))


# What the board's OSError numbers (MicroPython's MP_E*, the POSIX values)
# mean for someone flashing it; its traceback may show only the number.
BOARD_ERRNO_HINTS = {
    30: "EROFS: its filesystem is mounted read-only (see its boot.py)",
    28: "ENOSPC: its filesystem is full (remove files with mpremote fs rm)",
    12: "ENOMEM: it ran out of memory (reset it and run okgin flash again)",
}


def _board_error(text):
    """The last line of the traceback the board printed (``OSError: 30``),
    the board's own words, with what it means when we know."""
    lines = [ln.strip() for ln in (text or "").strip().splitlines() if ln.strip()]
    last = lines[-1] if lines else "no message"
    m = re.match(r"OSError: (?:\[Errno )?(\d+)", last)
    hint = BOARD_ERRNO_HINTS.get(int(m.group(1))) if m else None
    return "%s (%s)" % (last, hint) if hint else last


class Plan:
    """What one flash will do, from comparing the build with the board."""

    def __init__(self, files, free, old, have, stale_present):
        self.files = files                        # [(device path, bytes)], switch order
        self.paths = [p for p, _ in files]
        self.want = {p: hashlib.sha256(d).hexdigest() for p, d in files}
        self.have = have                          # {path: SHA-256 hex on the board, or None}
        self.todo = [(p, d) for p, d in files if have[p] != self.want[p]]
        self.need = sum(len(d) for _, d in self.todo)
        self.free = free                          # bytes free on the board, -1 unknown
        self.old = old                            # the previous flash's manifest
        self.stale_present = stale_present        # files to delete after the switch
        self.inflates = False                     # the board has MicroPython's deflate module
        # a board with none of the firmware's files (a new Pico): nothing to
        # keep bootable, so the files are written in place, main.py last
        # (cut before it, the board boots to its REPL, as before the flash;
        # the next flash sends what is missing); no staging, no switch
        self.fresh = not old and all(h is None for h in have.values())


class Flash:
    """One run of ``okgin flash`` against an open ``Repl`` (okgin.table.repl), as steps:
    ``plan``, ``stage`` (copy into .staging/ and verify), ``switch``,
    ``clean_up`` (stale files, manifest, staging; verify all), ``reset``.
    ``self.step`` says where a failure happened, for the error message."""

    def __init__(self, dev, port, out, quiet, rep):
        self.dev = dev
        self.port = port
        self.out = out
        self.quiet = quiet
        self.rep = rep
        self.step = "connecting"
        self.copied = 0
        self.switch_code = SWITCH_CODE    # (the switch row: an older tree's own)

    def say(self, text):
        if not self.quiet:
            self.out.write(text + "\n")
            self.out.flush()

    def board_info(self):
        """(version, _mpy, free bytes) of a supported MicroPython board."""
        from mpremote.transport import TransportExecError
        self.step = "while reading its version"
        try:
            info = self.dev.eval(FREE_CODE + INFO_CODE)
        except (TransportExecError, ValueError, SyntaxError) as e:
            raise CommandError("%s is not a usable MicroPython board: %s"
                               % (self.port, transport._short(e))) from e
        self.rep.info = info
        name, version, mpy, free, platform = info
        if name != "micropython":
            raise CommandError("%s runs %s, not MicroPython" % (self.port, name))
        check_supported(version, mpy)
        ver, sub, arch = mpy_abi(mpy)
        self.say("board: MicroPython %s on %s, .mpy v%d.%d arch=%s"
                 % (".".join(str(v) for v in version), platform, ver, sub, ARCHS.get(arch, arch)))
        return version, mpy, free

    def plan(self, src_root, board_json):
        """Build for this board's ABI and compare with what it holds."""
        version, mpy, free = self.board_info()
        ver, sub, arch = mpy_abi(mpy)
        cross = choose_mpy_cross(ver, sub)
        if arch not in ARCHS:
            raise CommandError("the board's .mpy arch %d is unknown to mpy-cross" % arch)
        build_dir = tempfile.mkdtemp(prefix="okgin-build-")
        try:
            files = build(src_root, build_dir, cross, ARCHS[arch], board_json)
        finally:
            shutil.rmtree(build_dir, ignore_errors=True)
        self.rep.files = len(files)

        self.step = "while comparing files"
        dev = self.dev
        # One exec: the helpers; an earlier flash interrupted mid-switch
        # finished first (its staged files were verified before the journal
        # was written); then the last flash's manifest, the hash of every
        # file of this one on the board, and the names in its folders (the
        # stale files and shadowing .py: a listing, not a lookup per name).
        paths = [p for p, _ in files]
        dirs = _dirs(paths)
        text = dev.exec("%s\n%s\n_okplan(%r, %r, %r)\n" % (DEVICE_HELPERS, SWITCH_CODE, MANIFEST, paths, dirs),
                        timeout=FS_TIMEOUT)
        _switched(text)
        manifest, hashes, listed, inflates = ast.literal_eval(text.strip().splitlines()[-1])
        try:
            old = json.loads(manifest) if manifest else []
        except ValueError:
            old = []
        if not isinstance(old, list):
            old = []
        old = [p for p in old if isinstance(p, str)]
        have = dict(zip(paths, hashes, strict=True))
        shadow = [p[:-4] + ".py" for p in paths if p.endswith(".mpy")]
        stale = [p for p in old if p not in paths and p not in KEEP] + shadow
        others = [d for d in _dirs(stale) if d not in dirs]
        if others:              # an older firmware's folder this one has not
            listed += dev.eval("print(repr(_okls(%r)))" % (others,), FS_TIMEOUT)
        listed = set(listed)
        plan = Plan(files, free, old, have, [p for p in stale if p in listed])
        plan.inflates = bool(inflates)
        if plan.todo and free >= 0 and plan.need + SLACK > free:
            raise CommandError(
                "the board's filesystem is full: the update needs %d KB, %d KB are free; "
                "remove files you do not need (mpremote fs ls / fs rm) and run okgin flash again"
                % ((plan.need + SLACK + 1023) // 1024, free // 1024))
        if plan.todo:
            self.say("sending %d of %d files (%d bytes)" % (len(plan.todo), len(files), plan.need))
        else:
            self.say("up to date: %d files match" % len(files))
        return plan

    def stage(self, plan):
        """Copy what differs into .staging/ and verify it; the live files are
        untouched, so a failure here changes nothing the board runs. On a
        board without the firmware (``plan.fresh``) into place, main.py
        last."""
        self.step = "while copying"
        dev = self.dev
        # one exec: a fresh .staging/ and its folders, every file streamed
        # (PIECE bytes a block), then the staged files' hashes read back
        top = "" if plan.fresh else STAGING + "/"
        staged_paths = [top + p for p, _ in plan.todo]
        code = "_okrmtree(%r)\n" % STAGING
        for d in ([] if plan.fresh else [STAGING]) + [top + d for d in _dirs(p for p, _ in plan.todo) if d]:
            code += "_okmk(%r)\n" % d
        sent = [_packed(d, plan.inflates) for _, d in plan.todo]
        code += "_okrx(%r)\n_okhs(%r)\n" % ([(sp, len(w), int(w is not d)) for sp, w, (_, d)
                                               in zip(staged_paths, sent, plan.todo, strict=True)],
                                              staged_paths)
        blocks, ends = [], []          # ends: (file index, bytes of it done) after each block
        for i, ((_, d), w) in enumerate(zip(plan.todo, sent, strict=True)):
            for at in range(0, len(w), PIECE):
                blocks.append(base64.b64encode(w[at:at + PIECE]))
                ends.append((i, len(d) * min(len(w), at + PIECE) // len(w)))
        bar = Progress(self.out, len(plan.todo), plan.need, self.quiet)
        shown = [0]             # the file the bar shows

        def next_file():
            self._copied(bar, plan, shown[0])
            shown[0] += 1
            if shown[0] < len(plan.todo):
                bar.start(plan.todo[shown[0]][0], len(plan.todo[shown[0]][1]))

        def upto(i, n):
            """The board wrote file ``i`` up to byte ``n``, and so every
            file before it (the empty ones too, which have no block)."""
            while shown[0] < i:
                next_file()
            bar.update(n)
            if n == len(plan.todo[i][1]):
                next_file()

        try:
            if plan.todo:
                bar.start(plan.todo[0][0], len(plan.todo[0][1]))
            text = dev.stream(code, blocks, lambda n: upto(*ends[n - 1]), timeout=FS_TIMEOUT)
            while shown[0] < len(plan.todo):
                next_file()
        finally:
            bar.close()
        staged = ast.literal_eval(text.strip().splitlines()[-1])
        bad = [p for (p, _), h in zip(plan.todo, staged, strict=True) if h != plan.want[p]]
        if bad and plan.fresh:
            raise CommandError("verification of the copy failed for %s; run okgin flash again"
                               % ", ".join(bad))
        if bad:
            raise CommandError("verification of the staged copy failed for %s; "
                               "nothing was changed on the board; run okgin flash again"
                               % ", ".join(bad))

    def _copied(self, bar, plan, i):
        p, d = plan.todo[i]
        bar.finish()
        self.copied += 1
        self.rep.sent.append(p)
        self.rep.payload_bytes += len(d)

    def switch(self, plan):
        """Move the staged files into place. The journal appears atomically
        (rename), and only once every staged file is verified: from then on
        the switch can be completed by anyone (this run, boot.py, the next
        flash)."""
        self.step = "while switching to the new files"
        if plan.fresh:
            return              # written in place (stage)
        journal = "\n".join(p for p, _ in plan.todo) + "\n"
        _switch(self.dev, "with open(%r,'w') as f: f.write(%r)\nos.rename(%r, %r)\n%s"
                % (JOURNAL + ".tmp", journal, JOURNAL + ".tmp", JOURNAL, self.switch_code))

    def clean_up(self, plan):
        """Delete stale files (never the player's), write the manifest, drop
        .staging/, then verify the switched files in place (the others were
        hashed by ``plan`` in this same visit, and nothing but the switch
        wrote them since). One exec."""
        self.step = "while cleaning up"
        dev = self.dev
        stale = [p for p in plan.stale_present if p not in KEEP]
        code = "print(repr([_okrm(p) for p in %r]))\n" % (stale,)
        if plan.old != plan.paths:
            code += ("with open(%r,'w') as f: f.write(%r)\nos.rename(%r, %r)\n"
                     % (MANIFEST + ".tmp", json.dumps(plan.paths), MANIFEST + ".tmp", MANIFEST))
        if plan.todo:
            code += "_okrmtree(%r)\n" % STAGING
        switched = [] if plan.fresh else [p for p, _ in plan.todo]   # (fresh: verified by stage)
        code += "_okhs(%r)\n" % (switched,)
        lines = dev.exec(code, timeout=FS_TIMEOUT).strip().splitlines()
        removed, hashes = ast.literal_eval(lines[-2]), ast.literal_eval(lines[-1])
        self.rep.removed += [p for p, r in zip(stale, removed, strict=True) if r]

        self.step = "while verifying"
        got = dict(zip(switched, hashes, strict=True))
        bad = [p for p in switched if got[p] != plan.want[p]]
        if bad:
            raise CommandError("verification failed on the board for %s; run okgin flash again"
                               % ", ".join(bad))
        self.say("verified %d files on the board" % len(plan.paths))
        self.rep.wire_bytes = self.dev.ser.written

    def reset(self, power_cycle=None):
        """Restart the board into the game; return a ``transport.Board`` on
        the still-open port (re-opening would drop the READY the new boot
        prints: pyserial flushes input on open), or None if the port went
        away as the board reset (expected of a real board's USB)."""
        import serial
        from mpremote.transport import TransportError
        self.step = "while resetting"
        dev = self.dev
        try:
            if power_cycle is not None:
                dev.t.exit_raw_repl()
                power_cycle()
            else:
                dev.t.exec_raw_no_follow(RESET_CODE)
            board = transport.Board(self.port)
            board.ser = dev.ser._ser
            board.ser.timeout = 0.05
            dev.t.serial = None
            return board
        except (TransportError, serial.SerialException, OSError):
            return None

    def wait_for_game(self, board, power_cycle=None, timeout=30, clock=None):
        """Wait until the reset board prints READY (the port is closed then);
        ``clock``: flash_board's."""
        if board is None:
            board = transport.Board(self.port)
            board.reopen(timeout=timeout)
        try:
            if power_cycle is None:
                board.wait_reboot(timeout, clock)
            else:
                _boot_in_process_board(board, power_cycle, self.rep)
            self.rep.ready = board.ready
            self.say("running: %s" % board.ready)
        finally:
            board.close()

    def abandon(self):
        """The flasher is being stopped (Ctrl-C, SIGTERM, SIGHUP) with the
        board at its raw REPL: interrupt whatever it runs and reset it, so
        the table goes back to its game now rather than at the next power
        cycle (boot.py finishes a switch the journal says was started; a
        copy not yet switched leaves the live files as they were). Best
        effort, in about two seconds; True if the reset was sent."""
        try:
            t = self.dev.t
            if t.serial is None:
                return False
            t.serial.write(b"\r\x03\x03")
            t.serial.timeout = 0.5
            t.serial.read(4096)
            t.in_raw_repl = False
            self.dev.enter(tries=1, timeout=2, diagnose=False)
            t.exec_raw_no_follow(RESET_CODE)
            return True
        except Exception:
            return False

    def board_error(self, e):
        return CommandError("the board reported an error %s: %s"
                            % (self.step, _board_error(e.error_output)))

    def went_away(self, e):
        return _disconnected(self.port, "%s (%d files copied): %s"
                             % (self.step, self.copied, transport._short(e)))


def flash_board(port, src_root=ROOT, out=sys.stdout, reset=True, quiet=False,
                board_json=None, after_stage=None, power_cycle=None, ready_timeout=30, clock=None):
    """Flash the firmware in ``src_root`` onto the board at ``port``; return
    a ``FlashReport``. ``after_stage(device)`` is a test hook run after
    staging, before the switch. ``power_cycle``: for a board whose power we
    control (an in-process VirtualBoard), restart it that way instead of
    ``machine.reset()``. ``ready_timeout``: seconds the reset board has to
    print READY (a Pico boots in ~3), counted on ``clock`` if given: the
    board's own seconds, an emulated Pico's clock (``chip_clock``), which a
    loaded PC slows down with the chip (at a few percent of a real one's
    speed its boot took more than 30 s of wall time, and the flash failed
    though nothing was wrong); else on the wall clock."""
    import serial
    from mpremote.transport import TransportError, TransportExecError
    rep = FlashReport()
    t0 = time.monotonic()
    dev = Repl(port)      # another program on the port: named (host/lib/locks.py)
    run = Flash(dev, port, out, quiet, rep)
    board = None
    try:
        dev.enter()
        plan = run.plan(src_root, board_json)
        if plan.todo:
            run.stage(plan)
            if after_stage:
                after_stage(dev)
            run.switch(plan)
        run.clean_up(plan)
        if reset:
            board = run.reset(power_cycle)
    # The board's own error first: TransportExecError is a TransportError.
    except TransportExecError as e:
        raise run.board_error(e) from e
    except (TransportError, serial.SerialException, OSError) as e:
        raise run.went_away(e) from e
    except KeyboardInterrupt:
        if run.abandon():
            out.write("okgin: flash stopped; the board was reset into its game\n")
        else:
            out.write("okgin: flash stopped; power-cycle the board (unplug it and plug it "
                      "in) to return to the game\n")
        raise
    finally:
        dev.close()
    if reset:
        try:
            run.wait_for_game(board, power_cycle, ready_timeout, clock)
        except KeyboardInterrupt:
            # stopped while the board boots: the flash is whole and the
            # board already reset, on its way into its game
            out.write("okgin: flash stopped; the board was reset into its game\n")
            raise
    rep.seconds = time.monotonic() - t0
    run.say("done in %.1f s: %d file(s), %d bytes sent" % (rep.seconds, len(rep.sent), rep.payload_bytes))
    return rep


def chip_clock(chip):
    """An emulated Pico's own seconds (``flash_board``'s clock)."""
    return lambda: chip.emulated_ns() / 1e9


def check_inputs(src_root, board_json=None):
    """The firmware tree and board definition exist and are valid: checked
    before looking for a board, so a wrong path is named as such."""
    if not os.path.isdir(src_root):
        raise CommandError("--source %s: no such directory" % src_root)
    source_files(src_root)
    board_json = board_json or _tree_board(src_root)
    if not os.path.isfile(board_json):
        raise CommandError("board definition %s not found" % board_json)
    validate_board(board_json)
