"""``neller``: Todd Neller's ``SimpleGinRummyPlayer``, the baseline of the
EAAI-21 Gin Rummy challenge, ported literally from its published code and
description (the challenge's Java player; its rules, not its text):

- **draw**: take the face-up card when it lies in *any* meld the hand can
  make with it (a set or run of three or more among the hand and the card),
  whether or not that meld lowers the deadwood; otherwise the stock (or
  pass, on the first upcard, R6);
- **discard**: among the eleven cards, the ones whose discard leaves the
  least deadwood (R3), one of them uniformly at random; never the face-up
  card just taken (R7), and never a card that would repeat a (card drawn,
  card discarded) pair this player already made in this hand (the Java
  player's guard against two players handing the same cards back and
  forth);
- **knock** as soon as the cards kept are within the limit: the discard is
  chosen first, as above, and it knocks with it when the rules allow (R8;
  Oklahoma's limit stands in for the Java game's fixed 10);
- it ignores the opponent, the discard pile and the score.

It is weaker than our ``simple`` yardstick, which follows OpenSpiel's
stricter take (the meld must lower the deadwood) and keeps pairs and run
draws; the literature's figures against "the simple player" are against
this one (docs/bots.md).

Like the Java player it remembers, within a hand, the card it drew and the
(drawn, discarded) pairs it made: a stock draw's card is the one its hand
gained since it chose to draw, which ``okgin tourney`` always asks it (it
asks every player at every turn). It decides from the observation alone.
"""
import random

from okgin.engine import deadwood, parse_card
from .legal import forced


def in_a_meld(hand, card):
    """``card`` (an int) lies in some meld (R3) of ``hand`` plus it: two
    more of its rank, or a run of three through it in its suit."""
    rank, suit = card % 13, card // 13
    if sum(1 for c in hand if c % 13 == rank and c != card) >= 2:
        return True
    have = {c % 13 for c in hand if c // 13 == suit} | {rank}
    for lo in (rank - 2, rank - 1, rank):
        if lo >= 0 and lo + 2 <= 12 and all(r in have for r in (lo, lo + 1, lo + 2)):
            return True
    return False


class NellerPlayer:
    """``choose(observation) -> action`` like ``engine.bot``."""

    name = "neller"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self._hand_key = None     # which hand the memory below is about
        self._seen = 0            # length of that hand's history at the last decision
        self._before = None       # our cards when we chose to draw
        self._pairs = set()       # (drawn, discarded) pairs made in this hand

    def __repr__(self):
        return "NellerPlayer()"

    def _follow(self, obs):
        # A new hand (a match deals one after another to the same player)
        # forgets the last one's pairs, as the Java player's startGame does.
        key = (obs.get("hand_no"), obs.get("dealer"), obs.get("upcard"))
        history = obs.get("history", ())
        if key != self._hand_key or len(history) < self._seen:
            self._hand_key = key
            self._before = None
            self._pairs = set()
        self._seen = len(history)

    def choose(self, obs):
        legal = forced(obs["legal"])
        self._follow(obs)
        hand = [parse_card(c) for c in obs["hand"]]
        phase = obs["phase"]
        if phase in ("upcard", "draw"):
            self._before = set(hand)
            top = obs.get("discard_top")
            if top and "take" in legal and in_a_meld(hand, parse_card(top)):
                return "take"
            return "draw" if "draw" in legal else ("pass" if "pass" in legal else legal[0])
        if len(legal) == 1:
            return legal[0]
        taken = self._taken(obs)
        drawn = taken
        if drawn is None and self._before is not None:
            gained = set(hand) - self._before
            if len(gained) == 1:
                drawn = gained.pop()
        card = self._discard(hand, drawn, taken, legal)
        self._pairs.add((drawn, card))
        self._before = None
        text = obs["hand"][hand.index(card)]
        if "knock " + text in legal:
            return "knock " + text
        return "discard " + text

    @staticmethod
    def _taken(obs):
        # the card this player took from the pile this turn (R7), if any
        history = obs.get("history", ())
        if history:
            words = history[-1].split()
            if len(words) == 3 and words[0] == str(obs["player"]) and words[1] == "take":
                return parse_card(words[2])
        return None

    def _discard(self, hand, drawn, taken, legal):
        allowed = {parse_card(a.split()[1]) for a in legal if " " in a}
        low, cands = None, []
        for c in sorted(hand):
            if c == taken or c not in allowed or (drawn, c) in self._pairs:
                continue
            dw = deadwood([x for x in hand if x != c])
            if low is None or dw < low:
                low, cands = dw, [c]
            elif dw == low:
                cands.append(c)
        if not cands:
            # every card barred by a pair it made before: the Java player
            # would fail here; the least deadwood among the legal ones
            cands = sorted(c for c in allowed if c != taken)
            cands.sort(key=lambda c: deadwood([x for x in hand if x != c]))
            return cands[0]
        return cands[self.rng.randrange(len(cands))]
