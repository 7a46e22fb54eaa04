"""Headless scripts: button presses, waits and screenshots in a tiny text
format, for automation and bug reports (``okgin sim --headless --script``).

    # comments start with '#', blank lines are ignored
    press 0 right          # player 0 presses `right` (short)
    press 1 ok long        # a long press
    hold 0 left            # button down ... (the firmware auto-repeats)
    release 0 left         # ... and up
    wait 500               # milliseconds of real time
    sync                   # until every press is handled and the ink settled
    shot start             # DIR/start.png (both panels), start-p0.png, start-p1.png
    serial status          # a protocol line; the reply is printed, ERR stops the script
    powercycle             # power the board off and on (the game is saved)

The whole script is checked before the board starts, so a typo costs nothing;
errors name the file and line.
"""
import os
import re
import time

from ..lib.errors import CommandError
from . import render
from .keymaps import BUTTONS

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
COMMANDS = ("press", "hold", "release", "wait", "sync", "shot", "serial", "powercycle")


class ScriptError(CommandError):
    pass


def parse(text, filename="<script>"):
    """[(lineno, command, args)] or ScriptError naming the line."""
    steps: "list[tuple[int, str, tuple]]" = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        cmd = words[0].lower()
        args = words[1:]

        def bad(msg, lineno=lineno, raw=raw):   # called in this turn of the loop
            return ScriptError("%s:%d: %s: %s" % (filename, lineno, msg, raw.strip()))

        if cmd in ("press", "hold", "release"):
            want = "%s PLAYER BUTTON%s" % (cmd, " [long]" if cmd == "press" else "")
            if len(args) not in ((2, 3) if cmd == "press" else (2,)):
                raise bad("expected '%s'" % want)
            if args[0] not in ("0", "1"):
                raise bad("player must be 0 or 1, not %r" % args[0])
            button = args[1].lower()
            if button not in BUTTONS:
                raise bad("unknown button %r (one of %s)" % (args[1], ", ".join(BUTTONS)))
            long = False
            if len(args) == 3:
                if args[2].lower() != "long":
                    raise bad("expected 'long' after the button, not %r" % args[2])
                long = True
            steps.append((lineno, cmd, (int(args[0]), button, long)))
        elif cmd == "wait":
            if len(args) != 1 or not args[0].isdigit():
                raise bad("expected 'wait MILLISECONDS' (a whole number)")
            steps.append((lineno, cmd, (int(args[0]),)))
        elif cmd in ("sync", "powercycle"):
            if args:
                raise bad("'%s' takes no arguments" % cmd)
            steps.append((lineno, cmd, ()))
        elif cmd == "shot":
            if len(args) != 1 or not _NAME.match(args[0]):
                raise bad("expected 'shot NAME' (letters, digits, '.', '_', '-')")
            steps.append((lineno, cmd, (args[0],)))
        elif cmd == "serial":
            rest = line[len(words[0]):].strip()
            if not rest:
                raise bad("expected 'serial LINE'")
            if len(rest) > 200 or not rest.isascii():
                raise bad("a protocol line is at most 200 ASCII characters")
            steps.append((lineno, cmd, (rest,)))
        else:
            raise bad("unknown command %r (one of %s)" % (words[0], ", ".join(COMMANDS)))
    return steps


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise CommandError("cannot read script %s: %s" % (path, e.strerror or e)) from e
    except UnicodeDecodeError:
        raise CommandError("script %s is not UTF-8 text" % path) from None
    return parse(text, path)


def save_shot(session, shots_dir, name, scale=2):
    """Exact panel images (name-p0.png, name-p1.png: the panels' pixels,
    400x300 on the 4.2" table, 296x128 on the 2.9"; 1 bit) and
    both panels side by side in e-ink colours (name.png) for people."""
    panels = [session.panel(0), session.panel(1)]
    paths = []
    for p, img in enumerate(panels):
        path = os.path.join(shots_dir, "%s-p%d.png" % (name, p))
        img.save(path)
        paths.append(path)
    both = os.path.join(shots_dir, "%s.png" % name)
    render.side_by_side(panels, scale=scale).save(both)
    return [both] + paths


def run(session, steps, shots_dir, out=print, filename="<script>", scale=2):
    """Play the steps on a started session. Returns the written shot paths."""
    written = []
    for lineno, cmd, args in steps:
        where = "%s:%d" % (filename, lineno)
        try:
            if cmd == "press":
                session.press(args[0], args[1], long=args[2])
            elif cmd == "hold":
                session.hold(args[0], args[1])
            elif cmd == "release":
                session.release(args[0], args[1])
            elif cmd == "wait":
                time.sleep(args[0] / 1000.0)
            elif cmd == "sync":
                session.sync()
            elif cmd == "powercycle":
                session.power_cycle()
                if not session.wait_ready(30):
                    raise CommandError("the board did not come back after the power cycle")
            elif cmd == "shot":
                os.makedirs(shots_dir, exist_ok=True)
                paths = save_shot(session, shots_dir, args[0], scale=scale)
                written.extend(paths)
                out("shot %s" % paths[0])
            elif cmd == "serial":
                reply = session.send(args[0])
                out("> %s\n%s" % (args[0], reply))
                if reply.startswith("ERR"):
                    raise CommandError("the board answered %s" % reply)
        except ScriptError:
            raise
        except CommandError as e:
            raise ScriptError("%s: %s" % (where, e)) from e
    return written
