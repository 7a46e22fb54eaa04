"""The simulator's flash directory, laid out as `okgin flash` lays out a
Pico: the engine and firmware modules compiled to .mpy, main.py as source,
board.json. Source .py modules would be compiled on the board at import
and do not fit the device's 128 KB heap, so the simulator, like the device,
runs compiled modules.

Rebuilt incrementally: a manifest keeps each module's source hash, so a
start with unchanged sources compiles nothing, and compiled modules are
cached per user (~/.cache/okgin/sim-mpy) so a fresh flash directory (tests,
--headless) costs a copy, not a compile. The saved game and settings (and
any file this module did not write) are never touched.
"""
import hashlib
import json
import os
import subprocess

from host.errors import CommandError

MANIFEST = ".okgin-sim-build.json"


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "okgin", "sim-mpy")


def _micropython_abi(micropython):
    """(version, sub) of the .mpy files this micropython binary loads."""
    try:
        out = subprocess.run([micropython, "-c", "import sys; print(sys.implementation._mpy)"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
        mpy = int(out.splitlines()[-1])
    except (OSError, ValueError, IndexError, subprocess.SubprocessError) as e:
        raise CommandError("cannot ask %s for its .mpy version: %s" % (micropython, e))
    return mpy & 0xFF, (mpy >> 8) & 3


def _write_if_changed(path, data):
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    tmp = path + ".sim-tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return True


def prepare(flash_dir, board_json=None, src_root=None, micropython=None):
    """Bring ``flash_dir`` up to date with the checkout. Returns the number
    of modules compiled (0 when all came from the cache)."""
    from host import flash as hostflash  # its file list and mpy-cross choice, so sim == device
    from host.vboard import find_micropython
    src_root = src_root or hostflash.ROOT
    os.makedirs(flash_dir, exist_ok=True)
    man_path = os.path.join(flash_dir, MANIFEST)
    try:
        with open(man_path) as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        manifest = {}
    files = hostflash.source_files(src_root)
    mpy_cross = None
    compiled = 0
    new_manifest = {}
    for dev, host, compile_ in files:
        with open(host, "rb") as f:
            src = f.read()
        digest = hashlib.sha256(src).hexdigest()
        dst = os.path.join(flash_dir, *dev.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if compile_:
            # a source copy next to the .mpy would be imported instead of it
            stale = dst[:-4] + ".py"
            if os.path.exists(stale):
                os.remove(stale)
            if manifest.get(dev) != digest or not os.path.exists(dst):
                if mpy_cross is None:
                    micropython = micropython or find_micropython()
                    abi = _micropython_abi(micropython)
                    mpy_cross = hostflash.choose_mpy_cross(*abi)
                key = hashlib.sha256(("%d.%d %s " % (abi + (dev,))).encode() + src).hexdigest()
                cached = os.path.join(cache_dir(), key + ".mpy")
                if not os.path.exists(cached):
                    os.makedirs(cache_dir(), exist_ok=True)
                    r = subprocess.run([mpy_cross, "-o", cached + ".tmp", "-s", dev[:-4] + ".py", host],
                                       capture_output=True, text=True)
                    if r.returncode:
                        raise CommandError("mpy-cross failed on %s: %s"
                                           % (host, (r.stderr or r.stdout).strip()))
                    os.replace(cached + ".tmp", cached)
                    compiled += 1
                with open(cached, "rb") as f:
                    _write_if_changed(dst, f.read())
        else:
            _write_if_changed(dst, src)
        new_manifest[dev] = digest
    for dev in manifest:  # a module gone from the checkout is gone from the board
        if dev not in new_manifest:
            gone = os.path.join(flash_dir, *dev.split("/"))
            if os.path.exists(gone):
                os.remove(gone)
    board_json = board_json or os.path.join(src_root, "hardware", "board.json")
    with open(board_json, "rb") as f:
        _write_if_changed(os.path.join(flash_dir, "board.json"), f.read())
    _write_if_changed(man_path, json.dumps(new_manifest, indent=0, sort_keys=True).encode())
    return compiled
