"""Playing the real game with the buttons, as a person at the table: legal
actions predicted with the firmware's own cursor model, new games from the
menu; and the games the rows put on a flash: records the engine plays
(``engine_bases``), records damaged as a flash can damage them (``damage``)."""


class Player:
    """Plays legal actions with the buttons, predicting the cursor with the
    firmware's own card order (host/lib/presses.py)."""

    def __init__(self, t, rng):
        from ..lib.presses import Presses
        self.t = t
        self.rng = rng
        self.keys = Presses(shortest=True)

    def choose(self, m, p):
        legal = m.observation(p)["legal"]
        knocks = [a for a in legal if a.startswith("knock")]
        if knocks and self.rng.random() < 0.7:
            return self.rng.choice(knocks)
        return self.rng.choice(legal)

    def buttons(self, m, act):
        p = m.hand.to_move
        return p, self.keys.for_action(p, act, m.observation(p)["hand"])

    def after(self, m_before, m_after, p):
        if m_after is None or m_after.hand_no != m_before.hand_no or m_after.winner is not None:
            self.keys.reset()
        else:
            self.keys.played(p, m_before.observation(p)["hand"], m_after.observation(p)["hand"])


def menu_new_game(t, row):
    """Hold OK (the menu), go to ``row`` and press OK: a new game starts.
    Rows with a game in progress: 0 Resume, 1 two players, 2..4 vs easy..hard;
    without one, one less. Returns after the last press's release."""
    t.press(0, "ok", long=True)
    for _ in range(row):
        t.press(0, "right")
    t.press(0, "ok")


def menu_new_game_fresh(t, row):
    """A new game from the menu whatever is on the screen."""
    st = t.status()
    if st["screen"] in ("showdown", "over"):
        t.press(0, "ok")
        t.sync()
        st = t.status()
    if st["screen"] == "menu":
        for _ in range(row):
            t.press(0, "right")
        t.press(0, "ok")
    else:
        menu_new_game(t, row + 1)
    t.sync()


def damage(rng, data, kind, huge=(100 * 1024, 300 * 1024, 1024 * 1024)):
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


def engine_bases(rng):
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
