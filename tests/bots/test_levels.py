"""One list of the computer levels a table offers (engine/levels.py): the
menu's, the board's statistics, okgin sim --vs, okgin stats and the fault
campaign's statistics read it, so a new level is one line there and appears
everywhere; the players of engine/bots.py (its LEVELS: every table level and
the two yardsticks) are what okgin tourney and okgin bench bots play
(docs/bots.md "Adding a computer level")."""
import ast
import json
import os
import subprocess
import sys

from tests.support.harness import ROOT

FW = os.path.join(ROOT, "firmware")
NEW = "wizard"

# the firmware under MicroPython, the engine's list grown before anything reads it
ON_THE_DEVICE = r"""
import sys
sys.path[:0] = [%(root)r, %(fw)r, %(vm)r]
import engine.levels
engine.levels.LEVELS = engine.levels.LEVELS + (%(new)r,)
import app, stats
print(list(app.App.levels))
print(list(stats.KINDS))
print(sorted(stats.fresh()["by"]))
"""

ON_THE_HOST = r"""
import argparse, json, random
import okgin.engine.levels as levels
levels.LEVELS = levels.LEVELS + (%(new)r,)
from okgin import sim, stats
from okgin.faults.kinds import kept
p = argparse.ArgumentParser()
sim.configure(p)
vs = next(a for a in p._actions if "--vs" in a.option_strings)
print(json.dumps({"sim --vs": vs.choices, "stats": [k[0] for k in stats.KINDS],
                  "faults kept": sorted(json.loads(kept._stats_text(random.Random(1)))["by"])}))
"""


def test_a_new_level_in_the_engines_list_appears_everywhere():
    from okgin.vboard.vboard import find_micropython
    r = subprocess.run([find_micropython(), "-c", ON_THE_DEVICE % {
        "root": ROOT, "fw": FW, "vm": os.path.join(ROOT, "host", "vboard", "mp"), "new": NEW}],
        capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    menu, kinds, fresh = r.stdout.splitlines()[-3:]
    assert NEW in menu and NEW in kinds and NEW in fresh, r.stdout
    r = subprocess.run([sys.executable, "-c", ON_THE_HOST % {"new": NEW}], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    for where, levels in json.loads(r.stdout).items():
        assert NEW in levels, where


def test_every_table_level_has_a_player_and_the_tools_play_them_all():
    from okgin import tourney
    from okgin.benches import bots as bench
    from okgin.engine import bot, bots
    from okgin.engine.levels import LEVELS
    assert set(LEVELS) <= set(bots.LEVELS)
    for level in LEVELS:
        assert bot(level, 1).level == level
    assert tourney.LEVELS[:len(bots.LEVELS)] == bots.LEVELS and bench.LEVELS == bots.LEVELS


def _level_lists(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            words = {e.value for e in node.elts if isinstance(e, ast.Constant)}
            if {"easy", "normal", "hard"} <= words:
                yield node.lineno


# engine/bots.py's LEVELS are its players (checked above); the frozen
# yardstick hard0.py keeps its own, as it was
OWN_LIST = (os.path.join("engine", "bots.py"), os.path.join("host", "yardsticks", "hard0.py"))


def test_the_levels_are_written_once():
    """No second copy of the table's levels in the engine, the firmware or the host."""
    found = []
    for top in ("engine", "firmware", "host"):
        for dirpath, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")]
            for f in files:
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                if not f.endswith(".py") or rel in OWN_LIST:
                    continue
                with open(path, encoding="utf-8") as fh:
                    found += ["%s:%d" % (rel, n) for n in _level_lists(ast.parse(fh.read()))]
    assert [f.split(":")[0] for f in found] == [os.path.join("engine", "levels.py")], found
