"""The emulated Pico with the okgin firmware on it, for people to play:
``okgin sim --chip``. Like a Pico on the desk, its flash is a per-user file
that keeps the firmware and the saved game; each start brings the firmware
up to date with this checkout through ``okgin flash`` (only the files that
changed are sent, over the chip's USB serial port)."""
import sys
import time

from okgin.errors import CommandError


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


def flashed_chip(flash=None, board_path=None, eink=1.0, fresh=False, realtime=True, seed=None,
                 vs=None, out=None):
    """A started ChipBoard running this checkout's firmware, its READY
    printed. ``fresh``: forget the saved game and settings first; ``seed``
    or ``vs``: a new game on its flash (as okgin sim puts one on the
    virtual board's), which it resumes when it boots."""
    from okgin.chip.chipboard import ChipBoard, default_flash
    from okgin.lib.flashing import flash_board
    out = sys.stderr if out is None else out
    kw = {"board": board_path} if board_path else {}
    chip = ChipBoard(flash=flash or default_flash(), realtime=realtime, eink=eink, out=out, **kw)
    try:
        out.write("okgin: starting the emulated Pico (flash: %s)\n" % chip.flash_path)
        out.flush()
        chip.start()
        wait_at_rest(chip)
        if fresh or seed is not None or vs:
            _on_the_chip(chip, fresh, seed, vs)
        out.write("okgin: bringing its firmware up to date with okgin flash (the first time "
                  "takes a minute or more: the emulator is slower than a Pico)\n")
        out.flush()
        flash_board(chip.port, out=out, ready_timeout=300)
    except BaseException:
        chip.stop()
        raise
    return chip


def _on_the_chip(chip, fresh, seed, vs):
    """Through the chip's REPL (before okgin flash resets it): forget the
    saved game and settings, and/or write a new game's record."""
    from mpremote.transport_serial import SerialTransport
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()):
        t = SerialTransport(chip.port, baudrate=115200, timeout=5)
        try:
            t.enter_raw_repl(soft_reset=False, timeout_overall=30)
            if fresh:
                t.exec_raw(FORGET, timeout=60)
            if seed is not None or vs:
                from okgin.simui.session import new_game_record
                out, _err = t.exec_raw(READ_SETTINGS, timeout=60)
                settings = out.decode("utf-8", "replace").strip() or None
                _seed, record = new_game_record(settings, seed, vs)
                t.exec_raw(WRITE_GAME % (record,), timeout=60)
            t.exit_raw_repl()
        finally:
            t.close()


READ_SETTINGS = "try:\n    print(open('settings.json').read())\nexcept OSError:\n    pass\n"
WRITE_GAME = "with open('game.tmp', 'w') as _f:\n    _f.write(%r)\nimport os\nos.rename('game.tmp', 'game.okg')\n"
