"""Fixtures for the simulator front ends: the real virtual board, a started
Session, and a private X server (Xvfb) for the window tests."""
import os
import shutil
import subprocess

import pytest

from tests.support.sim import ROOT, new_board


@pytest.fixture
def make_board(tmp_path):
    def make(speed=0.0, flash_dir=None):
        return new_board(flash_dir or str(tmp_path / "flash"), speed)
    return make


@pytest.fixture
def session(make_board):
    from okgin.table.session import Session, load_timing
    s = Session(make_board(), timing=load_timing(os.path.join(ROOT, "hardware", "board.json")))
    s.start()
    yield s
    s.close()


@pytest.fixture(scope="session")
def xdisplay():
    """A private X server; the window tests need nothing else."""
    if not shutil.which("Xvfb"):
        pytest.skip("Xvfb is not installed (apt install xvfb) - the window tests need an X server")
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x900x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        num = f.readline().strip()
    if not num:
        proc.kill()
        pytest.skip("Xvfb did not start")
    yield ":" + num
    proc.terminate()
    proc.wait(timeout=10)
