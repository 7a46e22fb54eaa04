"""Row "switch" (the emulated Pico): the power cut after every flash
operation of `okgin flash`'s switch, one cut per case, for updates of
several modules (the issue's cuts after operations 46-52 left one module
old, its staged copy in .staging/ and the journal gone: littlefs hid the
journal after a cut inside a rename between folders; issue 29, item 3).
Each case starts from the same flash, its update staged and verified, and
runs the flasher's own switch over the REPL with the cut armed. Survived:
after the next power-up the chip runs one complete firmware, every file
of the update new (or, cut before the journal existed, every file old),
and its game is kept. ``n``: updates; every operation index of each (the
short run: three of the first update's)."""
import io
import os
import shutil

from okgin.faults.kinds import Kind
from okgin.faults.tally import Row

MODULES = (("app.py", "store.py", "screens.py", "protocol.py"),
           ("menu.py", "recover.py", "stats.py", "buttons.py", "layout.py"),
           ("engine/match.py", "engine/hand.py", "main.py"))


def _switch_once(t, plan, cut):
    """Power on, switch ``plan`` over the REPL with a cut armed after
    ``cut`` flash operations (None: no cut); returns the operations done."""
    from okgin.lib import flashing
    t.b.close()
    dev = flashing.Device(str(t.chip.port))
    ops0 = sum(t.chip.flash_ops.values())
    try:
        dev.enter()
        dev.exec(flashing.DEVICE_HELPERS)
        if cut is not None:
            t.chip.cut_power_after_flash_writes(cut)
        run = flashing.Flash(dev, str(t.chip.port), io.StringIO(), True, flashing.FlashReport())
        run.switch(plan)
    except Exception:        # the power went (the port fails), as it should
        if cut is None:
            raise
    finally:
        dev.close()
    return sum(t.chip.flash_ops.values()) - ops0


def run(table, n, rng, work, log):
    from okgin.lib import flashing
    r = Row("switch")
    if table.cheap_files:
        return r          # (sizes say 0 for the virtual board: a host directory)
    src = os.path.join(work, "switch-src")
    for d in ("engine", "firmware", "hardware"):
        shutil.copytree(os.path.join(table.source, d), os.path.join(src, d),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    t = table(work, "switch")
    t.on()
    tried = []
    try:
        from okgin.faults.kinds.damage import _engine_bases
        game = _engine_bases(rng)[1][0]
        t.session(put={"game.okg": game})
        image = t.chip.flash_path
        for u in range(max(1, n)):
            mods = MODULES[u % len(MODULES)]
            for mod in mods:
                with open(os.path.join(src, *(("firmware", mod) if "/" not in mod else mod.split("/"))), "a") as f:
                    f.write("\n_FAULTS_SWITCH = %d\n" % u)
            # stage the update, verified, then the power goes: the snapshot
            t.b.close()
            dev = flashing.Device(str(t.chip.port))
            try:
                dev.enter()
                fl = flashing.Flash(dev, str(t.chip.port), io.StringIO(), True, flashing.FlashReport())
                plan = fl.plan(src, None)
                fl.stage(plan)
            finally:
                dev.close()
            t.chip.kill()
            staged = os.path.join(work, "switch-staged.bin")
            shutil.copy(image, staged)
            old = None
            t.on()
            old = t.tree()
            total = _switch_once(t, plan, None)
            t.cycle()
            new = t.tree()
            changed = sorted(k for k in new if new[k] != old.get(k))
            cuts = list(range(1, total + 1))
            if n <= 1:
                cuts = sorted({1, max(1, total // 2), max(1, total - 1)})
            for k in cuts:
                t.chip.kill()
                shutil.copy(staged, image)
                t.on()
                _switch_once(t, plan, k)
                t.b.close()
                t.on()
                st = t.status()
                now = t.tree()
                got = sorted(x for x in changed if now.get(x) == new[x])
                stale = [x for x in now if x not in changed and now.get(x) != old.get(x)]
                what = "update %d (%s), cut after flash operation %d of %d" % (
                    u, ",".join(mods), k, total)
                if got and got != changed or stale:
                    r.bad("wrong", "%s: a mixed firmware: new %s of %s" % (what, got, changed))
                elif st["screen"] == "error":
                    r.bad("stuck", "%s: the error screen" % what)
                elif st["screen"] != "game":
                    r.bad("lost", "%s: screen=%s, the game not resumed" % (what, st["screen"]))
                else:
                    r.ok()
                    tried.append(bool(got))
                log("switch", r)
            # the next update starts from this one complete
            t.chip.kill()
            shutil.copy(staged, image)
            t.on()
            _switch_once(t, plan, None)
            t.b.close()
            t.on()
        r.info.append("cuts that left the new firmware / the old: %d / %d"
                      % (sum(tried), len(tried) - sum(tried)))
    finally:
        t.stop()
    return r


KIND = Kind(
    name="switch", order=11,
    goal="a power cut after every flash operation of okgin flash's switch (several modules): "
         "one complete firmware at the next boot, the game kept",
    sizes={"quick": 0, "long": 0, "chip_quick": 1, "chip_long": 3},
    run=run)
