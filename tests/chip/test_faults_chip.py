"""The short fault campaign on the emulated Pico (docs/reliability.md): the
rows of issue 29 that only the chip can show run one case each through
`okgin faults --chip --quick` and lose nothing, get nothing wrong and
never get stuck. Before the fixes (`--source` with the tree of f111747)
these same cases failed: the table's REPL reached under the owner's lock
at power-up (bootlock), a record with seats it did not know written over
by the menu's first OK (seats). The other new rows (heap, switch,
bigfile, kept) take minutes each on the emulator: `okgin faults --chip
--quick` runs them, tests/drivers/lfs_cases.py and
tests/firmware/test_kept_files.py cover their fixes in make test."""
import subprocess

from tests.support.host import ROOT, okgin_cmd

ROWS = ["bootlock", "seats"]


def _rows(stdout):
    """{row: [injected, survived, lost, wrong, stuck]} from the printed table."""
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and cells[1].isdigit():
            rows[cells[0].split(" ")[0]] = [int(c) for c in cells[1:]]
    return rows


def test_the_chip_rows_lose_nothing_and_get_nothing_wrong(rp2_images):
    r = subprocess.run(okgin_cmd("faults", "--chip", "--quick", "--rows", ",".join(ROWS),
                                 "--seed", "2029"),
                       cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    rows = _rows(r.stdout)
    assert sorted(rows) == sorted(ROWS + ["**all"]), r.stdout
    for name, (injected, survived, lost, wrong, stuck) in rows.items():
        assert injected > 0 and survived == injected and lost == wrong == stuck == 0, \
            (name, r.stdout)
