"""The virtual board's flash: a host directory laid out like the Pico's
filesystem (docs/architecture.md "Firmware layout on the device")."""
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Files the firmware writes at run time: never touched by populate().
KEEP = ("game.okg", "game.tmp", "settings.json")


def _sync_file(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    _write_if_changed(dst, data)


def _write_if_changed(dst, data):
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
    # A stale compiled copy would shadow or confuse the new source.
    stem = os.path.splitext(dst)[0]
    if dst.endswith(".py") and os.path.exists(stem + ".mpy"):
        os.remove(stem + ".mpy")
    return True


def populate(flash_dir, root=ROOT, board=None, main_py=None):
    """Sync the firmware sources into flash_dir: firmware/*.py flat at its
    root, the engine/ package, hardware/board.json -> board.json. Saved games
    and settings (and any other file) are kept.

    ``board``: another board definition file to install as board.json.
    ``main_py``: text of a main.py to use instead of firmware/main.py (the
    board can run before the app exists; without either, no main.py is
    written and the board boots to the REPL like a blank Pico).
    """
    os.makedirs(flash_dir, exist_ok=True)
    fw = os.path.join(root, "firmware")
    if os.path.isdir(fw):
        for name in sorted(os.listdir(fw)):
            if name.endswith(".py") and not (main_py is not None and name == "main.py"):
                _sync_file(os.path.join(fw, name), os.path.join(flash_dir, name))
    eng = os.path.join(root, "engine")
    if os.path.isdir(eng):
        for dirpath, dirnames, filenames in os.walk(eng):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            rel = os.path.relpath(dirpath, root)
            os.makedirs(os.path.join(flash_dir, rel), exist_ok=True)
            for name in sorted(filenames):
                if name.endswith(".py"):
                    _sync_file(os.path.join(dirpath, name), os.path.join(flash_dir, rel, name))
    board = board or os.path.join(root, "hardware", "board.json")
    _sync_file(board, os.path.join(flash_dir, "board.json"))
    if main_py is not None:
        _write_if_changed(os.path.join(flash_dir, "main.py"), main_py.encode())
    return flash_dir


def wipe(flash_dir):
    shutil.rmtree(flash_dir, ignore_errors=True)
