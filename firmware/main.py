"""Boot: board definition -> hardware -> app, serving the serial protocol.

Runs from the flash root (firmware modules flat, engine/ package,
board.json). A board definition that does not validate is reported on the
serial port (``ERR board.json: ...``) and the firmware stops at the REPL
instead of crash-looping.

The owner's lock holds from the first instruction (docs/reliability.md):
MicroPython turns Ctrl-C on again for main.py, so it is off again at once,
and on only once the table knows no game is locked (boot.py does the same
before it). And it holds whatever happens after (issue 40): what main()
lets out, or a board definition it cannot use, goes to crash.py, which
returns to the REPL only when no lock holds.
"""
import sys
while True:
    try:
        # the virtual board (unix port) stands in for the Pico's USB stack
        _k = __import__("vmachine" if sys.platform in ("linux", "darwin") else "micropython")
        _k.kbd_intr(-1)
        if _k:              # a Ctrl-C that came before the line above is raised here
            break
    except KeyboardInterrupt:
        pass
    except Exception:       # a port without kbd_intr: nothing to lock
        _k = None
        break
import gc  # noqa: E402 - after the lock, on purpose

# The built-in modules a file may stand in for ("extensible": time, os,
# json, ...) are never kept in sys.modules, so every `import time` that
# runs searches the flash for a time.py first: three littlefs lookups,
# ~10 ms of an RP2040 each time, at boot and in play. Taken here once by
# their u-names (which go straight to the built-in) and kept, later
# imports find them at once (docs/emulated-pico.md, "Boot"). A module the
# firmware imports that a file could replace is listed here
# (tests/test_firmware_parts.py checks it under MicroPython).
BUILTINS = ("time", "os", "json", "binascii", "hashlib", "select", "machine", "struct")
for _n in BUILTINS:
    try:
        sys.modules[_n] = __import__("u" + _n)
    except ImportError:     # a port without it: its imports fail as before
        pass


def _boarddef():
    import boarddef
    return boarddef


def _locked():
    """The owner's lock holds at power-up: it is on and a game is saved.
    (The app lifts it when player 1 holds OK, and keeps it from then on.)"""
    import store
    return store.load_settings().get("owner_lock") is True and store.has_game()


def main():
    locked = _locked()
    if not locked and _k is not None:
        _k.kbd_intr(3)      # no game to protect: Ctrl-C reaches the REPL again
    # Boot collects only where main() says (below) and when the heap is
    # full: ~200 KB of modules, drivers and the first screens are loaded
    # without the collection every 4 KB that play has (a.start), which
    # cost a second of an RP2040's boot (docs/emulated-pico.md, "Boot").
    gc.threshold(-1)
    boarddef = _boarddef()
    try:
        board = boarddef.load("board.json")
    except (boarddef.BoardError, OSError, ValueError) as e:
        sys.stdout.write("ERR board.json: %s\n" % e)
        return
    # The validator is only needed once: drop it (about 11 KB of heap on the
    # unix port) before the engine and the app are loaded.
    del sys.modules["boarddef"]
    boarddef = None
    gc.collect()
    import hal
    gc.collect()
    try:
        hw = hal.Hardware(board)
    except ValueError as e:   # a panel its driver cannot drive (size, rotation)
        sys.stdout.write("ERR board.json: %s\n" % e)
        return
    gc.collect()
    import app as _app
    import protocol
    a = _app.App(hw, board)
    _held[0] = a            # for crash.py: the app's own error screen
    a.kbd_locked = locked   # as left above: the app turns it on or off from here
    # this frame lives as long as the game: let the board definition go
    # (App and hal keep only what they need, docs/memory.md)
    board = None
    gc.collect()
    # buttons keep being polled while a driver waits on BUSY (wake-up)
    for d in hw.displays:
        d.idle = hw.buttons.poll
    # From READY on (a.run), collect after every 4 KB allocated, not only when
    # the heap is full: garbage is freed while it is still small, so what
    # lives on (the match, the menu's code) packs into the low holes
    # instead of being spread between dead objects over the whole heap.
    # Measured (docs/memory.md): the smallest heap that plays a hand went
    # 144K -> 136K (two players) and 152K -> 148K (vs hard). A collection
    # costs a few ms; a cursor move allocates ~18 KB on the unix port.
    a.run(protocol.Protocol(a), 4096)


_held: "list" = [None]   # the App, once made


def _fall(e):
    """What main() let out (``e``; None: it returned, on a board.json it
    cannot use, said on the port) goes to crash.py, which never returns
    under the owner's lock; True when no lock holds: the REPL, as before.
    If even crash.py fails, the port stays shut while the lock may hold."""
    while True:
        try:
            import crash
            return crash.crashed(e, _held[0], _k, _locked)
        except BaseException:   # noqa: B036 - the lock holds through anything
            if _k is None or not _locked():
                return True


try:
    main()
except BaseException as _e:   # noqa: B036 - SystemExit, KeyboardInterrupt too
    if _fall(_e):
        raise
else:
    _fall(None)
