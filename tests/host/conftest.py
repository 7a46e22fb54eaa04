"""Fixtures for the host-tool tests: real micropython, real pty, real mpremote."""
import os
import shutil

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from tests.support import micropython
from tests.support.host import ROOT


@pytest.fixture
def source_tree(tmp_path):
    """A copy of the firmware tree (engine/, firmware/, hardware/) to edit."""
    src = tmp_path / "src"
    for d in ("engine", "firmware", "hardware"):
        shutil.copytree(os.path.join(ROOT, d), src / d,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return src


@pytest.fixture
def bare_board(tmp_path):
    """Stock MicroPython (no okgin firmware) behind a pty: a fresh board."""
    from tests.support.ptyboard import BareBoard
    flash = tmp_path / "bare-flash"
    flash.mkdir()
    b = BareBoard(flash, micropython()).start()
    b.flash_dir = str(flash)
    yield b
    b.stop()


@pytest.fixture
def vboard(tmp_path):
    """The project's virtual board with an empty flash (like a fresh Pico)."""
    from okgin.vboard import VirtualBoard
    flash = tmp_path / "vflash"
    flash.mkdir()
    vb = VirtualBoard(flash_dir=str(flash), speed=0.0)
    vb.start()
    vb.flash_dir = str(flash)
    yield vb
    vb.stop()
