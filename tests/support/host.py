"""Shared by the host-tool tests (a unique module name: every test directory
has its own conftest, so `from conftest import` could find another one)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.dirname(sys.executable)


def okgin_cmd(*args):
    return [sys.executable, "-m", "okgin.cli"] + list(args)


def campaign_rows(stdout):
    """{row: [injected, survived, lost, wrong, stuck]} from the table that
    `okgin faults` prints."""
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and cells[1].isdigit():
            rows[cells[0].split(" ")[0]] = [int(c) for c in cells[1:]]
    return rows


def run_campaign_row(row, *options, timeout=900):
    """`okgin faults --quick --rows ROW OPTIONS...` run to its end: asserts
    that it exits 0, was not stopped early by its harness, printed that row
    and the total, and that every injected fault survived (nothing lost,
    wrong or stuck). One row per command, so that make test spreads the
    rows over its workers and a failure names its row."""
    import subprocess
    r = subprocess.run(okgin_cmd("faults", "--quick", "--rows", row, *options), cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "stopped early" not in r.stdout, r.stdout
    got = campaign_rows(r.stdout)
    assert sorted(got) == sorted([row, "**all"]), r.stdout
    for name, (injected, survived, lost, wrong, stuck) in got.items():
        assert injected > 0 and survived == injected and lost == wrong == stuck == 0, (name, r.stdout)
    return r.stdout
