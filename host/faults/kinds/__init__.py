"""The fault kinds: one module each in this folder, each declaring ``KIND``
(its name, goal, sizes and run function). Adding a kind is adding a file:
the registry below finds every module here."""
import importlib
import pkgutil


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
    for info in pkgutil.iter_modules(__path__):
        mod = importlib.import_module(__name__ + "." + info.name)
        kind = getattr(mod, "KIND", None)
        if isinstance(kind, Kind):
            found.append(kind)
    found.sort(key=lambda k: (k.order, k.name))
    return {k.name: k for k in found}
