"""Row "bootlock": the table powers up with the owner's lock on and a game
saved while a laptop floods its port with Ctrl-C (every 4 ms, from before
the power comes until after READY). On the emulated Pico a USB replug was
enough to reach the REPL, and so the saved game's seed (issue 29, item 5).
Survived: the firmware boots into the game, no KeyboardInterrupt and no
REPL prompt ever reach the port, the game is unchanged."""
import threading
import time

from ..judge import status_agrees, parse
from ..registry import Kind
from ..play import engine_bases
from ..tally import Row

REPL_SIGNS = (b"KeyboardInterrupt", b">>> ", b"raw REPL", b"Traceback")


def _flood_boot(t, after_s):
    """Power on while Ctrl-C floods the port; the bytes the port gave back
    until ``after_s`` (the chip's seconds on the emulated Pico) after READY."""
    import serial
    stop = threading.Event()
    port = str(t.vb.port)
    ser = serial.Serial(port, 115200, timeout=0.05, write_timeout=5)

    def flood():
        while not stop.is_set():
            try:
                ser.write(b"\x03")
            except (serial.SerialException, OSError):
                pass
            time.sleep(0.004)
    w = threading.Thread(target=flood, name="ctrl-c", daemon=True)
    w.start()
    got = b""
    try:
        t.power_on()
        clock = t.b.clock       # the chip's own time on the emulated Pico
        deadline = clock() + 60 * t.answer_slowness
        ready = None
        while clock() < deadline:
            got += ser.read(4096)
            if any(s in got for s in REPL_SIGNS):
                break               # the REPL: judged already (no READY will come)
            if ready is None and b"READY okgin" in got:
                ready = t.now()
            if ready is not None and t.now() - ready > after_s:
                break
    finally:
        stop.set()
        w.join(2)
        ser.close()
    return got, ready is not None


def _unlock(t):
    """The owner's way back in (docs/reliability.md): player 1 holds OK
    while the table powers up, and the lock is off until the menu turns it
    on again. The next case's look at the flash needs the REPL, which the
    lock (rightly) keeps shut: before, the row's second case could not
    enter it and the harness stopped the whole run."""
    t.hold(0, "ok")
    t.cut()
    t.on()
    t.release(0, "ok")
    t.sync()


def run(table, n, rng, work, log):
    r = Row("bootlock")
    t = table(work, "bootlock")
    t.on()
    try:
        bases = [b for b, _ in engine_bases(rng)]
        import json
        for i in range(n):
            base = bases[i % len(bases)]
            # the files go on with the power off, and it stays off
            t.session(put={"game.okg": base, "settings.json": json.dumps({"owner_lock": True})},
                      remove=["game.bad", "game.tmp"], off=True)
            got, ready = _flood_boot(t, 2.0)
            t.b.reopen(60 * t.answer_slowness)
            t.patient()
            signs = [s.decode() for s in REPL_SIGNS if s in got]
            if signs:
                r.bad("wrong", "cut %d: the REPL was reached under the lock (%s)" % (i, ", ".join(signs)))
                t.cycle()
            elif not ready:
                r.bad("stuck", "cut %d: no READY within the wait" % i)
                t.cycle()
            else:
                t.resync()
                t.sync()
                why = status_agrees(t.status(), parse(base))
                if why:
                    r.bad("wrong", "cut %d: %s" % (i, why))
                else:
                    r.ok()
            log("bootlock", r)
            if i < n - 1:
                _unlock(t)
    finally:
        t.stop()
    return r


KIND = Kind(
    name="bootlock", order=9,
    goal="power-up with Ctrl-C flooding the port, the owner's lock on: never the REPL, the "
         "game resumed unchanged",
    # the emulated Pico only: its USB stack is the stock firmware's, where
    # Ctrl-C is a plain byte until MicroPython starts a script; the virtual
    # board's Ctrl-C is the pty's SIGINT, live from the process's start
    sizes={"quick": 0, "long": 0, "chip_quick": 1, "chip_long": 100},
    run=run)
