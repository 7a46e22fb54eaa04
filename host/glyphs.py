"""``okgin glyphs``: cut each language's glyph file from GNU Unifont, and
write each catalogue's index.

Each catalogue ``firmware/lang/<code>.txt`` gets ``firmware/lang/<code>.fnt``
with exactly the glyphs its texts use, plus printable ASCII, the card
suits and every language's own name (docs/architecture.md, "Languages"),
and ``firmware/lang/<code>.idx``, the index the device would otherwise
make of it at every power-on (host/lib/lang.py build_idx).
The font is Debian's ``unifont`` package (``/usr/share/unifont/unifont.hex``;
its licence: SIL OFL 1.1, or GPL 2+ with the GNU font embedding exception,
which every glyph file names in its note). The cut files are committed,
so neither a build nor the tests need the font; ``--check`` says whether
they are the cut of the present catalogues.
"""
import os

from .lib.errors import CommandError
from .lib import lang

HEX = "/usr/share/unifont/unifont.hex"

EPILOG = """examples:
  okgin glyphs                  cut firmware/lang/*.fnt and write *.idx from the catalogues (after editing one)
  okgin glyphs --check          exit 1 if a glyph file or an index is not its catalogue's
  okgin glyphs --hex ~/unifont-15.1.05.hex
                                from another copy of the font
Needs the font: apt-get install unifont (Debian, Ubuntu).
"""


def configure(parser):
    parser.epilog = EPILOG
    parser.add_argument("--hex", default=HEX, metavar="FILE",
                        help="GNU Unifont's .hex file (default %s)" % HEX)
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail if a glyph file or an index would change")


def cut(hex_path=HEX, root=None):
    """{code: glyph file bytes} for every catalogue."""
    if not os.path.isfile(hex_path):
        raise CommandError("%s not found: install GNU Unifont (apt-get install unifont) "
                           "or give its .hex file with --hex" % hex_path)
    glyphs = lang.read_hex(hex_path)
    codes = lang.codes() if root is None else _codes(root)
    try:
        names = [lang.read(c, root).get("lang.name", "") for c in codes]
        out = {}
        for c in codes:
            try:
                out[c] = lang.build_fnt(lang.charset(c, root, names), glyphs)
            except KeyError as e:
                raise CommandError("%s: %s" % (lang.path(c, root=root), e.args[0])) from None
    except lang.CatalogueError as e:
        raise CommandError(str(e)) from None
    return out


def _codes(root):
    return sorted(fn[:-4] for fn in os.listdir(root) if fn.endswith(".txt"))


def indexes(root=None):
    """{code: .idx bytes} for every catalogue (host/lib/lang.py build_idx)."""
    out = {}
    for c in (lang.codes() if root is None else _codes(root)):
        try:
            lang.read(c, root)      # an index only of a catalogue the device reads right
        except lang.CatalogueError as e:
            raise CommandError(str(e)) from None
        with open(lang.path(c, root=root), "rb") as f:
            out[c] = lang.build_idx(f.read())
    return out


def run(args):
    # the indexes need no font: written (or checked) even when it is missing,
    # so a catalogue edited on a machine without Unifont gets its index
    idx = [(code, "idx", data, "%d keys" % ((len(data) - 16) // 4)) for code, data in indexes().items()]
    try:
        fnt = [(code, "fnt", data, "%d glyphs" % len(lang.charset(code))) for code, data in cut(args.hex).items()]
        no_font = None
    except CommandError as e:
        fnt, no_font = [], e
    stale = []
    files = fnt + idx
    for code, ext, data, what in files:
        p = lang.path(code, ext)
        try:
            with open(p, "rb") as f:
                old = f.read()
        except OSError:
            old = None
        if old == data:
            print("%s: %s, %d bytes, up to date" % (os.path.relpath(p), what, len(data)))
            continue
        stale.append(p)
        if args.check:
            print("%s: not %s of %s.txt (run okgin glyphs)"
                  % (os.path.relpath(p), "the cut" if ext == "fnt" else "the index", code))
            continue
        with open(p + ".tmp", "wb") as f:
            f.write(data)
        os.replace(p + ".tmp", p)
        print("%s: %s, %d bytes, written" % (os.path.relpath(p), what, len(data)))
    if no_font is not None:
        raise no_font
    return 1 if (args.check and stale) else 0
