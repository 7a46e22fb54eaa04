"""Persistence on the board's flash: the game record and the settings
(the statistics' file is firmware/stats.py's, named here).

The record is written to ``game.tmp`` and then renamed over ``game.okg``, so
a power cut leaves either the old or the new record, never half of one.
(``os.rename`` replaces an existing file on POSIX, which the virtual board
uses, and on MicroPython's littlefs, the Pico's default filesystem, where
lfs_rename replaces the destination power-loss safely. FAT would refuse, so
the fallback below removes it first, which can only lose the latest action,
never corrupt.)
"""
import os
import json
import time

GAME = "game.okg"
TMP = "game.tmp"
BAD = "game.bad"
SETTINGS = "settings.json"
STATS = "stats.json"      # firmware/stats.py reads and writes it

# Test hook: settings "slow_save_ms" makes each chunk of a save wait this
# long, so a power-loss test can kill the board mid-write.
slow_ms = 0


def sandbox(on):
    """Test mode keeps its own game (test.okg, test.tmp, test.bad) and never
    opens the real one (docs/reliability.md, hidden information)."""
    global GAME, TMP, BAD, STATS
    base = "test" if on else "game"
    GAME = base + ".okg"
    TMP = base + ".tmp"
    BAD = base + ".bad"
    # and its own statistics: games played in test mode do not count
    STATS = "teststats.json" if on else "stats.json"


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _replace(tmp, path):
    try:
        os.rename(tmp, path)
    except OSError:
        _remove(path)
        os.rename(tmp, path)


def _pause(f):
    if slow_ms:
        f.flush()
        time.sleep_ms(slow_ms)


def save_lines(lines):
    """The whole record, one line at a time (never held whole in RAM),
    written to game.tmp and renamed over game.okg."""
    with open(TMP, "w") as f:
        for ln in lines:
            f.write(ln)
            f.write("\n")
            _pause(f)
    _replace(TMP, GAME)


_chunk = bytearray(256)   # copy buffer, allocated once


def _copy(src, dst, n=-1):
    """Copy n bytes (all when n < 0) from src to dst through _chunk."""
    mv = memoryview(_chunk)
    while n:
        k = src.readinto(_chunk)
        if not k:
            break
        if 0 <= n < k:
            k = n
        dst.write(mv[:k])
        n -= k
        _pause(dst)


def append_action(line):
    """Save the record with one more action line, still atomically: copy
    game.okg to game.tmp through a small buffer, add the line, rename. The
    whole record is never built in RAM (a full game is several KB and the
    heap is tight); every line carries its own check (engine/record.py),
    so a torn one would also be recognised."""
    with open(GAME, "rb") as src:
        with open(TMP, "wb") as dst:
            _copy(src, dst)
            dst.write(line)
            dst.write("\n")
    _replace(TMP, GAME)


def open_game():
    """The saved record opened for reading (binary: damaged bytes are the
    reader's business, line by line), or None when there is no game. A
    leftover game.tmp is an interrupted save: game.okg is still whole."""
    _remove(TMP)
    try:
        return open(GAME, "rb")
    except OSError:
        return None


def keep_prefix(nbytes, newline, bad=True):
    """A record damaged after its first ``nbytes`` bytes: the whole file is
    kept as game.bad (nothing is lost), then the good part is written back
    (with ``newline`` added: its last line had none). Each step leaves
    game.okg whole, so a power cut in between only repeats the repair."""
    if bad:
        with open(GAME, "rb") as src:
            with open(BAD, "wb") as dst:
                _copy(src, dst)
    with open(GAME, "rb") as src:
        with open(TMP, "wb") as dst:
            _copy(src, dst, nbytes)
            if newline:
                dst.write("\n")
    _replace(TMP, GAME)


def discard_game():
    """A record with nothing usable: kept as game.bad, no game any more."""
    try:
        _replace(GAME, BAD)
    except OSError:
        _remove(GAME)


def clear_game():
    _remove(GAME)


_SETTINGS_MAX = 2048   # bytes: the menu's few options fit in 200


def load_settings():
    """The menu's preferences, or {} when settings.json is missing or
    unusable: too big, not JSON, JSON the parser cannot hold ("[" * 5000
    ran it out of heap: MemoryError at boot, found by okgin faults).
    Nothing in it can stop the boot."""
    try:
        if os.stat(SETTINGS)[6] > _SETTINGS_MAX:
            return {}
        with open(SETTINGS) as f:
            d = json.load(f)
        if isinstance(d, dict):
            return d
    except Exception:   # noqa: BLE001 - OSError, ValueError, MemoryError, RuntimeError...
        pass
    return {}


def save_settings(d):
    # settings are small; same atomic rename, through their own tmp name
    tmp = SETTINGS + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(d))
    try:
        os.rename(tmp, SETTINGS)
    except OSError:
        _remove(SETTINGS)
        os.rename(tmp, SETTINGS)


PANELFAIL = "panelfail"


def panel_failures():
    """How many resets in a row a panel timeout has caused (a tiny file, so
    a panel that stays dead does not make the table reset forever)."""
    try:
        with open(PANELFAIL) as f:
            return int(f.read() or 0)
    except (OSError, ValueError):
        return 0


def set_panel_failures(n):
    if n <= 0:
        _remove(PANELFAIL)
        return
    with open(PANELFAIL, "w") as f:
        f.write(str(n))
