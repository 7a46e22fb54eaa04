"""The serial ``newgame`` (firmware/newgame.py, called by testcmds.py):
checked and answered without loading the menu's pages and drawing, which
cost ~50 ms of an RP2040's time per command (docs/memory.md, "A newgame
without the menu"), and with the same answers as when the menu made them.
Run by the firmware's own code under MicroPython."""
import json
import os
import subprocess

from tests.support import micropython
from tests.support.sim import ROOT

SCRIPT = r"""
import sys, json
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import i18n
i18n.DIR = sys.argv[2] + "/lang/"
i18n.load("en")


class Table:
    # what newgame reads of the app: its levels and its settings
    levels = ("easy", "normal", "hard")
    settings = {"rules": {"target": 150, "hollywood": "yes"}}


import newgame
out = {}
for name, opts in (("junk", {"seed": "5", "zz9": "1"}), ("value", {"seed": "5", "target": "x"}),
                   ("vs", {"seed": "5", "vs": "nobody"}), ("seed", {"seed": "-1"}),
                   ("preset", {"seed": "7", "preset": "oklahoma", "vs": "hard", "dealer": "1"}),
                   ("kept", {"seed": "7"})):
    got = newgame.newgame_from(Table(), dict(opts))
    if not isinstance(got, str):
        vs, seed, dealer, rules, fresh = got
        got = [vs, seed, dealer, rules.target, rules.hollywood, rules.box_bonus, fresh]
    out[name] = got
out["menu_loaded"] = "menu" in sys.modules
print(json.dumps(out))
"""


def test_a_serial_newgame_is_checked_without_the_menu():
    r = subprocess.run([micropython(), "-c", SCRIPT, ROOT, os.path.join(ROOT, "firmware")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["menu_loaded"] is False
    # a made-up option and a bad value are named, as the engine names them
    assert "zz9" in out["junk"] and "unknown" in out["junk"]
    assert "target" in out["value"]
    assert out["vs"] == "vs must be one of human|easy|normal|hard"
    assert out["seed"] == "seed must be a whole number 0..1073741823"
    # a preset replaces the menu's switches; without one the switches kept
    # in settings.json hold (only values the menu offers: 150 is one,
    # the text "yes" is not a yes/no value, so hollywood stays off)
    assert out["preset"] == ["hard", 7, 1, 150, False, 25, False]
    assert out["kept"] == ["human", 7, None, 150, False, 0, False]
