"""The web page: the same engine and firmware on MicroPython's WebAssembly
port in a static page; the browser is one more board behind the hardware
seam (host/web/mp/webhal.py), like the virtual board and the Pico.

Here the site is built (``build``: every URL in it relative, so it works
from a sub-folder or a project page; once loaded, it works offline through
a service worker) and served (``make_server``, ``serve_in_thread``); the
command ``okgin web`` is command.py, the tests' browser browser.py.
"""
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from ..lib.errors import CommandError

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(HERE, "page")
MP = os.path.join(HERE, "mp")
NPM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
WASM_FILES = ("micropython.mjs", "micropython.wasm")
# Firmware files that only the device needs: its pins, SPI and panel
# drivers (hal.py, ssd1680.py, uc8151.py, ssd1683.py; display.py stays,
# for boarddef), its serial port (protocol.py, testcmds.py) and its main.py.
DEVICE_ONLY = ("main.py", "hal.mpy", "ssd1680.mpy", "uc8151.mpy", "ssd1683.mpy",
               "protocol.mpy", "testcmds.mpy")
# The Tk keysyms of host/simui/keymaps.py as the browser's KeyboardEvent.key
DOM_KEYS = {"Left": "ArrowLeft", "Right": "ArrowRight", "Down": "ArrowDown",
            "Return": "Enter"}

# ---------------------------------------------------------------- building

def _npm_dir():
    """Where npm installs the page's MicroPython: host/web in a checkout
    (node_modules, git-ignored); installed from a wheel, a folder of the
    per-user cache named by the lock file's contents (never site-packages,
    where uninstalling would leave it behind)."""
    from ..lib.paths import CHECKOUT
    if CHECKOUT and os.access(HERE, os.W_OK):
        return HERE
    with open(os.path.join(HERE, "package-lock.json"), "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:12]
    from ..lib.paths import cache_dir
    folder = cache_dir("web-%s" % key)
    os.makedirs(folder, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(os.path.join(HERE, name), os.path.join(folder, name))
    return folder


def wasm_dir(install=True):
    """The folder of the pinned MicroPython WebAssembly port, installed by
    npm from host/web/package-lock.json (``npm ci``) when it is missing."""
    for where in (HERE, _npm_dir()):
        d = os.path.join(where, "node_modules", *NPM_PACKAGE.split("/"))
        if all(os.path.exists(os.path.join(d, f)) for f in WASM_FILES):
            return d
    where = _npm_dir()
    if not install:
        raise CommandError("MicroPython for the browser is not installed (npm ci in %s)" % where)
    npm = shutil.which("npm")
    if npm is None:
        raise CommandError("npm not found: the page needs MicroPython's WebAssembly port from npm "
                           "(install Node.js and npm, e.g. apt-get install npm, then try again)")
    print("okgin web: installing %s (npm ci, once)" % NPM_PACKAGE, file=sys.stderr, flush=True)
    r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=where,
                       capture_output=True, text=True)
    if r.returncode or not all(os.path.exists(os.path.join(d, f)) for f in WASM_FILES):
        last = (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise CommandError("npm ci failed in %s: %s" % (where, last[0]))
    return d


def _firmware(dst, board=None):
    """The device's flash as `okgin flash` lays it out (engine/ and the
    firmware compiled by mpy-cross, ``board`` (default hardware/board.json)
    as board.json), less what
    only the device needs, plus the page's board and main (webhal,
    webmain), compiled the same way."""
    from ..vboard.flash import install, populate
    populate(dst, board=board, compiled=True)
    for name in DEVICE_ONLY:
        path = os.path.join(dst, name)
        if os.path.exists(path):
            os.remove(path)
    for name in ("webhal.py", "webmain.py"):
        install(os.path.join(MP, name), os.path.join(dst, name), compiled=True, rel=name)


def load_board(path=None):
    """The board definition the page is built for (None: the default,
    hardware/board.json), validated as the firmware validates it; a clear
    one-line error otherwise."""
    from ..lib.paths import BOARD, resolve_board
    from ..vboard.vboard import VBoardError, load_board as _load
    path = resolve_board(path) if path else BOARD
    if not os.path.isfile(path):
        raise CommandError("board definition %s not found" % path)
    try:
        return path, _load(path)
    except VBoardError as e:
        raise CommandError(str(e)) from e


def _timing(board):
    from ..simui import render
    from ..simui.keymaps import BUTTONS, KEYMAP, key_label
    from ..vboard.pins import EMULATIONS
    panel = EMULATIONS[board["players"][0]["panel"]["controller"]]
    return {
        # the virtual board's times for this panel (host/vboard/ssd1680.py,
        # ssd1683.py: 2.5 s / 3.0 s full, 0.4 s partial)
        "full_ms": int(panel.T_FULL * 1000),
        "partial_ms": int(panel.T_PARTIAL * 1000),
        "long_press_ms": board["timing"]["long_press_ms"],
        # the panels' size (okgin.js draws them at it) and scale (the page
        # fits a whole number of screen pixels to the 200x150 screen that a
        # 4.2" panel shows in 2x2 blocks)
        "panel": [board["players"][0]["panel"]["width"], board["players"][0]["panel"]["height"]],
        "scale": board["players"][0]["panel"].get("scale", 1),
        # the window's e-ink look (host/simui/render.py)
        "paper": render.PAPER, "ink": render.INK, "mid": render.MID,
        "full_waveform": render.FULL_WAVEFORM, "partial_grey": render.PARTIAL_GREY,
        # the simulator's key maps (host/simui/keymaps.py, README's table)
        "buttons": BUTTONS,
        "keys": [{b: [DOM_KEYS.get(k, k) for k in KEYMAP[p][b]] for b in BUTTONS}
                 for p in range(len(KEYMAP))],
        "labels": [{b: key_label(p, b) for b in BUTTONS} for p in range(len(KEYMAP))],
    }


UF2 = "okgin.uf2"     # the Pico's one file (okgin uf2), offered by the page


def build(out, uf2="if-here", board=None):
    """Build the static site into ``out`` (made, or replaced when it holds
    an earlier build). Returns the folder. ``uf2``: put okgin.uf2 (what
    ``okgin uf2`` writes) on the site when MicroPython for the Pico is
    already here ("if-here"), or downloading it once if need be
    ("download"); without it the page offers none and a line says why. The site is built beside it and
    moved into place whole, so a build that fails leaves ``out`` as it was
    (no half-written folder that the next build would refuse). ``board``:
    the board definition to play (default hardware/board.json)."""
    board_path, _ = load_board(board)
    out = os.path.abspath(out)
    if os.path.exists(out):
        if not os.path.isdir(out):
            raise CommandError("%s is not a folder" % out)
        if os.listdir(out) and not os.path.exists(os.path.join(out, "site.json")):
            raise CommandError("%s is not empty and not an okgin site: not overwriting it" % out)
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".okgin-web-", dir=parent)
    try:
        _build(os.path.join(work, "site"), uf2, board_path)
        if os.path.exists(out):
            os.rename(out, os.path.join(work, "old"))
        os.rename(os.path.join(work, "site"), out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def _uf2(out, how, board_path=None):
    """okgin.uf2 into the site: {"file", "bytes", "micropython"}, or None
    (said in one line) when MicroPython for the Pico cannot be had."""
    from ..chip import images
    from ..lib import uf2image
    try:
        firmware = images.find_firmware(download=how == "download", out=sys.stderr)
    except images.ImageError as e:
        print("okgin web: the page offers no %s: %s" % (UF2, e), file=sys.stderr, flush=True)
        return None
    path = os.path.join(out, UF2)
    uf2image.write(path, firmware, board_json=board_path)
    return {"file": UF2, "bytes": os.path.getsize(path), "micropython": images.FIRMWARE_VERSION}


def _build(out, uf2="if-here", board_path=None):
    board_path, board = load_board(board_path)
    wasm = wasm_dir()
    os.makedirs(os.path.join(out, "mp"))
    for name in WASM_FILES:
        shutil.copyfile(os.path.join(wasm, name), os.path.join(out, "mp", name))
    for name in sorted(os.listdir(PAGE)):
        if name != "sw.js":
            shutil.copyfile(os.path.join(PAGE, name), os.path.join(out, name))
    try:
        _firmware(os.path.join(out, "fw"), board_path)
    except Exception as e:   # mpy-cross missing or failing (VBoardError)
        if isinstance(e, CommandError) or type(e).__name__ == "VBoardError":
            raise CommandError(str(e)) from e
        raise
    fw = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(out, "fw")):
        dirnames.sort()
        for fn in sorted(filenames):
            fw.append(os.path.relpath(os.path.join(dirpath, fn), os.path.join(out, "fw"))
                      .replace(os.sep, "/"))
    site: "dict[str, object]" = {"firmware": fw}
    site.update(_timing(board))
    site["uf2"] = _uf2(out, uf2, board_path) if uf2 else None
    # okgin.uf2 is a download for a Pico, not part of the page: not cached
    # for offline play
    files = [name for name in _site_files(out) if name != UF2] + ["site.json"]
    digest = hashlib.sha256()
    for rel in sorted(files[:-1]):
        with open(os.path.join(out, rel), "rb") as f:
            digest.update(rel.encode() + b"\0" + f.read())
    version = site["version"] = digest.hexdigest()[:16]
    with open(os.path.join(out, "site.json"), "w") as f:
        json.dump(site, f, indent=1)
    # the service worker caches every file of this build for offline use
    with open(os.path.join(PAGE, "sw.js")) as f:
        sw = f.read()
    sw = sw.replace("__VERSION__", version).replace(
        "__FILES__", json.dumps(["./"] + sorted(files)))
    with open(os.path.join(out, "sw.js"), "w") as f:
        f.write(sw)


def _site_files(out):
    files = []
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames.sort()
        for fn in sorted(filenames):
            files.append(os.path.relpath(os.path.join(dirpath, fn), out).replace(os.sep, "/"))
    return files


def site_size(out):
    """(bytes, gzipped bytes) of every file of the site (gzip -9, each file
    on its own, as a static host would send them compressed)."""
    import gzip
    raw = gz = 0
    for rel in _site_files(out):
        if rel == UF2:
            continue          # the Pico's download, not the page
        with open(os.path.join(out, rel), "rb") as f:
            data = f.read()
        raw += len(data)
        gz += len(gzip.compress(data, 9, mtime=0))
    return raw, gz


def size_note(out):
    raw, gz = site_size(out)
    return "%d files, %.0f KB, %.0f KB gzipped" % (len(_site_files(out)), raw / 1024, gz / 1024)


# ---------------------------------------------------------------- serving

class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map)
    extensions_map.update({".mjs": "text/javascript", ".js": "text/javascript",
                           ".wasm": "application/wasm", ".json": "application/json",
                           ".mpy": "application/octet-stream"})

    def end_headers(self):
        # a fresh build on every `okgin web`: never a stale cached copy
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        pass


def make_server(site, host="127.0.0.1", port=8000):
    """An HTTP server for the site folder (not yet serving). Port 0: any free
    port (server.server_address says which)."""
    handler = functools.partial(_Handler, directory=site)
    try:
        server = http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as e:
        raise CommandError("cannot serve on %s:%d: %s (--port 0 takes any free port)"
                           % (host, port, e.strerror or e)) from e
    server.daemon_threads = True
    return server


def serve_in_thread(site, host="127.0.0.1", port=0):
    """Serve the site from a background thread (tests, benches); returns the
    server (server.shutdown() + server_close() stop it)."""
    server = make_server(site, host, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
