"""``peek``: the hard level told the opponent's cards for its danger, a
ceiling for card reading (docs/bots.md), not a fair player.

Hard weighs a discard by the chance that the opponent completes a meld with
it (``Bot._danger``), estimated from what the table showed (``View.holds``).
This player is hard with that estimate replaced by the truth: ``okgin
tourney`` hands it the opponent's cards before each of its decisions
(``peek``), and a pair of cards that would meld with the discard counts as
certain when the opponent holds both, zero otherwise. Everything else
(draws, promise, knocking) is hard's own, so ``okgin tourney peek simple
--paired hard`` says how many points per hand better card reading could
win at most this way.

``peekN`` (``peek25``, ``peek50``, ...; N a percentage from 0 to 100) is
told less: at each decision, each card it has not seen is told (whether the
opponent holds it) with probability N%, drawn afresh from its seeded
generator, and the others keep hard's estimate. The series ``peek0`` (hard
itself) .. ``peek100`` (``peek``) maps how much knowledge of the opponent's
hand a danger estimate must carry for a given gain over hard: the figures
of docs/bots.md, "How much card reading the goal needs".
"""
import random

from okgin.engine.bots import _OPP, _UNSEEN, Bot, View, _meld_pairs
from okgin.engine.bots_core import card_int


def share_of(name):
    """The percentage of unseen cards ``name`` is told: 100 for ``peek``, N
    for ``peekN``; None for any other name (or a bad N)."""
    if name == "peek":
        return 100
    if name.startswith("peek") and name[4:].isdigit() and name[4:] == str(int(name[4:])):
        n = int(name[4:])
        if 0 <= n <= 100:
            return n
    return None


class PeekHard(Bot):
    def __init__(self, seed=None, share=100):
        super().__init__("hard", seed)
        if not 0 <= share <= 100:
            raise ValueError("peek's share of told cards is a percentage, 0 to 100: %r" % share)
        self.share = share
        self.told = random.Random(seed)
        self.opponent = None     # 52 bytes: 1 where the opponent holds the card
        self._drawn = None       # (View, its chance table with the told cards)

    def __repr__(self):
        return "peek()" if self.share == 100 else "peek%d()" % self.share

    def peek(self, cards):
        """The opponent's cards (texts) as they are before our next decision."""
        held = bytearray(52)
        for c in cards:
            held[card_int(c)] = 1
        self.opponent = held

    def _danger(self, v: View, c: int) -> int:
        held = self.opponent
        if held is None:
            return super()._danger(v, c)
        if self.share == 100:
            hold = bytearray(255 if x else 0 for x in held)
        else:
            hold = self._hold(v, held)
        pairs = [0] * 12
        k = _meld_pairs(c, pairs)
        d = 0
        for i in range(0, k, 2):
            d += hold[pairs[i]] * hold[pairs[i + 1]]   # 255 * 255: certain
        return d

    def _hold(self, v: View, held: bytearray) -> bytearray:
        # one draw of the told cards per decision: View is built once per
        # decision, so the table is kept beside the View it was drawn for
        if self._drawn is not None and self._drawn[0] is v:
            return self._drawn[1]
        hold = bytearray(v.holds())
        rng = self.told
        for x in range(52):
            if v.seen[x] in (_UNSEEN, _OPP) and rng.random() * 100 < self.share:
                hold[x] = 255 if held[x] else 0
        self._drawn = (v, hold)
        return hold
