"""The Pico's one file (``okgin uf2``, the web page's okgin.uf2): MicroPython
and the game, as the RP2040 bootrom writes a dropped file.

A Pico owner installs a MicroPython program by holding BOOTSEL, plugging
the Pico in and dragging a .uf2 file onto the RPI-RP2 drive that appears.
``okgin uf2 -o okgin.uf2`` writes such a file: the stock MicroPython image
for the Pico (the pinned one the emulated Pico runs, host/chip/images.py)
followed by a littlefs2 image of what ``okgin flash`` would put on the
board (the compiled engine and firmware, board.json, boot.py, the list of
files okgin flash keeps), so the first power-on after the drag boots into
the game.

The RP2040 bootrom writes a dropped file block by block (its
virtual_disk.c), and three of its habits shape the file:

- every block must carry the same total block count, so MicroPython's
  image and the filesystem are one numbering, 0 .. total-1, not two files
  joined;
- it erases a 4 KB sector when the first block of a *number* group
  (block number // 16) arrives, at that block's address: each sector the
  file touches is written whole, by 16 blocks whose numbers form one such
  group. MicroPython's image ends in the middle of a sector, so blocks of
  0xFF pad it to the sector's end (without them the filesystem's first
  sector was erased after its first pages were written: a corrupt
  filesystem even on a blank Pico);
- it writes only the blocks in the file, and littlefs picks the newer of
  a metadata pair's two blocks: every block the new filesystem can reach
  (both halves of each metadata pair, erased or not, and every data block)
  is in the file, so nothing of a filesystem that was on the Pico before
  can be mistaken for part of the new one.

Dropping the file replaces the whole filesystem: a table's saved game,
settings and statistics are gone. ``okgin flash`` updates the firmware in
place and keeps them.
"""
import json
import os
import shutil
import struct
import tempfile
from typing import Any

from .errors import CommandError

# MicroPython v1.28.0 for RPI_PICO (the image host/chip/images.py pins): its
# .mpy ABI (sys.implementation._mpy: v6.3, arch armv6m) and where its rp2
# port keeps the filesystem (ports/rp2 MICROPY_HW_FLASH_STORAGE_BYTES and
# the linker's flash layout: the last 1408 KB of the 2 MB flash), which
# vfs.VfsLfs2(rp2.Flash(), progsize=256) mounts with read size 32,
# lookahead 32 and a cache of 4 x max(read, prog) = 1 KB.
MPY_ABI = (6, 3)
MARCH = "armv6m"
FS_OFFSET = 0xA0000
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
LFS: "dict[str, Any]" = {
    "block_size": BLOCK_SIZE, "block_count": BLOCK_COUNT, "read_size": 32, "prog_size": 256,
    "cache_size": 1024, "lookahead_size": 32, "name_max": 255,
    "disk_version": 0x00020000,   # littlefs 2.0 on disk: what every v2 reads
}
FLASH_BASE = 0x10000000
PAGE = 256
PAGES_PER_SECTOR = BLOCK_SIZE // PAGE
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY_PRESENT = 0x2000
RP2040_FAMILY = 0xE48BFF56

# -- the files ------------------------------------------------------------------------
def device_files(src_root=None, board_json=None):
    """[(device path, bytes)] exactly as `okgin flash` writes them to a Pico
    with this MicroPython, plus the list it keeps of what it wrote."""
    from .build import MANIFEST, build, choose_mpy_cross
    from .paths import ROOT
    cross = choose_mpy_cross(*MPY_ABI)
    work = tempfile.mkdtemp(prefix="okgin-uf2-")
    try:
        files = build(src_root or ROOT, work, cross, MARCH, board_json)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return files + [(MANIFEST, json.dumps([p for p, _ in files]).encode())]


def filesystem(files):
    """(image bytes, the blocks the filesystem can reach, sorted)."""
    from littlefs import LittleFS, UserContext
    ctx = UserContext(BLOCK_SIZE * BLOCK_COUNT)
    fs = LittleFS(context=ctx, mount=False, **LFS)
    fs.format()
    fs.mount()
    for path, data in files:
        if "/" in path:
            fs.makedirs(path.rsplit("/", 1)[0], exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    fs.unmount()
    image = bytes(ctx.buffer)
    return image, reachable(image)


def reachable(image):
    """Every block a mount of ``image`` reads while everything in it is
    listed and read: both blocks of each metadata pair (littlefs reads both
    revision counts to pick the newer) and every data block."""
    from littlefs import LittleFS, UserContext

    class Recorder(UserContext):
        def __init__(self):
            super().__init__(buffer=bytearray(image))
            self.seen = set()

        def read(self, cfg, block, off, size):
            self.seen.add(block)
            return super().read(cfg, block, off, size)

    ctx = Recorder()
    fs = LittleFS(context=ctx, mount=True, **LFS)
    for top, _dirs, names in fs.walk("/"):
        for n in names:
            with fs.open(top.rstrip("/") + "/" + n, "rb") as f:
                f.read()
    fs.fs_stat()
    fs.unmount()
    return sorted(ctx.seen)


# -- UF2 --------------------------------------------------------------------------------
def read_uf2(data, name):
    """[(address, payload)] of a UF2 image for the RP2040, in file order."""
    if not data or len(data) % 512:
        raise CommandError("%s is not a UF2 file" % name)
    blocks = []
    for i in range(0, len(data), 512):
        m0, m1, flags, addr, size, _n, _total, family = struct.unpack_from("<8I", data, i)
        (end,) = struct.unpack_from("<I", data, i + 508)
        if (m0, m1, end) != UF2_MAGIC or not flags & UF2_FAMILY_PRESENT or family != RP2040_FAMILY \
                or size != PAGE or addr % PAGE:
            raise CommandError("%s: block %d is not an RP2040 UF2 block of 256 bytes" % (name, i // 512))
        blocks.append((addr, data[i + 32:i + 32 + size]))
    return blocks


def uf2_block(addr, payload, number, total):
    head = struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FAMILY_PRESENT, addr, PAGE,
                       number, total, RP2040_FAMILY)
    return head + payload + b"\0" * (476 - PAGE) + struct.pack("<I", UF2_MAGIC[2])


def layout(firmware_blocks, image, fs_blocks):
    """The file's blocks as (address, payload), in order: MicroPython's
    pages, 0xFF pages to the end of its last sector, then each reachable
    filesystem block as one whole sector. Checked: block i // 16 and
    address // 4096 name the same sector for every block."""
    pages = list(firmware_blocks)
    addrs = [a for a, _ in pages]
    if addrs != list(range(FLASH_BASE, FLASH_BASE + PAGE * len(pages), PAGE)):
        raise CommandError("the MicroPython image is not one run of pages from the flash's start")
    while len(pages) % PAGES_PER_SECTOR:
        pages.append((FLASH_BASE + PAGE * len(pages), b"\xff" * PAGE))
    if FLASH_BASE + PAGE * len(pages) > FLASH_BASE + FS_OFFSET:
        raise CommandError("the MicroPython image reaches into the filesystem at 0x%x" % FS_OFFSET)
    for b in fs_blocks:
        base = FLASH_BASE + FS_OFFSET + b * BLOCK_SIZE
        for k in range(PAGES_PER_SECTOR):
            at = b * BLOCK_SIZE + k * PAGE
            pages.append((base + k * PAGE, image[at:at + PAGE]))
    for i, (addr, _p) in enumerate(pages):
        first = pages[i - i % PAGES_PER_SECTOR][0]
        assert addr // BLOCK_SIZE == first // BLOCK_SIZE and addr == first + PAGE * (i % PAGES_PER_SECTOR)
    return pages


def build_uf2(firmware, board_json=None, src_root=None):
    """(UF2 bytes, figures)."""
    with open(firmware, "rb") as f:
        mp = read_uf2(f.read(), os.path.basename(firmware))
    files = device_files(src_root, board_json)
    image, fs_blocks = filesystem(files)
    pages = layout(mp, image, fs_blocks)
    data = b"".join(uf2_block(a, p, i, len(pages)) for i, (a, p) in enumerate(pages))
    return data, {"size": len(data), "blocks": len(pages), "files": len(files),
                  "bytes": sum(len(d) for _p, d in files), "fs_blocks": len(fs_blocks),
                  "micropython_blocks": len(mp)}


def write(out, firmware, board_json=None, src_root=None):
    data, info = build_uf2(firmware, board_json, src_root)
    tmp = out + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except OSError:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return info
