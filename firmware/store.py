"""Persistence on the board's flash: the game record and the settings.

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
SETTINGS = "settings.json"
STATS = "stats.json"      # firmware/stats.py reads and writes it
BAD = "game.bad"

# Test hook: settings "slow_save_ms" makes each 64-byte chunk of a save wait
# this long, so a power-loss test can kill the board mid-write.
slow_ms = 0


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _write_atomic(path, text, tmp=TMP):
    with open(tmp, "w") as f:
        if slow_ms:
            i = 0
            n = len(text)
            while i < n:
                f.write(text[i:i + 64])
                f.flush()
                time.sleep_ms(slow_ms)
                i += 64
        else:
            f.write(text)
    try:
        os.rename(tmp, path)
    except OSError:
        _remove(path)
        os.rename(tmp, path)


def save_game(record):
    _write_atomic(GAME, record)


_chunk = bytearray(256)   # copy buffer, allocated once


def append_action(line):
    """Save the record with one more action line, still atomically: copy
    game.okg to game.tmp through a small buffer, add the line, rename. The
    whole record is never built in RAM (a full game is several KB and the
    heap is tight); the engine's line ends with ' ;' so a torn line would
    also be recognised."""
    mv = memoryview(_chunk)
    with open(GAME, "rb") as src:
        with open(TMP, "wb") as dst:
            while True:
                n = src.readinto(_chunk)
                if not n:
                    break
                dst.write(mv[:n])
                if slow_ms:
                    dst.flush()
                    time.sleep_ms(slow_ms)
            dst.write(line)
            dst.write("\n")
    try:
        os.rename(TMP, GAME)
    except OSError:
        _remove(GAME)
        os.rename(TMP, GAME)


def load_game():
    """The saved record text, or None when there is no game. A leftover
    game.tmp is an interrupted save: the previous game.okg is still whole."""
    _remove(TMP)
    try:
        with open(GAME) as f:
            return f.read()
    except OSError:
        return None
    except UnicodeError:
        # bytes that are not text: keep the file for inspection
        return ""


def clear_game():
    _remove(GAME)


def keep_bad(text):
    """Keep a damaged record as game.bad (nothing is lost) before the good
    part is written back."""
    try:
        with open(BAD, "w") as f:
            f.write(text)
    except OSError:
        pass


def load_settings():
    try:
        with open(SETTINGS) as f:
            d = json.load(f)
        if isinstance(d, dict):
            return d
    except (OSError, ValueError, UnicodeError):
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
