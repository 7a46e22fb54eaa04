"""Shared by the emulated-Pico tests (a unique module name, see tests/host)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def need_chip():
    """(firmware, bootrom) for the emulated Pico, or why the tests cannot run.

    With OKGIN_RP2_DIR set (CI sets it) everything must be there: a missing
    piece is a failure, never a skip. Without it, the images may still be in
    the per-user cache (okgin downloads them on first use); if they are not,
    or Node.js is missing, the chip's tests are skipped with that reason:
    `make test` on a fresh laptop does not download 700 KB behind your back.
    """
    import pytest
    from okgin.lib.errors import CommandError
    from okgin.chip import images
    from okgin.chip.node import ensure_emulator
    strict = bool(os.environ.get("OKGIN_RP2_DIR"))
    try:
        fw, rom = images.find_images(download=False)
        ensure_emulator()
    except CommandError as e:
        if strict:
            raise
        pytest.skip("the emulated Pico cannot run here (%s); set OKGIN_RP2_DIR to a folder holding "
                    "%s and %s, or run `okgin board --chip` once to download them"
                    % (e, images.FIRMWARE_FILE, images.BOOTROM_FILE))
    return fw, rom


def flashed_pico(path, board):
    """``path`` becomes the flash of a new Pico wired as ``board`` with
    this checkout's firmware on it: a copy of the one the real okgin flash
    made this run (okgin.table.flashed; tests/conftest.py shares it)."""
    from okgin.table import flashed
    return flashed.copy(flashed.folder(os.path.dirname(str(path))), str(path), ROOT, board)


class Prompt:
    """Just enough of a friendly-REPL client: a line in, its output back.
    Its waits are in the chip's time (``chip``'s patience clock): a loaded
    machine computes the chip slowly, and a wait on the wall clock ran out
    halfway through a long echo (a busy-loop CI run, 2026-12-06)."""

    def __init__(self, ser, chip):
        self.ser = ser
        self.clock = chip.patience_clock()
        self.rest = b""
        ser.write(b"\r\x03")          # Ctrl-C: a clean prompt

    def until(self, mark, timeout):
        """(the bytes up to and with ``mark``, True), or (what came instead,
        False) once ``timeout`` seconds of the chip's time have passed."""
        deadline = self.clock() + timeout
        got = self.rest
        self.ser.timeout = 0.2
        while mark not in got and self.clock() < deadline:
            got += self.ser.read(max(1, self.ser.in_waiting))
        i = got.find(mark)
        if i < 0:
            self.rest = b""
            return got, False
        self.rest = got[i + len(mark):]
        return got[:i + len(mark)], True

    def __call__(self, line, timeout=30):
        self.ser.write(line.encode() + b"\r\n")
        echo = line.encode() + b"\r\n"
        got, ok = self.until(echo, timeout)        # skip what came before our line
        assert ok, "no echo of %r: %r" % (line, got[-300:])
        out, ok = self.until(b">>> ", timeout)
        text = out.decode("utf-8", "replace")
        assert ok, "no prompt after %r: %r" % (line, text[-300:])
        return text[:-4].rstrip("\r\n")
