"""Boot: board definition -> hardware -> app, serving the serial protocol.

Runs from the flash root (firmware modules flat, engine/ package,
board.json). A board definition that does not validate is reported on the
serial port (``ERR board.json: ...``) and the firmware stops at the REPL
instead of crash-looping.

The owner's lock holds from the first instruction (docs/reliability.md):
MicroPython turns Ctrl-C on again for main.py, so it is off again at once,
and on only once the table knows no game is locked (boot.py does the same
before it). And it holds whatever happens after (issue 40): anything
main() lets out, a bug, SystemExit, a broken module, goes to _crashed(),
which returns to the REPL only when no lock holds. Under the lock the
table shows the error and goes on (OK brings the saved game back), or,
when even that fails, says so on the panels and the port and waits for a
button to reset; the port never reaches the REPL.
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
    # Collect after every 4 KB allocated, not only when the heap is full:
    # garbage is freed while it is still small, so what lives on (modules,
    # the match) packs into the low holes instead of being spread between
    # dead objects over the whole heap. Measured (docs/memory.md): the
    # smallest heap that plays a hand went 144K -> 136K (two players) and
    # 152K -> 148K (vs hard). A collection costs a few ms; a cursor move
    # allocates ~18 KB on the unix port.
    gc.threshold(4096)
    boarddef = _boarddef()
    try:
        board = boarddef.load("board.json")
    except (boarddef.BoardError, OSError, ValueError) as e:
        raise _Stop("ERR board.json: %s" % e)
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
        raise _Stop("ERR board.json: %s" % e)
    gc.collect()
    import app as _app
    import protocol
    a = _app.App(hw, board)
    _held[0] = a            # for _crashed(): the app's own error screen
    a.kbd_locked = locked   # as left above: the app turns it on or off from here
    # this frame lives as long as the game: let the board definition go
    # (App and hal keep only what they need, docs/memory.md)
    board = None
    gc.collect()
    # buttons keep being polled while a driver waits on BUSY (wake-up)
    for d in hw.displays:
        d.idle = hw.buttons.poll
    a.run(protocol.Protocol(a))


class _Stop(Exception):
    """A board definition the firmware cannot use: its line on the port,
    then the REPL (no lock) or a closed port (the lock)."""


_held: "list" = [None]   # the App, once made


def _say(line):
    try:
        sys.stdout.write(line + "\n")
    except Exception:
        pass


def _crashed(e):
    """Whatever main() let out. No lock: as before, the REPL (where
    `okgin flash` repairs a table). The lock: never the REPL."""
    _say(str(e) if isinstance(e, _Stop) else "ERR crash: %s: %s" % (type(e).__name__, e))
    a = _held[0]
    try:
        locked = a.locked() or _locked() if a is not None else _locked()
    except Exception:
        locked = _k is not None     # cannot tell: keep it shut
    if not locked or _k is None:
        if _k is not None:
            _k.kbd_intr(3)
        if isinstance(e, _Stop):
            return
        raise e
    _k.kbd_intr(-1)
    # the app's own error screen and main loop: OK brings the saved game
    # back from flash; a crash again, up to 3 in a row before giving up
    for _ in range(3):
        if a is None:
            break
        try:
            a.fail(e)
            a.lock_held = True     # Ctrl-C stays off whatever the app holds
            pr = a.proto
            if pr is not None and not pr.said_ready:
                pr.ready()         # a crash at boot: the host may talk to it now
            while True:
                if not a.step():
                    a.power.rest(a)
        except BaseException as e2:   # noqa: B036 - the lock must hold through anything
            e = e2
            _say("ERR crash: %s: %s" % (type(e).__name__, e))
    _dead(a, e)


def _dead(a, e):
    """Nothing more works: the panels say so in framebuf's own font (no
    language file, no screens module), the port says so every 10 s and
    refuses Ctrl-C, and any button resets the table."""
    import time
    msg = "%s: %s" % (type(e).__name__, e)
    bs = None
    if a is not None:
        try:
            bs = a.hw.buttons
            for pn in a.panels:
                fb = pn.fb
                fb.fill(0)
                fb.text("Error - the game is saved", 2, 4, 1)
                for i in range(4):
                    fb.text(msg[i * 36:i * 36 + 36], 2, 24 + 12 * i, 1)
                fb.text("Press a button to restart", 2, 84, 1)
                pn.push()
        except BaseException:   # noqa: B036
            pass
    n = 0
    while True:
        try:
            _k.kbd_intr(-1)
            if n % 200 == 0:
                _say("ERR crash: %s (the owner's lock holds; a button restarts)" % msg)
            n += 1
            time.sleep_ms(50)
            if bs is not None:
                bs.poll()
                if bs.get() is not None:
                    a.hw.reset()
        except BaseException:   # noqa: B036
            pass


try:
    main()
except BaseException as _e:   # noqa: B036 - SystemExit and KeyboardInterrupt too
    _crashed(_e)
