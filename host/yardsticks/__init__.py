"""Players that measure the computer levels (docs/bots.md), laptop side only.

They are not shipped to the device: ``okgin tourney`` plays them against the
levels of ``engine.bot``. Each decides from the observation alone, like the
engine's levels, through the engine's public API.

- ``neller``: Neller's ``SimpleGinRummyPlayer``, the EAAI-21 challenge's
  baseline, ported literally, ``host/yardsticks/neller.py``.
- ``simple``: the classic simple gin player from the literature (Neller's
  EAAI baseline, OpenSpiel's simple bot) with near-melds kept,
  ``host/yardsticks/simple.py``.
- ``pimc``: perfect-information Monte Carlo sampling with rollouts,
  ``host/yardsticks/pimc.py`` (slow: tens to hundreds of ms per decision).
- ``hard0``: the hard level before its rewrite, frozen,
  ``host/yardsticks/hard0.py``.
- ``peek``: hard told the opponent's cards for its danger, a ceiling for
  card reading (not a fair player), ``host/yardsticks/peek.py``; ``peekN``
  is told each unseen card with probability N% (``peek50``).
- ``openspiel``: OpenSpiel's own simple gin rummy bot (C++, from the
  ``open_spiel`` package), kept in step with the table by ``sync(hand)``,
  ``host/yardsticks/openspiel.py``.
- ``LEVEL@REV``: an engine level as git revision REV had it,
  ``host/yardsticks/revision.py`` (``okgin tourney`` resolves the name).
"""
YARDSTICKS = ("neller", "simple", "pimc", "hard0", "peek", "openspiel")


def player(name, seed=None, rules=None):
    """A yardstick player by name; ``rules`` are the game's Rules (the
    sampling player replays its deals under them)."""
    if name == "neller":
        from .neller import NellerPlayer
        return NellerPlayer(seed)
    if name == "simple":
        from .simple import SimplePlayer
        return SimplePlayer(seed)
    if name == "pimc":
        from .pimc import PimcPlayer
        return PimcPlayer(seed, rules)
    if name == "hard0":
        from .hard0 import bot
        return bot("hard", seed)
    if name == "openspiel":
        from .openspiel import OpenSpielSimple
        return OpenSpielSimple(seed)
    if name.startswith("peek"):
        from .peek import PeekHard, share_of
        share = share_of(name)
        if share is not None:
            return PeekHard(seed, share)
    raise ValueError("unknown yardstick %r (choose one of %s, or peekN for N%% of the cards told)"
                     % (name, ", ".join(YARDSTICKS)))
