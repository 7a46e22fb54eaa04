"""``okgin uf2``: one file to drag onto a Pico: MicroPython and the game.

A Pico owner installs a MicroPython program by holding BOOTSEL, plugging
the Pico in and dragging a .uf2 file onto the RPI-RP2 drive that appears.
``okgin uf2 -o okgin.uf2`` writes such a file (host/lib/uf2image.py makes
it: the stock MicroPython image for the Pico followed by a littlefs2 image
of what ``okgin flash`` would put on the board), so the first power-on
after the drag boots into the game.

Dropping the file replaces the whole filesystem: a table's saved game,
settings and statistics are gone. ``okgin flash`` updates the firmware in
place and keeps them.
"""
import os
import sys
import tempfile

from .lib.errors import CommandError
from .lib.uf2image import BLOCK_COUNT, write

WARNING = ("dragging this file onto a Pico replaces its whole filesystem: a table's saved game, "
           "settings and statistics are erased. To update a table in use, run `okgin flash` "
           "instead: it keeps them.")

EPILOG = """examples:
  okgin uf2                         write okgin.uf2 here
  okgin uf2 -o ~/okgin.uf2          somewhere else
  okgin uf2 --board my-board.json   with your own board definition

then: hold the Pico's BOOTSEL button, plug it in, drag okgin.uf2 onto the
RPI-RP2 drive; the Pico restarts into the game.
"""


def configure(parser):
    parser.description = ("write one .uf2 file to drag onto a Pico: MicroPython %s and the "
                          "game (hold BOOTSEL, plug in, drag)" % _version())
    parser.epilog = EPILOG
    parser.add_argument("-o", "--output", default="okgin.uf2", metavar="FILE",
                        help="the file to write (default okgin.uf2)")
    from .table import options as table_options
    table_options.add(parser, "board", help={
        "board": "board definition to put on it (default: hardware/board.json, the 4.2in "
                 "table; board-2in9.json: the 2.9in one)"})
    parser.add_argument("--firmware", metavar="UF2",
                        help="the MicroPython image (default: MicroPython %s for RPI_PICO, "
                             "from OKGIN_RP2_DIR, the cache, or downloaded once from micropython.org, "
                             "or from the folder URL in OKGIN_RP2_MIRROR)" % _version())


def _version():
    from .chip.images import FIRMWARE_VERSION
    return "v" + FIRMWARE_VERSION


def run(args):
    from .table import options as table_options
    out = os.path.abspath(os.path.expanduser(args.output))
    if os.path.isdir(out):
        raise CommandError("-o %s is a folder: give a file name, e.g. %s"
                           % (args.output, os.path.join(args.output, "okgin.uf2")))
    if not os.path.isdir(os.path.dirname(out)):
        raise CommandError("-o %s: folder %s does not exist" % (args.output, os.path.dirname(out)))
    try:      # before a download: can a file be written there? (root's access() says yes to /sys)
        tempfile.TemporaryFile(dir=os.path.dirname(out)).close()
    except OSError as e:
        raise CommandError("-o %s: folder %s is not writable (%s); write it elsewhere, e.g. -o %s"
                           % (args.output, os.path.dirname(out), e.strerror or e,
                              os.path.join("~", "okgin.uf2"))) from None
    board = table_options.resolve(args).board
    firmware = find_firmware(args.firmware)
    try:
        info = write(out, firmware, board_json=board)
    except OSError as e:
        raise CommandError("-o %s: cannot write it (%s); write it elsewhere, e.g. -o %s"
                           % (args.output, e.strerror or e, os.path.join("~", "okgin.uf2"))) from None
    print("okgin uf2: wrote %s (%d KB: MicroPython %s, %d blocks; the game, %d files, %d bytes "
          "in %d of %d filesystem blocks)"
          % (out, info["size"] // 1024, _version(), info["blocks"], info["files"], info["bytes"],
             info["fs_blocks"], BLOCK_COUNT))
    print("to install: hold BOOTSEL, plug the Pico in, drag %s onto the RPI-RP2 drive"
          % os.path.basename(out))
    print("note: " + WARNING)
    print("if the copy is cut (the drive stays after it, then the Pico starts nothing): hold "
          "BOOTSEL, plug it in and drag the whole file again; whole, %s is %d bytes"
          % (os.path.basename(out), info["size"]))
    return 0


def find_firmware(firmware=None, out=None):
    """The MicroPython image: --firmware, else where the emulated Pico finds
    its own (OKGIN_RP2_DIR, the cache), else downloaded once (a .uf2 needs
    neither the RP2040 bootrom nor the emulator: host/chip/images.py)."""
    from .chip import images
    if firmware is not None:
        if not os.path.isfile(firmware):
            raise CommandError("--firmware %s: no such file" % firmware)
        return firmware
    return images.find_firmware(out=out or sys.stderr)


