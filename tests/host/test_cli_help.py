"""Every okgin command has help with examples; the parts owned here have their options."""
import os
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


def test_a_mistyped_option_gets_the_commands_usage_and_a_suggestion():
    r = subprocess.run(okgin_cmd("sim", "--seeed", "3"), cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith("usage: okgin sim ")
    assert "okgin sim: error: unrecognized arguments: --seeed 3 (did you mean --seed?)" in r.stderr


def _clean_env():
    """A user's shell: no PYTHONUNBUFFERED (nor anything else of the test
    run's), so stdout to a pipe is block-buffered as it is for everyone."""
    return {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}


@pytest.mark.parametrize("args", [
    ("--help",),
    ("tourney", "--help"),
    ("tourney", "hard", "greedy", "--games", "2"),
    ("replay", "no-such-record.okg"),
], ids=["help", "command-help", "tourney", "error"])
def test_output_piped_into_a_reader_that_stopped_ends_without_a_traceback(args):
    """`okgin tourney ... | head` when the reader has gone: okgin stops quietly
    (exit 141, as a shell tool killed by SIGPIPE reports) in a user's shell,
    where the output reaches the pipe only when it is flushed; an error still
    says itself on stderr."""
    read, write = os.pipe()
    os.close(read)   # the reader went away before okgin wrote anything
    try:
        r = subprocess.run(okgin_cmd(*args), cwd=ROOT, stdout=write, stderr=subprocess.PIPE, text=True,
                           timeout=120, env=_clean_env())
    finally:
        os.close(write)
    assert "Traceback" not in r.stderr and "BrokenPipeError" not in r.stderr, r.stderr
    if args[0] == "replay":
        assert r.returncode == 1 and r.stderr.startswith("okgin: "), r.stderr
    else:
        assert r.returncode == 141, r.stderr


# the options that belong to one bench suite (or two), none of the others'
BENCH_OPTIONS = {"--chip": ("bots",), "--games": ("bots", "memory", "reply"), "--heap": ("memory",),
                 "--lang": ("chip", "reply"), "--only": ("chip",), "--board": ("chip", "power"), "--hands": ("power",),
                 "--idle-s": ("power",), "--volts": ("power",), "--mah": ("power",),
                 "--pace": ("power",)}


def test_each_bench_suite_has_a_parser_with_its_own_options_only():
    from okgin.bench import SUITES
    for name in SUITES:
        out = _help("bench", name, "--help")
        assert out.startswith("usage: okgin bench %s" % name), out
        assert "--quick" in out and "examples:" in out and "  okgin bench %s" % name in out, out
        for opt, owners in BENCH_OPTIONS.items():
            assert (opt in out) == (name in owners), (name, opt)
    top = _help("bench", "--help")
    assert all(name in top for name in SUITES)


def test_a_mistyped_bench_option_gets_the_suites_usage_and_a_suggestion():
    r = subprocess.run(okgin_cmd("bench", "power", "--pase", "3"), cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith("usage: okgin bench power ")
    assert "unrecognized arguments: --pase 3 (did you mean --pace?)" in r.stderr
