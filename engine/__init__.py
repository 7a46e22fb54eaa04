"""Oklahoma Gin rules engine: pure Python, same results on CPython and
MicroPython. Rules: docs/rules.md (R1-R14). Contract: docs/architecture.md.

    from engine import Rules, Hand, Match, IllegalAction, deadwood, best_melds

The public API is what ``__all__`` names (docs/engine.md "Public API": the
types of every call, the observation's keys); the submodules are the
engine's own, except those docs/engine.md lists for the firmware and tools.
"""
# Import order matters on the device: while a module's top level runs, the
# loader's per-function records of that whole module (about 200 bytes each on
# the 64-bit port) stay alive. hand.py has the most functions, so its
# dependencies are loaded first, each on its own, instead of from inside
# hand.py where the transients would add up (docs/engine.md, "Memory").
from .cards import card_str, parse_card, IllegalAction, action_str
from .melds import deadwood, best_melds
from . import prng  # noqa: F401
# hand.py imports the showdown only when a hand ends, so a device can drop
# it during play (firmware/app.py); loaded here all the same, while the
# heap is unfragmented, because the engine alone must play a hand in 32K
from . import showdown  # noqa: F401
from .hand import Rules, Hand, parse_action

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Optional
    from .bots import Bot
    from .match import Match
    # The public API. Declared for type checkers and readers only: on the
    # device the name __all__ alone is a new interned string, and that one
    # string can make MicroPython allocate a new qstr pool; measured: the
    # smallest heap for a hand of the engine alone went 31.0 -> 34.3 KB.
    __all__ = ["Rules", "Hand", "Match", "IllegalAction", "deadwood", "best_melds",
               "card_str", "parse_card", "action_str", "parse_action", "bot"]



def __getattr__(name: str) -> object:
    # Match is imported on first use (a device playing one hand never pays
    # for it). Module __getattr__ needs MICROPY_MODULE_GETATTR; on a build
    # without it the probe below fails and Match is imported right away.
    if name == "Match":
        from .match import Match
        globals()["Match"] = Match
        return Match
    if name == "_lazy_probe":
        return True
    raise AttributeError(name)


try:
    import sys as _sys
    if not getattr(_sys.modules[__name__], "_lazy_probe", False):
        raise AttributeError
except (AttributeError, KeyError):
    from .match import Match  # noqa: F401


def bot(level: str, seed: "Optional[int]" = None) -> "Bot":
    """A computer player (engine/bots.py, docs/bots.md), imported only when asked
    for so the device does not pay for it in a two-human game. The module
    has another name than this function so importing it never shadows it."""
    if level == "expert":
        # search for the laptop and the browser (engine/expert.py); not in
        # bots.LEVELS, the levels a board offers
        from .expert import expert
        return expert(seed)  # type: ignore[return-value]
    from .bots import bot as make
    return make(level, seed)
