"""Where okgin's own files are: in a checkout, and in an installed wheel.

Every command that needs more than Python code (the firmware to flash, the
board definition, the web page's files, the case model, the HIL suite)
asks here, so `okgin` works from any folder, installed or not.

In a checkout (a clone, with `pip install -e .` or `make`), they are the
repository's folders. In a wheel, pyproject.toml's package-dir puts the
same files inside the package (site-packages/okgin/), laid out so that
``ROOT`` holds ``engine/`` and ``firmware/`` in both cases:

    what            checkout              wheel (site-packages/okgin/...)
    ROOT            the repository        okgin/
    engine          engine/               okgin/engine/   (the package)
    firmware        firmware/             okgin/firmware/
    HARDWARE        hardware/             okgin/hardware/data/
    HIL_SUITE       tests/hil/            okgin/tests/hil/ (and the two
                                          pictures it compares with,
                                          okgin/tests/firmware/golden/)
    PROBES          tests/mp/             okgin/tests/mp/

A "source tree" (``okgin flash --source DIR``, the benches' and the tests'
copies) is shaped like a checkout: DIR/engine, DIR/firmware,
DIR/hardware/board.json; ``board_json(DIR)`` says where its board is.
"""
import os

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _checkout(package):
    """The repository folder when the package is the checkout's host/."""
    top = os.path.dirname(package)
    if os.path.basename(package) == "host" and os.path.isfile(os.path.join(top, "pyproject.toml")) \
            and os.path.isdir(os.path.join(top, "firmware")):
        return top
    return None


CHECKOUT = _checkout(PACKAGE)
INSTALLED = CHECKOUT is None
ROOT = CHECKOUT or PACKAGE
HARDWARE = os.path.join(ROOT, "hardware") if CHECKOUT else os.path.join(PACKAGE, "hardware", "data")
BOARD = os.path.join(HARDWARE, "board.json")
FIRMWARE = os.path.join(ROOT, "firmware")
ENGINE = os.path.join(ROOT, "engine")
HIL_SUITE = os.path.join(ROOT, "tests", "hil")
PROBES = os.path.join(ROOT, "tests", "mp")


def board_json(root=None):
    """The board definition of a source tree (None: this installation's)."""
    if root is None or os.path.abspath(root) == os.path.abspath(ROOT):
        return BOARD
    return os.path.join(root, "hardware", "board.json")


def resolve_board(name):
    """A --board argument as a file: a path that exists, else a name under
    this installation's hardware folder (``hardware/board.json``, or a
    path relative to it, works from any folder)."""
    if os.path.isabs(name) or os.path.exists(name):
        return name
    rel = name.replace("\\", "/")
    if rel.startswith("hardware/"):
        rel = rel[len("hardware/"):]
    return os.path.join(HARDWARE, *rel.split("/"))


def copy_source(dst, ignore=("__pycache__", "*.pyc", "*.mpy")):
    """A checkout-shaped copy of the firmware's sources in ``dst`` (engine/,
    firmware/, hardware/ with board.json), for a flash from an edited tree
    (benches, the fault campaign): ``okgin flash --source dst``."""
    import shutil
    pat = shutil.ignore_patterns(*ignore)
    shutil.copytree(ENGINE, os.path.join(dst, "engine"), ignore=pat)
    shutil.copytree(FIRMWARE, os.path.join(dst, "firmware"), ignore=pat)
    shutil.copytree(HARDWARE, os.path.join(dst, "hardware"), ignore=pat)
    return dst


def cache_dir(*parts):
    """okgin's per-user cache (``$XDG_CACHE_HOME/okgin``, else
    ``~/.cache/okgin``), or a folder in it: the RP2040 images, the
    emulator's and the web page's npm installs, compiled modules."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "okgin", *parts)
