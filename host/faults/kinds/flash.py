"""Row "flash" of the fault campaign: okgin flash SIGKILLed / SIGTERMed, the board's power cut, at random points: a complete firmware boots and the game is kept"""
import os
import shutil
import signal
import subprocess
import sys
import time

from ...lib import transport
from ..registry import Kind
from ..tally import Row
from ...lib.paths import ROOT
from ...lib.paths import copy_source
from ..judge import parse, agrees
from ..play import menu_new_game_fresh


def row_flash(table, n, rng, work, log):
    """``okgin flash`` of a changed firmware, stopped at a random instant
    after it has the board: SIGKILL (then a power cycle), SIGTERM (the
    flasher resets the board itself), or the board's power cut (then power
    on). The board must boot one complete firmware (every file the old or
    every file the new build) and resume its game; the next flash then
    completes."""
    r = Row("flash")
    src = os.path.join(work, "flash-src")
    if os.path.abspath(table.source) == os.path.abspath(ROOT):
        copy_source(src, ignore=("__pycache__", "*.pyc"))   # this okgin's, checkout or wheel
    else:   # okgin faults --source: a checkout-shaped tree
        for d in ("engine", "firmware", "hardware"):
            shutil.copytree(os.path.join(table.source, d), os.path.join(src, d),
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    t = table(work, "flash")
    t.on()
    try:
        menu_new_game_fresh(t, 0)
        t.press(parse(t.saved()).hand.to_move, "draw")
        t.sync()
        game = t.saved()
        m = parse(game)

        tree = t.tree    # (on the emulated Pico: through its REPL, then a reset)

        # the board's firmware as okgin flash leaves it (boot.py, manifest)
        _flash(t, src, wait=True)
        kinds = ("sigkill", "sigterm", "power")
        for i in range(n):
            old = tree()
            for mod in ("app.py", "store.py", "screens.py", "protocol.py"):
                with open(os.path.join(src, "firmware", mod), "a") as f:
                    f.write("\n_FAULTS_FLASH = %d\n" % i)
            kind = kinds[i % len(kinds)]
            p = subprocess.Popen([sys.executable, "-m", "okgin.cli", "flash", "--port",
                                  str(t.vb.port), "--source", src], cwd=ROOT,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            t.b.close()
            out = ""
            assert p.stdout is not None
            for line in p.stdout:
                out += line
                if line.startswith("board: "):
                    break
            time.sleep(rng.uniform(0.0, 2.0))
            if kind == "power":
                t.vb.kill()
            else:
                p.send_signal(signal.SIGKILL if kind == "sigkill" else signal.SIGTERM)
            try:
                out += p.communicate(timeout=60 * t.answer_slowness)[0]
            except subprocess.TimeoutExpired:
                p.kill()
                out += p.communicate()[0]
            notes = []
            if kind == "sigterm":
                # no power cycle: the flasher put the board back in its game
                # (or had finished)
                try:
                    t.b.reopen(20 * t.answer_slowness)
                    t.b.wait_ready(20 * t.answer_slowness, probe_after=1.0)
                    st = t.status()
                    if st["screen"] != "game":
                        notes.append("after SIGTERM: screen=%s" % st["screen"])
                except transport.TransportError as e:
                    notes.append("after SIGTERM the board does not answer: %s" % e)
                t.cut()
            else:
                t.cut()
            t.on()
            t.sync()
            now = tree()
            # one complete firmware: no file both changed and unchanged
            changed = [k for k in old if now.get(k) != old[k]]
            if changed and set(changed) != {"app.mpy", "store.mpy", "screens.mpy", "protocol.mpy"}:
                notes.append("a mixed firmware: changed %s" % sorted(changed))
            if t.saved() != game:
                notes.append("the saved game changed")
            why = agrees(t, m)
            if why:
                notes.append(why)
            # and the next flash completes
            _flash(t, src, wait=True)
            if notes:
                r.bad("wrong", "%s after %s: %s" % (kind, out.strip().splitlines()[-1:] or "", "; ".join(notes)))
            else:
                r.ok()
            log("flash", r)
    finally:
        t.stop()
    return r


def _flash(t, src, wait=True):
    from ...table.flashing import flash_board
    t.b.close()
    import io
    flash_board(t.vb.port, src_root=src, out=io.StringIO(), quiet=True,
                power_cycle=t.vb.power_cycle)
    t.b.reopen(30 * t.answer_slowness)
    t.patient()
    t.b.wait_ready(30 * t.answer_slowness, probe_after=1.0)


run = row_flash


KIND = Kind(
    name='flash', order=6,
    goal="okgin flash SIGKILLed / SIGTERMed, the board's power cut, at random points: a complete firmware boots and the game is kept",
    sizes={"quick": 1, "long": 24, "chip_quick": 1, "chip_long": 3},
    run=run)
