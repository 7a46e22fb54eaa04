"""Where the emulated Pico's images come from: OKGIN_RP2_DIR, the per-user
cache, or a download (here from a local HTTP server on 127.0.0.1 serving
the same files), each checked before use."""
import functools
import http.server
import io
import os
import re
import struct
import threading

import pytest

from okgin.chip import images
from okgin.chip.chipboard import boot_banner


def _elf(rom):
    """A minimal ELF32 LE file loading rom at address 0 (the shape of the
    official b1.elf: the ROM as a PT_LOAD segment)."""
    ehdr = struct.pack("<4sBBBB8xHHIIIIIHHHHHH", b"\x7fELF", 1, 1, 1, 0, 2, 40, 1, 0,
                       52, 0, 0, 52, 32, 1, 0, 0, 0)
    phdr = struct.pack("<8I", 1, 84, 0, 0, len(rom), len(rom), 5, 4)
    return ehdr + phdr + rom


@pytest.fixture
def server(rp2_images, tmp_path):
    """An HTTP server on 127.0.0.1 with the firmware and the bootrom ELF."""
    fw, rom = rp2_images
    site = tmp_path / "site"
    site.mkdir()
    (site / "RPI_PICO-20260406-v1.28.0.uf2").write_bytes(open(fw, "rb").read())
    (site / "b1.elf").write_bytes(_elf(open(rom, "rb").read()))
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % httpd.server_address[1], site
    httpd.shutdown()


def test_download_fills_the_cache_and_checks_what_it_got(server, tmp_path, monkeypatch):
    base, _ = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    cache = str(tmp_path / "cache")
    out = io.StringIO()
    fw, rom = images.find_images(out=out, cache=cache, firmware_url=base + "RPI_PICO-20260406-v1.28.0.uf2",
                                 bootrom_url=base + "b1.elf", boots=boot_banner)
    assert fw == os.path.join(cache, images.FIRMWARE_FILE)
    assert rom == os.path.join(cache, images.BOOTROM_FILE)
    text = out.getvalue()
    assert "downloading the RP2040 bootrom" in text and "100% of 16 KB" in text
    assert "downloading MicroPython v1.28.0" in text
    # the downloaded image was booted and named itself
    assert "MicroPython v1.28.0 on" in text and "Raspberry Pi Pico with RP2040" in text
    # the next time: from the cache, nothing downloaded
    out2 = io.StringIO()
    assert images.find_images(out=out2, cache=cache, firmware_url=base + "nothing-here",
                              bootrom_url=base + "nothing-here", boots=boot_banner) == (fw, rom)
    assert out2.getvalue() == ""


def test_no_network_is_one_line_saying_what_to_get_and_where(tmp_path, monkeypatch):
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    with pytest.raises(images.ImageError) as e:
        images.find_images(out=io.StringIO(), cache=str(tmp_path / "c"),
                           firmware_url="http://127.0.0.1:9/RPI_PICO.uf2",
                           bootrom_url="http://127.0.0.1:9/b1.elf", boots=boot_banner)
    msg = str(e.value)
    assert "\n" not in msg
    assert "cannot download" in msg and "127.0.0.1:9/b1.elf" in msg
    assert images.BOOTROM_FILE in msg and str(tmp_path / "c") in msg and "OKGIN_RP2_DIR" in msg


def test_a_server_answering_garbage_is_refused(server, tmp_path, monkeypatch):
    base, site = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    (site / "junk.uf2").write_bytes(b"<html>not found</html>" * 100)
    cache = str(tmp_path / "cache")
    with pytest.raises(images.ImageError, match="not a UF2 file"):
        images.find_images(out=io.StringIO(), cache=cache, firmware_url=base + "junk.uf2",
                           bootrom_url=base + "b1.elf", boots=boot_banner)
    assert not os.path.exists(os.path.join(cache, images.FIRMWARE_FILE))
    with pytest.raises(images.ImageError, match="not the RP2040 B1 bootrom"):
        images.find_images(out=io.StringIO(), cache=str(tmp_path / "c2"),
                           firmware_url=base + "RPI_PICO-20260406-v1.28.0.uf2",
                           bootrom_url=base + "junk.uf2", boots=boot_banner)


def test_a_download_for_another_chip_is_refused_and_not_kept(server, tmp_path, monkeypatch):
    """A UF2 for the Pico 2 (RP2350's family id in its blocks) from the
    download place: refused before it is booted or cached."""
    base, site = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    data = bytearray((site / "RPI_PICO-20260406-v1.28.0.uf2").read_bytes())
    for off in range(0, len(data), 512):
        struct.pack_into("<I", data, off + 28, 0xE48BFF59)
    (site / "RPI_PICO2.uf2").write_bytes(bytes(data))
    cache = tmp_path / "cache"
    out = io.StringIO()
    with pytest.raises(images.ImageError) as e:
        images.find_images(out=out, cache=str(cache), firmware_url=base + "RPI_PICO2.uf2",
                           bootrom_url=base + "b1.elf", boots=boot_banner)
    msg = str(e.value)
    assert "\n" not in msg
    assert "not an RP2040 image" in msg and "0xe48bff59" in msg and "Pico 2" in msg
    assert "downloading MicroPython v1.28.0" in out.getvalue()
    assert "MicroPython v1.28.0 on" not in out.getvalue()        # never booted
    assert not (cache / images.FIRMWARE_FILE).exists()
    assert (cache / images.BOOTROM_FILE).exists()               # the good one is kept


def test_download_progress_counts_up_to_the_whole_file(server, tmp_path, monkeypatch):
    base, site = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    size = (site / "RPI_PICO-20260406-v1.28.0.uf2").stat().st_size
    out = io.StringIO()
    data = images.download(base + "RPI_PICO-20260406-v1.28.0.uf2", "MicroPython", out, "hint")
    assert len(data) == size
    steps = [int(m) for m in re.findall(r"(\d+)% of", out.getvalue())]
    assert len(steps) >= size // 65536 and steps == sorted(steps) and steps[-1] == 100
    assert ("of %d KB" % (size // 1024)) in out.getvalue() and out.getvalue().endswith("\n")


def test_no_network_for_the_firmware_names_it_and_the_folder(server, tmp_path, monkeypatch):
    """The bootrom is already cached; the firmware cannot be fetched: one
    line with the file to get, where to get it and where to put it."""
    base, _ = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    cache = tmp_path / "cache"
    images.find_images(out=io.StringIO(), cache=str(cache), firmware_url=base + "RPI_PICO-20260406-v1.28.0.uf2",
                       bootrom_url=base + "b1.elf", boots=boot_banner)
    (cache / images.FIRMWARE_FILE).unlink()
    with pytest.raises(images.ImageError) as e:
        images.find_images(out=io.StringIO(), cache=str(cache),
                           firmware_url="http://127.0.0.1:9/RPI_PICO.uf2", bootrom_url="http://127.0.0.1:9/b1.elf", boots=boot_banner)
    msg = str(e.value)
    assert "\n" not in msg
    assert "cannot download MicroPython v1.28.0" in msg and "127.0.0.1:9/RPI_PICO.uf2" in msg
    assert images.FIRMWARE_PAGE in msg and images.FIRMWARE_FILE in msg and str(cache) in msg


def test_uf2_blocks_for_another_chip_are_refused(rp2_images):
    data = bytearray(open(rp2_images[0], "rb").read())
    struct.pack_into("<I", data, 512 * 3 + 28, 0xE48BFF59)     # an RP2350 block
    with pytest.raises(images.ImageError, match="block 3 is for family 0xe48bff59"):
        images.uf2_blocks(bytes(data), "x.uf2")


def test_okgin_rp2_dir_must_hold_both_images(tmp_path, monkeypatch):
    (tmp_path / images.FIRMWARE_FILE).write_bytes(b"")
    monkeypatch.setenv("OKGIN_RP2_DIR", str(tmp_path))
    with pytest.raises(images.ImageError, match="lacks rp2040-bootrom-b1.bin"):
        images.find_images(download=False)


def test_a_uf2_updates_the_flash_and_keeps_the_filesystem(rp2_images, tmp_path):
    flash = str(tmp_path / "f.bin")
    images.write_uf2(flash, rp2_images[0])
    assert os.path.getsize(flash) == images.FLASH_SIZE and images.has_firmware(flash)
    with open(flash, "r+b") as f:                 # something in the filesystem area
        f.seek(0x1F0000)
        f.write(b"saved game")
    images.write_uf2(flash, rp2_images[0])        # dropping the .uf2 again
    with open(flash, "rb") as f:
        f.seek(0x1F0000)
        assert f.read(10) == b"saved game"


def test_okgin_board_chip_refuses_a_pico2_image_in_one_line(rp2_images, tmp_path):
    """The user's own --firmware for the wrong chip: `okgin: ...`, exit 1,
    no traceback, and the flash file untouched."""
    import subprocess
    import sys
    from tests.support.chip import ROOT
    data = bytearray(open(rp2_images[0], "rb").read())
    for off in range(0, len(data), 512):
        struct.pack_into("<I", data, off + 28, 0xE48BFF59)
    wrong = tmp_path / "RPI_PICO2-v1.28.0.uf2"
    wrong.write_bytes(bytes(data))
    flash = tmp_path / "pico.bin"
    r = subprocess.run([sys.executable, "-m", "okgin.cli", "board", "--chip", "--firmware", str(wrong),
                        "--flash", str(flash)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    err = r.stderr.strip()
    assert "Traceback" not in r.stderr and len(err.splitlines()) == 1, r.stderr
    assert err.startswith("okgin: ") and "not an RP2040 image" in err and wrong.name in err
    assert not flash.exists()


def test_a_firmware_nobody_can_boot_is_not_downloaded(server, tmp_path, monkeypatch):
    # find_images downloads a firmware only with a way to boot it and read
    # its banner (the emulated Pico's boot_banner): never an unchecked one
    base, _ = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    cache = tmp_path / "cache"
    with pytest.raises(images.ImageError, match="MicroPython for the Pico is missing"):
        images.find_images(out=io.StringIO(), cache=str(cache),
                           firmware_url=base + "RPI_PICO-20260406-v1.28.0.uf2",
                           bootrom_url=base + "b1.elf")
    assert not (cache / images.FIRMWARE_FILE).exists()


def test_the_firmware_alone_is_downloaded_for_a_uf2_without_the_bootrom(server, tmp_path, monkeypatch):
    """okgin uf2 on a new machine (issue 39): MicroPython only, from the
    mirror OKGIN_RP2_MIRROR names, checked without booting it (no bootrom,
    no emulator: a .uf2 needs neither), and kept for the next time."""
    base, site = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    monkeypatch.setenv("OKGIN_RP2_MIRROR", base)
    (site / "b1.elf").unlink()            # a bootrom download would fail
    cache = tmp_path / "cache"
    out = io.StringIO()
    fw = images.find_firmware(out=out, cache=str(cache))
    assert fw == str(cache / images.FIRMWARE_FILE)
    assert "downloading MicroPython v1.28.0 for the Pico" in out.getvalue()
    assert "bootrom" not in out.getvalue() and not (cache / images.BOOTROM_FILE).exists()
    assert (cache / images.FIRMWARE_FILE).read_bytes() == (site / "RPI_PICO-20260406-v1.28.0.uf2").read_bytes()
    out2 = io.StringIO()
    assert images.find_firmware(out=out2, cache=str(cache)) == fw and out2.getvalue() == ""


def test_a_downloaded_uf2_that_is_not_micropython_for_the_pico_is_not_kept(server, tmp_path, monkeypatch):
    base, site = server
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    data = (site / "RPI_PICO-20260406-v1.28.0.uf2").read_bytes()
    (site / "other.uf2").write_bytes(data.replace(b"MicroPython v1.28.0", b"MicroPython v1.27.0"))
    cache = tmp_path / "cache"
    with pytest.raises(images.ImageError) as e:
        images.find_firmware(out=io.StringIO(), cache=str(cache), firmware_url=base + "other.uf2")
    msg = str(e.value)
    assert "\n" not in msg and "not MicroPython v1.28.0 for the Raspberry Pi Pico" in msg
    assert images.FIRMWARE_PAGE in msg and not (cache / images.FIRMWARE_FILE).exists()
