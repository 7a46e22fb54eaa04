"""The short fault campaign (docs/reliability.md): every row of
`okgin faults` runs a few cases on the virtual board and loses nothing,
gets nothing wrong and never gets stuck (tests/chip/test_faults_chip.py:
the new rows on the emulated Pico). The long run (`okgin faults`) is for a
release."""
import subprocess

import pytest

from tests.support.host import ROOT, okgin_cmd, run_campaign_row

# every row, in the campaign's order; switch and bootlock run on the
# emulated Pico only (a cut between two flash operations needs its flash,
# Ctrl-C at power-up its USB stack)
ALL = ["power", "damage", "serial", "buttons", "panels", "flash", "hidden", "shuffle",
       "bootlock", "heap", "switch", "bigfile", "kept", "seats", "langfiles", "crashlock"]
ROWS = [r for r in ALL if r not in ("switch", "bootlock")]


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS)
def test_the_short_fault_campaign_loses_nothing_and_gets_nothing_wrong(row):
    # one command per row: make test hands them out over its workers
    # (tests/conftest.py SPREAD), where most of a row's time is the
    # table's own waits (refreshes, debounce, a cut at a random moment)
    run_campaign_row(row, "--seed", "2026", timeout=600)


def test_a_row_that_does_not_exist_is_a_one_line_error():
    r = subprocess.run(okgin_cmd("faults", "--rows", "power,weather"), cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip() == "okgin: unknown row 'weather' (rows: %s)" % ", ".join(ALL)


class _Entropy:
    """The shuffle row's view of a table: seeds from ``draw`` instead of
    the board's entropy (a bad source is what the row must catch)."""

    def __init__(self, draw):
        self.draw = draw
        self.b = self

    def __call__(self, work, name):
        return self

    def on(self):
        pass

    def req(self, line):
        pass

    def stop(self):
        pass

    def request_block(self, line):
        return ["%08x" % self.draw() for _ in range(int(line.split()[1]))]


def test_the_shuffle_row_catches_a_source_with_few_seeds_and_passes_a_good_one():
    import itertools
    import random
    from okgin.faults.kinds.shuffle import row_shuffle
    rng = random.Random(5)
    # a board whose entropy repeats 40 seeds: every deal position skewed
    few = itertools.cycle([rng.getrandbits(30) for _ in range(40)])
    bad = row_shuffle(_Entropy(lambda: next(few)), 2000, rng, None, None)
    assert bad.wrong >= 50 and bad.injected == 53
    good = row_shuffle(_Entropy(lambda: rng.getrandbits(30)), 2000, rng, None, None)
    assert good.wrong == 0 and good.survived == good.injected == 53


def test_the_shuffle_row_judges_deal_keys_as_the_menu_deals_them():
    """Since issue 40 the board's ``entropy`` gives 128-bit deal keys: the
    row deals them as a table's menu does (engine/keyed.py), and still
    catches a source that repeats."""
    import itertools
    import os
    import random
    from okgin.faults.kinds.shuffle import row_shuffle
    rng = random.Random(6)
    few = itertools.cycle([os.urandom(16) for _ in range(40)])

    class Keys(_Entropy):
        def request_block(self, line):
            return [self.draw().hex() for _ in range(int(line.split()[1]))]
    bad = row_shuffle(Keys(lambda: next(few)), 2000, rng, None, None)
    assert bad.wrong >= 50 and bad.injected == 53
    good = row_shuffle(Keys(lambda: os.urandom(16)), 2000, rng, None, None)
    assert good.wrong == 0 and good.survived == good.injected == 53
