"""What is on a board's flash: the firmware's files, laid out and compiled
as `okgin flash` (host/table/flashing.py) and the virtual board (host/vboard/flash.py)
both put them there, so the board in CI runs exactly what a Pico gets; and
the player's files, which the firmware writes and no okgin tool may lose.
"""
import os

# The player's files: what the firmware writes as it is played
# (firmware/store.py and stats.py name them; tests/host/test_player_files.py
# holds this list against theirs). Each is saved through NAME.tmp and
# renamed; a damaged one is set aside as NAME.bad (the game's as game.bad).
# Test mode keeps its own game and statistics (test.*, teststats.json).
SAVED_GAME = ("game.okg", "game.tmp", "game.bad", "game.fix", "game.cur")
SETTINGS = ("settings.json", "settings.json.tmp", "settings.json.bad")
STATISTICS = ("stats.json", "stats.json.tmp", "stats.json.bad")
TEST_MODE = ("test.okg", "test.tmp", "test.bad", "test.fix",
             "teststats.json", "teststats.json.tmp", "teststats.json.bad")
PLAYER_FILES = SAVED_GAME + SETTINGS + STATISTICS + TEST_MODE
# What a fresh start forgets (okgin sim --fresh, on either board): the
# saved game and the settings; the statistics stay.
FRESH_START = SAVED_GAME + SETTINGS

# mpy-cross options for every module. -O3 drops line numbers and asserts
# from the bytecode: about 2 KB less code on the 64-bit virtual board's heap
# (docs/memory.md). A traceback on the device then names the functions, not
# the lines; the firmware has no asserts.
MPY_FLAGS = ("-O3",)


def source_name(dev):
    """The source name mpy-cross records in a module (``-s``), which its
    tracebacks show: the module's dotted name ("engine.bots" for
    engine/bots.py), not its path. Every name a loaded module brings is
    interned on the heap for good, and the dotted name already is (the
    module's __name__); a path would be one more per module, some 35 in a
    game. On the 64-bit virtual board MicroPython's table of interned names
    grows by doubling: the 1,261st name costs a 14 KB block, and a game
    against the computer in Korean ended near that edge (docs/memory.md
    "Interned names")."""
    base = dev[:-4] if dev.endswith(".mpy") else dev[:-3] if dev.endswith(".py") else dev
    if base.endswith("/__init__"):
        base = base[:-9]      # a package's name
    return base.replace("/", ".")


def firmware_files(src_root):
    """The firmware's files on a board's flash, in the order they are
    written: ``(device path, host path, compiled)`` for the engine/ package,
    then firmware/*.py flat at the root (``x.mpy`` when compiled), main.py
    last. main.py (and a boot.py, if there is one) stay source: MicroPython
    runs only those two as files. Missing folders give no entries."""
    files = []
    eng = os.path.join(src_root, "engine")
    for dirpath, dirnames, filenames in os.walk(eng):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__pycache__")))
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                host = os.path.join(dirpath, fn)
                rel = os.path.relpath(host, src_root).replace(os.sep, "/")
                files.append((rel[:-3] + ".mpy", host, True))
    fw = os.path.join(src_root, "firmware")
    names = sorted(os.listdir(fw)) if os.path.isdir(fw) else []
    for fn in names:
        if fn.endswith(".py") and fn not in ("main.py", "boot.py"):
            files.append((fn[:-3] + ".mpy", os.path.join(fw, fn), True))
    # the languages (docs/architecture.md "Languages"): each catalogue, its
    # glyph file and its index (okgin glyphs writes both; a tree without
    # the index, an older one, boots as well: the device makes it), as they are
    lang = os.path.join(fw, "lang")
    for code in lang_codes(src_root):
        for ext in ("txt", "fnt", "idx"):
            fn = "%s.%s" % (code, ext)
            if ext != "idx" or os.path.exists(os.path.join(lang, fn)):
                files.append(("lang/" + fn, os.path.join(lang, fn), False))
    for fn in ("boot.py", "main.py"):
        if fn in names:
            files.append((fn, os.path.join(fw, fn), False))
    return files


def lang_codes(src_root):
    """The languages of a firmware tree: a catalogue firmware/lang/<code>.txt
    each, English first (the default), then by code."""
    lang = os.path.join(src_root, "firmware", "lang")
    names = sorted(os.listdir(lang)) if os.path.isdir(lang) else []
    codes = [fn[:-4] for fn in names if fn.endswith(".txt")]
    return sorted(codes, key=lambda c: (c != "en", c))
