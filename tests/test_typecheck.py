"""Type-check the firmware against MicroPython's own stubs, not CPython's.

mypy runs with a custom typeshed whose stdlib is micropython-stdlib-stubs
plus the rp2 port's modules (machine, framebuf, rp2, time with ticks_ms...)
from micropython-rp2-stubs, and with no site-packages, so a call that
exists only in CPython (time.monotonic, str.format_map, dataclasses) or a
machine/framebuf API the Pico does not have is an error, as it would be on
the device. The rp2 stubs go into the typeshed copy (not MYPYPATH) so that
mypy does not report the stub files' own quirks as our errors.

Code in an `except ImportError:` block is the CPython fallback of the device
idiom (`def const(x): return x`, a ticks_ms shim over time.monotonic, a
`_digest = None` when hashlib is missing): it never runs on the device, it
redefines names the MicroPython stubs already give, and it may use CPython
APIs. Errors located in such a block are dropped; everything else counts.
mypy runs with --check-untyped-defs because the firmware is unannotated and
mypy would otherwise skip every function body. What fails the test is the
class of error that breaks on the device, by mypy error code: a name or
attribute the port does not have (attr-defined, name-defined), a module it
lacks (import-not-found, import), a call its signature does not accept
(call-arg, call-overload), or a syntax error. Inference noise of untyped code
(`self.match = None` then `self.match.play`: union-attr, assignment...) is
not this test's business and is ignored.

Every firmware/*.py is checked. Imports of `engine` resolve to the repo's
package (errors inside it are the engine tests' business); `vmachine` only
exists on the virtual board and hal.py marks that import as ignored.
"""
import glob
import os
import shutil
import subprocess
import sys

import pytest
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def _dist_files(site, dist_prefix):
    infos = glob.glob(os.path.join(site, dist_prefix + "-*.dist-info", "RECORD"))
    if not infos:
        pytest.fail("%s is not installed in the venv (pip install -e '.[dev]')" % dist_prefix)
    with open(infos[0]) as f:
        return [line.split(",")[0] for line in f if line.split(",")[0].endswith(".pyi")]


@pytest.fixture(scope="module")
def typeshed(tmp_path_factory):
    import mypy  # noqa: F401  (fails clearly if the dev extras are missing)
    site = os.path.dirname(os.path.dirname(os.path.abspath(mypy.__file__)))
    out = tmp_path_factory.mktemp("mpy_typeshed")
    stdlib = out / "stdlib"
    shutil.copytree(os.path.join(site, "stdlib"), stdlib)
    if os.path.isdir(os.path.join(site, "stubs")):
        shutil.copytree(os.path.join(site, "stubs"), out / "stubs")
    tops = set()
    for dist in ("micropython_stdlib_stubs", "micropython_rp2_stubs"):
        for rel in _dist_files(site, dist):
            if rel.startswith("stdlib/"):
                continue
            dest = stdlib / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(os.path.join(site, rel), dest)
            tops.add(rel.split("/")[0].replace(".pyi", ""))
    known = set()
    with open(stdlib / "VERSIONS") as f:
        for line in f:
            if ":" in line and not line.startswith("#"):
                known.add(line.split(":")[0].strip())
    with open(stdlib / "VERSIONS", "a") as f:
        for top in sorted(tops - known):
            f.write("%s: 3.0-\n" % top)
    return str(out)


def mypy(typeshed, files, cwd):
    env = dict(os.environ)
    # engine/ (a package at the repo root) and the flat firmware modules.
    env["MYPYPATH"] = os.pathsep.join([FIRMWARE, ROOT])
    cmd = [sys.executable, "-m", "mypy", "--custom-typeshed-dir", typeshed,
           "--no-site-packages", "--follow-imports=silent",
           # The firmware is unannotated; without this mypy skips its bodies.
           "--check-untyped-defs", "--no-incremental",
           "--cache-dir", os.devnull, "--python-version", "3.11",
           "--hide-error-context", "--no-error-summary"] + files
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


_MSG = re.compile(r"^(.+?):(\d+): (error|note): (.*)$")
_DEVICE_BREAKERS = ("attr-defined", "name-defined", "import-not-found", "import",
                    "call-arg", "call-overload", "syntax")
_CODE = re.compile(r"\[([a-z-]+)\]$")


def _in_import_fallback(path, lineno):
    with open(path) as f:
        lines = f.read().splitlines()
    line = lines[lineno - 1]
    indent = len(line) - len(line.lstrip())
    for prev in reversed(lines[:lineno - 1]):
        stripped = prev.strip()
        if not stripped or stripped.startswith("#"):
            continue
        pind = len(prev) - len(prev.lstrip())
        if pind < indent:
            if stripped.startswith("except ImportError"):
                return True
            if pind == 0 or not stripped.startswith(("def ", "if ", "else", "elif ")):
                return False
            indent = pind
    return False


def real_errors(out, cwd):
    """mypy errors minus the import-fallback idiom, each with its notes."""
    kept = []
    keep = False
    for line in out.splitlines():
        m = _MSG.match(line)
        if m and m.group(3) == "error":
            path = os.path.join(cwd, m.group(1))
            code = _CODE.search(m.group(4))
            idiom = os.path.exists(path) and _in_import_fallback(path, int(m.group(2)))
            keep = not idiom and (code is None or code.group(1) in _DEVICE_BREAKERS)
        if keep and line.strip():
            kept.append(line)
    return kept


def test_firmware_type_checks_against_micropython_stubs(typeshed):
    files = sorted(os.path.basename(f) for f in glob.glob(os.path.join(FIRMWARE, "*.py")))
    assert "hal.py" in files and "ssd1680.py" in files
    code, out = mypy(typeshed, files, FIRMWARE)
    errors = real_errors(out, FIRMWARE)
    assert not errors, "mypy found calls the device may not support:\n" + "\n".join(errors)
    assert code == 0 or "error:" in out, out   # mypy itself did not crash


BAD = {
    "machine.Pin(1).nonexistent()": 'has no attribute "nonexistent"',
    "framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB).rotate(90)": 'has no attribute "rotate"',
    "time.monotonic()": 'has no attribute "monotonic"',
    "import dataclasses": "dataclasses",
    "def f():\n    machine.Pin(2).toggle_fast()": 'has no attribute "toggle_fast"',
}


@pytest.mark.parametrize("line", list(BAD))
def test_a_call_the_device_lacks_is_reported(typeshed, tmp_path, line):
    # Proves the check has teeth: each of these runs on CPython but not on
    # a Pico, and must fail here.
    (tmp_path / "snippet.py").write_text("import framebuf\nimport machine\nimport time\n" + line + "\n")
    code, out = mypy(typeshed, ["snippet.py"], str(tmp_path))
    assert code != 0, out
    assert BAD[line] in out, out


def test_a_correct_snippet_passes(typeshed, tmp_path):
    # ...and the same setup accepts ordinary device code.
    (tmp_path / "snippet.py").write_text(
        "import framebuf, machine, time\n"
        "p = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)\n"
        "spi = machine.SPI(0, baudrate=4000000, sck=machine.Pin(18), mosi=machine.Pin(19))\n"
        "spi.write(b'\\x12')\n"
        "fb = framebuf.FrameBuffer(bytearray(4736), 296, 128, framebuf.MONO_VLSB)\n"
        "fb.text('Ah', 0, 0, 1)\n"
        "t = time.ticks_diff(time.ticks_ms(), 0) + p.value()\n")
    code, out = mypy(typeshed, ["snippet.py"], str(tmp_path))
    assert code == 0, out


def test_import_fallbacks_are_exempt_and_nothing_else(typeshed, tmp_path):
    (tmp_path / "snippet.py").write_text(
        "import time\n"
        "try:\n"
        "    from micropython import const\n"
        "except ImportError:\n"
        "    def const(x):\n"
        "        return x\n"
        "try:\n"
        "    from time import ticks_ms\n"
        "except ImportError:\n"
        "    def ticks_ms():\n"
        "        return int(time.monotonic() * 1000)\n"
        "def f():\n"          # a CPython-only call in an ordinary body fails
        "    return time.monotonic()\n")
    code, out = mypy(typeshed, ["snippet.py"], str(tmp_path))
    errors = [e for e in real_errors(out, str(tmp_path)) if ": error:" in e]
    assert len(errors) == 1 and "snippet.py:13:" in errors[0], (errors, out)


def _contract_snippet(drivers):
    """Every driver module built as hal.py builds it, into a variable of
    the contract's type (firmware/display.pyi's Display protocol)."""
    lines = ["import machine", "import display"]
    lines += ["import %s" % mod for mod in sorted(set(drivers.values()))]
    lines.append("spi = machine.SPI(0)")
    for n, mod in enumerate(sorted(set(drivers.values()))):
        lines.append("d%d: display.Display = %s.Display(spi, machine.Pin(1), machine.Pin(2), "
                     "machine.Pin(3), machine.Pin(4), width=296, height=128, rotation=90, "
                     "busy_timeout_ms=10000, scale=1)" % (n, mod))
    return "\n".join(lines) + "\n"


def _drivers():
    import display
    return dict(display.DRIVERS)


def test_every_display_driver_meets_the_contract(typeshed, tmp_path):
    # A driver missing a method, with another signature, or whose fb is
    # not a FrameBuffer fails here, not on a board with that panel.
    drivers = _drivers()
    assert len(drivers) >= 2
    (tmp_path / "contract.py").write_text(_contract_snippet(drivers))
    code, out = mypy(typeshed, ["contract.py"], str(tmp_path))
    assert code == 0, out


def test_a_driver_that_breaks_the_contract_is_reported(typeshed, tmp_path):
    (tmp_path / "halfdriver.py").write_text(
        "import framebuf\n"
        "class Display:\n"
        "    BUSY_ACTIVE = 1\n"
        "    def __init__(self, spi, cs, dc, rst, busy, width=296, height=128,\n"
        "                 rotation=90, timeout_ms=10000, scale=1):\n"        # not busy_timeout_ms
        "        self.width, self.height, self.rotation = width, height, rotation\n"
        "        self.scale = scale\n"
        "        self.busy_timeout_ms = timeout_ms\n"
        "        self.idle = None\n"
        "        self.fb = framebuf.FrameBuffer(bytearray(4736), width, height, framebuf.MONO_VLSB)\n"
        "    def show(self, full=False):\n"
        "        pass\n"
        "    def busy(self):\n"
        "        return False\n")                                # no wait(), no sleep()
    (tmp_path / "contract.py").write_text(_contract_snippet({"HALF": "halfdriver"}))
    code, out = mypy(typeshed, ["contract.py"], str(tmp_path))
    assert code != 0
    assert 'Unexpected keyword argument "busy_timeout_ms"' in out, out
    assert "missing following \"Display\" protocol members" in out and "sleep" in out, out


# ---- the engine and the host, on CPython (pyproject.toml [tool.mypy]) ----

ENGINE = os.path.join(ROOT, "engine")


def _okgin_tree(dest, engine=ENGINE):
    """The package ``okgin`` as the wheel installs it (host/, with engine/
    as ``okgin.engine``), made of links in ``dest``: mypy finds packages by
    folder name and knows nothing of pyproject's package-dir mapping."""
    pkg = os.path.join(str(dest), "okgin")
    os.mkdir(pkg)
    host = os.path.join(ROOT, "host")
    for name in os.listdir(host):
        if name != "__pycache__":
            os.symlink(os.path.join(host, name), os.path.join(pkg, name))
    os.symlink(engine, os.path.join(pkg, "engine"))
    return str(dest)


def _host_mypy(tree, package="okgin"):
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                        os.path.join(ROOT, "pyproject.toml"), "--cache-dir", os.devnull,
                        "-p", package], cwd=tree, capture_output=True, text=True, timeout=300)
    # report the checkout's paths, not the links'
    out = (p.stdout + p.stderr).replace("okgin/engine/", "engine/").replace("okgin/", "host/")
    return p.returncode, out


def test_engine_and_host_type_check(tmp_path):
    # The strictness is pyproject.toml's: the engine's public modules fully
    # annotated, everything else checked inside its bodies (docs/engine.md
    # "Types").
    code, out = _host_mypy(_okgin_tree(tmp_path))
    assert code == 0 and "Success: no issues found" in out, out


def test_an_unannotated_engine_function_is_reported(tmp_path):
    # ...and that strictness has teeth: a def without types in the public
    # engine fails, in a copy of the engine (the engine alone is checked:
    # it imports nothing of the host, and the whole package took 14 s)
    shutil.copytree(os.path.join(ROOT, "engine"), tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(tmp_path / "engine" / "match.py", "a") as f:
        f.write("\n\ndef scores_of(m):\n    return list(m.scores)\n")
    (tmp_path / "tree").mkdir()
    code, out = _host_mypy(_okgin_tree(tmp_path / "tree", engine=str(tmp_path / "engine")),
                           "okgin.engine")
    assert code != 0 and "match.py" in out and "missing a type annotation" in out, out


def test_micropython_code_in_host_type_checks_against_micropython_stubs(typeshed, tmp_path):
    # host/ also holds code that runs on MicroPython, not CPython: the
    # virtual board's machine (vmachine.py, the unix port) and the web
    # page's board and main (the WebAssembly port). The CPython check above
    # leaves them out; here they are checked as the firmware is (copied
    # apart, so that MYPYPATH's repository root does not find them twice).
    for rel in ("host/vboard/mp/vmachine.py", "host/web/mp/webhal.py", "host/web/mp/webmain.py"):
        shutil.copy(os.path.join(ROOT, rel), tmp_path)
    files = ["vmachine.py", "webhal.py", "webmain.py"]
    code, out = mypy(typeshed, files, str(tmp_path))
    errors = real_errors(out, str(tmp_path))
    assert not errors, "mypy found calls MicroPython may not support:\n" + "\n".join(errors)
    assert code == 0 or "error:" in out, out


def test_a_board_that_breaks_the_board_contract_is_reported(tmp_path):
    # okgin.table.boards.EmulatedBoard is checked against the virtual board and
    # the emulated Pico where make_board builds them (the test above); a
    # board without a method of the contract, or with another signature for
    # one, is reported.
    from okgin.table.boards import EmulatedBoard
    members = sorted(n for n in vars(EmulatedBoard) if not n.startswith("_") or n in ("__enter__", "__exit__"))
    assert {"press", "power_cycle", "panel_image", "kill", "port"} <= set(members)
    lines = ["from typing import Any", "from okgin.table.boards import EmulatedBoard",
             "class HalfBoard:", "    on_event: Any = None", "    port: Any = None",
             "    board: Any = {}", "    alive: Any = False"]
    for name in members:
        if name == "press":       # not (player, button, long=False, bounce_ms=0.0)
            lines.append("    def press(self, player: int, button: str, held_ms: int) -> None: ...")
        elif name not in ("power_cycle", "on_event", "port", "board", "alive"):
            lines.append("    def %s(self, *args: Any, **kw: Any) -> Any: ..." % name)
    lines.append("b: EmulatedBoard = HalfBoard()")
    tree = _okgin_tree(tmp_path)
    (tmp_path / "halfboard.py").write_text("\n".join(lines) + "\n")
    p = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                        os.path.join(ROOT, "pyproject.toml"), "--cache-dir", os.devnull,
                        "--follow-imports=silent", "halfboard.py"],
                       cwd=tree, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    assert p.returncode != 0, out
    assert 'missing following "EmulatedBoard" protocol member' in out and "power_cycle" in out, out
    assert "press" in out and "held_ms" in out, out
