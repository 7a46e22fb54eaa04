"""Row "buttons" of the fault campaign: both players, bounce on every press, presses during refreshes, long holds: no lost or doubled press"""
import time

from ..registry import Kind
from ..tally import Row
from ..judge import actions_since


def row_buttons(table, n, rng, work, log):
    """Every press and release chatters (2 or 4 extra edges within a few
    ms, inside the debounce time), both players press at once, presses
    land during refreshes, TAKE is held past the long-press time. Played
    in test mode's own game, whose record is read after each turn: the
    action must be the one the presses mean (the cursor model), exactly
    once. One lost or doubled cursor press discards another card."""
    from okgin.engine.arrange import order as arranged
    from ...lib.presses import Presses
    from okgin.engine import Match
    r = Row("buttons")
    t = table(work, "buttons", speed=0.2)
    t.on()
    deb = t.timing_s("debounce_ms", 20)
    skipped = 0
    try:
        t.req("testmode on")

        def record():
            return Match.from_record("\n".join(t.b.request_block("record")) + "\n")

        def chatter(p, button, hold_s):
            """Press and release, each edge with chatter; the longest burst."""
            if not t.cheap_files:
                # the emulated Pico: the chatter in the chip's own time (0.3-0.5
                # ms edges for up to 3/4 of the debounce), exact on any machine
                t.chip.press(p, button, hold_ms=hold_s * 1000,
                             bounce_ms=rng.uniform(1.0, 750 * deb))
                return 0.0
            worst = 0.0
            for down in (True, False):
                edge, back = (t.vb.hold, t.vb.release) if down else (t.vb.release, t.vb.hold)
                t0 = time.monotonic()
                for _ in range(rng.randint(1, 2)):
                    edge(p, button)
                    back(p, button)
                edge(p, button)
                worst = max(worst, time.monotonic() - t0)
                t.seen()     # the firmware has read the settled level
                time.sleep(hold_s if down else 3 * deb)
                # and reads it again, the hold over: a firmware the host
                # starved for the whole 30 ms hold (a busy CI machine) had
                # seen the press once and never held, and lost it (one
                # cursor move short: "meant 0 discard 2d, played Ks")
                t.seen(again=True)
            return worst

        def fresh():
            t.req("newgame seed=%d dealer=0" % rng.randrange(1 << 30))
            keys.reset()

        keys = Presses()
        fresh()
        done = 0
        tries = 0
        while done < n and tries < 4 * n:
            tries += 1
            m = record()
            if m.winner is not None or m.hand_no > 1:
                fresh()
                continue
            p = m.hand.to_move
            o = m.observation(p)
            worst = 0.0
            if o["phase"] != "discard":
                hold = (0.06, 0.9, 3.0)[done % 3]
                if hold < 0.5:
                    act = "draw" if "draw" in o["legal"] else "pass"
                    worst = chatter(p, "draw", hold)
                else:
                    # held past the long press, or very long: still one
                    # action. TAKE's, as holding DRAW asks the coach
                    # (firmware/app.py) and is no draw
                    act = "take"
                    worst = chatter(p, "take", hold)
            else:
                order = arranged(o["hand"])
                q = 1 - p
                k = rng.randint(0, len(order) - 1)
                qk = rng.randint(0, 3)        # the other player mashes meanwhile
                for j in range(max(k, qk)):
                    if j < k:
                        worst = max(worst, chatter(p, "right", 0.03))
                    if j < qk:
                        worst = max(worst, chatter(q, "right", 0.03))
                keys.cursor[q] = (keys.cursor[q] + qk) % len(m.observation(q)["hand"])
                i = (keys.cursor[p] + k) % len(order)
                if "discard " + order[i] not in o["legal"]:
                    worst = max(worst, chatter(p, "right", 0.03))   # the card just taken (R7)
                    i = (i + 1) % len(order)
                act = "discard " + order[i]
                keys.cursor[p] = i
                worst = max(worst, chatter(p, "ok", 0.06))
            t.sync()
            m2 = record()
            if worst > 0.75 * deb:
                skipped += 1    # the host could not chatter inside the debounce time
                fresh()
                continue
            done += 1
            got = actions_since(m, m2)
            if got != ["%d %s" % (p, act)]:
                r.bad("lost" if not got else "wrong",
                      "the presses meant %d %s, the board played %s" % (p, act, got))
                fresh()
            else:
                r.ok()
                if m2.hand_no == m.hand_no and m2.winner is None:
                    keys.played(p, o["hand"], m2.observation(p)["hand"])
                else:
                    keys.reset()
            log("buttons", r)
        r.info.append("debounce %d ms; %d turns not counted (the host could not chatter "
                      "inside it)%s" % (deb * 1000, skipped, "" if t.cheap_files else
                                        "; emulated Pico: chatter and holds in the chip's time"))
    finally:
        t.stop()
    return r


run = row_buttons


KIND = Kind(
    name='buttons', order=4,
    goal='both players, bounce on every press, presses during refreshes, long holds: no lost or doubled press',
    sizes={"quick": 4, "long": 80, "chip_quick": 2, "chip_long": 20},
    run=run)
