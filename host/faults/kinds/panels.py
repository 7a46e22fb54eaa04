"""Row "panels" of the fault campaign: BUSY stuck, a panel that never answers: bounded waits, a message on the other panel, the game kept"""
import time

from ...lib import transport
from ..registry import Kind
from ..tally import Row
from ..judge import parse, status_agrees
from ..play import menu_new_game_fresh


def _notice(img):
    # notices have a black title bar across the top 12 rows
    return img.crop((0, 0, 200, 12)).tobytes().count(0) > 120


def row_panels(table, n, rng, work, log):
    """A panel's BUSY line stuck high in the middle of a game (a refresh
    that never ends), or from power-on (a panel that never answers). The
    board must settle within a bounded time (its timeout, at most two
    resets), show a message on the other panel, keep the game, and play
    on with the panel that works."""
    r = Row("panels")
    for i in range(n):
        t = table(work, "panels%d" % i, timing={"busy_timeout_ms": 600})
        try:
            t.on()
            menu_new_game_fresh(t, 0)
            before = t.saved()
            m = parse(before)
            bad_p = i % 2
            other = 1 - bad_p
            from_boot = (i // 2) % 2 == 1
            t0 = time.monotonic()
            e0 = 0 if t.cheap_files else t.chip.emulated_ns()
            t.vb.set_fault(bad_p, True)
            if from_boot:
                t.cycle()
            else:
                t.press(m.hand.to_move, "draw")   # pass or draw: both panels redraw
            notes = []
            settled = told = False
            st = {}
            slow = t.answer_slowness
            while time.monotonic() - t0 < 60 * slow:
                try:
                    t.sync(timeout=5 * slow)
                    # after its resets the board plays on with one panel; the
                    # other one says so (a notice: its black title bar)
                    told = _notice(t.vb.panel_image(other))
                    st = t.status()
                    if told and st.get("screen") in ("game", "showdown"):
                        settled = True
                        break
                except transport.TransportError:
                    try:
                        t.b.wait_ready(5 * slow, probe_after=1.0)
                    except transport.TransportError:
                        pass
            took = time.monotonic() - t0
            chip_s = ""
            if not t.cheap_files:
                chip_s = " (%.1f s of the chip's time)" % ((t.chip.emulated_ns() - e0) / 1e9)
            if not settled:
                notes.append("not settled after %.0f s%s" % (took, chip_s))
            if not told:
                notes.append("no message on the other panel")
            saved = t.saved()     # (on the emulated Pico: a reset; status was read before)
            lost = parse(saved) is None or not saved.startswith(before)
            if lost:
                notes.append("the game was not kept")
            elif saved.count(b"\n") - before.count(b"\n") > 1:
                notes.append("%d actions saved for one press"
                             % (saved.count(b"\n") - before.count(b"\n")))
            elif settled:
                why = status_agrees(st, parse(saved))   # it plays on with the saved game
                if why:
                    notes.append(why)
            r.info.append("panel %d stuck %s: settled in %.1f s%s" % (
                bad_p, "from power-on" if from_boot else "mid-game", took, chip_s))
            if notes:
                r.bad("lost" if lost else "wrong", "panel %d %s: %s" % (
                    bad_p, "from power-on" if from_boot else "mid-game", "; ".join(notes)))
            else:
                r.ok()
            log("panels", r)
        finally:
            t.stop()
    return r


run = row_panels


KIND = Kind(
    name='panels', order=5,
    goal='BUSY stuck, a panel that never answers: bounded waits, a message on the other panel, the game kept',
    sizes={"quick": 1, "long": 12, "chip_quick": 1, "chip_long": 4},
    run=run)
