
import pytest


from tests.support.harness import RunningFirmware, make_flash


@pytest.fixture
def flash(tmp_path):
    return make_flash(str(tmp_path / "flash"))


@pytest.fixture
def board(flash):
    b = RunningFirmware(flash)
    b.start()
    try:
        yield b
        assert b.refused() == [0, 0], "a panel was sent commands in deep sleep (a missed wake-up)"
    finally:
        b.stop()


@pytest.fixture
def tboard(board):
    """A board in test mode."""
    board.ok("testmode on")
    return board


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """One board for a module's many small cases (booting costs ~1 s)."""
    b = RunningFirmware(make_flash(str(tmp_path_factory.mktemp("flash"))))
    b.start()
    try:
        yield b
        assert b.refused() == [0, 0], "a panel was sent commands in deep sleep (a missed wake-up)"
    finally:
        b.stop()
