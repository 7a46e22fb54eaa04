"""The short fault campaign on the emulated Pico (docs/reliability.md):
every row of issue 29 that runs on the chip runs its short case through
`okgin faults --chip --quick` and loses nothing, gets nothing wrong, never
gets stuck and is not stopped by its own harness. Each row holds a defect
issue 29 found on the chip: the REPL reached under the owner's lock at
power-up (bootlock), a record with seats it did not know written over by
the menu's first OK (seats), damaged statistics that held the table on an
error screen (kept), the heap grown by junk option names (heap), a mixed
firmware after a cut inside the flasher's switch (switch), a damaged
record too big to copy losing the game (bigfile); docs/reliability.md has
the same cases failing with `--source` the tree before the fixes. Issue 40
added two: damaged language files (langfiles) and a crash under the
owner's lock at boot, during play and during sleep (crashlock).
Two processes run side by side (each flashes its own chip once): about
five minutes where one would take ten on a two-core machine."""
import subprocess

from tests.support.host import ROOT, okgin_cmd

# the six rows, split so the two processes take about as long
RUNS = (["bootlock", "seats", "kept", "langfiles"], ["heap", "bigfile", "switch", "crashlock"])


def _rows(stdout):
    """{row: [injected, survived, lost, wrong, stuck]} from the printed table."""
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and cells[1].isdigit():
            rows[cells[0].split(" ")[0]] = [int(c) for c in cells[1:]]
    return rows


def test_the_chip_rows_lose_nothing_and_get_nothing_wrong(rp2_images):
    # on the 2.9" table: its panels' frames are a third of the 4.2"'s
    # to emulate (the rows test the files and the port, not the panels;
    # tests/host/test_faults.py runs the default table)
    procs = [subprocess.Popen(okgin_cmd("faults", "--chip", "--quick", "--rows", ",".join(rows),
                                        "--seed", "2029", "--board", "board-2in9.json"),
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for rows in RUNS]
    try:
        outs = [p.communicate(timeout=1800) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
    for rows, p, (stdout, stderr) in zip(RUNS, procs, outs, strict=True):
        assert p.returncode == 0, stdout[-4000:] + stderr[-2000:]
        got = _rows(stdout)
        # a row stopped early by its harness is labelled so, and fails the run
        assert "stopped early" not in stdout, stdout
        assert sorted(got) == sorted(rows + ["**all"]), stdout
        for name, (injected, survived, lost, wrong, stuck) in got.items():
            assert injected > 0 and survived == injected and lost == wrong == stuck == 0, \
                (name, stdout)
