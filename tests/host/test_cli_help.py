"""Every okgin command has help with examples; the parts owned here have their options."""
import subprocess

import pytest

from tests.support.host import ROOT, okgin_cmd
from okgin.cli import COMMANDS


def _help(*args):
    r = subprocess.run(okgin_cmd(*args), cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_top_level_help_lists_every_command_with_an_example():
    out = _help("--help")
    examples = out[out.index("examples:"):].splitlines()[1:]
    for name in COMMANDS:
        assert name in out
        assert any(line.split()[:2] == ["okgin", name] for line in examples), name


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name):
    out = _help(name, "--help")
    assert out.startswith("usage: okgin %s" % name)


@pytest.mark.parametrize("name,options", [
    ("flash", ["--port", "--source", "--no-reset", "examples:"]),
    ("hil", ["--port", "--sim", "--junit", "-k EXPR", "--interactive", "examples:"]),
    ("replay", ["RECORD", "--shots", "--speed", "examples:"]),
])
def test_flash_hil_replay_document_their_options(name, options):
    out = _help(name, "--help")
    for opt in options:
        assert opt in out, opt
