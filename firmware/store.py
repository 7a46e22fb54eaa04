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
FIX = "game.fix"          # a repaired record, complete, waiting to replace GAME
SETTINGS = "settings.json"
STATS = "stats.json"      # firmware/stats.py reads and writes it
# where each player's selected card is in the real game (the cursors), so
# a power cut does not put it back on the first card (a habitual OK would
# discard a card nobody chose). Not part of the record: its format stays.
CUR = "game.cur"

# True while GAME on the flash is the game in RAM (resumed from it, or
# written by this table since): nothing writes over a record the table did
# not load (one it could not resume is kept as BAD first, issue 29)
owned = False

# Test hook: settings "slow_save_ms" makes each chunk of a save wait this
# long, so a power-loss test can kill the board mid-write.
slow_ms = 0


def sandbox(on):
    """Test mode keeps its own game (test.okg, test.tmp, test.bad) and never
    opens the real one (docs/reliability.md, hidden information)."""
    global GAME, TMP, BAD, FIX, STATS, owned
    global _test
    _test = on
    _at[0] = None
    base = "test" if on else "game"
    GAME = base + ".okg"
    TMP = base + ".tmp"
    BAD = base + ".bad"
    FIX = base + ".fix"
    owned = False
    # and its own statistics: games played in test mode do not count
    STATS = "teststats.json" if on else "stats.json"


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def has_game():
    """A record is on the flash (resumable or not)."""
    return _exists(GAME)


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


def _set_aside():
    # a record this table did not load (it could not resume it) is kept
    # as BAD before anything is written over it: a rename, no copy
    global owned
    if not owned and _exists(GAME):
        _replace(GAME, BAD)
    owned = True


def save_lines(lines):
    """The whole record, one line at a time (never held whole in RAM),
    written to game.tmp and renamed over game.okg."""
    with open(TMP, "w") as f:
        for ln in lines:
            f.write(ln)
            f.write("\n")
            _pause(f)
    _set_aside()
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
    if not owned:
        raise ValueError("not this table's record")   # the caller saves it whole
    with open(GAME, "rb") as src:
        with open(TMP, "wb") as dst:
            _copy(src, dst)
            dst.write(line)
            dst.write("\n")
    _replace(TMP, GAME)


def open_game():
    """The saved record opened for reading (binary: damaged bytes are the
    reader's business, line by line), or None when there is no game. A
    leftover game.tmp is an interrupted save: game.okg is still whole; a
    game.fix is a repair a power cut interrupted: it is finished first."""
    global owned
    owned = False
    _remove(TMP)
    if _exists(FIX):
        if _exists(GAME):
            _replace(GAME, BAD)
        os.rename(FIX, GAME)
    try:
        return open(GAME, "rb")
    except OSError:
        return None


def keep_prefix(nbytes, newline, bad=True):
    """A record damaged after its first ``nbytes`` bytes (or whose last
    line lost its newline): the good part, with ``newline`` added, becomes
    the record and the whole damaged file is kept as game.bad (``bad``).

    Room is needed only for the good part (a few KB), never for a second
    copy of the damaged file, however big it is: the good part is written
    to game.tmp, renamed to game.fix (complete from then on), then game.okg
    is renamed to game.bad and game.fix to game.okg. A power cut anywhere
    repeats the repair (before game.fix) or finishes it (open_game)."""
    with open(GAME, "rb") as src:
        with open(TMP, "wb") as dst:
            _copy(src, dst, nbytes)
            if newline:
                dst.write("\n")
    _replace(TMP, FIX)
    if bad:
        _replace(GAME, BAD)
    _replace(FIX, GAME)


def discard_game():
    """A record with nothing usable, or one this firmware cannot resume:
    kept as game.bad (a rename), no game any more."""
    global owned
    owned = False
    try:
        _replace(GAME, BAD)
    except OSError:
        _remove(GAME)


def clear_game():
    global owned
    _remove(GAME)
    if not _test:
        _remove(CUR)
    owned = True      # (no record: a new game may be written)


_test = False
# what CUR holds: the match, its number of actions and the two cursors
# (compared on every turn of the main loop: ints, no allocation)
_at = [None, -1, -1, -1]


def _cur_key(m):
    # the game and its position, as stats.py names a game
    return "%d:%d:%d" % (m.seed, m.first_dealer, len(m._actions))


def save_cursor(m, cursor):
    """The real game's cursors on the flash, when they (or the position)
    changed since CUR was written or read. Power.tick calls it once
    nobody has pressed for a moment (a flash write is never in the way
    of a cursor move, nor of the ~30 ms it has to start its refresh)."""
    a = _at
    n = len(m._actions)
    if _test or (a[0] is m and a[1] == n and a[2] == cursor[0] and a[3] == cursor[1]):
        return
    same = a[0] is m and a[1] == n
    a[0] = m
    a[1] = n
    a[2] = cursor[0]
    a[3] = cursor[1]
    if not same and not cursor[0] and not cursor[1]:
        return    # a new position with both on the first card: what a resume gives
    try:
        with open(CUR, "w") as f:
            f.write("%s %d %d\n" % (_cur_key(m), cursor[0], cursor[1]))
    except OSError:
        pass    # a full flash: the game is saved, only its cursor is not


def load_cursor(m):
    """The cursors saved for this very position of m, or None (none
    saved, another game or position, a damaged file: the first card)."""
    if _test:
        return None
    try:
        with open(CUR) as f:
            w = f.read(64).split()
        if len(w) == 3 and w[0] == _cur_key(m):
            c = [int(w[1]), int(w[2])]
            if 0 <= c[0] < 16 and 0 <= c[1] < 16:
                _at[0] = m
                _at[1] = len(m._actions)
                _at[2] = c[0]
                _at[3] = c[1]
                return c
    except (OSError, ValueError, UnicodeError):
        pass
    return None


_SETTINGS_MAX = 2048   # bytes: the menu's few options fit in 200

# what each setting must be (anything else is damage): the menu's
# preferences, the owner's lock, a record of version 1's seats, test hooks
_SETTING_TYPES = (("rules", dict), ("owner_lock", bool), ("game", dict),
                  ("slow_save_ms", int), ("hold_computer", bool),
                  ("coach_review", bool))


def _setting_ok(k, v):
    for name, t in _SETTING_TYPES:
        if name == k:
            # bool is an int in Python: a count must not be True/False
            return type(v) is t and (t is not int or 0 <= v <= 1000)
    return True   # a setting this firmware does not use: kept as it is


def load_settings():
    """The menu's preferences, checked field by field. A settings.json
    that is missing gives {}; one that is damaged (too big, not JSON, JSON
    the parser cannot hold: "[" * 5000 ran it out of heap at boot, a
    setting of the wrong type) is kept as settings.json.bad (a rename: no
    room needed) and what was good in it is written back as a fresh one.
    Nothing in it can stop the boot."""
    d = None
    try:
        if os.stat(SETTINGS)[6] <= _SETTINGS_MAX:
            with open(SETTINGS) as f:
                d = json.load(f)
    except OSError:
        return {}          # no settings (yet)
    except Exception:   # noqa: BLE001 - ValueError, MemoryError, RuntimeError...
        d = None
    good = {}
    if isinstance(d, dict):
        for k in d:
            if _setting_ok(k, d[k]):
                good[k] = d[k]
        if len(good) == len(d):
            return d
    try:
        _replace(SETTINGS, SETTINGS + ".bad")
        save_settings(good)
    except OSError:
        pass
    return good


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
