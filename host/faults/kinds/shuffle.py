"""Row "shuffle" of the fault campaign: deals from seeds drawn by the board's entropy: chi-square on every card position"""
import math

from okgin.faults.kinds import Kind
from okgin.faults.tally import Row


def _chi2_p(x, k):
    """Upper tail of a chi-square with k degrees of freedom at x
    (Wilson-Hilferty: good to a few percent at k = 51)."""
    z = ((x / k) ** (1.0 / 3) - (1 - 2.0 / (9 * k))) / math.sqrt(2.0 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def row_shuffle(table, n, rng, work, log):
    """Seeds drawn by the board (``entropy``, as its menu draws a new
    game's), each dealt as the firmware deals a new game; for every one of
    the 52 deal positions a chi-square of which card lands there (51
    degrees of freedom). Also the seeds' own spread (top 8 bits, 255 d.o.f.).
    A position is wrong when its p-value is below 1e-4 (chance: 52 in
    10,000 runs of this row)."""
    from okgin.engine import Match
    r = Row("shuffle")
    t = table(work, "shuffle")
    t.on()
    try:
        t.req("testmode on")
        seeds: "list[int]" = []
        while len(seeds) < n:
            k = min(1000, n - len(seeds))
            seeds += [int(x, 16) for x in t.b.request_block("entropy %d" % k)]
    finally:
        t.stop()
    counts = [[0] * 52 for _ in range(52)]
    for s in seeds:
        deck = Match(seed=s).hand._stock
        for pos in range(52):
            counts[pos][deck[pos]] += 1
    e = n / 52.0
    worst = 1.0
    for pos in range(52):
        x = sum((c - e) ** 2 / e for c in counts[pos])
        p = _chi2_p(x, 51)
        worst = min(worst, p)
        r.injected += 1
        if p < 1e-4:
            r.wrong += 1
            r.notes.append("wrong: position %d: chi-square %.1f, p=%.2g" % (pos, x, p))
        else:
            r.survived += 1
    top = [0] * 256
    for s in seeds:
        top[s >> 22] += 1
    x = sum((c - n / 256.0) ** 2 / (n / 256.0) for c in top)
    ps = _chi2_p(x, 255)
    r.injected += 1
    if ps < 1e-4:
        r.wrong += 1
        r.notes.append("wrong: the seeds' top 8 bits: chi-square %.1f, p=%.2g" % (x, ps))
    else:
        r.survived += 1
    r.info.append("%d deals, seeds from the board's entropy (%d distinct); smallest p over "
                  "52 positions %.3g; seeds' top byte p=%.3g" % (n, len(set(seeds)), worst, ps))
    r.deals = n
    return r


run = row_shuffle


KIND = Kind(
    name='shuffle', order=8,
    goal="deals from seeds drawn by the board's entropy: chi-square on every card position",
    sizes={"quick": 2000, "long": 100000, "chip_quick": 1000, "chip_long": 100000},
    run=run)
