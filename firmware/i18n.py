"""The players' language: the catalogue of the table's texts
(docs/architecture.md, "Languages"; the words: docs/glossary.md).

A catalogue is a text file on the flash, ``lang/<code>.txt``, one
``key = text`` a line (``#`` starts a comment), UTF-8. ``t(key, *args)``
gives the text with ``{0}``, ``{1}``... filled in by ``str.format``. Only
an index stays in RAM (one small int per key: a 14-bit hash of the key and
the line's offset in the file, sorted); a text is read from flash when it
is asked for, so a language costs about 1 KB of heap (4 bytes a key on the
chip) whatever its size. The glyphs are text.py's, in ``lang/<code>.fnt``.

Keys are ASCII; every catalogue has every key of ``en.txt``
(tests/app/test_lang.py). A key missing at run time (a catalogue older
than the firmware) gives the English text, and failing that the key
itself: never an error on a panel.
"""

DIR = "lang/"
DEFAULT = "en"

code = None        # the language loaded
_f = None          # its catalogue, open
_idx = None        # sorted (hash << 16 | offset) of its keys
_en = None         # (file, index) of English, opened only for a missing key
# The texts asked for lately, as read (before {} are filled in): a turn
# screen asks for the same dozen on every cursor move, and a read from
# flash costs ~1 ms on an RP2040. Emptied when full and at a language change.
_seen = {}
_SEEN_MAX = 24


def _hash(key):
    # 14 bits, so (hash << 16 | offset) stays a small int on a 32-bit port
    h = 0
    for ch in key:
        h = (h * 31 + ord(ch)) & 0x3FFF
    return h


def _index(f):
    """(hash << 16 | offset) of every key line of a catalogue, sorted."""
    idx = []
    off = 0
    for line in f:
        n = len(line)
        if line[0] != 35:    # "#"
            k = line.find(b" = ")
            if k > 0:
                idx.append(_hash(line[:k].decode()) << 16 | off)
        off += n
    if off > 0xFFFF:
        raise ValueError("catalogue over 64 KB")
    idx.sort()
    return idx


def _open(c):
    f = open(DIR + c + ".txt", "rb")
    try:
        return f, _index(f)
    except Exception:
        f.close()
        raise


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
    is not on the flash (or not a string): English. Returns the code in
    use."""
    global code, _f, _idx
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
    except (OSError, ValueError):
        if c != DEFAULT:
            return load(DEFAULT)
        # no English either (a flash whose lang/ is gone): the table still
        # boots, showing the keys in framebuf's own font, so that it can
        # be flashed again; never a crash at boot
        if _f is not None:
            _f.close()
        _f = None
        _idx = []
        code = c
        text.load(None)
        _seen.clear()
        return c
    if _f is not None:
        _f.close()
    _f = f
    _idx = idx
    code = c
    _seen.clear()
    return c


def name(c):
    """Language ``c``'s own name ("Lietuvi\u0173"): the first key of its
    catalogue, lang.name (tests/app/test_lang.py keeps it first)."""
    try:
        f = open(DIR + c + ".txt", "rb")
    except OSError:
        return c
    try:
        for line in f:
            if line[:12] == b"lang.name = ":
                return line[12:].rstrip(b"\r\n").decode()
            if line[0] != 35 and line.strip():
                break
    finally:
        f.close()
    return c


def _find(f, idx, key):
    if f is None:
        return None
    h = _hash(key) << 16
    lo = 0
    hi = len(idx)
    while lo < hi:            # the first entry of that hash
        mid = (lo + hi) >> 1
        if idx[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    kb = key.encode()
    n = len(kb)
    while lo < len(idx) and idx[lo] >> 16 == h >> 16:
        f.seek(idx[lo] & 0xFFFF)
        line = f.readline()
        if line[:n] == kb and line[n:n + 3] == b" = ":
            end = len(line)
            while end > n + 3 and line[end - 1] in (10, 13):
                end -= 1
            return line[n + 3:end].decode()
        lo += 1
    return None


def t(key, *args):
    """The text of ``key`` in the language in use, ``args`` filled in."""
    global _en
    s = _seen.get(key)
    if s is None:
        if code is None:
            load(DEFAULT)
        s = _find(_f, _idx, key)
        if s is None:
            if code != DEFAULT:
                if _en is None:
                    try:
                        _en = _open(DEFAULT)
                    except (OSError, ValueError):
                        _en = (None, [])
                s = _find(_en[0], _en[1], key)
            if s is None:
                s = key
        if len(_seen) >= _SEEN_MAX:
            _seen.clear()
        _seen[key] = s
    if args:
        s = s.format(*args)
    return s


# ----- the game's words that are not sentences -----

def card(c):
    """A card as the players read it: rank and suit symbol ("10\u2665");
    R14's text ("Th") stays in records and on the serial port."""
    if not c:
        return "-"
    r = c[0]
    s = "cdhs".find(c[1].lower())
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
