"""The campaign's rows as plugins: a ``Kind`` declares a row (its name,
goal, sizes and run function), one module of faults/kinds/ each, and
``registry()`` finds every module there. Adding a kind is adding a file.

The registry loads the kinds by name (importlib): the campaign stands on
this module, the kinds on the campaign's helpers (judge, play, tally,
tables), and no import runs from the campaign's folder into kinds/."""
import importlib
import os
import pkgutil

KINDS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kinds")


class Kind:
    """A row of the campaign. ``sizes``: cases on each run, "quick" and
    "long" on the virtual board, "chip_quick" and "chip_long" on the
    emulated Pico (0: the row does not apply to that table, and is said so).
    ``run(table, n, rng, work, log)`` makes its boards with ``table`` (a
    table class from okgin.faults.tables) and returns a tally.Row."""

    def __init__(self, name, goal, sizes, run, order=50):
        self.name = name
        self.goal = goal
        self.sizes = sizes
        self.run = run
        self.order = order

    def size(self, chip, quick):
        return self.sizes[("chip_" if chip else "") + ("quick" if quick else "long")]


def registry():
    """{name: Kind}, in the campaign's order."""
    found = []
    package = __name__.rsplit(".", 1)[0] + ".kinds"
    for info in pkgutil.iter_modules([KINDS_DIR]):
        mod = importlib.import_module(package + "." + info.name)
        kind = getattr(mod, "KIND", None)
        if isinstance(kind, Kind):
            found.append(kind)
    found.sort(key=lambda k: (k.order, k.name))
    return {k.name: k for k in found}
