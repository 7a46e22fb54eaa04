"""The test tiers (pyproject.toml [tool.pytest.ini_options] markers): each
folder of tests/ is one tier, so a new test lands in its tier by where it
is written. `make check` runs `-m "unit and not slow"` (under a minute on a
quiet machine); `make test` runs them all. A test may add `slow` to its
folder's tier: a tournament, anything long, leaves make check that way."""
import pathlib

import pytest

HERE = pathlib.Path(__file__).parent

TIERS = {
    "engine": "unit",      # the rules engine, CPython and the micropython binary
    "bots": "unit",        # the computer players and the yardsticks
    "drivers": "unit",     # the firmware's drivers on recording fakes
    "app": "unit",         # the firmware's app on the web page's board, in one micropython process
    "firmware": "board",   # the real firmware on the virtual board
    "vboard": "board",     # the virtual board itself
    "host": "board",       # okgin's commands, against the virtual board
    "hil": "board",        # the hardware-in-loop suite (run by okgin hil)
    "chip": "chip",        # the emulated Pico
    "sim": "ui",           # the simulator's window and terminal
    "web": "ui",           # the web page in chromium
    "hardware": "slow",    # the printable case (OpenSCAD)
    "install": "slow",     # the wheel, built and installed in a fresh venv outside the checkout
}


def tier_of(path):
    """The tier of a test file under tests/ (files at the top: unit)."""
    rel = pathlib.Path(path).resolve().relative_to(HERE.resolve()).parts
    if len(rel) == 1:
        return "unit"      # lint, types, import rules, the Makefile
    tier = TIERS.get(rel[0])
    if tier is None:
        raise pytest.UsageError("tests/%s/ has no tier: add it to TIERS in tests/conftest.py" % rel[0])
    return tier


# Files that start first: make test hands whole files to its workers
# (pytest-xdist, --dist loadfile) in this order, and a long file handed out
# last keeps one worker busy while the others have nothing left (the chip's
# fault campaign alone: 13 minutes of a loaded run's tail). Long first, then
# the rest in the order they were collected.
FIRST = ("slow", "chip")


def pytest_collection_modifyitems(config, items):
    for item in items:
        item.add_marker(tier_of(item.path))
    first = {item.path for item in items
             if any(item.get_closest_marker(m) for m in FIRST)}
    # a stable sort by file: each file's tests stay together and in order
    items.sort(key=lambda item: item.path not in first)
