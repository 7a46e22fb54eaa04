"""Fixtures for the emulated Pico (host/chip): the stock MicroPython rp2 image
on rp2040js, the board around it, its USB serial on a pty."""

import pytest

from tests.support.chip import Prompt, need_chip


@pytest.fixture(scope="session")
def rp2_images():
    return need_chip()


@pytest.fixture
def make_chip(rp2_images, tmp_path):
    """make_chip(flash=None, **kw) -> a started ChipBoard (stopped after the test)."""
    from okgin.chip import ChipBoard
    made = []

    def make(flash=None, **kw):
        kw.setdefault("realtime", False)
        chip = ChipBoard(flash=flash or str(tmp_path / "flash.bin"), **kw)
        made.append(chip)
        return chip.start()
    yield make
    for chip in made:
        chip.stop()


@pytest.fixture
def repl(make_chip):
    """A new Pico with stock MicroPython, at its REPL over pyserial."""
    import serial
    chip = make_chip()
    chip.console_line("MicroPython v", 60)
    ser = serial.Serial(chip.port, timeout=10)
    yield chip, Prompt(ser, chip)
    ser.close()
