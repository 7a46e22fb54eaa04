"""The page offers the Pico's one file (issue 39: a Pico owner who is not a
programmer needs no Python): okgin.uf2 on the built site, the same bytes
`okgin uf2` writes, with how to put it on; downloaded from the page's link
and dragged onto the emulated Pico, it boots into the game."""
import json
import os
import time
import urllib.request

import pytest

from tests.support.web import open_page


def test_the_page_offers_the_uf2_that_boots_on_a_pico(page, server, tmp_path):
    from tests.support.chip import need_chip
    firmware, _rom = need_chip()
    with open(os.path.join(server.site, "site.json")) as f:
        offer = json.load(f)["uf2"]
    assert offer and offer["file"] == "okgin.uf2" and offer["micropython"] == "1.28.0"
    open_page(page, server.url)
    section = page.find_element("id", "pico")
    assert section.is_displayed()
    text = " ".join(section.text.split())
    assert "Put it on your Pico" in text and "BOOTSEL" in text and "RPI-RP2" in text
    assert "%d KB" % round(offer["bytes"] / 1024) in text and "okgin flash" in text
    link = page.find_element("id", "uf2")
    assert link.get_attribute("download") is not None
    with urllib.request.urlopen(link.get_attribute("href"), timeout=30) as r:
        data = r.read()
    # the same bytes okgin uf2 writes
    from okgin.lib import uf2image
    ours = tmp_path / "ours.uf2"
    uf2image.write(str(ours), firmware)
    assert data == ours.read_bytes()
    # dragged onto an erased Pico, BOOTSEL held: the bootrom writes it and the game answers
    got = tmp_path / "okgin.uf2"
    got.write_bytes(data)
    from okgin.chip import ChipBoard, images
    from okgin.lib import transport
    flash = tmp_path / "flash.bin"
    images.new_flash(str(flash))
    chip = ChipBoard(flash=str(flash), drop=str(got), realtime=False).start()
    try:
        t0 = time.monotonic()
        while not chip.resets:
            assert chip.alive, chip.last_exit
            assert time.monotonic() - t0 < 600, chip.dropped_blocks
            time.sleep(0.2)
        done, total = chip.dropped_blocks
        assert done == total > 0
        board = transport.Board(chip.port, timeout=60).open()
        try:
            board.wait_ready(120, probe_after=0.0)
            assert board.hello()["fw"] == "0.1.0"
        finally:
            board.close()
    finally:
        chip.stop()


def test_without_micropython_for_the_pico_the_page_offers_nothing_and_says_why(tmp_path, monkeypatch,
                                                                                capsys):
    from okgin.web import build, wasm_dir
    from okgin.lib.errors import CommandError
    try:
        wasm_dir()
    except CommandError as e:
        pytest.skip(str(e))
    monkeypatch.delenv("OKGIN_RP2_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    out = build(str(tmp_path / "site"))
    with open(os.path.join(out, "site.json")) as f:
        assert json.load(f)["uf2"] is None
    assert not os.path.exists(os.path.join(out, "okgin.uf2"))
    assert "okgin web: the page offers no okgin.uf2: MicroPython for the Pico is missing" in capsys.readouterr().err
