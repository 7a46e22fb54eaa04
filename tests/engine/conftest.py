"""Helpers for the engine tests: deals written as text, scripted play."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from engine import Rules, Hand  # noqa: E402


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
