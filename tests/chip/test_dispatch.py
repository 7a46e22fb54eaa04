"""host/chip/dispatch.mjs rebuilds rp2040js's instruction decoder so that a
switch on the opcode, not a walk down 83 tests, finds the branch: the
emulated Pico's every instruction goes through it. Judged against the
decoder it was made from (tests/chip/dispatch_check.mjs): every opcode
from the same states, then a boot of a Pico with okgin on it, both chips
in lockstep, instruction by instruction."""
import json
import os
import subprocess

from tests.support import BOARD_2IN9
from tests.support.chip import flashed_pico

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dispatch_check.mjs")


def test_the_rebuilt_decoder_does_what_rp2040js_does_instruction_for_instruction(rp2_images, tmp_path):
    from okgin.chip.node import ensure_emulator
    node, glue = ensure_emulator()
    flash = flashed_pico(tmp_path / "flash.bin", BOARD_2IN9)
    r = subprocess.run([node, CHECK, os.path.dirname(glue), rp2_images[1], str(flash), "20000000"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["rebuilt"]        # not rp2040js's own function handed back
    # every 16-bit opcode twice; each 32-bit one (6,144) with 256 + 32 second halves
    assert got["opcodes"] == 2 * (65536 - 6144) + 6144 * (256 + 32)
    # the whole boot ran in lockstep: MicroPython's start-up and okgin's
    # modules (hundreds of 256-byte stretches of code, not one wait loop)
    assert got["steps"] == 20_000_000 and got["pcs"] > 400, got
