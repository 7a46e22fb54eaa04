"""The classic simple gin player, a yardstick written from its published
descriptions (not from engine/bots.py):

- Todd Neller's ``SimpleGinRummyPlayer``, the baseline of the EAAI 2021 Gin
  Rummy challenge: "draw the face-up card only if it becomes part of a meld,
  otherwise draw face down; discard a highest ranking unmelded card; knock as
  early as possible; ignore the opponent".
- OpenSpiel's ``simple_gin_rummy_bot``: take the upcard when it joins a meld
  *and* that meld lowers the deadwood (the meld it makes must not break a
  better one); always knock when legal; throw the deadwood card worth most.
- The wording of the task it was asked in (docs/bots.md): keep the cards that form or nearly form
  melds, discard the highest-value card not in or near a meld.

So: take the discard only when, after the best discard, it lies in a meld of
the best arrangement and the deadwood drops; knock (or go gin) as soon as the
knock limit allows, with the card that leaves the least deadwood; otherwise
discard the highest-value card that is neither in a meld nor near one (a
pair, or two cards of a suit within two ranks), falling back to the highest
unmelded card; ties are broken at random (seeded). It ignores everything the
opponent does.

Only the observation and the engine's public rules math (``engine.deadwood``,
``engine.best_melds``) are used.
"""
import random

from okgin.engine import best_melds, deadwood, parse_card
from .legal import forced

# R2 values by rank index (ace 1, faces 10)
_VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _value(c):
    return _VALUE[c % 13]


def _near(c, others):
    """A card nearly forms a meld with one of ``others``: same rank, or the
    same suit within two ranks (8h with 9h or Th)."""
    for o in others:
        if o == c:
            continue
        if o % 13 == c % 13:
            return True
        if o // 13 == c // 13 and abs(o % 13 - c % 13) <= 2:
            return True
    return False


def _melded(cards):
    """The cards of ``cards`` in the melds of a least-deadwood arrangement."""
    out: set = set()
    for meld in best_melds(cards):
        out.update(meld)
    return out


class SimplePlayer:
    """``choose(observation) -> action`` like ``engine.bot``."""

    name = "simple"

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def __repr__(self):
        return "SimplePlayer()"

    def choose(self, obs):
        legal = obs["legal"]
        if len(forced(legal)) == 1:
            return legal[0]
        hand = [parse_card(c) for c in obs["hand"]]
        if obs["phase"] in ("upcard", "draw"):
            top = obs.get("discard_top")
            if top and "take" in legal and self._completes_meld(hand, parse_card(top)):
                return "take"
            return "draw" if "draw" in legal else "pass"
        knocks = [a for a in legal if a.startswith("knock ")]
        if knocks:
            return self._least_deadwood(hand, knocks)
        return self._discard(hand, [a for a in legal if a.startswith("discard ")])

    def _completes_meld(self, hand, top):
        now = deadwood(hand)
        after = hand + [top]
        low, kept = 1000, after
        for d in hand:                      # R7: the taken card stays this turn
            rest = [c for c in after if c != d]
            dw = deadwood(rest)
            if dw < low:
                low, kept = dw, rest
        return low < now and top in _melded(kept)

    def _least_deadwood(self, hand, actions):
        scored = []
        for a in actions:
            c = parse_card(a.split()[1])
            scored.append((deadwood([x for x in hand if x != c]), -_value(c), self.rng.random(), a))
        return min(scored)[3]

    def _discard(self, hand, actions):
        allowed = {parse_card(a.split()[1]): a for a in actions}
        melded = _melded(hand)
        loose = [c for c in hand if c not in melded]
        far = [c for c in loose if c in allowed and not _near(c, loose)]
        pool = far or [c for c in loose if c in allowed] or list(allowed)
        top = max(_value(c) for c in pool)
        return allowed[self.rng.choice(sorted(c for c in pool if _value(c) == top))]
