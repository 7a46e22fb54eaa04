"""The 30-bit seed search of issue 40 (a player who knows the engine and
sees their first screen), over a reduced space so a test runs it fast:
tests/engine/test_deal_entropy.py and tests/firmware/test_deal_entropy.py."""
from okgin.engine import Rules
from okgin.engine.hand import Hand
from okgin.engine.prng import Prng

WINDOW = 1 << 13


def first_screen(m, p=0):
    """What player p sees before the first move: their 10 cards, the
    upcard and who deals."""
    return (frozenset(m.hand.observation(p)["hand"]), m.hand.discard_top, m.dealer)


def search(screen, lo, hi):
    """Today's seeded deal, tried for every seed in lo..hi-1 exactly as
    Match(seed=s) deals its first hand (first dealer, then the hand's
    seed): the seeds whose deal shows ``screen`` to player 0."""
    hand, up, dealer = screen
    found = []
    for s in range(lo, hi):
        r = Prng(s)
        if r.below(2) != dealer:
            continue
        h = Hand.deal(Rules(), dealer, r.next())
        if h.discard_top == up and frozenset(h.observation(0)["hand"]) == hand:
            found.append(s)
    return found
