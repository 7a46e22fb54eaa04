"""Row "damage" of the fault campaign: damaged game.okg / settings.json (truncation, garbage, bit flips, bad bytes, huge files): never a different game, loss at most the damaged part"""

from okgin.faults.kinds import Kind
from okgin.faults.tally import Row
from okgin.faults.judge import parse, _good_prefix, _judge_damage
from okgin.faults.play import Player, _menu_new_game_fresh


def _damage(rng, data, kind, huge=(100 * 1024, 300 * 1024, 1024 * 1024)):
    """(damaged bytes, description); ``huge``: the sizes of huge files."""
    n = len(data)
    if kind == "truncate":
        k = rng.randrange(0, n)
        return data[:k], "cut at byte %d of %d" % (k, n)
    if kind == "flip":
        out = bytearray(data)
        bits = rng.randint(1, 3)
        where = []
        for _ in range(bits):
            i = rng.randrange(n)
            b = rng.randrange(8)
            out[i] ^= 1 << b
            where.append(i)
        return bytes(out), "%d bit(s) flipped at %s" % (bits, where)
    if kind == "garbage":
        i = rng.randrange(n)
        junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
        return data[:i] + junk + data[i:], "%d random bytes inserted at %d" % (len(junk), i)
    if kind == "badbyte":
        i = rng.randrange(n)
        return data[:i] + bytes([rng.choice((0x80, 0xc3, 0xfe, 0xff))]) + data[i + 1:], \
            "byte %d is not UTF-8" % i
    if kind == "overwrite":
        i = rng.randrange(n)
        k = rng.randint(1, 64)
        return data[:i] + bytes(rng.randrange(32, 127) for _ in range(k)) + data[i + k:], \
            "%d printable bytes overwritten at %d" % (k, i)
    if kind == "huge":
        size = rng.choice(huge)
        fill = rng.choice(("random", "zeros", "lines"))
        if fill == "random":
            junk = rng.randbytes(size)
        elif fill == "zeros":
            junk = bytes(size)
        else:
            junk = b"12 0 discard 7h ;00000000\n" * (size // 26)
        where = rng.choice(("after", "instead"))
        return (data + junk if where == "after" else junk), \
            "%d KB of %s %s the record" % (size // 1024, fill, where)
    if kind == "empty":
        return b"", "empty file"
    raise ValueError(kind)


DAMAGE_KINDS = ("truncate", "flip", "garbage", "badbyte", "overwrite", "huge", "empty")


SETTINGS_DAMAGE = (
    None, b"", b"{not json", b"\xff\xfe\x00", b'{"rules": 5, "game": []}',
    b'{"game": {"vs": "hard", "seed": 1}}', b'{"game": {"vs": "human"}}',
    b'{"rules": {"gin_bonus": "lots", "target": -4}}', b"[" * 5000,
    b'{"slow_save_ms": "x", "hold_computer": 1}',
)


def _engine_bases(rng):
    """Base games made with the engine (the record the firmware would have
    saved: the same Match.record_lines), for a board whose flash is slow to
    read back after every move (the emulated Pico): one against the
    computer (hard) of 24 actions, one of two players of 16."""
    from okgin.engine import Match
    bases = []
    for players, moves in ((("human", "hard"), 24), (("human", "human"), 16)):
        while True:
            m = Match(seed=rng.randrange(1 << 30), dealer=rng.randrange(2), players=players)
            for _ in range(moves):
                p = m.hand.to_move
                assert p is not None     # (within the first hand)
                legal = m.observation(p)["legal"]
                m.play(rng.choice([a for a in legal if not a.startswith("knock")] or legal), p)
                if m.hand_no > 1 or m.winner is not None:
                    break
            if m.hand_no == 1 and m.winner is None and m.hand.to_move == 0:
                break    # a human to move, so the board waits at the game
        bases.append(("".join(ln + "\n" for ln in m.record_lines()).encode(), None))
    return bases


def row_damage(table, n, rng, work, log):
    """Damage game.okg and settings.json while the power is off, boot,
    and compare with the record's lines before the first damaged one."""
    r = Row("damage")
    t = table(work, "damage")
    t.on()
    try:
        if not t.cheap_files:
            bases = _engine_bases(rng)
            r.info.append("emulated Pico: base games made by the engine, put on the flash "
                          "through the REPL; huge files up to %d KB" % (max(t.huge_sizes) // 1024))
        else:
            # the base games: one against the computer, one of two players,
            # both played by the board itself
            bases = []
            for row, moves in ((3, 10), (0, 14)):
                _menu_new_game_fresh(t, row)
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
            verdict, why = _judge_damage(st, look["game.okg"], look["game.bad"], base, data, good)
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
                data, what = _damage(rng, base, kind, t.huge_sizes)
                good = _good_prefix(base, data)
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
