"""The emulated Pico itself: stock MicroPython rp2 on rp2040js, what the
project's glue adds to the emulator (flash writes, USB serial, reset,
input pulls), seen from the host as a user sees a real Pico."""
import os
import subprocess
import sys

from tests.support.chip import ROOT, Prompt
from tests.support.ptyboard import ctrl_c_while_reading


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
    r = Prompt(ser, chip)
    r("f = open('saved.txt', 'w'); f.write('kept'); f.close()")
    ops = sum(chip.flash_ops.values())
    assert ops > 0                              # the chip erased and programmed its flash
    chip.kill()                                 # power cut right after the write
    chip.start()
    chip.console_line("MicroPython v", 60)
    r = Prompt(ser, chip)
    assert r("print(open('saved.txt').read())") == "kept"
    ser.close()


def test_machine_reset_reboots_on_the_same_port(repl):
    chip, r = repl
    r("f = open('x', 'w'); f.write('1'); f.close()")
    boots = chip.resets
    r.ser.write(b"import machine; machine.reset()\r\n")
    r.until(b"machine.reset()\r\n", 60)
    # the same pty path comes back with MicroPython's banner (DTR is up)
    banner, _ = r.until(b">>> ", 60)
    assert b"MicroPython v1.28.0" in banner
    assert chip.resets == boots + 1
    r2 = type(r)(r.ser, chip)
    assert r2("print(open('x').read())") == "1"
    assert r2("import machine; print(machine.reset_cause() == machine.WDT_RESET)") == "True"


def test_ctrl_c_interrupts_a_raw_repl_command_that_reads_the_port(repl):
    """The yardstick for the virtual board's Ctrl-C (tests/vboard/test_board.py,
    the same lines): the USB stack takes it whatever runs."""
    chip, r = repl

    def until(mark):
        got, ok = r.until(mark, 30)
        assert ok, "no %r from the chip: %r" % (mark, got[-300:])
        return got

    assert ctrl_c_while_reading(r.ser.write, until) == b"OK42\n\x04\x04>"


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


def test_an_interrupt_pending_before_a_lightsleep_ends_it_at_once(repl):
    # The firmware masks the interrupts from its last look for work to the
    # lightsleep, so that what comes in meanwhile (a button's edge, a byte
    # from USB) stays pending and ends the sleep at once, as WFI does on
    # the chip (ARMv6-M: an interrupt that PRIMASK holds back still ends a
    # WFI). The emulator used to sleep on: such a byte was answered only
    # when the sleep's time was up (the chip HIL suite's "no answer").
    chip, r = repl
    r("import machine, time; n = [0]")
    r("exec('def cb(t):\\n n[0] += 1')")
    # masked for 100 ms (a timer's interrupt comes in meanwhile), then a
    # lightsleep of 3 s
    out = r("exec('s = machine.disable_irq()\\n"
            "tm = machine.Timer(period=20, mode=machine.Timer.ONE_SHOT, callback=cb)\\n"
            "t = time.ticks_ms()\\n"
            "while time.ticks_diff(time.ticks_ms(), t) < 100: pass\\n"
            "t = time.ticks_ms()\\nmachine.lightsleep(3000)\\n"
            "d = time.ticks_diff(time.ticks_ms(), t)\\nmachine.enable_irq(s)\\nprint(d)')")
    slept = int(out.split()[-1])
    assert slept < 50, "the pending timer interrupt did not end the lightsleep (%d ms)" % slept
    assert r("print(n[0])") == "1"              # and its handler ran once unmasked


def test_a_press_is_taken_while_the_chip_lightsleeps_between_reads(repl):
    # At 12 MHz (clk_sys in lightsleep) a cycle is 83.3 ns: the chip's
    # alarms fall between whole ns, which the link rounds. A press waiting
    # for the pin to be read froze the emulated clock just short of the
    # alarm that ends the sleep (the chip HIL suite's scripted hand).
    chip, r = repl
    g = chip.pins.button_gpio(0, "draw")
    r("import machine; from machine import Pin; p = Pin(%d, Pin.IN, Pin.PULL_UP); lows = [0]" % g)
    r.ser.write(b"exec('for i in range(400):\\n machine.lightsleep(7); lows[0] += 1 - p.value()')\r\n")
    chip.press(0, "draw", timeout=60)     # held until the pins are read 24 times (two polls)
    assert r.until(b">>> ", 60)[1]
    assert int(r("print(lows[0])")) >= 12


def test_the_firmwares_short_rest_returns_with_the_interrupts_masked(repl):
    # hal.rest masks the interrupts from its last look for work to the
    # lightsleep. The rp2 port's lightsleep(1) is a plain delay that waits
    # for a timer interrupt, which the mask holds back: the chip waited at
    # full clock until some edge came (CI: a table on batteries that never
    # went to DORMANT, a host's sync never answered). Under 2 ms the rest
    # now returns at once; 2 ms and more sleep as before.
    import serial
    chip, r = repl
    r.ser.close()
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    fw = os.path.join(ROOT, "firmware")
    out = subprocess.run([mpremote, "connect", chip.port, "fs", "cp", os.path.join(fw, "hal.py"),
                          ":hal.py", "+", "fs", "cp", os.path.join(fw, "buttons.py"), ":buttons.py"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    with serial.Serial(chip.port, timeout=10) as ser:
        r = Prompt(ser, chip)
        r("import hal, time")
        took = r("t = time.ticks_ms(); _ = [hal.Hardware.rest(None, ms) for ms in (1, 2, 1, 3) * 25]; "
                 "print(time.ticks_diff(time.ticks_ms(), t))", timeout=30)
        assert int(took) < 1000         # 50 rests of 2-3 ms and 50 of none
        assert chip.power_states().get("deep 12 -U", 0) > 0.1     # the long ones were lightsleeps


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


def test_the_deal_keys_source_is_on_stock_rp2(repl):
    """What hal.random_bytes needs on a Pico (issue 40): os.urandom (the
    ring oscillator) and hashlib.sha256, in stock MicroPython; two draws
    differ and the engine's keyed shuffle runs there."""
    chip, r = repl
    a = r("import os, hashlib; print(hashlib.sha256(os.urandom(32)).digest()[:16].hex())")
    b = r("print(hashlib.sha256(os.urandom(32)).digest()[:16].hex())")
    assert len(a) == 32 and len(b) == 32 and a != b, (a, b)
    raw = r("print(os.urandom(64).hex())")
    assert len({raw[i:i + 2] for i in range(0, 128, 2)}) > 16, raw   # not a constant


def test_waits_count_the_chips_own_time_and_a_hung_chip_fails_clearly(repl):
    """A machine busy with other work (CI's two loaded workers, a busy loop
    on a core) runs the emulator slower: a wait on the chip counts the
    chip's own time, so it lasts longer on the wall clock and does not
    fail; a chip whose clock stands still (its emulator stopped) fails with
    a message that says so."""
    import signal
    import threading
    import time

    import pytest

    from okgin.chip import ChipError
    chip, r = repl
    r.ser.write(b"while True: pass\r\n")           # the chip computes: its time passes only as it runs
    pid = chip.pid
    stop = threading.Event()

    def busy_host():        # the emulator gets about a tenth of a core
        while not stop.is_set():
            os.kill(pid, signal.SIGSTOP)
            time.sleep(0.3)
            os.kill(pid, signal.SIGCONT)
            time.sleep(0.03)
    t = threading.Thread(target=busy_host, daemon=True)
    t.start()
    try:
        # 0.2 s of its time, 0.3 s more allowed: a wait by the wall clock
        # would end when the throttled chip is slower than that; this one
        # passes (how long it takes on the wall clock is the host
        # scheduler's: not asserted)
        chip.wait_emulated(200_000_000, timeout=0.3)
    finally:
        stop.set()
        t.join()
        os.kill(pid, signal.SIGCONT)
    os.kill(pid, signal.SIGSTOP)                   # hung
    try:
        t0 = time.monotonic()
        with pytest.raises(ChipError) as e:
            chip.console_line("no such line", 1.0)
        assert "stood still" in str(e.value) and "hung or stopped" in str(e.value), e.value
        assert time.monotonic() - t0 < 60
    finally:
        os.kill(pid, signal.SIGCONT)
