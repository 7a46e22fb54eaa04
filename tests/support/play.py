"""Playing the firmware through its buttons, with the CPython engine as the
oracle: the same seed replayed here predicts every card, and the cursor
model (host/lib/presses.py over firmware/layout.py) predicts which card a press
discards."""
import random

from okgin.engine import Match, Rules, deadwood
from okgin.lib.presses import Presses


class Player:
    """Chooses legal actions at random (knocking whenever it may) and plays
    them on the board only with button presses."""

    def __init__(self, board, seed, dealer=0, rng_seed=1, rules=None, pins=False):
        """pins=True: press the virtual board's emulated buttons (vb.press)
        instead of the serial `press` command."""
        self.b = board
        self.pins = pins
        self.m = Match(rules or Rules(), seed=seed, dealer=dealer)
        self.rng = random.Random(rng_seed)
        self.keys = Presses(shortest=True)   # the short way round, as a player would

    def choose(self, obs):
        """Greedy with some noise: knock when allowed, keep the lowest
        deadwood, take the pile when it helps (hands end in knocks)."""
        legal = obs["legal"]
        knocks = [a for a in legal if a.startswith("knock")]
        if knocks:
            return self.rng.choice(knocks)
        hand = obs["hand"]
        if obs["phase"] in ("upcard", "draw"):
            top = obs["discard_top"]
            if top and "take" in legal and self._best(hand + [top]) < deadwood(hand):
                return "take"
            return "draw" if "draw" in legal else "pass"
        discards = [a for a in legal if a.startswith("discard")]
        if self.rng.random() < 0.2:
            return self.rng.choice(discards)
        return min(discards, key=lambda a: deadwood([c for c in hand if c != a.split()[1]]))

    def _best(self, cards):
        return min(deadwood([x for x in cards if x != c]) for c in cards)

    def press(self, p, button):
        if self.pins:
            self.b.vb.press(p, button)
            self.b.ok("sync")
        else:
            self.b.press(p, button)

    def step(self):
        """One action, through the buttons; returns the action string."""
        m = self.m
        p = m.hand._to_move
        obs = m.observation(p)
        act = self.choose(obs)
        hand_before = obs["hand"]
        hand_no = m.hand_no
        for button in self.keys.for_action(p, act, hand_before):
            self.press(p, button)
        m.play(act)
        if m.hand_no == hand_no and m.winner is None:
            self.keys.played(p, hand_before, m.observation(p)["hand"])
        else:
            self.keys.reset()
        return act

    def expected_status(self):
        o = self.m.observation(0)
        return {
            "hand_no": str(o["hand_no"]),
            "dealer": str(o["dealer"]),
            "to_move": "-" if o["to_move"] is None else str(o["to_move"]),
            "phase": o["phase"],
            "stock": str(o["stock_count"]),
            "discard": o["discard_top"] or "-",
            "knock_limit": str(o["knock_limit"]),
            "scores": "%d,%d" % tuple(o["scores"]),
        }
