"""The virtual board end to end: the real micropython binary behind a pty,
pyserial and the real mpremote as clients, the real drivers on emulated pins."""
import os
import subprocess
import sys
import threading
import time

import pytest
import serial

from okgin.vboard import VirtualBoard, populate
from tests.support.ptyboard import ctrl_c_while_reading
from tests.support import BOARD_2IN9 as B29   # the tiny firmware's panels: the 2.9" table's SSD1680s

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
with open(os.path.join(HERE, "tiny_main.py")) as f:
    TINY = f.read()
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


class Client:
    """A pyserial client of the tiny firmware's line protocol."""

    def __init__(self, port):
        self.s = serial.Serial(port, 115200, timeout=10)

    def line(self):
        got = self.s.readline()
        assert got.endswith(b"\n"), "no line from the board (got %r)" % got
        return got.decode().strip()

    def until(self, prefix):
        for _ in range(50):
            ln = self.line()
            if ln.startswith(prefix):
                return ln
        raise AssertionError("no line starting with %r" % prefix)

    def ask(self, text):
        self.s.write(text.encode() + b"\n")
        return self.until("OK")[3:]

    def close(self):
        self.s.close()


@pytest.fixture
def board(tmp_path):
    events = []
    vb = VirtualBoard(flash_dir=populate(str(tmp_path / "flash"), board=B29, main_py=TINY), board=B29)
    vb.on_event = events.append
    vb.events = events
    vb.start()
    c = Client(vb.port)
    c.until("READY tiny")
    vb.client = c
    yield vb
    c.close()
    vb.stop()
    assert not vb.alive


def test_line_protocol_over_the_pty_with_pyserial(board):
    assert board.client.ask("echo hello board") == "hello board"
    # A 4 KB answer comes through intact (the relay never drops what a
    # reading client can take).
    long = "x" * 4000
    assert board.client.ask("echo " + long) == long


def test_button_pins_read_from_micropython_follow_hold_and_release(board):
    c = board.client
    assert c.ask("pins") == " ".join("%d=1" % g for g in (2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 26, 27))
    board.hold(0, "left")     # GPIO 2
    board.hold(1, "knock")    # GPIO 27
    got = dict(kv.split("=") for kv in c.ask("pins").split())
    assert got["2"] == "0" and got["27"] == "0" and got["3"] == "1"
    board.release(0, "left")
    board.release(1, "knock")
    assert "=0" not in c.ask("pins")


def test_presses_reach_the_real_debounced_buttons_driver(board):
    c = board.client
    c.ask("buttons 10")        # builds the hardware (pins, panels) first
    c.s.write(b"buttons 10000 3\n")     # until 3 events (or 10 s)
    time.sleep(0.2)
    board.press(0, "ok", long=True)
    board.press(0, "right")
    board.press(1, "take")
    got = c.until("OK")[3:].split()
    assert got == ["0:ok:long", "0:right:short", "1:take:short"]


def test_bad_button_or_player_is_a_clear_error(board):
    with pytest.raises(ValueError, match="no button 'jump'"):
        board.press(0, "jump")
    with pytest.raises(ValueError, match="player must be 0..1"):
        board.press(2, "ok")


def test_real_driver_draws_full_then_partial_on_the_emulated_panel(board):
    c = board.client
    assert c.ask("draw 0 full 10 20 30 40") == "busy_after_show=0"   # speed 0: instant
    assert c.ask("draw 0 partial 100 0 8 8") == "busy_after_show=0"
    im = board.panel_image(0)
    assert im.size == (296, 128)
    black = {(x, y) for x in range(296) for y in range(128) if im.getpixel((x, y)) == 0}
    expect = {(x, y) for x in range(10, 40) for y in range(20, 60)}
    expect |= {(x, y) for x in range(100, 108) for y in range(8)}
    assert black == expect
    assert board.refresh_counts(0) == {"full": 1, "partial": 1}
    assert board.refresh_counts(1) == {"full": 0, "partial": 0}
    assert ("refresh", 0, "full", 0.0) in board.events and ("ended", 0) in board.events
    data = board.panel_bytes(0)
    assert len(data) == 4736 and data[(20 * 296 + 10) // 8] & (0x80 >> 2)
    st = board.stats(0)
    assert st["ignored"] == 0 and st["unknown"] == 0 and st["ink_seconds"] > 2


def test_busy_stuck_fault_makes_the_driver_time_out(board):
    board.set_fault(0, busy_stuck=True)
    assert board.client.ask("timeout 0").startswith("EPDTimeout")
    board.set_fault(0, busy_stuck=False)
    assert board.client.ask("timeout 0") == "no timeout"


def test_led_pin_is_observable(board):
    assert not board.led(0)
    board.client.ask("led 0 1")
    assert board.led(0)
    assert ("led", 0, True) in board.events


def test_vmachine_api_errors_mirror_rp2(board):
    assert board.client.ask("api") == "invalid pin|bad SCK pin|SPI(2) doesn't exist|8|125000000"


def test_heap_is_capped_at_the_device_budget(board):
    assert board.client.ask("alloc 200000") == "MemoryError"
    assert board.client.ask("alloc 20000") == "allocated 20000"


def test_ctrl_c_interrupts_the_firmware_into_the_repl(board):
    c = board.client
    c.s.write(b"\r\x03")
    c.until("KeyboardInterrupt")
    c.s.write(b"print(6*7)\r")
    assert c.until("42") == "42"


def test_ctrl_c_interrupts_a_raw_repl_command_that_reads_the_port(board):
    """As a Pico's USB takes Ctrl-C whatever runs (tests/chip/test_chip.py
    runs the same lines on stock rp2): okgin flash stopped mid-copy
    (SIGTERM) stops the board's copy, a raw-paste command that reads the
    port, and resets it into its game. The unix port keeps the pty's ISIG
    off while it runs a raw-paste command (it reads the command from the
    port), so before, the Ctrl-C was read as data, the copy waited for
    more, and the flasher said to power-cycle the board."""
    c = board.client
    c.s.write(b"\r\x03")
    c.until("KeyboardInterrupt")
    got = [b""]

    def until(mark):
        end = time.monotonic() + 10
        while mark not in got[0]:
            assert time.monotonic() < end, "no %r from the board: %r" % (mark, got[0][-300:])
            got[0] += c.s.read(max(1, c.s.in_waiting))
        i = got[0].index(mark) + len(mark)
        out, got[0] = got[0][:i], got[0][i:]
        return out

    c.s.timeout = 0.2
    assert ctrl_c_while_reading(c.s.write, until) == b"OK42\n\x04\x04>"


def test_ctrl_c_in_the_middle_of_panel_traffic_leaves_the_pins_usable(board):
    c = board.client
    assert c.ask("spam") == "spamming"
    for _ in range(20):   # let some refreshes through, then interrupt one
        time.sleep(0.05)
        if board.refresh_counts(0)["partial"] > 20:
            break
    c.s.write(b"\r\x03")
    c.until("KeyboardInterrupt")
    c.s.write(b"d = hw.displays[0]; d.fb.fill(0); d.fb.fill_rect(3, 4, 5, 6, 1); "
              b"d.show(full=True); d.wait(); print('drawn', d.busy())\r")
    assert c.until("drawn") == "drawn False"
    im = board.panel_image(0)
    black = {(x, y) for x in range(296) for y in range(128) if im.getpixel((x, y)) == 0}
    assert black == {(x, y) for x in range(3, 8) for y in range(4, 10)}


def test_mpremote_resume_fs_ls_and_exec(board):
    board.client.close()       # mpremote wants the port for itself
    ls = subprocess.run([MPREMOTE, "connect", board.port, "resume", "fs", "ls"],
                        capture_output=True, text=True, timeout=60)
    assert ls.returncode == 0, ls.stderr
    assert "main.py" in ls.stdout and "board.json" in ls.stdout and "hal.mpy" in ls.stdout
    ex = subprocess.run([MPREMOTE, "connect", board.port, "resume", "exec",
                         "import sys; print('impl', sys.implementation.name)"],
                        capture_output=True, text=True, timeout=60)
    assert ex.returncode == 0, ex.stderr
    assert "impl micropython" in ex.stdout
    board.client = Client(board.port)


def test_machine_reset_restarts_on_the_same_port_and_keeps_the_flash(board):
    c = board.client
    assert c.ask("write note.txt kept") == "written"
    c.s.write(b"reset\n")
    assert c.until("OK") == "OK resetting"   # printed just before the reset
    c.until("READY tiny")                     # the new boot, same port still open
    assert c.ask("read note.txt") == "kept"
    assert ("reset",) in board.events
    assert board.boots == 2 and board.alive


def test_kill_is_a_power_loss_and_start_boots_from_the_same_flash(board):
    c = board.client
    c.ask("draw 0 full 0 0 50 50")
    before = board.panel_bytes(0)
    c.ask("write game.okg saved")
    board.kill()
    assert not board.alive
    assert board.panel_bytes(0) == before      # the ink stays
    board.start()
    c.until("READY tiny")
    assert c.ask("read game.okg") == "saved"
    board.power_cycle()
    c.until("READY tiny")
    assert board.boots == 3


def test_sys_exit_ends_at_the_repl_and_ctrl_d_boots_again_like_a_soft_reset(board):
    c = board.client
    c.s.write(b"exit 3\n")
    assert c.s.read_until(b">>> ").endswith(b">>> ")   # as on a Pico: the REPL
    c.s.write(b"\x04")         # the unix port exits on Ctrl-D; the board boots again
    c.until("READY tiny")
    assert [e for e in board.events if e[0] == "exit"] == [("exit", 0, True)]   # boots again
    assert board.alive and board.boots == 2


def test_speed_orders_busy_after_show_and_reports_real_seconds(tmp_path):
    # With e-ink time on (speed 0.1 -> a full refresh keeps BUSY high 0.25 s),
    # a BUSY read right after the activation already sees the panel busy.
    with VirtualBoard(flash_dir=populate(str(tmp_path / "f"), board=B29, main_py=TINY), board=B29, speed=0.1) as vb:
        ended = threading.Event()
        events = []
        vb.on_event = lambda ev: (events.append(ev), ev[0] == "ended" and ended.set())
        c = Client(vb.port)
        c.until("READY tiny")
        assert c.ask("draw 1 full 0 0 8 8") == "busy_after_show=1"
        assert ended.wait(5)
        refresh = [e for e in events if e[0] == "refresh"]
        assert refresh == [("refresh", 1, "full", pytest.approx(0.25))]
        assert events.index(refresh[0]) < events.index(("ended", 1))
        c.close()


def test_board_without_firmware_boots_to_the_repl(tmp_path):
    flash = tmp_path / "blank"
    flash.mkdir()
    with VirtualBoard(flash_dir=str(flash)) as vb:
        s = serial.Serial(vb.port, timeout=10)
        s.write(b"\r\n")
        assert s.read_until(b">>> ").endswith(b">>> ")
        s.write(b"import vmachine; print(vmachine.Pin(25, vmachine.Pin.OUT, value=1).value())\r")
        # (the unix port's print ends lines with a bare \n)
        assert s.read_until(b")\r\n1\n>>> ").endswith(b")\r\n1\n>>> ")
        s.close()


def test_populate_compiles_like_okgin_flash_and_keeps_saved_games(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "game.okg").write_text("my game")
    (flash / "settings.json").write_text("{}")
    (flash / "hal.py").write_text("stale source that would shadow hal.mpy")
    populate(str(flash))
    names = set(os.listdir(flash))
    assert {"hal.mpy", "ssd1680.mpy", "board.json", "engine", "game.okg"} <= names
    assert "hal.py" not in names
    assert (flash / "game.okg").read_text() == "my game"
    assert (flash / "engine" / "__init__.mpy").exists()
    fw = os.path.join(ROOT, "firmware", "main.py")
    assert ("main.py" in names) == os.path.exists(fw)     # main.py stays source
    # and back to sources: the compiled copies go
    populate(str(flash), compiled=False)
    names = set(os.listdir(flash))
    assert "hal.py" in names and "hal.mpy" not in names
    assert (flash / "settings.json").read_text() == "{}"


def test_bad_board_definition_or_options_are_clear_errors(tmp_path):
    import json
    from okgin.vboard import VBoardError
    with open(os.path.join(ROOT, "hardware", "board-2in9.json")) as f:   # SSD1680s at rotation 90
        board = json.load(f)
    del board["players"][1]["panel"]["busy"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(board))
    with pytest.raises(VBoardError, match=r"players\[1\]\.panel.*busy"):
        VirtualBoard(board=str(bad))
    board["players"][1]["panel"]["busy"] = 10
    board["players"][1]["panel"]["controller"] = "SSD1681"
    bad.write_text(json.dumps(board))
    with pytest.raises(VBoardError, match=r"players\[1\]\.panel\.controller: 'SSD1681' is not "
                                          r"supported \(expected one of SSD1680, SSD1683, UC8151\)"):
        VirtualBoard(board=str(bad))
    board["players"][1]["panel"]["controller"] = "SSD1683"   # the 4.2" controller, a 2.9" panel
    bad.write_text(json.dumps(board))
    with pytest.raises(VBoardError, match=r"players\[1\]\.panel\.rotation: 90 is not supported by "
                                          r"controller SSD1683 \(expected 0 or 180\)$"):
        VirtualBoard(board=str(bad))
    board["players"][1]["panel"]["controller"] = "UC8151"   # what it names, it emulates
    bad.write_text(json.dumps(board))
    from okgin.vboard.pins import BoardPins
    from okgin.vboard.vboard import load_board
    assert [type(p).__name__ for p in BoardPins(load_board(str(bad))).panels] == ["SSD1680", "UC8151"]
    bad.write_text("{not json")
    with pytest.raises(VBoardError, match="not valid JSON"):
        VirtualBoard(board=str(bad))
    with pytest.raises(VBoardError, match="heapsize"):
        VirtualBoard(heapsize="big")
    with pytest.raises(VBoardError, match="speed"):
        VirtualBoard(speed=-1)
    with pytest.raises(VBoardError, match="not an executable"):
        VirtualBoard(micropython=str(tmp_path / "nope"))


def test_loopback_tcp_link_works_too(tmp_path):
    # The link used where unix-domain socket addresses differ (macOS) or are too long.
    with VirtualBoard(flash_dir=populate(str(tmp_path / "f"), board=B29, main_py=TINY), board=B29, link="tcp") as vb:
        assert vb.link.address.startswith("tcp:127.0.0.1:")
        c = Client(vb.port)
        c.until("READY tiny")
        vb.hold(0, "draw")        # GPIO 5
        assert "5=0" in c.ask("pins").split()
        assert c.ask("draw 0 full 0 0 16 16") == "busy_after_show=0"
        assert vb.refresh_counts(0)["full"] == 1
        c.close()


def test_a_firmware_that_keeps_crashing_at_boot_leaves_the_board_off(tmp_path):
    crash = "import os\nos.system('kill -9 $PPID')\n"     # the process dies at once
    events = []
    done = threading.Event()

    def on_event(ev):
        events.append(ev)
        if len(events) >= 3:
            done.set()
    vb = VirtualBoard(flash_dir=populate(str(tmp_path / "f"), board=B29, main_py=crash), board=B29, crash_restarts=3)
    vb.on_event = on_event
    with vb:
        assert done.wait(20)
        time.sleep(0.3)
        assert events == [("exit", -9, True)] * 2 + [("exit", -9, False)]   # stays off
        assert not vb.alive and vb.last_exit == -9 and vb.boots == 3


def test_presses_wait_for_a_firmware_that_stopped_reading_only_once(board):
    c = board.client
    c.ask("buttons 10")               # the button pins are inputs now
    c.s.write(b"\r\x03")              # ... and the firmware sits at the REPL
    c.until("KeyboardInterrupt")
    board.press(0, "left")            # waits (bounded) for a read that never comes
    assert board.link.polling is False
    assert board.link.wait_seen(60) is False    # from now on: no wait at all
    # once the firmware reads its pins again, presses wait for it again
    c.s.write(b"hw.buttons.poll(); print('polled')\r")
    c.until("polled")
    board.settle()
    assert board.link.polling is True
