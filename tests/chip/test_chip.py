"""The emulated Pico itself: stock MicroPython rp2 on rp2040js, what the
project's glue adds to the emulator (flash writes, USB serial, reset,
input pulls), seen from the host as a user sees a real Pico."""
import os
import subprocess
import sys

from tests.support.chip import ROOT, Repl


def test_stock_micropython_answers_on_the_pty_as_a_pico(repl):
    chip, r = repl
    assert r("import sys; print(sys.platform, sys.implementation.version[:3])") == "rp2 (1, 28, 0)"
    assert r("import machine; print(machine.freq())") == "125000000"
    free = int(r("import gc; gc.collect(); print(gc.mem_free())"))
    assert 200_000 < free < 264 * 1024          # ~236 KB of GC heap on a Pico
    assert "Raspberry Pi Pico with RP2040" in r("import os; print(os.uname().machine)")


def test_littlefs_writes_survive_a_power_cut(make_chip, tmp_path):
    import serial
    chip = make_chip()
    chip.console_line("MicroPython v", 60)
    ser = serial.Serial(chip.port, timeout=10)
    r = Repl(ser)
    r("f = open('saved.txt', 'w'); f.write('kept'); f.close()")
    ops = sum(chip.flash_ops.values())
    assert ops > 0                              # the chip erased and programmed its flash
    chip.kill()                                 # power cut right after the write
    chip.start()
    chip.console_line("MicroPython v", 60)
    r = Repl(ser)
    assert r("print(open('saved.txt').read())") == "kept"
    ser.close()


def test_machine_reset_reboots_on_the_same_port(repl):
    chip, r = repl
    r("f = open('x', 'w'); f.write('1'); f.close()")
    boots = chip.resets
    r.ser.write(b"import machine; machine.reset()\r\n")
    r.ser.timeout = 60
    # the same pty path comes back with MicroPython's banner (DTR is up)
    assert b"MicroPython v1.28.0" in r.ser.read_until(b">>> ", 100000)
    assert chip.resets == boots + 1
    r2 = type(r)(r.ser)
    assert r2("print(open('x').read())") == "1"
    assert r2("import machine; print(machine.reset_cause() == machine.WDT_RESET)") == "True"


def test_input_pins_read_their_pulls_and_the_buttons(repl):
    chip, r = repl
    g = chip.pins.button_gpio(0, "left")
    r("from machine import Pin; p = Pin(%d, Pin.IN, Pin.PULL_UP)" % g)
    assert r("print(p.value())") == "1"          # not pressed: the pull-up wins
    chip.hold(0, "left")
    assert r("print(p.value())") == "0"          # pressed: the button pulls it low
    chip.release(0, "left")
    assert r("print(p.value())") == "1"
    r("q = Pin(28, Pin.IN, Pin.PULL_DOWN); f = Pin(27, Pin.IN)")
    assert r("print(q.value(), f.value())") == "0 0"
    r("o = Pin(26, Pin.OUT, value=1)")
    assert r("print(o.value())") == "1"          # an output reads back its level


def test_mpremote_copies_and_lists_files(repl, tmp_path):
    chip, r = repl
    r.ser.close()
    src = tmp_path / "hello.py"
    src.write_text("print('hi from the emulated pico')\n")
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    out = subprocess.run([mpremote, "connect", chip.port, "fs", "cp", str(src), ":hello.py",
                          "+", "fs", "ls", "+", "exec", "import hello"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "hello.py" in out.stdout and "hi from the emulated pico" in out.stdout
