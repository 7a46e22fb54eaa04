"""``peek``: the hard level told the opponent's cards for its danger, a
ceiling for card reading (docs/bots.md), not a fair player.

Hard weighs a discard by the chance that the opponent completes a meld with
it (``Bot._danger``), estimated from what the table showed (``View.holds``).
This player is hard with that estimate replaced by the truth: ``okgin
tourney`` hands it the opponent's cards before each of its decisions
(``peek``), and a pair of cards that would meld with the discard counts as
certain when the opponent holds both, zero otherwise. Everything else
(draws, promise, knocking) is hard's own, so ``okgin tourney peek simple
--baseline``-style pairs with hard on the same deals say how many points per
hand better card reading could win at most this way.
"""
from engine.bots import Bot, View, _meld_pairs
from engine.bots_core import card_int


class PeekHard(Bot):
    def __init__(self, seed=None):
        super().__init__("hard", seed)
        self.opponent = None     # 52 bytes: 1 where the opponent holds the card

    def __repr__(self):
        return "peek()"

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
        pairs = [0] * 12
        k = _meld_pairs(c, pairs)
        d = 0
        for i in range(0, k, 2):
            if held[pairs[i]] and held[pairs[i + 1]]:
                d += 255 * 255       # certain, in View.holds' 1/256 squared
        return d
