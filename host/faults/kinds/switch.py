"""Row "switch" (the emulated Pico): the power cut after every flash
operation of `okgin flash`'s switch, one cut per case, for updates of
several modules (the issue's cuts after operations 46-52 left one module
old, its staged copy in .staging/ and the journal gone: littlefs hid the
journal after a cut inside a rename between folders; issue 29, item 3).
Each case starts from the same flash, its update staged and verified, and
runs the switch over the REPL with the cut armed (the firmware tree's own
switch code, its boot.py's: with --source, that older tree's). Survived:
after the next power-up the chip runs one complete firmware, every file
of the update new (or, cut before the journal existed, every file old),
and its game is kept. ``n``: updates; every operation index of each (the
short run: one cut in the middle of the first update's switch)."""
import io
import os
import shutil

from ...lib.errors import CommandError
from ..judge import status_agrees, parse
from ..registry import Kind
from ..tally import Row

# the modules each update changes (in the firmware of this checkout and of
# the commit before issue 29's fixes, for --source): 3-6 modules, main.py
# (switched last) in some, the engine package's in some
MODULES = (("app.py", "store.py", "screens.py", "protocol.py"),
           ("menu.py", "recover.py", "stats.py", "buttons.py", "hal.py"),
           ("engine/match.py", "engine/hand.py", "main.py"),
           ("engine/bots.py", "engine/bots_core.py", "ssd1680.py", "uc8151.py", "boarddef.py",
            "display.py"),
           ("testcmds.py", "endview.py", "engine/record.py", "engine/record_read.py", "main.py"),
           ("font.py", "padview.py", "engine/melds.py", "engine/scoring.py"))


def _switch_once(t, plan, cut):
    """Switch ``plan`` over the REPL (the chip is on) with a cut armed
    after ``cut`` flash operations (None: no cut); returns the operations
    done. The power is off afterwards either way (after a whole switch the
    chip sits at its REPL, where no READY ever comes)."""
    from ...table import flashing
    t.b.close()
    dev = t.repl(timeout=2)
    ops0 = sum(t.chip.flash_ops.values())
    try:
        t.enter_repl(dev)
        dev.exec(flashing.DEVICE_HELPERS)
        if cut is not None:
            t.chip.cut_power_after_flash_writes(cut)
        run = flashing.Flash(dev, str(t.chip.port), io.StringIO(), True, flashing.FlashReport())
        run.switch_code = flashing.switch_code(t.source)     # the tree's own (--source)
        run.switch(plan)
    except Exception:        # the power went (the port fails), as it should
        if cut is None:
            raise
    finally:
        dev.close()
        t.cut()
    return sum(t.chip.flash_ops.values()) - ops0


def run(table, n, rng, work, log):
    from ...lib import transport
    from ...table import flashing
    r = Row("switch")
    if table.cheap_files:
        return r          # (sizes say 0 for the virtual board: a host directory)
    src = os.path.join(work, "switch-src")
    for d in ("engine", "firmware", "hardware"):
        shutil.copytree(os.path.join(table.source, d), os.path.join(src, d),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # an older tree's boot.py is its flasher's SWITCH_CODE (flashing.boot_py)
    for rel in (("host", "flash.py"), ("host", "lib", "flashing.py")):
        if os.path.exists(os.path.join(table.source, *rel)):
            os.makedirs(os.path.join(src, *rel[:-1]), exist_ok=True)
            shutil.copy(os.path.join(table.source, *rel), os.path.join(src, *rel))
    t = table(work, "switch")
    t.on()
    tried = []
    short: "list[str]" = []
    try:
        from ..play import engine_bases
        game = engine_bases(rng)[1][0]
        m_game = parse(game)
        t.session(put={"game.okg": game})
        image = t.chip.flash_path
        for u in range(max(1, n)):
            mods = MODULES[u % len(MODULES)]
            for mod in mods:
                path = os.path.join(src, *(mod.split("/") if "/" in mod else ("firmware", mod)))
                if not os.path.exists(path):
                    raise CommandError("switch row: %s is not in %s" % (mod, table.source))
                with open(path, "a") as f:
                    f.write("\n_FAULTS_SWITCH = %d\n" % u)
            # stage the update, verified, then the power goes: the snapshot
            t.b.close()
            dev = t.repl(timeout=2)
            try:
                t.enter_repl(dev)
                fl = flashing.Flash(dev, str(t.chip.port), io.StringIO(), True, flashing.FlashReport())
                plan = fl.plan(src, None)
                fl.stage(plan)
            finally:
                dev.close()
            t.chip.kill()
            staged = os.path.join(work, "switch-staged.bin")
            shutil.copy(image, staged)
            # the switch's flash operations, counted on a whole one
            t.on()
            total = _switch_once(t, plan, None)
            changed = [p for p, _ in plan.todo]
            r.info.append("update %d (%s): %d files changed, %d flash operations in its switch"
                          % (u, ",".join(mods), len(changed), total))
            cuts = list(range(1, total + 1))
            if n <= 1:          # the short run: one cut, inside the renames
                cuts = [max(1, total // 2)]
            for k in cuts:
                t.chip.kill()
                shutil.copy(staged, image)
                t.on()
                done = _switch_once(t, plan, k)
                if done < k:       # the switch made fewer operations this time
                    short.append("update %d: cut armed after %d, the switch made %d"
                                 % (u, k, done))
                what = "update %d (%s), cut after flash operation %d of %d" % (
                    u, ",".join(mods), k, total)
                try:
                    t.on()
                except transport.TransportError as e:
                    r.bad("stuck", "%s: no firmware came up (%s)" % (what, e))
                    log("switch", r)
                    continue
                st = t.status()
                now = t.tree(off=True)     # the next step cuts anyway: no boot
                # every file of the firmware as the plan left it (new) or as
                # it was before (old); the update's files all new or all old
                got = [x for x in changed if now.get(x) == plan.want[x]]
                torn = [x for x in plan.paths
                        if now.get(x) not in (plan.want[x], plan.have[x])]
                why = status_agrees(st, m_game)
                if torn:
                    r.bad("wrong", "%s: files neither old nor new: %s" % (what, torn))
                elif got and got != changed:
                    r.bad("wrong", "%s: a mixed firmware: new %s of %s" % (what, got, changed))
                elif st["screen"] == "error":
                    r.bad("stuck", "%s: the error screen" % what)
                elif st["screen"] != "game":
                    r.bad("lost", "%s: screen=%s, the game not resumed" % (what, st["screen"]))
                elif why:
                    r.bad("wrong", "%s: %s" % (what, why))
                else:
                    r.ok()
                    tried.append(bool(got))
                log("switch", r)
            if u == n - 1:
                break
            # the next update starts from this one complete
            t.chip.kill()
            shutil.copy(staged, image)
            t.on()
            _switch_once(t, plan, None)
            t.on()
        r.info.append("cuts that left the new firmware / the old: %d / %d"
                      % (sum(tried), len(tried) - sum(tried)))
        r.info.extend(short[:5])
    finally:
        t.stop()
    return r


KIND = Kind(
    name="switch", order=11,
    goal="a power cut after every flash operation of okgin flash's switch (several modules): "
         "one complete firmware at the next boot, the game kept",
    sizes={"quick": 0, "long": 0, "chip_quick": 1, "chip_long": 6},
    run=run)
