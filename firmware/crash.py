"""The last guard (issue 40): what main.py's main() lets out (a bug,
SystemExit, a broken module, an error inside the error screen itself), or
a board definition it could not use. Loaded only then.

No owner's lock: back to main.py and the REPL, as before (where `okgin
flash` repairs a table). Under the lock the port never reaches the REPL:
the app's own error screen and main loop again (OK brings the saved game
back from flash), with Ctrl-C held off (App.lock_held); after three
crashes in a row, or with no app at all, a last screen in framebuf's
font, a line on the port every 10 s, and any button resets the table.
"""
import sys


def _say(line):
    try:
        sys.stdout.write(line + "\n")
    except Exception:
        pass


def crashed(e, a, k, locked):
    """``e``: the exception (None: a bad board.json, said already); ``a``:
    the App, if made; ``k``: what turns Ctrl-C off (main.py's); ``locked``:
    main.py's look at the flash. True: no lock holds, to the REPL."""
    if e is not None:
        _say("ERR crash: %s: %s" % (type(e).__name__, e))
    try:
        held = (a is not None and a.locked()) or locked()
    except Exception:
        held = k is not None     # cannot tell: keep it shut
    if not held or k is None:
        if k is not None:
            k.kbd_intr(3)
        return True
    k.kbd_intr(-1)
    for _ in range(3):
        if a is None or e is None:
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
        except BaseException as e2:   # noqa: B036 - the lock holds through anything
            e = e2
            _say("ERR crash: %s: %s" % (type(e).__name__, e))
    dead(a, k, "board.json" if e is None else "%s: %s" % (type(e).__name__, e))


def dead(a, k, msg):
    """Nothing more works: the panels say so in framebuf's own font (no
    language file, no screens module), the port says so every 10 s and
    keeps Ctrl-C off, and any button resets the table."""
    import time
    bs = None
    if a is not None:
        try:
            bs = a.hw.buttons
            for pn in a.panels:
                fb = pn.fb
                # the panel's logical size: 296x128 (36 characters of 8 px
                # a line, 4 lines of the message), or the 4.2"'s 200x150
                # (25 a line from its left edge, 5 lines)
                x = 2 if pn.w >= 204 else 0
                cols = (pn.w - x) // 8
                n = 4 + (pn.h - 128) // 12
                fb.fill(0)
                fb.text("Error - the game is saved", x, 4, 1)
                for i in range(n):
                    fb.text(msg[i * cols:i * cols + cols], x, 24 + 12 * i, 1)
                fb.text("Press a button to restart", x, 36 + 12 * n, 1)
                pn.push()
        except BaseException:   # noqa: B036
            pass
    n = 0
    while True:
        try:
            k.kbd_intr(-1)
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
