"""One factory for the tables under test (okgin.table.boards): either board
from the same call, with the same contract, and a clear error for an option
of the other kind. (mypy checks both classes against the contract:
tests/test_typecheck.py.)"""
import os

import pytest

from okgin.lib.errors import CommandError
from okgin.lib import transport
from okgin.table.boards import KINDS, make_board, start_board


@pytest.mark.parametrize("kind, option, belongs", [
    ("chip", {"heapsize": "128K"}, "the virtual board"),
    ("chip", {"populate": True}, "the virtual board"),
    ("vboard", {"realtime": False}, "the emulated Pico"),
    ("vboard", {"firmware": "x.uf2"}, "the emulated Pico"),
])
def test_an_option_of_the_other_kind_is_named(kind, option, belongs):
    with pytest.raises(CommandError) as e:
        make_board(kind, **option)
    assert str(e.value) == "%s is an option of %s, not of %s" % (
        next(iter(option)), belongs, "the emulated Pico" if kind == "chip" else "the virtual board")


def test_an_unknown_kind_or_option_is_refused():
    with pytest.raises(CommandError, match="no board kind 'pico' .choose vboard or chip"):
        make_board("pico")
    with pytest.raises(CommandError, match="unknown board option 'heap'"):
        make_board("vboard", heap="128K")
    assert set(KINDS) == {"vboard", "chip"}


def test_the_virtual_board_from_the_factory_plays(tmp_path):
    # populated from this checkout, booted, spoken to over its port, a
    # finger on its buttons, its panels read: the contract end to end
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "settings.json").write_text('{"lang": "en"}')
    events = []
    b = make_board("vboard", flash=str(flash), eink=0.0, populate=True)
    b.on_event = events.append
    with b:
        assert b.start() is b and b.alive and b.port
        with transport.Board(b.port, timeout=20.0) as client:
            client.wait_ready(60)
            assert client.testmode() == "testmode=1"
            client.newgame(7)
            client.sync()
            counts = b.refresh_counts(0)
            before = b.panel_bytes(0)
            b.press(0, "right")
            client.sync()
            assert b.panel_bytes(0) != before          # the cursor moved
            assert sum(b.refresh_counts(0).values()) > sum(counts.values())
            assert b.panel_image(0).size == (400, 300)   # the default table: 4.2" panels
            assert b.timing_ms("debounce_ms", 0) > 0
    assert not b.alive
    assert any(ev[0] == "refresh" for ev in events)
    assert (flash / "settings.json").read_text() == '{"lang": "en"}'   # the player's file kept
    assert (flash / "main.py").exists() and (flash / "engine").is_dir()


def test_start_board_stops_what_it_could_not_start(tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        start_board("vboard", flash=str(tmp_path / "nowhere"))


def _tree(root):
    out = {}
    for d, _dirs, files in os.walk(root):
        for name in files:
            if name == ".okgin-lock":       # the board's lock, the program that held it
                continue
            path = os.path.join(d, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


def test_a_table_opened_as_it_is_keeps_its_flash_and_gives_its_raw_port(tmp_path):
    # sync=False (the chip benches, the tests' harness): the flash is not
    # brought up to date (sources stay sources, a 2.9" board.json stays),
    # the board stays off until power_on(), and the port under the client
    # is there to read the firmware's raw bytes
    from okgin.table.table import open_table
    from tests.support import BOARD_2IN9
    from tests.support.harness import make_flash
    make_flash(str(tmp_path / "flash"), compiled=False, board=BOARD_2IN9)
    before = _tree(tmp_path / "flash")
    table = open_table("vboard", str(tmp_path), "flash", sync=False, board=BOARD_2IN9)
    try:
        assert not table.vb.alive and table.serial is None
        table.power_on()
        ser = table.connect().ser
        assert ser is table.serial and table.port == table.vb.port
        ser.timeout = 60
        assert ser.readline().startswith(b"READY okgin")
        assert table.req("hello").startswith("okgin")
    finally:
        table.stop()
    assert _tree(tmp_path / "flash") == before
    with pytest.raises(TypeError, match="sync=False opens the flash as it is: no put, settings"):
        open_table("vboard", str(tmp_path), "flash", sync=False, settings={}, put={"a": b""})
