"""Playing the real game with the buttons, as a person at the table: legal
actions predicted with the firmware's own cursor model, new games from the
menu."""


class Player:
    """Plays legal actions with the buttons, predicting the cursor with the
    firmware's own card order (host/lib/presses.py)."""

    def __init__(self, t, rng):
        from okgin.lib.presses import Presses
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


def _menu_new_game(t, row):
    """Hold OK (the menu), go to ``row`` and press OK: a new game starts.
    Rows with a game in progress: 0 Resume, 1 two players, 2..4 vs easy..hard;
    without one, one less. Returns after the last press's release."""
    t.press(0, "ok", long=True)
    for _ in range(row):
        t.press(0, "right")
    t.press(0, "ok")


def _menu_new_game_fresh(t, row):
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
        _menu_new_game(t, row + 1)
    t.sync()
