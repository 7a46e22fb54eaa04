"""Row "crashlock": a crash under the owner's lock (issue 40, 3). Before,
main.py had nothing around main(): whatever App.start or the main loop
let out stopped the firmware at the ``>>>`` prompt, where
``print(open('game.okg').read())`` printed the saved game (2 of 2, the
virtual board and the emulated Pico). A crash is injected as a module on
the flash that raises a BaseException of its own (App.step's guard
does not take it), at three moments: at boot (recover.py, which resumes
the game), during play (coachview.py: player 1 holds DRAW for the coach)
and during sleep (asleep.py: auto-off after 2 s). Then a laptop tries
Ctrl-C and that line. Survived: nothing of the record and no REPL prompt
reaches the port, the table answers (status) on an error screen, OK
brings the game back (play, sleep) and the record is unchanged. The
owner's way back in (player 1 holds OK at power-up) then opens the port
for the next case, as an owner would."""
import json

from ..judge import changed, ladder, parse, status_agrees
from ..registry import Kind
from ..play import engine_bases
from ..tally import Row

# a BaseException of its own: App.step's ``except Exception`` does not take
# it, and neither SystemExit (the rp2 port soft-resets on it) nor
# KeyboardInterrupt (Ctrl-C's) is what it stands for
INJECT = b"class InjectedCrash(BaseException):\n    pass\n\n\nraise InjectedCrash('injected crash')\n"
WHEN = (("boot", "recover.py"), ("play", "coachview.py"), ("sleep", "asleep.py"))
SIGNS = ("okgin-record", ">>>", "Traceback", "NameError", "raw REPL")


def _try_repl(t):
    """Ctrl-C, then the saved game asked for at the prompt, then hello (the
    firmware answers it; a REPL would not): the lines the port gave back,
    and whether hello was answered."""
    t.b.send_raw(b"\r\x03\x03\r\n")
    t.pause(0.5)                # in the table's time: the chip's, however slow
    t.b.send_raw(b"print(open('game.okg').read())\r\n")
    t.pause(0.5)
    t.b.send_raw(b"\nhello\n")
    lines = []
    clock = t.b.clock           # the chip's own time on the emulated Pico
    deadline = clock() + 30 * t.answer_slowness
    while clock() < deadline:
        ln = t.b.read_line(max(0.1, deadline - clock()))
        if ln is None:
            break
        lines.append(ln)
        if ln.startswith("OK okgin"):
            return lines, True
    return lines, False


def _status(t):
    """status, once more after a resync if a late answer to the junk
    before it took its place (seen on the emulated Pico)."""
    from ...lib.transport import ProtocolError
    try:
        return t.status()
    except ProtocolError as e:
        if "not ASCII" not in str(e):
            raise
        t.resync(60)
        return t.status()


def _way_back_in(t, remove):
    """The owner's way back in, then the files: player 1 holds OK while
    the table powers up (the lock is lifted), then the injected module
    goes (``remove``, with the power off) and the table powers up without
    it. The record as it was, read with the power off."""
    t.hold(0, "ok")
    t.cut()
    t.power_on()
    try:
        t.b.reopen(60)
    except Exception:
        pass
    t0 = t.now()
    got = None
    while t.now() - t0 < 30 and got is None:
        got = t.b.read_line(1.0)
    t.pause(1.0)                # OK still held while main.py looks at it
    t.release(0, "ok")
    return t.session(read=("game.okg",), remove=remove)


def run(table, n, rng, work, log):
    r = Row("crashlock")
    t = table(work, "crashlock")
    t.on()
    try:
        real = engine_bases(rng)[1][0]      # two players, in the first hand
        m_real = parse(real)
        for i in range(n):
            when, mod = WHEN[i % len(WHEN)]
            settings: "dict[str, object]" = {"owner_lock": True}
            if when == "sleep":
                settings["auto_off_s"] = 2
            put = {"game.okg": real, "settings.json": json.dumps(settings), mod: INJECT}
            t.session(put=put, remove=["game.bad", "game.tmp", "settings.json.bad"], off=True)
            what = "a crash %s (%s)" % ("at boot" if when == "boot" else "during " + when, mod)
            stuck = []
            leaked = []
            notes = []
            try:
                t.on()       # READY comes after the crash's ERR line
                if when == "play":
                    t.sync()
                    t.press(0, "draw", long=True)     # hold DRAW: the coach
                elif when == "sleep":
                    t.sync()
                    t.pause(8)              # auto-off after 2 s: well asleep
                lines, answered = _try_repl(t)
                leaked = [ln for ln in lines if any(s in ln for s in SIGNS)]
                if not answered:
                    stuck.append("no answer to hello after the crash")
                else:
                    t.pause(1.0)
                    leaked += [ln for ln in t.resync(60) if any(s in ln for s in SIGNS)]
                    st = _status(t)
                    if st["screen"] != "error":
                        notes.append("screen=%s after the crash (the error screen expected)"
                                     % st["screen"])
                    if when != "boot":
                        t.press(0, "ok")
                        t.sync()
                        st = _status(t)
                        why = status_agrees(st, m_real)
                        if why:
                            stuck.append("OK on the error screen: " + why)
                        lines, answered = _try_repl(t)
                        leaked += [ln for ln in lines if any(s in ln for s in SIGNS)]
                        t.pause(1.0)
                        leaked += [ln for ln in t.resync(60) if any(s in ln for s in SIGNS)]
            except Exception as e:
                if "REPL" in str(e) or "stopped with an error" in str(e):
                    # the transport's words for a traceback and the >>> prompt
                    leaked.append(str(e))
                else:
                    stuck.append("no answer (%s: %s)" % (type(e).__name__, e))
            look = _way_back_in(t, [mod])
            ladder(r, what,
                   ("wrong", leaked and "the REPL reached: %s" % " | ".join(leaked)[:160]),
                   ("lost", changed(look["game.okg"], real)),
                   ("stuck", "; ".join(stuck)),
                   ("wrong", "; ".join(notes)))
            log("crashlock", r)
    finally:
        t.stop()
    return r


KIND = Kind(
    name="crashlock", order=16,
    goal="a crash under the owner's lock at boot, during play and during sleep: never the "
         "REPL (the saved game stays unread), the error screen, OK brings the game back",
    sizes={"quick": 3, "long": 30, "chip_quick": 3, "chip_long": 30},
    run=run)
