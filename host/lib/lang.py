"""The firmware's catalogues and glyph files as the host reads them:
``okgin glyphs`` (which cuts the glyph files), the tests and the benches.

A catalogue is ``firmware/lang/<code>.txt`` (docs/architecture.md,
"Languages"): ``key = text`` lines, ``#`` comments, UTF-8; the device reads
it with firmware/i18n.py. A glyph file is ``firmware/lang/<code>.fnt``:

    "OKGF", version 2, line height 16, narrow count (u16 LE), wide count,
    note length; the note (UTF-8: where the glyphs come from, their
    licence); the narrow glyphs' code points (u16 LE, ascending, printable
    ASCII first), the wide ones'; the narrow bitmaps (8x16, 16 bytes each),
    the wide (16x16, 32). A bitmap is in the panels' own layout (MONO_VLSB,
    firmware/display.py): two bands of 8 rows, each a byte per column, bit 0
    the top row, 1 = ink; so a line of text at a y that is a multiple of 8
    is copied into the frame buffer a band at a time (firmware/text.py).
"""
import os
import re
import struct
import unicodedata
import zlib

from .paths import FIRMWARE, ROOT

LANG_DIR = os.path.join(FIRMWARE, "lang")
# the firmware's own order (firmware/i18n.py CODES); every catalogue in
# LANG_DIR must be one of them
ASCII = "".join(chr(c) for c in range(32, 127))
# drawn by the firmware's code itself: the card suits (i18n.card), the
# menu's arrows for more items above and below
SYMBOLS = "\u2663\u2666\u2665\u2660\u25b2\u25bc"
NOTE = ("GNU Unifont glyphs (unifoundry.com), cut by okgin glyphs; accents "
        "that reach a glyph's top row lowered by one row. Licence: "
        "SIL Open Font License 1.1, or GNU GPL 2 or later with the GNU font "
        "embedding exception.")
_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")
_FIELD = re.compile(r"\{(\d*)[^{}]*\}")


class CatalogueError(ValueError):
    pass


def codes():
    """The languages with a catalogue, in the firmware's order."""
    from .firmware_files import lang_codes
    return lang_codes(ROOT)


def path(code, ext="txt", root=None):
    return os.path.join(root or LANG_DIR, "%s.%s" % (code, ext))


def read(code, root=None):
    """{key: text} of a catalogue, in file order. CatalogueError naming the
    file and line of anything the device would misread."""
    p = path(code, root=root)
    out = {}
    with open(p, "rb") as f:
        data = f.read()
    if len(data) > 0xFFFF:
        raise CatalogueError("%s: %d bytes, the device reads at most 65,535" % (p, len(data)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CatalogueError("%s: not UTF-8 (%s)" % (p, e)) from None
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        key, sep, value = line.partition(" = ")
        where = "%s:%d" % (p, n)
        if not sep:
            raise CatalogueError("%s: expected 'key = text', got %r" % (where, line[:60]))
        if not _KEY.match(key):
            raise CatalogueError("%s: a key is lower-case ASCII words joined by dots, got %r"
                                 % (where, key))
        if key in out:
            raise CatalogueError("%s: %s is already defined above" % (where, key))
        if value != value.strip():
            raise CatalogueError("%s: %s: no spaces at the start or end of a text" % (where, key))
        if unicodedata.normalize("NFC", value) != value:
            raise CatalogueError("%s: %s: write the text in composed form (NFC)" % (where, key))
        try:
            value.format(*["0"] * 9)
        except (IndexError, ValueError, KeyError) as e:
            raise CatalogueError("%s: %s: bad {} field (%s)" % (where, key, e)) from None
        out[key] = value
    return out


def marks(code, root=None):
    """What a catalogue says about its own forms, in comment lines the
    device skips (docs/architecture.md "Languages"):

        #! wrong REGEX          a form this language must never show
        #! any-subject KEY ...  (en.txt) texts whose name field takes "you"
                                too: a label or noun form, no verb after it

    Returns {"wrong": [(compiled, "file:line")], "any-subject": set of keys}.
    CatalogueError on an expression that does not compile."""
    p = path(code, root=root)
    wrong: "list[tuple[re.Pattern[str], str]]" = []
    neutral: "set[str]" = set()
    with open(p, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if line.startswith("#! wrong "):
                try:
                    wrong.append((re.compile(line[9:]), "%s:%d" % (p, n)))
                except re.error as e:
                    raise CatalogueError("%s:%d: %s" % (p, n, e)) from None
            elif line.startswith("#! any-subject "):
                neutral.update(line[15:].split())
            elif line.startswith("#!"):
                raise CatalogueError("%s:%d: expected '#! wrong' or '#! any-subject'" % (p, n))
    return {"wrong": wrong, "any-subject": neutral}


def fields(value):
    """The {n} fields a text fills in (a set of numbers)."""
    return {int(m.group(1) or 0) for m in _FIELD.finditer(value.replace("{{", "").replace("}}", ""))}


def device_hash(key):
    """firmware/i18n.py's _hash (on a port with binascii.crc32: all of
    the table's)."""
    return zlib.crc32(key.encode()) & 0x3FFF


# ----- catalogue indexes -----
# ``firmware/lang/<code>.idx``, beside its catalogue: the index
# firmware/i18n.py keeps of it, made here so the device need not make it
# at every power-on (langcheck.index reads, checks and hashes every line:
# ~100 ms of an RP2040's boot for English). "OKGX", then u32 LE each: the CRC-32
# of the catalogue, its size in bytes, the CRC-32 of the entries; then the
# entries, u32 LE, ascending: device_hash(key) << 16 | the offset of the
# key's line. The device uses it only when all three match what it reads
# (any other catalogue, or a damaged one, is indexed and checked as before).
IDX_MAGIC = b"OKGX"
LINE_MAX = 400      # firmware/i18n.py's: bytes a line, its newline included
_PLACES = re.compile(rb"(?:[^{}]|\{\{|\}\}|\{[0-9]\})*")


def build_idx(data):
    """The .idx of a catalogue's bytes ``data``: a key line is one that
    does not start with "#" and has " = " after at least one byte (as the
    device reads it). CatalogueError for a line the device's own checks
    (firmware/langcheck.py) would refuse, which an index would skip: over
    LINE_MAX bytes, a key not ASCII, braces other than {{, }} and {0}-{9}."""
    entries = []
    off = 0
    while off < len(data):
        end = data.find(b"\n", off) + 1 or len(data)     # lines end at "\n" only
        line = data[off:end]
        if len(line) > LINE_MAX:
            raise CatalogueError("byte %d: a line over %d bytes" % (off, LINE_MAX))
        if not line.startswith(b"#"):
            k = line.find(b" = ")
            if k > 0:
                key = line[:k]
                if min(key) < 33 or max(key) > 126 or not _PLACES.fullmatch(line[k + 3:]):
                    raise CatalogueError("byte %d: %r: a key or {} the device refuses" % (off, key))
                entries.append(device_hash(key.decode("ascii")) << 16 | off)
        off = end
    body = struct.pack("<%dI" % len(entries), *sorted(entries))
    return IDX_MAGIC + struct.pack("<III", zlib.crc32(data), len(data), zlib.crc32(body)) + body


def charset(code, root=None, all_names=None):
    """The characters language ``code``'s glyph file must have: printable
    ASCII (numbers, error details), the suits, its catalogue's texts and
    every language's own name (the language menu shows them all)."""
    chars = set(ASCII) | set(SYMBOLS)
    for k, v in read(code, root).items():
        if not k.startswith("page."):    # the web page's words: the browser's fonts
            chars.update(v)
    if all_names is None:
        all_names = [read(c, root).get("lang.name", "") for c in codes()]
    for name in all_names:
        chars.update(name)
    return chars


# ----- glyph files -----

def read_hex(hex_path):
    """{code point: bitmap bytes} of a Unifont .hex file."""
    out = {}
    with open(hex_path, encoding="ascii") as f:
        for line in f:
            cp, _, bits = line.strip().partition(":")
            if bits:
                out[int(cp, 16)] = bytes.fromhex(bits)
    return out


def build_fnt(chars, glyphs, note=NOTE):
    """The glyph file for ``chars`` from ``glyphs`` (read_hex). KeyError
    listing the characters the font has no glyph for."""
    missing = sorted(c for c in chars if ord(c) not in glyphs)
    if missing:
        raise KeyError("no glyph for %s" % ", ".join("U+%04X %r" % (ord(c), c) for c in missing))
    cps = sorted(ord(c) for c in chars)
    if any(cp > 0xFFFF for cp in cps):
        raise KeyError("only the Basic Multilingual Plane: %r" % [chr(c) for c in cps if c > 0xFFFF])
    ascii_cps = list(range(32, 127))
    narrow = ascii_cps + [c for c in cps if c >= 127 and len(glyphs[c]) == 16]
    wide = [c for c in cps if len(glyphs[c]) == 32]
    for c in ascii_cps:
        if len(glyphs[c]) != 16:
            raise KeyError("U+%04X is not an 8-px glyph in this font" % c)
    nb = note.encode("utf-8")
    out = bytearray(b"OKGF")
    out += struct.pack("<BBHHH", 2, 16, len(narrow), len(wide), len(nb))
    out += nb
    for c in narrow:
        out += struct.pack("<H", c)
    for c in wide:
        out += struct.pack("<H", c)
    for c in narrow:
        out += to_bands(lower_accent(glyphs[c], 8), 8)
    for c in wide:
        out += to_bands(lower_accent(glyphs[c], 16), 16)
    return bytes(out)


def lower_accent(rows, w):
    """Unifont's rows with the top row kept blank where the font allows.

    The panels stack 16-px lines with no leading, so ink in a glyph's top
    row touches the line above: Unifont draws the caron of Ž, Š, Č (and
    the dot of Ė, the accents of other capitals) in rows 0-1 with two blank
    rows under it, and "Ž2" read as a mark on the letter above. The rule:
    a glyph with ink in row 0 whose top ink (the accent) is followed by at
    least two blank rows has that accent moved down one row, leaving one
    blank row between accent and letter; any other glyph is kept as
    Unifont draws it (tests/app/test_glyphs.py fails on a glyph the
    catalogues use whose top row still has ink)."""
    bpr = w // 8
    n = [rows[y * bpr:(y + 1) * bpr] for y in range(16)]
    blank = bytes(bpr)
    if n[0] == blank:
        return rows
    k = 0
    while k < 16 and n[k] != blank:
        k += 1                  # the accent: rows 0..k-1
    if k + 1 >= 16 or n[k + 1] != blank:
        return rows             # under two blank rows: kept as drawn
    n = [blank] + n[:k] + n[k + 1:]
    return b"".join(n)


def to_bands(rows, w):
    """Unifont's rows (top down, MSB = leftmost) as the panels' bands
    (MONO_VLSB: a byte per column of 8 rows, bit 0 on top)."""
    bpr = w // 8
    out = bytearray(2 * w)
    for y in range(16):
        bits = int.from_bytes(rows[y * bpr:(y + 1) * bpr], "big")
        for x in range(w):
            if bits >> (w - 1 - x) & 1:
                out[(y >> 3) * w + x] |= 1 << (y & 7)
    return bytes(out)


def from_bands(bands, w):
    """to_bands() undone: Unifont's rows."""
    bpr = w // 8
    out = bytearray(16 * bpr)
    for y in range(16):
        bits = 0
        for x in range(w):
            if bands[(y >> 3) * w + x] >> (y & 7) & 1:
                bits |= 1 << (w - 1 - x)
        out[y * bpr:(y + 1) * bpr] = bits.to_bytes(bpr, "big")
    return bytes(out)


def read_fnt(p):
    """{character: (width, rows)} of a glyph file (rows as Unifont's: top
    down, MSB = leftmost pixel), and its note."""
    with open(p, "rb") as f:
        data = f.read()
    if data[:4] != b"OKGF":
        raise ValueError("%s: not a glyph file" % p)
    ver, h, nn, nw, nl = struct.unpack_from("<BBHHH", data, 4)
    if ver != 2 or h != 16:
        raise ValueError("%s: version %d, height %d" % (p, ver, h))
    note = data[12:12 + nl].decode("utf-8")
    pos = 12 + nl
    narrow = struct.unpack_from("<%dH" % nn, data, pos)
    pos += 2 * nn
    wide = struct.unpack_from("<%dH" % nw, data, pos)
    pos += 2 * nw
    out = {}
    for c in narrow:
        out[chr(c)] = (8, from_bands(data[pos:pos + 16], 8))
        pos += 16
    for c in wide:
        out[chr(c)] = (16, from_bands(data[pos:pos + 32], 16))
        pos += 32
    if pos != len(data):
        raise ValueError("%s: %d bytes left over" % (p, len(data) - pos))
    return out, note
