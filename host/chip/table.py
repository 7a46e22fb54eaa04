"""The emulated Pico with the okgin firmware on it, for people to play:
``okgin sim --chip``. Like a Pico on the desk, its flash is a per-user file
that keeps the firmware and the saved game; each start brings the firmware
up to date with this checkout through ``okgin flash`` (only the files that
changed are sent, over the chip's USB serial port)."""
import sys
import time

from host.errors import CommandError


def wait_at_rest(chip, timeout=600.0):
    """Wait until the chip has booted: the okgin firmware's READY, or
    MicroPython's banner (no firmware yet), or a traceback. Returns the line."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for _t, line in chip.console_lines():
            if "READY okgin" in line or "MicroPython v" in line or line.startswith("Traceback"):
                return line
        if not chip.alive:
            raise CommandError("the emulated Pico stopped while booting: %s"
                               % (chip.last_exit[1] if chip.last_exit else "no message"))
        time.sleep(0.05)
    raise CommandError("the emulated Pico did not boot within %.0f s" % timeout)


FORGET = "import os\nfor _f in ('game.okg', 'game.tmp', 'settings.json'):\n" \
         "    try:\n        os.remove(_f)\n    except OSError:\n        pass\n"


def flashed_chip(flash=None, board_path=None, eink=1.0, fresh=False, realtime=True, out=None):
    """A started ChipBoard running this checkout's firmware, its READY
    printed. ``fresh``: forget the saved game and settings first."""
    from host.chip.chipboard import ChipBoard, default_flash
    from host.flash import flash_board
    out = sys.stderr if out is None else out
    kw = {"board": board_path} if board_path else {}
    chip = ChipBoard(flash=flash or default_flash(), realtime=realtime, eink=eink, out=out, **kw)
    try:
        out.write("okgin: starting the emulated Pico (flash: %s)\n" % chip.flash_path)
        out.flush()
        chip.start()
        wait_at_rest(chip)
        if fresh:
            _forget_game(chip)
        out.write("okgin: bringing its firmware up to date with okgin flash (the first time "
                  "takes a minute or more: the emulator is slower than a Pico)\n")
        out.flush()
        flash_board(chip.port, out=out)
    except BaseException:
        chip.stop()
        raise
    return chip


def _forget_game(chip):
    from mpremote.transport_serial import SerialTransport
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        t = SerialTransport(chip.port, baudrate=115200, timeout=5)
        try:
            t.enter_raw_repl(soft_reset=False, timeout_overall=30)
            t.exec_raw(FORGET, timeout=60)
            t.exit_raw_repl()
        finally:
            t.close()
