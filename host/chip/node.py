"""Node.js and the pinned RP2040 emulator (npm rp2040js) for the emulated Pico.

The emulator is installed on first use, by ``npm ci`` from this folder's
package.json and package-lock.json (exact version, checked by npm against
the lock's integrity hash), into ``host/chip/node_modules`` in a checkout
(git-ignored), or into the per-user cache when okgin is installed from a
wheel (never into site-packages, where uninstalling would leave it behind)
or this folder is not writable. A file lock keeps two first uses from
installing at once.
"""
import fcntl
import json
import os
import shutil
import subprocess
import sys

from ..lib.errors import CommandError

HERE = os.path.dirname(os.path.abspath(__file__))
GLUE = "glue.mjs"
# the emulator's own JavaScript: the glue and the modules it imports
MODULES = (GLUE, "dispatch.mjs", "uf2drop.mjs")
NODE_MIN = 18


def emulator_version():
    with open(os.path.join(HERE, "package.json")) as f:
        return json.load(f)["dependencies"]["rp2040js"]


def find_node():
    """The node binary ($OKGIN_NODE, else node on PATH), checked to be >= 18."""
    node = os.environ.get("OKGIN_NODE") or shutil.which("node") or shutil.which("nodejs")
    if not node:
        raise CommandError("the emulated Pico needs Node.js >= %d and `node` was not found: install "
                           "it (Debian/Ubuntu: sudo apt install nodejs npm; or nodejs.org) or set "
                           "OKGIN_NODE" % NODE_MIN)
    try:
        v = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout
        major = int(v.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        raise CommandError("%s does not run as Node.js (node --version failed)" % node) from None
    if major < NODE_MIN:
        raise CommandError("the emulated Pico needs Node.js >= %d, %s is %s" % (NODE_MIN, node, v.strip()))
    return node


def _installed(folder):
    try:
        with open(os.path.join(folder, "node_modules", "rp2040js", "package.json")) as f:
            return json.load(f).get("version") == emulator_version()
    except (OSError, ValueError):
        return False


def _install_dir():
    from ..lib.paths import CHECKOUT, cache_dir
    if CHECKOUT and os.access(HERE, os.W_OK):
        return HERE
    # beside the images' per-user cache (okgin.chip.images.cache_dir)
    folder = cache_dir("chip-%s" % emulator_version())
    os.makedirs(folder, exist_ok=True)
    for name in ("package.json", "package-lock.json") + MODULES:
        shutil.copyfile(os.path.join(HERE, name), os.path.join(folder, name))
    return folder


def ensure_emulator(out=None):
    """(node, path of glue.mjs) with rp2040js installed next to it."""
    out = sys.stderr if out is None else out
    node = find_node()
    if _installed(HERE):
        return node, os.path.join(HERE, GLUE)
    folder = _install_dir()
    with open(os.path.join(folder, ".install.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed(folder):
            npm = os.environ.get("OKGIN_NPM") or shutil.which("npm")
            if not npm:
                raise CommandError("the emulated Pico needs npm to install its emulator (rp2040js "
                                   "%s) once: install npm (Debian/Ubuntu: sudo apt install npm)"
                                   % emulator_version())
            out.write("okgin: installing the RP2040 emulator (npm rp2040js %s) into %s, once...\n"
                      % (emulator_version(), os.path.join(folder, "node_modules")))
            out.flush()
            r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                               cwd=folder, capture_output=True, text=True)
            if r.returncode != 0 or not _installed(folder):
                last = (r.stderr.strip() or r.stdout.strip() or "no output").splitlines()[-1]
                raise CommandError("installing rp2040js %s with npm failed (%s): is the npm registry "
                                   "reachable? Run `npm ci` in %s to see why"
                                   % (emulator_version(), last, folder))
    return node, os.path.join(folder, GLUE)
