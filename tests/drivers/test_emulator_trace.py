# Random drawings and updates (partial mostly, some full, some after deep
# sleep) recorded from the real driver under micropython, replayed into the
# virtual board's SSD1680 emulation (host/vboard/ssd1680.py, datasheet
# semantics): after every update the ink must equal the frame buffer. This
# is the invariant a differential refresh lives on (RAM 0x26 = what the ink
# shows); test_vboard_driver.py checks the same through the whole board.
import os
import subprocess

import pytest

from okgin.vboard.ssd1680 import SSD1680 as Emulator

from tests.support import micropython, vlsb_to_rows

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


@pytest.mark.parametrize("rotation,seed,auto", [(90, 1, ""), (90, 2, ""), (270, 3, ""),
                                                (90, 4, "auto")])
def test_ink_equals_frame_buffer_after_every_update(rotation, seed, auto):
    steps = 25
    p = subprocess.run([micropython(), os.path.join("tests", "drivers", "mp_trace.py"),
                        str(seed), str(steps), str(rotation), auto],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.endswith("END\n"), p.stderr[-2000:]
    panel = Emulator(sources=128, gates=296, rotation=rotation, speed=0.0)
    checked = 0
    for line in p.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "R":
            panel.set_reset(int(rest))
        elif kind == "W":
            dc, _, hx = rest.partition(" ")
            panel.feed(bytes.fromhex(hx), int(dc))
        elif kind == "C":
            want = vlsb_to_rows(bytes.fromhex(rest))
            got = panel.image_bytes()
            if got != want:
                wrong = sum(bin(a ^ b).count("1") for a, b in zip(got, want, strict=True))
                raise AssertionError("update %d: %d pixels differ; emulator log %r"
                                     % (checked, wrong, panel.log[-5:]))
            checked += 1
    assert checked == steps
    s = panel.stats
    assert s["ignored"] == 0 and s["unknown"] == 0, panel.log[-5:]
    assert s["full"] >= 1 and s["partial"] >= 1 and s["sleeps"] >= 1   # (true for these seeds)
    assert s["full"] + s["partial"] == steps
    if auto:
        assert s["sleeps"] == steps and s["hw_resets"] == steps
