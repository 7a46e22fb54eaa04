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
One command per row: make test hands the rows out over its workers
(tests/conftest.py SPREAD), the longest first."""
import pytest

from tests.support.host import run_campaign_row

# the longest first (seconds of a quiet run: heap, langfiles and crashlock
# boot the chip several times per case)
ROWS = ("heap", "langfiles", "crashlock", "switch", "kept", "bigfile", "seats", "bootlock")


@pytest.mark.parametrize("row", ROWS)
def test_the_chip_rows_lose_nothing_and_get_nothing_wrong(rp2_images, row):
    # on the 2.9" table: its panels' frames are a third of the 4.2"'s
    # to emulate (the rows test the files and the port, not the panels;
    # tests/host/test_faults.py runs the default table)
    run_campaign_row(row, "--chip", "--seed", "2029", "--board", "board-2in9.json", timeout=1800)
