"""Row "power" of the fault campaign: power cuts at random instants (mid-save, mid-refresh, during a new game, during the computer's move): zero lost, zero wrong"""
import time

from ..registry import Kind
from ..tally import Row
from ..tables import CampaignChipTable
from ..judge import parse, agrees, judge_power
from ..play import Player, menu_new_game_fresh


def row_power(table, n, rng, work, log):
    """Cuts while the board saves, refreshes, starts a new game or thinks
    for the computer. Before each cut the board is idle on a saved game
    ``before``; one press (or the menu's new game) starts something; the
    power goes at a random instant within it. After the boot the saved game
    must be ``before`` or ``before`` plus what was started (the human's
    action and the computer's answers, or the whole new game), and the
    board's status must match it."""
    r = Row("power")
    # slow saves and a slowish panel widen the windows a cut can fall in
    t = table(work, "power", speed=0.15, settings={"slow_save_ms": 4})
    t.on()
    pl = Player(t, rng)
    kinds = ("save", "refresh", "newgame", "computer")
    outcomes: "dict[tuple[str, bool], int]" = {}
    newgames = 0
    midsave = [0]
    misses: "list[str]" = []
    try:
        menu_new_game_fresh(t, 0)
        for i in range(n):
            kind = kinds[i % len(kinds)]
            t.sync()
            before = t.saved()
            m = parse(before)
            if m is None or m.winner is not None:
                menu_new_game_fresh(t, 0)
                continue
            vs = m.players[1] != "human"
            if kind == "computer" and not vs:
                kind = "newgame"       # the next game is against the computer
            if kind == "newgame":
                # mostly against the computer, so the next "computer" cut
                # finds one to cut
                want_vs = "human" if newgames % 3 == 2 else "hard"
                newgames += 1
                t.press(0, "ok", long=True)
                for _ in range(1 if want_vs == "human" else 4):
                    t.press(0, "right")
                t.hold(0, "ok")
                time.sleep(0.06)
                t.release(0, "ok")
                time.sleep(rng.uniform(0.0, 0.35))
                expect = ("newgame", want_vs, None)
            else:
                p = m.hand.to_move
                if vs and p == 1:
                    continue           # the computer is still to move: sync again
                act = pl.choose(m, p)
                p, buttons = pl.buttons(m, act)
                for bt in buttons[:-1]:
                    t.press(p, bt)
                t.hold(p, buttons[-1])
                time.sleep(0.06)
                t.release(p, buttons[-1])
                window = {"save": 0.12, "refresh": 0.9, "computer": 1.5}[kind]
                time.sleep(rng.uniform(0.0, window))
                expect = ("action", act, p)
            t.cut()
            if t.saved("game.tmp") is not None:
                midsave[0] += 1      # the power went while a save was being written
            t.on()
            t.sync()
            after = t.saved()
            outcomes[kind, after == before] = outcomes.get((kind, after == before), 0) + 1
            verdict = judge_power(before, after, expect)
            if verdict[0] == "ok" and verdict[1]:
                misses.append(verdict[1])
                verdict = ("ok", "")
            if not verdict[1]:
                verdict = (verdict[0], agrees(t, parse(after)))
            if verdict[0] == "ok" and not verdict[1]:
                r.ok()
            else:
                r.bad(verdict[0] if verdict[0] != "ok" else "wrong",
                      "%s cut %d: %s" % (kind, i, verdict[1]))
            # the cursor is not saved: both start at the left after a boot
            pl.keys.reset()
            log("power", r)
        r.info.append("speed 0.15, slow saves 4 ms per 256-byte chunk; cuts that kept the game "
                      "as it was / with what was started: %s" % ", ".join(
                          "%s %d/%d" % (k, outcomes.get((k, True), 0), outcomes.get((k, False), 0))
                          for k in kinds))
        r.info.append("%d cuts fell while a save was being written (game.tmp on the flash)"
                      % midsave[0])
        if misses:
            r.info.append("new games against another opponent than the menu presses meant "
                          "(a press the firmware did not take: not a power matter): %d, e.g. %s"
                          % (len(misses), misses[0]))
    finally:
        t.stop()
    return r


def row_power_chip(table, n, rng, work, log):
    """The power row on the emulated Pico, in test mode's own game (the
    same store code, test.okg; read back with ``record``): half the cuts
    fall between two of the chip's flash erase/program operations during
    the save a press starts (``cut_power_after_flash_writes``), half at a
    random instant after the press. littlefs must keep the last completed
    action: after the boot the record is the one before the press, or it
    plus the action (and the computer's answers)."""
    from okgin.engine import Match
    r = Row("power")
    t = CampaignChipTable(work, "power")
    t.on()
    ops: "dict[tuple[str, bool], int]" = {}
    try:
        t.req("testmode on", timeout=300)

        def record():
            return ("\n".join(t.b.request_block("record", timeout=300)) + "\n").encode()

        def fresh():
            vs = rng.choice(("human", "hard"))
            t.req("newgame seed=%d vs=%s" % (rng.randrange(1 << 30), vs), timeout=300)
            t.sync()
        fresh()
        i = 0
        while r.injected < n and i < 3 * n:
            i += 1
            t.sync()
            before = record()
            m = Match.from_record(before.decode())
            if m.winner is not None or m.hand_no > 2:
                fresh()
                continue
            p = m.hand.to_move
            assert p is not None       # (the hand is not over: the engine dealt the next)
            if m.players[1] != "human" and p == 1:
                continue
            legal = m.observation(p)["legal"]
            act = rng.choice(legal)
            kind = "between flash writes" if r.injected % 2 == 0 else "at a random instant"
            if kind == "between flash writes":
                k = rng.randint(1, 6)
                t.chip.cut_power_after_flash_writes(k)
            # the action through the protocol's press (test mode), the last
            # button without waiting for its answer
            # every iteration starts after a boot: both cursors at the left
            from ...lib.presses import Presses
            buttons = Presses().for_action(p, act, m.observation(p)["hand"])
            for bt in buttons[:-1]:
                t.req("press %d %s" % (p, bt), timeout=300)
            t.b.send_raw(b"press %d %s\n" % (p, buttons[-1].encode()))
            if kind == "at a random instant":
                time.sleep(rng.uniform(0.0, 3.0))
                t.cut()
            else:
                # the save (and the computer's answer) may take fewer
                # operations than armed: once the chip has written nothing
                # for 5 s of its own time, cut it there
                clock = t.chip.patience_clock()
                deadline = clock() + 120
                writes, quiet = sum(t.chip.flash_ops.values()), t.chip.clock()
                while t.chip.alive and clock() < deadline:
                    now = sum(t.chip.flash_ops.values())
                    if now != writes:
                        writes, quiet = now, t.chip.clock()
                    elif t.chip.clock() - quiet > 5.0:
                        break
                    time.sleep(0.05)
                if t.chip.alive:
                    t.cut()      # fewer flash writes than armed: cut now
                    kind = "after the writes"
                t.b.close()
            t.on()         # (a boot disarms a cut that did not happen)
            t.req("testmode on", timeout=300)
            t.sync()
            after = record()
            ops[kind, after == before] = ops.get((kind, after == before), 0) + 1
            verdict = judge_power(before, after, ("action", act, p))
            if verdict[0] == "ok" and not verdict[1]:
                why = agrees(t, parse(after))
                verdict = ("ok", "") if not why else ("wrong", why)
            if verdict[0] == "ok":
                r.ok()
            else:
                r.bad(verdict[0], "%s cut %d: %s" % (kind, i, verdict[1]))
            # a boot starts every cursor at the left: new presses from there
            log("power", r)
        r.info.append("emulated Pico; cuts that kept the record as it was / with the action: %s"
                      % ", ".join("%s %d/%d" % (k, ops.get((k, True), 0), ops.get((k, False), 0))
                                  for k in ("between flash writes", "at a random instant",
                                            "after the writes")))
    finally:
        t.stop()
    return r


def run(table, n, rng, work, log):
    if table.cheap_files:
        return row_power(table, n, rng, work, log)
    return row_power_chip(table, n, rng, work, log)


KIND = Kind(
    name='power', order=1,
    goal="power cuts at random instants (mid-save, mid-refresh, during a new game, during the computer's move): zero lost, zero wrong",
    sizes={"quick": 6, "long": 520, "chip_quick": 2, "chip_long": 40},
    run=run)
