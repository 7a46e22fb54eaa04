"""Flashing a table whose owner's lock is on (docs/reliability.md): `okgin
flash` says so and what to do, and changes nothing; the way back in
(player 1 holds OK while the table powers on) lifts the lock, and the
flash then goes through with the game kept (issue 29, item 5)."""
import json
import os
import subprocess

from tests.support.host import ROOT, okgin_cmd
from okgin.lib import transport
from okgin.table.flashing import flash_board


def _saved(flash, name):
    try:
        with open(os.path.join(flash, name), "rb") as f:
            return f.read()
    except OSError:
        return None


def test_okgin_flash_names_the_owners_lock_and_the_way_back_in(vboard, source_tree):
    flash = vboard.flash_dir
    flash_board(vboard.port, src_root=str(source_tree), quiet=True, power_cycle=vboard.power_cycle)
    with open(os.path.join(flash, "settings.json"), "w") as f:
        json.dump({"owner_lock": True}, f)
    vboard.power_cycle()
    with transport.Board(vboard.port, timeout=15) as b:
        b.wait_ready(30, probe_after=0.5)
        b.request("sync")
        vboard.press(0, "ok")                 # the menu's first item: a new game
        b.request("sync")
        assert b.status()["screen"] == "game"
    game = _saved(flash, "game.okg")
    with open(os.path.join(source_tree, "firmware", "store.py"), "a") as f:
        f.write("\n_LOCK_TEST_EDIT = 1\n")
    r = subprocess.run(okgin_cmd("flash", "--port", vboard.port, "--source", str(source_tree)),
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert "owner's lock on" in r.stderr and "hold player 1's OK while plugging it in" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not os.path.exists(os.path.join(flash, ".staging"))       # nothing was copied
    assert _saved(flash, "game.okg") == game
    # the way back in, then the flash
    vboard.hold(0, "ok")
    vboard.power_cycle()
    with transport.Board(vboard.port, timeout=15) as b:
        b.wait_ready(30, probe_after=0.5)
        vboard.release(0, "ok")
        b.request("sync")
    assert json.loads(_saved(flash, "settings.json"))["owner_lock"] is False
    rep = flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                      power_cycle=vboard.power_cycle)
    assert rep.sent == ["store.mpy"]
    assert _saved(flash, "game.okg") == game
    with transport.Board(vboard.port, timeout=15) as b:
        b.wait_ready(30, probe_after=0.5)
        b.request("sync")
        assert b.status()["screen"] == "game"
