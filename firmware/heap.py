"""The heap's housekeeping (docs/memory.md): the modules loaded on demand
are forgotten once their moment has passed, so their code leaves the heap,
and before the heaviest moments of a game the drawing code goes too. The
app and the parts it loads for such moments (the computer's turn, the
coach's steps) share it; it imports nothing of theirs."""
import gc
import sys

import engine


def unload(*names):
    """Forget engine modules loaded on demand (the computer player, the
    showdown, the record parser) so their code leaves the heap; the engine
    imports them again when it needs them (docs/memory.md)."""
    for n in names:
        sys.modules.pop("engine." + n, None)
        try:
            delattr(engine, n)
        except (AttributeError, KeyError):   # KeyError: MicroPython
            pass


def drop_computer():
    """The computer player's code leaves the heap (7.5 KB on the chip,
    10.7 KB on the unix port): when the game is won, once no coach's
    review needs it, and in a game without the computer."""
    unload("bots", "bots_core")
    sys.modules.pop("botturn", None)


def make_room():
    """Before the heaviest moments of a game, a knock (the showdown's
    code and search) and the coach (its code and search): the
    drawing code (screens, font, the hand's arrangement: ~7 KB on the heap)
    goes, the next redraw imports it again (~3 KB of .mpy), and the heap is
    cleared of the last move's garbage (docs/memory.md)."""
    for n in ("screens", "font"):
        sys.modules.pop(n, None)
    unload("arrange")
    gc.collect()
