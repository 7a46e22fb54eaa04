"""Figures about the virtual board itself (not the game): how long it takes
to boot, what a pin read and a panel update cost through the link. Used by
`python -m okgin.vboard.bench`; `okgin bench board` (host/benches/board.py)
measures the game on top and reads e-ink time from VirtualBoard.stats().
"""
import os
import statistics
import sys
import tempfile
import time

import serial

from ..lib.paths import FIRMWARE
from .flash import populate
from .vboard import VirtualBoard

_MAIN = r'''
import sys, time, select
import boarddef, hal
hw = hal.Hardware(boarddef.load("board.json"))
print("READY bench")
poll = select.poll(); poll.register(sys.stdin, select.POLLIN)
pins = hw.buttons.pins
while True:
    if not poll.poll(1000):
        continue
    w = sys.stdin.readline().split()
    if not w:
        continue
    n = int(w[1])
    t = time.ticks_us()
    if w[0] == "poll":        # n polls of all 12 button pins (cached levels)
        for _ in range(n):
            for p in pins:
                p.value()
        per = n * len(pins)
    elif w[0] == "sync":      # a write then a read: one round trip each
        led = hw.leds[0]
        for _ in range(n):
            led.value(1)
            hw.displays[0].busy_pin.value()
        per = n
    elif w[0] == "full" or w[0] == "partial":
        d = hw.displays[0]
        for i in range(n):
            d.fb.fill(i & 1)
            d.show(full=w[0] == "full")
            d.wait()
        per = n
    dt = time.ticks_diff(time.ticks_us(), t)
    print("OK %d" % (dt * 1000 // per))  # ns
'''


def _ask(s, line):
    s.write(line.encode() + b"\n")
    while True:
        got = s.readline().decode()
        if not got:
            raise RuntimeError("no answer to %r" % line)
        if got.startswith("OK "):
            return int(got.split()[1])


def measure(runs=5):
    """Medians over `runs`: boot_s (process start to READY), poll_us (one
    cached button read), sync_us (a pin write then a read = one link round
    trip), full_ms / partial_ms (the real driver's show()+wait() at speed 0:
    link and emulation cost only, no e-ink time)."""
    boot: "list[float]" = []
    figs: "dict[str, list[float]]" = {"poll_us": [], "sync_us": [], "full_ms": [], "partial_ms": []}
    with tempfile.TemporaryDirectory() as tmp:
        flash = populate(os.path.join(tmp, "flash"), main_py=_MAIN)
        vb = VirtualBoard(flash_dir=flash, speed=0.0)
        try:
            t = time.monotonic()
            vb.start()
            s = serial.Serial(vb.port, timeout=20)
            for i in range(runs):
                if i:
                    t = time.monotonic()
                    vb.power_cycle()
                if not _wait_ready(s):
                    raise RuntimeError("the bench firmware printed no READY within 20 s")
                boot.append(time.monotonic() - t)
                figs["poll_us"].append(_ask(s, "poll 500") / 1000)
                figs["sync_us"].append(_ask(s, "sync 200") / 1000)
                figs["full_ms"].append(_ask(s, "full 3") / 1e6)
                figs["partial_ms"].append(_ask(s, "partial 5") / 1e6)
            s.close()
        finally:
            vb.stop()
    out = {"boot_s": statistics.median(boot)}
    out.update({k: statistics.median(v) for k, v in figs.items()})
    out["firmware_boot_s"] = _firmware_boot(runs)
    return out


def _wait_ready(s):
    """Read up to the READY line; False if the port goes quiet first (its
    read timeout) instead of waiting for ever."""
    while True:
        line = s.readline()
        if not line:
            return False
        if line.startswith(b"READY"):
            return True


def _firmware_boot(runs):
    """The game firmware (compiled like okgin flash, the budget's heap): process
    start to its READY line; None if it does not boot."""
    if not os.path.exists(os.path.join(FIRMWARE, "main.py")):
        return None
    times = []
    with VirtualBoard(speed=0.0) as vb:   # the default heap: the budget
        s = serial.Serial(vb.port, timeout=20)
        for i in range(runs):
            t = time.monotonic()
            if i:
                vb.power_cycle()
            if not _wait_ready(s):
                return None
            times.append(time.monotonic() - t)
        s.close()
    return statistics.median(times)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    runs = 2 if "--quick" in argv else 5
    f = measure(runs)
    print("virtual board (medians of %d runs, speed 0: no e-ink time)" % runs)
    print("  boot to READY            %8.3f s" % f["boot_s"])
    print("  button pin read (cached) %8.2f us" % f["poll_us"])
    print("  pin write + read (sync)  %8.1f us" % f["sync_us"])
    print("  full show()+wait()       %8.1f ms" % f["full_ms"])
    print("  partial show()+wait()    %8.1f ms" % f["partial_ms"])
    if f["firmware_boot_s"] is not None:
        print("  game firmware to READY   %8.3f s" % f["firmware_boot_s"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
