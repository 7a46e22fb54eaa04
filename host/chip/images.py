"""The two images the emulated Pico needs, and its flash file.

- MicroPython for the Raspberry Pi Pico (board RPI_PICO, the stock rp2
  port), version pinned below: a UF2 file, as a user drags onto a Pico.
- The RP2040 bootrom (mask ROM revision B1, 16,384 bytes): the chip runs it
  before anything in flash, and MicroPython calls its flash functions.

Where they come from, first found wins: ``--firmware PATH`` (the UF2
only); ``$OKGIN_RP2_DIR`` (a folder holding both; CI sets it); the per-user
cache (``$XDG_CACHE_HOME/okgin/rp2``, else ``~/.cache/okgin/rp2``); else
they are downloaded into that cache from their official places (or from
``$OKGIN_RP2_MIRROR``, a URL of a folder holding the same files under their
official names: for a network without the internet, and for the install
test, which serves them on 127.0.0.1), with progress, and checked by what can be checked here: every UF2 block names
the RP2040 family and lands in the Pico's 2 MB of flash, the firmware
boots and says it is MicroPython v1.28.0 on a Pico, and the bootrom is the
B1 mask ROM, byte for byte (its SHA-256 below).
"""
import hashlib
import os
import shutil
import struct
import sys
import tempfile
import urllib.error
import urllib.request
from typing import Optional

from ..lib.errors import CommandError

FIRMWARE_VERSION = "1.28.0"
FIRMWARE_FILE = "RPI_PICO-v%s.uf2" % FIRMWARE_VERSION
FIRMWARE_URL = "https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2"
FIRMWARE_PAGE = "https://micropython.org/download/RPI_PICO/"
BOOTROM_FILE = "rp2040-bootrom-b1.bin"
BOOTROM_URL = "https://github.com/raspberrypi/pico-bootrom-rp2040/releases/download/b1/b1.elf"
# The B1 mask ROM is the same 16 KB in every RP2040 of that revision.
BOOTROM_SHA256 = "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"
BOOTROM_SIZE = 16384

FLASH_BASE = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024          # the Pico's W25Q16JV
RP2040_FAMILY = 0xE48BFF56
_UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
_UF2_FAMILY_PRESENT = 0x2000
_UF2_NOT_MAIN_FLASH = 0x1


class ImageError(CommandError):
    """An image is missing, unreachable or not what the emulated Pico needs."""


def url(official):
    """Where to download a file from: its official place, or the same name
    in $OKGIN_RP2_MIRROR."""
    mirror = os.environ.get("OKGIN_RP2_MIRROR")
    if mirror:
        return mirror.rstrip("/") + "/" + official.rsplit("/", 1)[-1]
    return official


def cache_dir():
    from ..lib.paths import cache_dir as okgin_cache
    return okgin_cache("rp2")


# -- UF2 --------------------------------------------------------------------
def uf2_blocks(data, name="the firmware"):
    """(flash offset, payload) of every block of an RP2040 UF2 image; raises
    ImageError naming the first block that is not one."""
    if not data or len(data) % 512:
        raise ImageError("%s is not a UF2 file (its size, %d bytes, is not a multiple of 512)"
                         % (name, len(data)))
    blocks = []
    for i in range(0, len(data), 512):
        m0, m1, flags, addr, size, _n, _total, family = struct.unpack_from("<8I", data, i)
        (end,) = struct.unpack_from("<I", data, i + 508)
        if (m0, m1, end) != _UF2_MAGIC:
            raise ImageError("%s is not a UF2 file (block %d has no UF2 magic numbers)" % (name, i // 512))
        if flags & _UF2_NOT_MAIN_FLASH:
            continue
        if not flags & _UF2_FAMILY_PRESENT or family != RP2040_FAMILY:
            raise ImageError("%s is not an RP2040 image (block %d is for family 0x%08x, not "
                             "RP2040's 0x%08x): is it for a Pico 2 or another board?"
                             % (name, i // 512, family, RP2040_FAMILY))
        if size > 476 or not FLASH_BASE <= addr or addr + size > FLASH_BASE + FLASH_SIZE:
            raise ImageError("%s: block %d writes %d bytes at 0x%08x, outside the Pico's 2 MB flash"
                             % (name, i // 512, size, addr))
        blocks.append((addr - FLASH_BASE, data[i + 32:i + 32 + size]))
    if not blocks:
        raise ImageError("%s holds no blocks for the flash" % name)
    return blocks


def uf2_cut(data):
    """None for a whole UF2 file; for one a copy or download cut short,
    (blocks it holds whole, blocks its blocks say the file has). Every
    block carries its number and the file's block count, and the Pico's
    USB drive restarts into the file only once it has all of them: a cut
    file is taken without a word, and the drive stays."""
    whole = len(data) // 512
    announced = 0
    seen = set()
    for i in range(whole):
        m0, m1, _f, _a, _s, number, total, _fam = struct.unpack_from("<8I", data, i * 512)
        if (m0, m1) != _UF2_MAGIC[:2]:
            continue
        announced = max(announced, total)
        seen.add(number)
    if not announced:
        return None             # not a UF2 file at all: uf2_blocks says so
    if len(data) % 512 or any(n not in seen for n in range(announced)):
        return whole, announced
    return None


def write_uf2(flash_path, uf2_path):
    """Put a UF2 image into a flash file, as the Pico's USB drive does when
    the file is dropped on it: only the blocks it names change, so the
    filesystem (and a saved game) stays. A missing file starts erased."""
    with open(uf2_path, "rb") as f:
        blocks = uf2_blocks(f.read(), os.path.basename(uf2_path))
    if not os.path.exists(flash_path) or os.path.getsize(flash_path) != FLASH_SIZE:
        new_flash(flash_path)
    with open(flash_path, "r+b") as f:
        for off, payload in blocks:
            f.seek(off)
            f.write(payload)


def new_flash(flash_path):
    """An erased 2 MB flash file (all 0xFF)."""
    tmp = flash_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(b"\xff" * FLASH_SIZE)
    os.replace(tmp, flash_path)


def has_firmware(flash_path):
    """Does the flash file hold an image (boot2's first word is not erased)?"""
    try:
        with open(flash_path, "rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return len(head) == 4 and head != b"\xff\xff\xff\xff"


# -- bootrom --------------------------------------------------------------------
def check_bootrom(data, name="the bootrom"):
    if len(data) != BOOTROM_SIZE or hashlib.sha256(data).hexdigest() != BOOTROM_SHA256:
        raise ImageError("%s is not the RP2040 B1 bootrom (%d bytes, SHA-256 %s...; expected %d "
                         "bytes, %s...)" % (name, len(data), hashlib.sha256(data).hexdigest()[:12],
                                            BOOTROM_SIZE, BOOTROM_SHA256[:12]))
    return data


def bootrom_from_elf(elf):
    """The 16 KB ROM image from the official b1.elf: its loadable segments
    that lie in the ROM's address range (0x0000-0x3FFF)."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise ImageError("the downloaded bootrom is not a 32-bit little-endian ELF file")
    (phoff,) = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    rom = bytearray(BOOTROM_SIZE)
    found = False
    for k in range(phnum):
        p_type, p_offset, _vaddr, p_paddr, p_filesz = struct.unpack_from("<5I", elf, phoff + k * phentsize)
        if p_type != 1 or p_paddr >= BOOTROM_SIZE or not p_filesz:
            continue
        n = min(p_filesz, BOOTROM_SIZE - p_paddr)
        rom[p_paddr:p_paddr + n] = elf[p_offset:p_offset + n]
        found = True
    if not found:
        raise ImageError("the downloaded bootrom ELF has nothing to load at address 0")
    return bytes(rom)


# -- finding them -----------------------------------------------------------------
def _in_dir(folder):
    """(firmware, bootrom) paths in a folder like ../shared/rp2 or the cache."""
    fw: Optional[str] = os.path.join(folder, FIRMWARE_FILE)
    if not os.path.exists(fw or ""):
        # the official file name carries the build date
        cands = sorted(n for n in os.listdir(folder)
                       if n.startswith("RPI_PICO-") and n.endswith("-v%s.uf2" % FIRMWARE_VERSION))
        fw = os.path.join(folder, cands[0]) if cands else None
    rom = os.path.join(folder, BOOTROM_FILE)
    return fw, (rom if os.path.exists(rom) else None)


def find_images(firmware=None, download=True, out=None, firmware_url=None,
                bootrom_url=None, cache=None, boots=None):
    """(firmware UF2 path, bootrom path) for the emulated Pico. Raises
    ImageError with a one-line explanation when they cannot be had.
    ``boots(firmware, bootrom)`` boots a downloaded firmware and returns
    its banner (okgin.chip.chipboard.boot_banner): a firmware is only
    downloaded when it is given."""
    out = sys.stderr if out is None else out
    fw = rom = None
    env = os.environ.get("OKGIN_RP2_DIR")
    if env:
        if not os.path.isdir(env):
            raise ImageError("OKGIN_RP2_DIR=%s is not a folder (it should hold %s and %s)"
                             % (env, FIRMWARE_FILE, BOOTROM_FILE))
        fw, rom = _in_dir(env)
        if (fw is None and firmware is None) or rom is None:
            raise ImageError("OKGIN_RP2_DIR=%s lacks %s: it should hold the MicroPython image (%s) "
                             "and the RP2040 bootrom (%s)" % (
                                 env, FIRMWARE_FILE if fw is None and firmware is None else BOOTROM_FILE,
                                 FIRMWARE_FILE, BOOTROM_FILE))
    cache = cache or cache_dir()
    if rom is None or (fw is None and firmware is None):
        if os.path.isdir(cache):
            cfw, crom = _in_dir(cache)
            fw, rom = fw or cfw, rom or crom
    if firmware is not None:
        if not os.path.isfile(firmware):
            raise ImageError("--firmware %s: no such file" % firmware)
        fw = firmware
    if rom is None:
        if not download:
            raise ImageError("the RP2040 bootrom is missing: put %s in %s or set OKGIN_RP2_DIR"
                             % (BOOTROM_FILE, cache))
        rom = fetch_bootrom(cache, bootrom_url or url(BOOTROM_URL), out)
    if fw is None:
        if not download or boots is None:
            raise ImageError("MicroPython for the Pico is missing: put %s in %s or set OKGIN_RP2_DIR"
                             % (FIRMWARE_FILE, cache))
        fw = fetch_firmware(cache, rom, firmware_url or url(FIRMWARE_URL), out, boots)
    with open(fw, "rb") as f:
        uf2_blocks(f.read(), os.path.basename(fw))
    with open(rom, "rb") as f:
        check_bootrom(f.read(), rom)
    return fw, rom


def find_firmware(download=True, out=None, firmware_url=None, cache=None):
    """The MicroPython image alone (okgin uf2: a .uf2 needs no bootrom, nor
    the emulator): $OKGIN_RP2_DIR, the cache, else downloaded into the
    cache and checked without booting it (check_firmware)."""
    out = sys.stderr if out is None else out
    cache = cache or cache_dir()
    for folder in (os.environ.get("OKGIN_RP2_DIR"), cache):
        if folder and os.path.isdir(folder):
            fw, _rom = _in_dir(folder)
            if fw:
                with open(fw, "rb") as f:
                    uf2_blocks(f.read(), fw)
                return fw
    if not download:
        raise ImageError("MicroPython for the Pico is missing: put %s in %s or set OKGIN_RP2_DIR"
                         % (FIRMWARE_FILE, cache))
    return fetch_firmware_unbooted(cache, firmware_url or url(FIRMWARE_URL), out)


def check_firmware(data, name, hint=""):
    """A UF2 for the RP2040 whose code names this MicroPython version and
    the Pico board (the strings its banner prints): the check a download
    gets when it cannot be booted here."""
    flash = b"".join(p for _off, p in uf2_blocks(data, name))
    want = ("MicroPython v%s" % FIRMWARE_VERSION).encode()
    if want not in flash or b"Raspberry Pi Pico with RP2040" not in flash:
        raise ImageError("%s is not MicroPython v%s for the Raspberry Pi Pico%s"
                         % (name, FIRMWARE_VERSION, "; " + hint if hint else ""))
    return data


def _firmware_hint(cache):
    return ("download MicroPython v%s for RPI_PICO (%s) and save it as %s in %s; or set "
            "OKGIN_RP2_DIR to a folder holding it" % (FIRMWARE_VERSION, FIRMWARE_PAGE, FIRMWARE_FILE, cache))


# -- downloading --------------------------------------------------------------------
def download(url, what, out, hint):
    """The bytes at url, with a progress line on out; ImageError (one line,
    saying what to download and where to put it) when it cannot be had."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            total = int(r.headers.get("Content-Length") or 0)
            data = bytearray()
            shown = -1
            while True:
                chunk = r.read(65536)
                if not chunk:
                    break
                data += chunk
                pct = len(data) * 100 // total if total else -1
                if pct != shown:
                    shown = pct
                    size = ("%d%% of %d KB" % (pct, total // 1024)) if total else ("%d KB" % (len(data) // 1024))
                    out.write("\rokgin: downloading %s: %s " % (what, size))
                    out.flush()
            out.write("\n")
            out.flush()
            return bytes(data)
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise ImageError("cannot download %s from %s (%s): %s" % (what, url, reason, hint)) from None


def _store(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=name + ".")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    path = os.path.join(folder, name)
    os.replace(tmp, path)
    return path


def fetch_bootrom(cache, url, out):
    hint = ("download %s yourself and save it, or the 16 KB ROM it holds, as %s in %s; "
            "or set OKGIN_RP2_DIR to a folder holding %s and %s"
            % (url, BOOTROM_FILE, cache, FIRMWARE_FILE, BOOTROM_FILE))
    data = download(url, "the RP2040 bootrom (%s)" % url.rsplit("/", 1)[-1], out, hint)
    rom = bootrom_from_elf(data) if data[:4] == b"\x7fELF" else data
    check_bootrom(rom, "the downloaded bootrom")
    return _store(cache, BOOTROM_FILE, rom)


def fetch_firmware_unbooted(cache, url, out):
    hint = _firmware_hint(cache)
    data = download(url, "MicroPython v%s for the Pico" % FIRMWARE_VERSION, out, hint)
    check_firmware(data, "the firmware downloaded from %s" % url, hint)
    return _store(cache, FIRMWARE_FILE, data)


def fetch_firmware(cache, bootrom, url, out, boots):
    hint = ("download MicroPython v%s for RPI_PICO (%s) and save it as %s in %s; or set "
            "OKGIN_RP2_DIR to a folder holding it and %s"
            % (FIRMWARE_VERSION, FIRMWARE_PAGE, FIRMWARE_FILE, cache, BOOTROM_FILE))
    data = download(url, "MicroPython v%s for the Pico" % FIRMWARE_VERSION, out, hint)
    uf2_blocks(data, "the downloaded firmware")
    work = tempfile.mkdtemp(prefix="okgin-rp2-")
    try:
        fw = os.path.join(work, FIRMWARE_FILE)
        with open(fw, "wb") as f:
            f.write(data)
        banner = boots(fw, bootrom)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    want = "MicroPython v%s" % FIRMWARE_VERSION
    if want not in banner or "Pico" not in banner:
        raise ImageError("the downloaded firmware boots as %r, not %s on a Raspberry Pi Pico; %s"
                         % (banner.strip()[:80] or "nothing", want, hint))
    out.write("okgin: %s\n" % banner.strip())
    out.flush()
    return _store(cache, FIRMWARE_FILE, data)

