"""The page's board (host/web/mp/webhal.py) and main (webmain.py) on the
MicroPython unix port, stepped directly by a host as the browser steps
them (App.step per turn): no browser needed, so a fault shows here first.
The site's own flash (okgin web's build) is the one under test."""
import json
import subprocess

import pytest

from okgin.engine import Match, Rules

SEED = 305

# Runs in the flash folder under micropython; prints one JSON line per check.
SCRIPT = r"""
import sys, time, json
sys.path.insert(0, ".")
import webmain

EV = []

def turns(ms):
    # the page's loop: one turn, then what it must show
    t = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), t) < ms:
        EV.extend(json.loads(webmain.tick())["events"])
        time.sleep_ms(2)

def tap(p, name):
    # down and up between two turns: the page's quickest click
    webmain.button(p, name, True)
    webmain.button(p, name, False)
    turns(80)

def out(**kw):
    print(json.dumps(kw))

boot = json.loads(webmain.boot(2500, 400, speed=0.1, seed=%(seed)d, out="."))
out(boot=boot, busy=webmain.hw.busy())
turns(300)
out(settled=webmain.settled(), mode=webmain.app.kind())
del EV[:]
tap(0, "ok")                       # New game: 2 players, the given deal
turns(300)
out(mode=webmain.app.kind(), ev=EV, record=open("game.okg").read())
webmain.button(0, "ok", True)      # held: a long press, the menu (during play)
turns(700)
webmain.button(0, "ok", False)
turns(300)
out(mode=webmain.app.kind(), settled=webmain.settled())
with open("panel0", "rb") as f:
    out(panel=len(f.read()))
"""


@pytest.fixture(scope="module")
def flash(tmp_path_factory):
    from okgin.web import _firmware
    d = str(tmp_path_factory.mktemp("webflash"))
    _firmware(d)
    return d


def test_the_page_board_steps_the_firmware_like_the_device(flash):
    """Boot shows the menu on both panels (full refreshes at the panel's
    time x speed, busy meanwhile); a tap between two turns is one press
    (the menu's OK: a new game with the given deal, saved as the engine
    writes it); holding OK is a long press (the menu, as on the device)."""
    from okgin.vboard.vboard import find_micropython
    r = subprocess.run([find_micropython(), "-c", SCRIPT % {"seed": SEED}], cwd=flash,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr or r.stdout
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines[0]["boot"]["events"] == [["refresh", 0, "full", 250], ["refresh", 1, "full", 250]]
    assert lines[0]["boot"]["mode"] == "menu" and lines[0]["busy"] is True
    assert lines[1] == {"settled": True, "mode": "menu"}
    assert lines[2]["mode"] == "game"
    # the new hand: full refreshes (partials from here), the mover's turn light
    first = Match(Rules(), seed=SEED).hand.to_move
    # each panel's update starts as soon as it is drawn (issue 41), the
    # turn light as the step ends: the same three events, the light's place
    # among them is not something a player can tell apart
    ev = lines[2]["ev"]
    assert [e for e in ev if e[0] == "refresh"] == [["refresh", 0, "full", 250], ["refresh", 1, "full", 250]]
    assert [e for e in ev if e[0] == "led"] == [["led", first, 1]] and len(ev) == 3
    assert lines[2]["record"] == Match(Rules(), seed=SEED).to_record()
    assert lines[3] == {"mode": "menu", "settled": True}
    # the page gets the panel's image: the default table's 4.2" panel, its
    # 200x150 frame buffer doubled into 400x300 (MONO_VLSB: 38 bands of 400)
    assert lines[4] == {"panel": 400 * ((300 + 7) // 8)}
