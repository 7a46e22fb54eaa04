"""Fixtures for the simulator front ends: the real virtual board, a started
Session, and a private X server (Xvfb) for the window tests."""
import os

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
    """A private X server (okgin.lib.xserver, as okgin screenshots starts
    one); the window tests need nothing else."""
    from okgin.lib import xserver
    from okgin.lib.errors import CommandError
    try:
        proc, display = xserver.start("1600x900x24")
    except CommandError as e:
        pytest.skip("%s - the window tests need an X server" % e)
    yield display
    xserver.stop(proc)
