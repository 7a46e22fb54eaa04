"""`okgin uf2`'s file, installed as a Pico owner installs it: the emulated
Pico powered on with BOOTSEL held, the file dragged onto the USB drive of
its real bootrom (host/chip/uf2drop.mjs: USB mass storage, one SCSI write
per UF2 block), which writes it to flash with its own code and reboots
into it. Onto an erased flash, and onto a flash holding another
filesystem; then a turn is played on the buttons.

The bootrom is the yardstick here: a file laid out without the padding
after MicroPython's last sector (two files simply joined and renumbered)
is written wrong by it, and the game does not start."""
import os
import subprocess
import sys
import time

import pytest

from tests.support.chip import ROOT
from tests.support.play import Player


@pytest.fixture(scope="module")
def uf2file(rp2_images, tmp_path_factory):
    out = tmp_path_factory.mktemp("uf2") / "okgin.uf2"
    r = subprocess.run([sys.executable, "-m", "okgin.cli", "uf2", "-o", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hold BOOTSEL" in r.stdout
    # said plainly: the drag replaces the saved game, okgin flash keeps it
    assert "saved game" in r.stdout and "okgin flash" in r.stdout and "keeps them" in r.stdout
    # and what a cut copy looks like, how to recover, how big the whole file is
    assert "drag the whole file again" in r.stdout and "the drive stays" in r.stdout
    assert "%d bytes" % os.path.getsize(out) in r.stdout
    return str(out)


def _drop(make_chip, flash, uf2):
    """Power on with BOOTSEL held, drag the file, wait for the game."""
    from okgin.lib import transport
    chip = make_chip(flash=str(flash), drop=uf2)
    t0 = time.monotonic()
    while not chip.resets:                 # the bootrom reboots once the file is written
        assert chip.alive, chip.last_exit
        assert time.monotonic() - t0 < 600, chip.dropped_blocks
        time.sleep(0.2)
    done, total = chip.dropped_blocks
    assert done == total > 0
    board = transport.Board(chip.port, timeout=60, clock=chip.patience_clock()).open()
    return chip, board


def _play_a_turn(board):
    board.testmode(True)
    board.newgame(7, vs="human", dealer=0)
    board.sync(120)
    player = Player(board, seed=7, dealer=0)
    acts = [player.step() for _ in range(3)]     # the upcard decisions and a first draw
    board.sync(120)
    from okgin.engine import Match
    assert Match.from_record(board.record()).to_record() == player.m.to_record(), acts
    st = board.status()
    for k, v in player.expected_status().items():
        assert st[k] == v, (k, st)


def test_dropped_on_an_erased_pico_it_boots_into_the_game(make_chip, uf2file, tmp_path):
    from okgin.chip import images
    flash = tmp_path / "flash.bin"
    images.new_flash(str(flash))
    chip, board = _drop(make_chip, flash, uf2file)
    try:
        board.wait_ready(120, probe_after=0.0)
        hello = board.hello()
        assert int(hello["mpy"]) >> 10 == 4          # .mpy for armv6m: the Pico's own compile
        _play_a_turn(board)
    finally:
        board.close()


def test_dropped_over_another_filesystem_it_replaces_it(make_chip, repl, uf2file, tmp_path):
    """A Pico that already had MicroPython and files of its own (a
    main.py, a saved game, files in a folder, enough to span many
    littlefs blocks): after the drag it runs okgin, and nothing of the old
    filesystem is left (the saved game goes too, as `okgin uf2` warns)."""
    chip, run = repl
    run("import os")
    run("f = open('main.py', 'w'); f.write('print(\"the old program\")'); f.close()")
    run("f = open('game.okg', 'w'); f.write('not this game'); f.close()")
    run("os.mkdir('old')")
    run(r"""exec("for i in range(40):\n with open('old/f%d.txt' % i, 'w') as f: f.write('x' * (300 * i))")""")
    assert "f39.txt" in run("print(os.listdir('old'))")
    flash = chip.flash_path
    chip.stop()
    chip2, board = _drop(make_chip, flash, uf2file)
    try:
        board.wait_ready(120, probe_after=0.0)
        assert board.status()["screen"] == "menu"     # no game to resume: the old one is gone
        _play_a_turn(board)
        board.request("testmode off")
    finally:
        board.close()
    from tests.support.chip import Prompt
    import serial
    ser = serial.Serial(chip2.port, timeout=30)
    try:
        again = Prompt(ser, chip2)
        again("import os")
        names = again("print(sorted(os.listdir()))")
        assert "'old'" not in names and "main.py" in names
        assert "not this game" not in again("print(open('main.py').read()[:200])")
    finally:
        ser.close()


def test_a_file_without_the_padding_sector_is_written_wrong_by_the_bootrom(make_chip, rp2_images, uf2file,
                                                                          tmp_path):
    """The yardstick can fail: the same pages, numbered straight on from
    MicroPython's last block (no padding to the end of its sector), as if
    two UF2 files were joined. The bootrom erases the filesystem's first
    sector by the *number* of a later block, after its first pages were
    written; the firmware is then missing and the Pico stops at the REPL."""
    from okgin.lib import uf2image as U
    from okgin.chip import images
    with open(rp2_images[0], "rb") as f:
        micropython = U.read_uf2(f.read(), "MicroPython")
    with open(uf2file, "rb") as f:
        ours = U.read_uf2(f.read(), "okgin.uf2")
    pages = micropython + [(a, p) for a, p in ours if a >= U.FLASH_BASE + U.FS_OFFSET]
    assert len(pages) == len(ours) - 1                   # exactly the one padding page less
    joined = tmp_path / "joined.uf2"
    joined.write_bytes(b"".join(U.uf2_block(a, p, i, len(pages)) for i, (a, p) in enumerate(pages)))
    flash = tmp_path / "flash.bin"
    images.new_flash(str(flash))
    chip, board = _drop(make_chip, flash, str(joined))
    try:
        from okgin.lib.transport import TransportError
        with pytest.raises(TransportError):
            board.wait_ready(60, probe_after=0.0)
            board.hello()
    finally:
        board.close()
    assert os.path.getsize(joined) < os.path.getsize(uf2file)


def test_board_chip_erase_says_the_saved_game_goes(rp2_images, tmp_path):
    """`okgin board --chip --erase` starts a new Pico: said before the flash
    (and the game saved on it) is erased; refused while another program
    has that flash."""
    import signal

    from okgin.chip import images
    flash = tmp_path / "pico.bin"
    images.new_flash(str(flash))
    flash.write_bytes(b"\x00" * 16 + flash.read_bytes()[16:])     # "something on it"
    lock = open(str(flash) + ".lock", "w")
    import fcntl
    fcntl.flock(lock, fcntl.LOCK_EX)
    r = subprocess.run([sys.executable, "-m", "okgin.cli", "board", "--chip", "--erase", "--flash",
                        str(flash)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "in use by another program" in r.stderr
    assert flash.read_bytes()[:4] == b"\x00" * 4                    # left alone
    lock.close()
    p = subprocess.Popen([sys.executable, "-m", "okgin.cli", "board", "--chip", "--erase", "--flash",
                          str(flash), "--speed", "0", "--quiet"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stderr.readline()
        assert "--erase" in line and "saved game" in line and str(flash) in line
        assert p.stdout.readline().startswith("emulated Pico on ")
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(60)


def test_okgin_sim_chip_on_a_dropped_pico_flashes_nothing_and_names_the_firmware(make_chip, uf2file, tmp_path):
    """The Pico installed from okgin.uf2 holds what okgin flash would have
    written, and its list of files: okgin sim --chip's flash finds it up to
    date. The status line names the firmware even though its READY was
    printed before the simulator listened (it said "firmware ?")."""
    import argparse
    import io

    from okgin.chip import images
    from okgin.table.session import open_session
    from okgin.simui.workers import ready_note
    flash = tmp_path / "flash.bin"
    images.new_flash(str(flash))
    chip, board = _drop(make_chip, flash, uf2file)
    board.close()
    chip.stop()
    args = argparse.Namespace(board=None, chip=True, fresh=False, headless=True, seed=None, vs=None)
    out = io.StringIO()
    import contextlib
    with contextlib.redirect_stderr(out):
        s = open_session(args, str(flash), 0.0)
    try:
        assert "up to date: " in out.getvalue() and "sending" not in out.getvalue(), out.getvalue()
        assert ready_note(s) == "board ready, firmware 0.1.0"
    finally:
        s.close()


def _said(p, text, timeout):
    """The first line okgin board writes to stderr with ``text`` in it."""
    import select
    end = time.monotonic() + timeout
    while True:
        r, _w, _x = select.select([p.stderr], [], [], max(0, end - time.monotonic()))
        assert r, "okgin board did not say %r in %d s" % (text, timeout)
        line = p.stderr.readline()
        assert line, "okgin board stopped without saying %r" % text
        if text in line:
            return line


@pytest.mark.parametrize("where", ["micropython", "filesystem"])
def test_a_cut_file_is_named_and_dragging_the_whole_file_repairs_the_pico(make_chip, rp2_images, uf2file,
                                                                          tmp_path, where):
    """A copy (or download) of okgin.uf2 that stopped part way, in
    MicroPython or in the game's filesystem: `okgin board --chip --drop`
    says the file is cut and what to do; the Pico's drive takes it and
    does not restart, as a real one; powered on again it starts no game;
    the whole file dragged again repairs it."""
    import signal

    from okgin.lib import uf2image as U
    from okgin.chip import images
    with open(uf2file, "rb") as f:
        data = f.read()
    blocks = U.read_uf2(data, "okgin.uf2")
    mp = sum(1 for a, _ in blocks if a < U.FLASH_BASE + U.FS_OFFSET)
    keep = mp // 2 if where == "micropython" else (mp + len(blocks)) // 2
    cut = tmp_path / "okgin.uf2"
    cut.write_bytes(data[:keep * 512 + 100])          # stopped inside a block, too
    flash = tmp_path / "flash.bin"
    images.new_flash(str(flash))
    p = subprocess.Popen([sys.executable, "-m", "okgin.cli", "board", "--chip", "--flash", str(flash),
                          "--drop", str(cut), "--speed", "0", "--quiet"], cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        said = _said(p, "is cut", 120)
        assert "%d of the %d blocks" % (keep, len(blocks)) in said, said
        assert "drag the whole file" in said
        said = _said(p, "took the", 600)               # once the drive has taken all of it
        assert "took the %d blocks" % keep in said and "does not restart" in said, said
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(60)
    chip = make_chip(flash=str(flash))                 # unplugged, plugged in again
    if where == "micropython":
        # half of MicroPython: the core loops on a fault and its clock
        # hardly moves (a wait in its time took 19 minutes of a loaded
        # run): 20 s of looking for a word on USB
        time.sleep(20)
    else:
        # 10 s of the Pico's time: a whole install is READY well before
        chip.wait_emulated(10 * 10**9, timeout=20)
    said = [ln for _t, ln in chip.console_lines() if not ln.startswith("[emulator]")]
    if where == "micropython":
        assert said == []                              # not a word on USB
    else:
        assert said and said[0].startswith("MicroPython v")   # a bare REPL, no game
    assert not [ln for ln in said if "READY okgin" in ln]
    chip.stop()
    chip, board = _drop(make_chip, flash, uf2file)    # the whole file, dragged again
    try:
        board.wait_ready(120, probe_after=0.0)
        _play_a_turn(board)
    finally:
        board.close()


def test_okgin_sim_chip_with_a_new_game_keeps_the_saved_one(rp2_images, tmp_path):
    """okgin sim --chip --vs hard on a Pico with a game saved: the new game
    goes on its flash, the old record is kept whole beside the flash file
    (okgin flash would delete a stray file on the chip) and the user told."""
    import contextlib
    import io

    from okgin.engine import Match
    from okgin.table.session import flashed_chip
    flash = tmp_path / "flash.bin"
    quiet = io.StringIO()
    flashed_chip(flash=str(flash), realtime=False, seed=9, vs="easy", out=quiet).stop()
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        flashed_chip(flash=str(flash), realtime=False, vs="hard", out=quiet).stop()
    kept = [p for p in os.listdir(tmp_path) if p.startswith("replaced-")]
    assert len(kept) == 1, os.listdir(tmp_path)
    m = Match.from_record((tmp_path / kept[0]).read_text())
    assert m.seed == 9 and m.players == ("human", "easy")
    assert kept[0] in said.getvalue() and "against easy, hand 1" in said.getvalue()
