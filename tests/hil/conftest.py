"""Hardware-in-loop suite: run by ``okgin hil`` against a real or virtual board.

The board comes from the ``okgin hil`` plugin (or ``OKGIN_HIL_PORT`` when
pytest is run by hand). A plain ``pytest`` of the whole repository has no
board, so this directory is not collected then; CI runs the suite through
``okgin hil --sim`` (tests/host/test_hil_cli.py).
"""
import os
import time

import pytest

from okgin.lib import transport


def _target(config):
    for p in config.pluginmanager.get_plugins():
        if getattr(p, "__okgin_hil__", False):
            return p.target
    port = os.environ.get("OKGIN_HIL_PORT")
    if port:
        from okgin.hil import Target
        return Target(port)
    return None


def pytest_ignore_collect(collection_path, config):
    if collection_path.name.startswith("test_") and _target(config) is None:
        return True
    return None


@pytest.fixture(scope="session")
def target(request):
    return _target(request.config)


@pytest.fixture
def board(target):
    """An open connection to a board whose firmware answers ``hello``."""
    b = transport.Board(target.port, timeout=10.0 * target.slow, clock=target.clock).open()
    b.wait_ready(15 * target.slow, probe_after=0.0)   # it booted long ago: ask at once
    yield b
    try:
        b.request("testmode off")
    except transport.TransportError:
        pass
    b.close()


@pytest.fixture
def testboard(board, target):
    """The board in test mode, with a fresh game of known seed (human vs human)."""
    assert board.testmode(True) == "testmode=1"
    board.newgame(7, vs="human", dealer=0)
    board.sync(30 * target.slow)
    return board


def wait_for(pred, timeout=10.0, step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(step)
    return False
