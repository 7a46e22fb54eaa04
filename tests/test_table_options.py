"""The table options (--chip, --board, --speed, --heapsize, --flash-dir) are
one set, declared and checked once (okgin.table.options): the same bad
value gets the same line and the same exit code from every command that
takes the option, before anything is started or written (issue 38). A
malformed value is a usage error (exit 2, "okgin CMD: error: argument
--X: ..."); a value the world does not bear out is one line "okgin: ..."
(exit 1). docs/architecture.md's table says which command takes which.

Run in-process (cli.main, as tests/test_cli.py): no board starts unless a
check is missing, which is what these tests catch."""
import os
import re

import pytest

from okgin import cli

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@pytest.fixture(autouse=True)
def nothing_starts(monkeypatch, tmp_path):
    """A check that is missing lets the command go on: then no board may
    start in this process (no MicroPython, no Node for the emulated Pico),
    so the test fails at once instead of serving a board for ever; and the
    signal handlers a command sets are put back."""
    import signal
    monkeypatch.setenv("OKGIN_MICROPYTHON", str(tmp_path / "no-micropython"))
    monkeypatch.setenv("OKGIN_NODE", str(tmp_path / "no-node"))
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, h in handlers.items():
        signal.signal(s, h)


@pytest.fixture
def place(tmp_path):
    """What the commands need besides the option under test: a script, a
    game record, folders to write into (never written: the option is
    refused first)."""
    (tmp_path / "s.txt").write_text("sync\n")
    (tmp_path / "game.okg").write_text("not read: the options are checked first\n")
    (tmp_path / "a-file").write_text("not a directory\n")
    (tmp_path / "bad-board.json").write_text('{"bad": 1}')
    return tmp_path


def _commands(place):
    """How each command is started, up to the option under test."""
    return {
        "sim": ["sim", "--headless", "--script", str(place / "s.txt")],
        "board": ["board"],
        "hil": ["hil", "--sim"],
        "replay": ["replay", str(place / "game.okg")],
        "faults": ["faults", "--quick"],
        "stats": ["stats"],
        "web": ["web", "--build", str(place / "site")],
        "screenshots": ["screenshots", "--out", str(place / "shots")],
        "flash": ["flash"],
        "uf2": ["uf2", "-o", str(place / "okgin.uf2")],
        "bench chip": ["bench", "chip"],
        "bench bots": ["bench", "bots"],
        "bench power": ["bench", "power", "--quick"],
    }


def okgin(argv, capsys):
    """(exit status, the last line on stderr) of okgin ``argv``."""
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err.strip().splitlines()
    return code, err[-1] if err else ""


def _same(results):
    """Every command's (status, line): one answer, whatever the command
    (the command's own name in a usage error taken out)."""
    answers = {(code, re.sub(r"^okgin [a-z ]+?: error:", "okgin CMD: error:", line))
               for code, line in results.values()}
    assert len(answers) == 1, "\n".join("%s: %s %s" % (k, c, ln) for k, (c, ln) in results.items())
    return answers.pop()


def _taking(option):
    """The commands whose parser declares ``option`` (the docs' table is
    checked against the same parsers below)."""
    return sorted(c for c, opts in declared().items() if option in opts)


@pytest.mark.parametrize("value, says", [
    ("-1", "argument --speed: -1: must be between 0 (instant e-ink) and 100"),
    ("fast", "argument --speed: not a number: 'fast'"),
    ("nan", "argument --speed: nan: must be between 0"),
    ("101", "argument --speed: 101: must be between 0"),
])
def test_a_malformed_speed_is_the_same_usage_error_everywhere(value, says, place, capsys):
    cmds = _commands(place)
    assert _taking("--speed") == ["board", "replay", "sim"]
    got = {c: okgin(cmds[c] + ["--speed", value], capsys) for c in _taking("--speed")}
    code, line = _same(got)
    assert code == 2 and says in line


@pytest.mark.parametrize("value", ["10x", "0", "-5", "1.5M", "K"])
def test_a_malformed_heapsize_is_the_same_usage_error_everywhere(value, place, capsys):
    cmds = _commands(place)
    assert _taking("--heapsize") == ["board", "hil", "sim"]
    got = {c: okgin(cmds[c] + ["--heapsize", value], capsys) for c in _taking("--heapsize")}
    code, line = _same(got)
    assert code == 2
    assert line.endswith("argument --heapsize: %r: expected bytes like 131072, 128K or 1M" % value)


def test_heapsize_and_flash_dir_with_chip_are_the_same_line_everywhere(place, capsys):
    chip = {"sim": ["sim", "--chip", "--headless", "--script", str(place / "s.txt")],
            "board": ["board", "--chip"], "hil": ["hil", "--chip"]}
    got = {c: okgin(argv + ["--heapsize", "128K"], capsys) for c, argv in chip.items()}
    assert _same(got) == (1, "okgin: --heapsize is for the virtual board, not --chip "
                             "(the emulated Pico has the rp2 port's heap)")
    got = {c: okgin(chip[c] + ["--flash-dir", str(place)], capsys) for c in ("sim", "board")}
    assert _same(got) == (1, "okgin: --flash-dir is for the virtual board, not --chip "
                             "(the emulated Pico's flash is a 2 MB image file)")


def test_a_missing_board_definition_is_the_same_line_everywhere(place, capsys):
    cmds = _commands(place)
    assert len(_taking("--board")) == 10
    missing = place / "missing.json"
    got = {c: okgin(cmds[c] + ["--board", str(missing)], capsys) for c in _taking("--board")}
    assert _same(got) == (1, "okgin: board definition %s not found" % missing)
    # a name under hardware/ works from any folder, and is named in full
    got = {c: okgin(cmds[c] + ["--board", "no-such-board.json"], capsys)
           for c in ("sim", "board", "uf2", "bench chip")}
    assert _same(got) == (1, "okgin: board definition %s not found"
                             % os.path.join(ROOT, "hardware", "no-such-board.json"))


def test_an_invalid_board_definition_is_the_same_line_everywhere(place, capsys):
    """Checked with the firmware's own validator before anything else
    (okgin uf2 used to download MicroPython first; okgin board said it
    without "is invalid")."""
    cmds = _commands(place)
    bad = place / "bad-board.json"
    got = {c: okgin(cmds[c] + ["--board", str(bad)], capsys) for c in _taking("--board")}
    code, line = _same(got)
    assert code == 1 and line.startswith("okgin: board definition %s is invalid: " % bad)
    assert not (place / "site").exists() and not (place / "okgin.uf2").exists()


def test_a_flash_dir_that_is_a_file_or_nowhere_is_the_same_line_everywhere(place, capsys):
    cmds = _commands(place)
    assert _taking("--flash-dir") == ["board", "sim", "stats"]
    f = place / "a-file"
    got = {c: okgin(cmds[c] + ["--flash-dir", str(f)], capsys) for c in _taking("--flash-dir")}
    assert _same(got) == (1, "okgin: --flash-dir %s is not a directory" % f)
    nowhere = place / "nowhere"
    got = {c: okgin(cmds[c] + ["--flash-dir", str(nowhere)], capsys) for c in _taking("--flash-dir")}
    for c, (code, line) in got.items():
        # what makes one is each command's own hint
        assert code == 1 and line.startswith("okgin: --flash-dir %s does not exist (mistyped? " % nowhere), c
    assert not nowhere.exists()


def test_the_options_resolve_to_what_open_table_takes():
    import argparse
    from okgin.table import options
    p = argparse.ArgumentParser()
    options.add(p, *options.NAMES)
    o = options.resolve(p.parse_args(["--board", "board-2in9.json", "--speed", "0", "--heapsize", "128k"]))
    assert (o.kind, o.speed, o.heapsize) == ("vboard", 0.0, "128K")
    assert o.board == os.path.join(ROOT, "hardware", "board-2in9.json")
    assert o.table_options() == {"speed": 0.0, "heapsize": "128K", "board": o.board}
    assert options.resolve(p.parse_args(["--chip"])).table_options() == {}
    with pytest.raises(ValueError):
        options.add(p, "colour")


# ------------------------------------------------- the docs' table of who takes what

FLAGS = ("--chip", "--board", "--speed", "--heapsize", "--flash-dir")


def declared():
    """{command: the table options its parser declares}, bench suites as
    "bench SUITE"."""
    out = {}
    for name in cli.COMMANDS:
        p = cli.build_parser(name)
        sub = next(a for a in p._actions if a.dest == "command").choices[name]
        parsers = {name: sub}
        if name == "bench":
            suites = next(a for a in sub._actions if a.dest == "suite").choices
            parsers = {"bench " + s: sp for s, sp in suites.items()}
        for label, parser in parsers.items():
            have = {o for a in parser._actions for o in a.option_strings if o in FLAGS}
            if have:
                out[label] = have
    return out


def test_docs_architecture_lists_which_command_takes_which_table_option():
    with open(os.path.join(ROOT, "docs", "architecture.md")) as f:
        text = f.read()
    head = "| command | " + " | ".join("`%s`" % f for f in FLAGS) + " |"
    assert head in text, "docs/architecture.md has no table of the table options"
    rows = {}
    for line in text[text.index(head):].splitlines()[2:]:
        if not line.startswith("| `okgin "):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        name = cells[0].strip("`")[len("okgin "):]
        rows[name] = {f for f, c in zip(FLAGS, cells[1:], strict=True) if c and c != "-"}
    assert rows == declared()
