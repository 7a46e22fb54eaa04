"""Running the campaign's rows on one table and reporting them."""
import random
import shutil
import sys
import tempfile
import time
import traceback

from .registry import registry
from .tables import CampaignChipTable, CampaignTable
from .tally import Row


def run_campaign(rows, sizes, seed, out=sys.stdout, progress=True, table=CampaignTable, kinds=None):
    """Run ``rows`` (names) with ``sizes[name]`` cases each on ``table``
    (CampaignTable: the virtual board; CampaignChipTable: the emulated Pico; ``kinds``:
    {name: Kind}, default the registry's); returns the
    rows' tallies. A row whose size is 0 does not apply to that table."""
    kinds = kinds or registry()
    rng = random.Random(seed)
    results = []
    work = tempfile.mkdtemp(prefix="okgin-faults-")
    last = [0.0]
    seen = {}

    def log(name, r):
        seen[name] = r
        if progress and time.monotonic() - last[0] > 5:
            last[0] = time.monotonic()
            out.write("  %s: %d injected, %d lost, %d wrong, %d stuck\n"
                      % (name, r.injected, r.lost, r.wrong, r.stuck))
            out.flush()
    try:
        for name in rows:
            kind = kinds[name]
            sub = random.Random(rng.randrange(1 << 30))
            if not sizes.get(name):
                out.write("%s: does not apply to %s\n" % (name, table.label))
                continue
            t0 = time.monotonic()
            out.write("%s: %s\n" % (name, kind.goal))
            out.flush()
            try:
                r = kind.run(table, sizes[name], sub, work, log)
            except Exception as e:    # the harness, not the firmware: say it, go on
                r = seen.get(name) or Row(name)
                r.broken = "%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[-1])
                out.write("  %s stopped early, its harness failed: %s\n" % (name, r.broken))
                out.write("".join("    " + x for x in traceback.format_exc().splitlines(True)[-12:]))
                out.flush()
            r.seconds = time.monotonic() - t0
            results.append(r)
            out.write("  %s: %d injected, %d survived, %d lost, %d wrong, %d stuck (%.0f s)\n"
                      % (name, r.injected, r.survived, r.lost, r.wrong, r.stuck, r.seconds))
            for note in r.info:
                out.write("    %s\n" % note)
            for note in r.notes[:5]:
                out.write("    %s\n" % note)
            out.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


__all__ = ["run_campaign", "CampaignTable", "CampaignChipTable"]
