"""The players' language: the catalogue of the table's texts
(docs/architecture.md, "Languages"; the words: docs/glossary.md).

A catalogue is a text file on the flash, ``lang/<code>.txt``, one
``key = text`` a line (``#`` starts a comment), UTF-8. ``t(key, *args)``
gives the text with ``{0}``, ``{1}``... filled in by ``str.format``. Only
an index stays in RAM (one small int per key: a 14-bit hash of the key (CRC-32) and
the line's offset in the file, sorted); a text is read from flash when it
is asked for, so a language costs about 1 KB of heap (4 bytes a key on the
chip) whatever its size. The index comes made, ``lang/<code>.idx``
(okgin glyphs), when it is this catalogue's (_kept); else it is made here.
The glyphs are text.py's, in ``lang/<code>.fnt``.

Keys are ASCII; every catalogue has every key of ``en.txt``
(tests/app/test_lang.py). A key missing at run time (a catalogue older
than the firmware) gives the English text, and failing that the key
itself: never an error on a panel.

Damaged files (issue 40) never stop the table. A catalogue is checked as
it is loaded: its size (under 64 KB), every line (at most LINE_MAX bytes,
UTF-8, its ``{}`` placeholders well formed); its glyph file by text.load
(header, counts, size). One that fails is not used: English instead, and
a bad English gives basetext.py's texts (ASCII, built into the firmware:
the menu, the game and the errors) in the English glyphs or framebuf's
own font. A text is filled in under a guard: one whose placeholders do
not fit its arguments gives English's text, then the built-in one, then
the key.
"""

DIR = "lang/"
DEFAULT = "en"
LINE_MAX = 400      # bytes: a catalogue's longest line is ~260
SIZE_MAX = 0xFFFF   # the index holds 16-bit offsets

code = None        # the language loaded
_f = None          # its catalogue, open
bad = None         # why the last language that failed its checks was not used
_idx = None        # sorted (hash << 16 | offset) of its keys
_en = None         # (file, index) of English, opened only for a missing key
# The texts asked for lately, as read (before {} are filled in): a turn
# screen asks for the same dozen on every cursor move, and a read from
# flash costs ~1 ms on an RP2040. Emptied when full and at a language change.
_seen = {}
_SEEN_MAX = 24


try:
    from binascii import crc32 as _crc
except ImportError:   # a port without it: the same sort of hash, in Python
    _crc = None


def _hash(kb):
    """14 bits of a key (bytes), so (hash << 16 | offset) stays a small int
    on a 32-bit port. CRC-32, in C: the index hashes every key of the
    catalogue at every power-on (MicroPython's own hash() of bytes has
    only 8 bits on the rp2 port: ~500 keys would share 256 values)."""
    if _crc is not None:
        return _crc(kb) & 0x3FFF
    h = 0
    for b in kb:
        h = (h * 31 + b) & 0x3FFF
    return h


def _open(c):
    import os
    p = DIR + c + ".txt"
    size = os.stat(p)[6]
    if size > SIZE_MAX:   # not read at all
        raise ValueError("%s: catalogue over 64 KB" % p)
    f = open(p, "rb")
    try:
        idx = _kept(f, c, size)
        if idx is None:
            import langcheck     # dropped once the language is loaded (load)
            idx = langcheck.index(f, _hash, LINE_MAX, SIZE_MAX)
        return f, idx
    except Exception:
        f.close()
        raise


def _kept(f, c, size):
    """The index okgin glyphs made of this very catalogue, ``lang/<c>.idx``
    (host/lib/lang.py build_idx: the CRC-32 and size of the catalogue it
    was made from, the CRC-32 of its entries, the entries), or None: no
    such file, or one for other bytes than ``f``'s (an edited catalogue, a
    damaged one, a damaged index), which langcheck then indexes and checks
    line by line. A catalogue that matches is the one the host checked:
    reading it once for its CRC (~30 ms on an RP2040 for English) saves
    indexing it (~170 ms)."""
    if _crc is None:
        return None
    import os
    p = DIR + c + ".idx"
    try:
        n = os.stat(p)[6] - 16
        # an entry a key line, a line 4 bytes at least: never over 16 KB
        if n < 0 or n & 3 or n > SIZE_MAX >> 2:
            return None
        g = open(p, "rb")
    except OSError:
        return None
    try:
        head = g.read(16)
        body = g.read(n)
    finally:
        g.close()
    import struct
    if len(head) != 16 or head[:4] != b"OKGX" or len(body) != n:
        return None
    crc, length, bcrc = struct.unpack("<III", head[4:])
    if length != size or _crc(body) != bcrc:
        return None
    buf = bytearray(1024)
    mv = memoryview(buf)
    k = 0
    while True:
        r = f.readinto(buf)
        if not r:
            break
        k = _crc(mv[:r], k)
    f.seek(0)
    if k != crc:
        return None
    return struct.unpack("<%dI" % (len(body) >> 2), body)


def codes():
    """The languages on the flash (a catalogue each), English first: the
    language menu's order. A fifth language is one more catalogue and its
    glyph file, nothing in the code."""
    import os
    out = []
    try:
        names = os.listdir(DIR[:-1])
    except OSError:
        names = ()
    for fn in names:
        if fn.endswith(".txt") and fn[:-4] != DEFAULT:
            out.append(fn[:-4])
    out.sort()
    out.insert(0, DEFAULT)
    return out


def load(c):
    """Use language ``c``: its catalogue and its glyphs (text.py). One that
    is not on the flash, or fails its checks (or not a string): English.
    Returns the code in use."""
    global code, _f, _idx, bad
    if not isinstance(c, str) or not c.isalpha() or len(c) > 8:
        c = DEFAULT
    if c == code:
        return c
    import text
    try:
        f, idx = _open(c)
        try:
            text.load(DIR + c + ".fnt")
        except Exception:
            f.close()
            raise
    except Exception as e:   # missing, damaged, or too big for the heap
        bad = "%s: %s" % (c, e)   # for the tests: why
        _drop()
        if c != DEFAULT:
            return load(DEFAULT)
        # no usable English either (a flash whose lang/ is gone or
        # damaged): the texts built into the firmware (basetext.py) in
        # English's glyphs if they load, else framebuf's own font; the
        # table boots, plays and can be flashed again: never a crash
        if _f is not None:
            _f.close()
        _f = None
        _idx = []
        code = c
        try:
            text.load(DIR + c + ".fnt")
        except Exception:
            text.load(None)
        _seen.clear()
        _drop()
        return c
    _drop()
    if _f is not None:
        _f.close()
    _f = f
    _idx = idx
    code = c
    _seen.clear()
    return c


def _drop():
    import sys
    sys.modules.pop("langcheck", None)   # the checks: only while loading


def name(c):
    """Language ``c``'s own name ("Lietuvi\u0173"): the first key of its
    catalogue, lang.name (tests/app/test_lang.py keeps it first)."""
    try:
        f = open(DIR + c + ".txt", "rb")
    except OSError:
        return c
    try:
        while True:
            line = f.readline(LINE_MAX + 1)
            if not line or len(line) > LINE_MAX:
                break
            if line[:12] == b"lang.name = ":
                return line[12:].rstrip(b"\r\n").decode()
            if line[0] != 35 and line.strip():
                break
    except ValueError:    # not UTF-8 (UnicodeError)
        pass
    finally:
        f.close()
    return c


def _find(f, idx, key):
    if f is None:
        return None
    kb = key.encode()
    n = len(kb)
    h = _hash(kb) << 16
    lo = 0
    hi = len(idx)
    while lo < hi:            # the first entry of that hash
        mid = (lo + hi) >> 1
        if idx[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    try:
        while lo < len(idx) and idx[lo] >> 16 == h >> 16:
            f.seek(idx[lo] & 0xFFFF)
            line = f.readline(LINE_MAX + 1)
            if line[:n] == kb and line[n:n + 3] == b" = ":
                end = len(line)
                while end > n + 3 and line[end - 1] in (10, 13):
                    end -= 1
                return line[n + 3:end].decode()
            lo += 1
    except (OSError, ValueError):   # the file changed under us: not this text
        pass
    return None


def _english(key):
    """English's text of ``key`` (None if it has none or is damaged), then
    the built-in one."""
    global _en
    s = None
    if code == DEFAULT:
        s = _find(_f, _idx, key)
    else:
        if _en is None:
            try:
                _en = _open(DEFAULT)
            except Exception:
                _en = (None, [])
            _drop()
        s = _find(_en[0], _en[1], key)
    if s is None:
        import basetext
        s = basetext.text(key)
    return s


def t(key, *args):
    """The text of ``key`` in the language in use, ``args`` filled in.
    Never raises: a text its arguments do not fit (a damaged placeholder)
    gives English's, then the built-in one, then the key."""
    s = _seen.get(key)
    if s is None:
        if code is None:
            load(DEFAULT)
        s = _find(_f, _idx, key)
        if s is None:
            s = _english(key)
            if s is None:
                s = key
        if len(_seen) >= _SEEN_MAX:
            _seen.clear()
        _seen[key] = s
    if args:
        try:
            return s.format(*args)
        except Exception:
            pass
        try:
            e = _english(key) if code != DEFAULT else None
            if e is None:
                import basetext
                e = basetext.text(key)
            return e.format(*args)
        except Exception:
            return key
    return s


# ----- the game's words that are not sentences -----

def card(c):
    """A card as the players read it: rank and suit symbol ("10\u2665");
    R14's text ("Th") stays in records and on the serial port."""
    if not c:
        return "-"
    r = c[0]
    s = "cdhs".find(c[1].lower())
    import text
    if text._f is None:      # framebuf's font (no glyph file): ASCII only
        return ("10" if r == "T" else r) + "cdhs"[s]
    return ("10" if r == "T" else r) + "\u2663\u2666\u2665\u2660"[s]


def cards(cs):
    out = []
    for c in cs:
        out.append(card(c))
    return " ".join(out)


def why(reason, name):
    """An IllegalAction's reason (engine/explain.py: ("limit", ("7h", 12,
    10))) in words; ``name(p)`` names seat p."""
    key, args = reason
    out = []
    for a in args:
        if isinstance(a, str) and len(a) == 2 and a[1] in "cdhs":
            a = card(a)
        out.append(a)
    if key == "turn":
        out = [name(args[0]), name(args[1])]
    return t("why." + key, *out)


def coach(clause):
    """One of the coach's reasons (engine/coach.py: ``(code, cards, n)``,
    the subject card first) in words: the catalogue's coach.<code> with
    {0} the subject, {1} the other cards named, {2} the number."""
    code, cs, n = clause
    return t("coach." + code, card(cs[0]) if cs else "", cards(cs[1:]), n)
