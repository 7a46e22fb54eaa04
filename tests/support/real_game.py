"""The real game (not test mode's) as a person at the table and a person
holding the virtual board's flash see it: started and played with the
buttons, read back from the flash directory."""
import os

from tests.support.harness import RunningFirmware
from tests.support.play import Player

from okgin.engine import Match


def saved(flash, name="game.okg"):
    with open(os.path.join(flash, name), "rb") as f:
        return f.read()


def put(flash, name, data):
    with open(os.path.join(flash, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def boot(flash):
    b = RunningFirmware(flash)
    b.start()
    b.ok("sync")
    return b


def public(m):
    """What `status` must say about match m (public fields only)."""
    pl = Player(None, 0)
    pl.m = m
    return pl.expected_status()


def same_game(b, m):
    st = b.status()
    exp = public(m)
    return {k: st[k] for k in exp} == exp


def new_real_game(b, flash, row=0):
    """Start a game from the menu with the buttons (row 0: two players,
    1..3: against the computer, easy..hard); returns the saved match."""
    for _ in range(row):
        b.vb.press(0, "right")
    b.vb.press(0, "ok")
    b.ok("sync")
    return Match.from_record(saved(flash).decode())


def play(b, m, n, rng_seed=3):
    """n actions of a two-player game, with the buttons."""
    pl = Player(b, m.seed, rng_seed=rng_seed, pins=True)
    pl.m = m
    for _ in range(n):
        hand_no = pl.m.hand_no
        # A knock ends the hand and the model deals the next one; the
        # table deals it from its own entropy (a game from the menu), which
        # the model learns from the record once the table has saved it:
        # until then any key lets the model's knock go through (without
        # one, a knock within the first n actions failed the test in about
        # one run in six: "hand 2 has no deal").
        m_entropy, pl.m.entropy = pl.m.entropy, (lambda n: bytes(n))
        pl.step()
        pl.m.entropy = m_entropy
        if pl.m.hand_no != hand_no:
            # the showdown stays on the panels until OK; then the table's
            # own deal of the next hand, from its record
            b.vb.press(0, "ok")
            b.ok("sync")
            if pl.m.winner is None:
                pl.m = Match.from_record(saved(b.flash).decode())
                pl.keys.reset()
    return pl.m
