"""Helpers for the engine tests: deals written as text, scripted play.
(Not named conftest: every test directory has one, and `from conftest import`
could find another directory's in a whole-suite run.)"""
import os
from itertools import combinations

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from okgin.engine import Rules, Hand


def cards(text):
    return text.split()


def deal(p0, p1, up, stock="", dealer=1, **options):
    """Hand from text: dealer 1 by default, so player 0 speaks first."""
    return Hand.from_cards(Rules(**options), dealer=dealer,
                           hands=(cards(p0), cards(p1)), upcard=up,
                           stock=cards(stock))


def knock_after_draw(p0, p1, up, drawn, knock, **options):
    """Both pass the upcard, player 0 draws `drawn` and knocks with `knock`."""
    h = deal(p0, p1, up, stock=drawn, **options)
    h.play("pass")
    h.play("pass")
    h.play("draw")
    h.play("knock " + knock)
    return h


def snapshot(h):
    """Everything observable about a hand, for 'state unchanged' checks."""
    return (h.to_record(), h.hands, h.stock, h.discard_pile, h.to_move, h.phase,
            h.legal_actions(), h.observation(0), h.observation(1))


RANKS = "A23456789TJQK"


def brute_deadwood(cs):
    """Independent reference: every subset of disjoint melds."""
    vals = {c: min(RANKS.index(c[0]) + 1, 10) for c in cs}
    melds = []
    for n in (3, 4):
        for combo in combinations(cs, n):
            if len({c[0] for c in combo}) == 1:
                melds.append(frozenset(combo))
    for s in "cdhs":
        ranks = sorted(RANKS.index(c[0]) for c in cs if c[1] == s)
        for i in range(len(ranks)):
            for j in range(i + 2, len(ranks)):
                if ranks[j] - ranks[i] == j - i:
                    melds.append(frozenset(RANKS[k] + s for k in ranks[i:j + 1]))
    best = [sum(vals.values())]

    def go(i, used, dw):
        if dw < best[0]:
            best[0] = dw
        for k in range(i, len(melds)):
            m = melds[k]
            if not (m & used):
                go(k + 1, used | m, dw - sum(vals[c] for c in m))
    go(0, frozenset(), best[0])
    return best[0]
