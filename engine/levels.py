"""The computer levels a table offers, weakest first: the one list.

The device's menu and its statistics' kinds (firmware/app.py, stats.py),
``okgin sim --vs`` and ``okgin stats``, and with the two yardsticks of
engine/bots.py (random, greedy) ``okgin tourney`` and ``okgin bench bots``
all read it, so a new level is a line here, its player in engine/bots.py
and its name in the catalogues (docs/bots.md "Adding a computer level").
A module of its own, read by those who need it: the engine alone (a
two-human game) never loads it, and the firmware drops it once read
(docs/memory.md).
"""

LEVELS = ("easy", "normal", "hard")
