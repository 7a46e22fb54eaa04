"""Row "damage" of the fault campaign: damaged game.okg / settings.json (truncation, garbage, bit flips, bad bytes, huge files): never a different game, loss at most the damaged part"""

from ..registry import Kind
from ..tally import Row
from ..judge import parse, good_prefix, judge_damage
from ..play import Player, damage, engine_bases, menu_new_game_fresh


DAMAGE_KINDS = ("truncate", "flip", "garbage", "badbyte", "overwrite", "huge", "empty")


SETTINGS_DAMAGE = (
    None, b"", b"{not json", b"\xff\xfe\x00", b'{"rules": 5, "game": []}',
    b'{"game": {"vs": "hard", "seed": 1}}', b'{"game": {"vs": "human"}}',
    b'{"rules": {"gin_bonus": "lots", "target": -4}}', b"[" * 5000,
    b'{"slow_save_ms": "x", "hold_computer": 1}',
)


def row_damage(table, n, rng, work, log):
    """Damage game.okg and settings.json while the power is off, boot,
    and compare with the record's lines before the first damaged one."""
    r = Row("damage")
    t = table(work, "damage")
    t.on()
    try:
        if not t.cheap_files:
            bases = engine_bases(rng)
            r.info.append("emulated Pico: base games made by the engine, put on the flash "
                          "through the REPL; huge files up to %d KB" % (max(t.huge_sizes) // 1024))
        else:
            # the base games: one against the computer, one of two players,
            # both played by the board itself
            bases = []
            for row, moves in ((3, 10), (0, 14)):
                menu_new_game_fresh(t, row)
                m = parse(t.saved())
                pl = Player(t, rng)
                for _ in range(moves):
                    m = parse(t.saved())
                    if m.winner is not None or m.hand_no > 1:
                        break
                    if m.players[1] != "human" and m.hand.to_move == 1:
                        t.sync()
                        continue
                    act = pl.choose(m, m.hand.to_move)
                    p, buttons = pl.buttons(m, act)
                    for bt in buttons:
                        t.press(p, bt)
                    t.sync()
                    pl.after(m, parse(t.saved()), p)
                bases.append((t.saved(), t.saved("settings.json")))
        r.info.append("base games: %s" % ", ".join(
            "%d lines (%s)" % (b.count(b"\n"), parse(b).players[1]) for b, _ in bases))
        kinds = {"header": 0, "part": 0, "whole": 0}
        looks = ("game.okg",), ("game.bad",)
        pending = None      # the case the next look judges

        def judge(case, look):
            base, data, good, st, what = case
            verdict, why = judge_damage(st, look["game.okg"], look["game.bad"], base, data, good)
            if verdict == "ok":
                r.ok()
            else:
                r.bad(verdict, "%s: %s" % (what, why))
            log("damage", r)
        for i in range(n):
            base, settings = bases[i % len(bases)]
            put: "dict[str, bytes]" = {}
            gone = ["game.bad", "game.tmp"]
            if i % 5 == 4:
                # settings.json damaged, the game intact
                sd = SETTINGS_DAMAGE[(i // 5) % len(SETTINGS_DAMAGE)]
                put["game.okg"] = base
                if sd is None:
                    gone.append("settings.json")
                else:
                    put["settings.json"] = sd
                data, what, good = base, "settings.json: %r" % (sd[:30] if sd else sd), base
            else:
                kind = DAMAGE_KINDS[(i - i // 5) % len(DAMAGE_KINDS)]
                data, what = damage(rng, base, kind, t.huge_sizes)
                good = good_prefix(base, data)
                put["game.okg"] = data
                if settings is not None:
                    put["settings.json"] = settings
                else:
                    gone.append("settings.json")
            # (the last case's files are read in the same visit, before
            # this case's are written: on the emulated Pico a visit costs
            # a reset and a boot)
            look = t.session(read=looks[0], digest=looks[1], put=put, remove=gone)
            if pending is not None:
                judge(pending, look)
            t.sync()
            kinds[("header" if good.count(b"\n") < 3 else "whole" if good == base
                   else "part")] += 1
            pending = (base, data, good, t.status(), what)
        if pending is not None:
            judge(pending, t.session(read=looks[0], digest=looks[1]))
        r.info.append("damage in the header (the menu, game.bad kept): %d; in the actions "
                      "(their good part resumed): %d; the record whole (settings damaged, "
                      "or only a last newline lost): %d"
                      % (kinds["header"], kinds["part"], kinds["whole"]))
    finally:
        t.stop()
    return r


run = row_damage


KIND = Kind(
    name='damage', order=2,
    goal='damaged game.okg / settings.json (truncation, garbage, bit flips, bad bytes, huge files): never a different game, loss at most the damaged part',
    sizes={"quick": 16, "long": 540, "chip_quick": 2, "chip_long": 100},
    run=run)
