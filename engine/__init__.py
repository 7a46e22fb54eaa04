"""Oklahoma Gin rules engine: pure Python, same results on CPython and
MicroPython. Rules: docs/rules.md (R1-R14). Contract: docs/architecture.md.

    from engine import Rules, Hand, Match, IllegalAction, deadwood, best_melds
"""
from engine.cards import card_str, parse_card
from engine.melds import deadwood, best_melds
from engine.hand import (Rules, Hand, Result, IllegalAction, action_str,
                         parse_action)
from engine.match import Match


def bot(level, seed=None):
    """A computer player (engine/bot.py, issue 5), imported only when asked
    for so the device does not pay for it in a two-human game."""
    import sys
    factory = bot
    __import__("engine.bot")
    mod = sys.modules["engine.bot"]
    # importing the submodule rebinds engine.bot to the module; put this
    # function back so engine.bot(...) keeps working
    globals()["bot"] = factory
    return mod.bot(level, seed)
