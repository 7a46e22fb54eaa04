"""The device's language (docs/architecture.md "Languages"): the menu's
Language item names each language in its own name and switches both panels
at once, the choice survives a power cut (settings.json), the serial port's
lang command and newgame's lang= set the same thing, and a bad code is an
error that changes nothing."""
import json
import os

from tests.support.harness import RunningFirmware, make_flash


def _boot(tmp_path):
    b = RunningFirmware(make_flash(str(tmp_path / "flash")))
    b.start()
    return b


def _panels(b):
    return [b.vb.panel_image(p).tobytes() for p in (0, 1)]


def _settings(b):
    with open(os.path.join(b.flash, "settings.json")) as f:
        return json.load(f)


def test_the_menu_switches_language_live_and_keeps_it(tmp_path):
    b = _boot(tmp_path)
    try:
        assert b.ok("lang") == "OK lang=en langs=en,ko,lt,sw"
        b.vb.press(0, "left")          # the last item: Language
        b.ok("sync")
        english = _panels(b)
        seen = [english]
        for code in ("ko", "lt", "sw", "en"):
            b.vb.press(0, "ok")        # the next language, on both panels at once
            b.ok("sync")
            assert b.ok("lang").startswith("OK lang=%s " % code)
            assert _settings(b)["lang"] == code
            now = _panels(b)
            assert now[1] != seen[-1][1], "player 2's panel did not follow (%s)" % code
            seen.append(now)
        assert seen[-1] == english     # round the four and back: the same pixels
        assert len({s[0] for s in seen}) == 4
        # kept across a power cut
        b.vb.press(0, "ok")            # Korean again
        b.ok("sync")
        korean = _panels(b)
        b.power_cut_and_boot()
        b.ok("sync")
        assert b.ok("lang").startswith("OK lang=ko ")
        b.vb.press(0, "left")          # the menu at its last item again
        b.ok("sync")
        assert _panels(b) == korean
    finally:
        b.stop()


def test_the_serial_port_sets_the_language_and_refuses_a_bad_code(tmp_path):
    b = _boot(tmp_path)
    try:
        before = _panels(b)
        assert b.cmd("lang xx") == "ERR usage: lang [en|ko|lt|sw]"
        assert b.cmd("lang ko lt") == "ERR usage: lang [en|ko|lt|sw]"
        b.ok("sync")
        assert _panels(b) == before and b.ok("lang").startswith("OK lang=en ")
        assert b.ok("lang lt") == "OK lang=lt"
        b.ok("sync")
        assert _panels(b) != before and _settings(b)["lang"] == "lt"
        # newgame's lang=, checked with everything else first
        b.ok("testmode on")
        assert b.cmd("newgame seed=3 lang=xx").startswith("ERR lang must be one of")
        assert b.cmd("newgame seed=3 lang=ko gin_bonus=abc").startswith("ERR ")
        assert b.ok("lang").startswith("OK lang=lt ")
        b.ok("newgame seed=3 lang=ko")
        assert b.ok("lang").startswith("OK lang=ko ")
    finally:
        b.stop()


def test_a_language_missing_from_the_flash_falls_back_to_english(tmp_path):
    """settings.json naming a language whose files are gone (a flash made
    by an older okgin, a hand edit): the table boots in English."""
    flash = make_flash(str(tmp_path / "flash"))
    with open(os.path.join(flash, "settings.json"), "w") as f:
        json.dump({"lang": "fr"}, f)
    b = RunningFirmware(flash)
    b.start()
    try:
        assert b.ok("lang").startswith("OK lang=en ")
        assert b.ok("status").startswith("OK screen=menu")
    finally:
        b.stop()


def test_a_flash_without_its_languages_still_boots(tmp_path):
    """lang/ gone from the flash (a hand-made copy, a failed flash): the
    table boots and answers, showing its texts' keys in framebuf's own
    font, so that okgin flash can put it right; never a crash at boot."""
    import shutil
    flash = make_flash(str(tmp_path / "flash"))
    shutil.rmtree(os.path.join(flash, "lang"))
    b = RunningFirmware(flash)
    b.start()
    try:
        assert b.ok("status").startswith("OK screen=menu")
        assert b.ok("lang") == "OK lang=en langs=en"
        b.ok("sync")
        assert any(b.vb.panel_image(0).tobytes())
    finally:
        b.stop()
