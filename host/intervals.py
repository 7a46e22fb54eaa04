"""Intervals for ``okgin tourney``, clustered by seed pair.

A tournament plays each seed twice with the seats swapped, so its two games
(or hands) share their cards and are not independent: measured, the two
games of a pair split *less* often than independent games would, so an
interval that counts games one by one (Wilson's) is a little too narrow.
Every interval here resamples whole seed pairs instead: a percentile
bootstrap over the pairs (``REPS`` resamples, from a fixed seed so a series
prints the same figures each time it is reported). It never leaves the range
the statistic can take (0..100% of games won: a resample is a mix of the
pairs played), and with fewer than ``MIN_PAIRS`` pairs there is no interval
at all ("too few games for an interval"), where a t-interval once printed
-161% .. 253%.

The sign test on swept pairs asks the same question of games without any
resampling: of the pairs one player won both games of, how many went to A;
under "equally strong" each sweep is a fair coin.
"""
import math
import random

REPS = 2000          # bootstrap resamples of the seed pairs
MIN_PAIRS = 10       # fewer seed pairs than this: no interval
SEED = 20240601      # the resamples' seed: the same series prints the same interval
LEVEL = 0.95


def bootstrap(columns, stat, reps=REPS, seed=SEED):
    """Percentile interval (low, high) of ``stat(sums)`` over ``reps``
    resamples of the seed pairs, where ``columns`` are per-pair lists of
    equal length and ``sums`` their sums over a resample (each pair drawn
    with replacement). ``stat`` may return None for a resample where it is
    undefined (a ratio over no hands); those are left out. None when there
    are fewer than ``MIN_PAIRS`` pairs or too many resamples are undefined."""
    n = len(columns[0]) if columns else 0
    if n < MIN_PAIRS:
        return None
    rng = random.Random(seed)
    pairs = range(n)
    values = []
    for _ in range(reps):
        pick = rng.choices(pairs, k=n)
        v = stat([sum(map(col.__getitem__, pick)) for col in columns])
        if v is not None:
            values.append(v)
    if len(values) < reps * 0.9:
        return None
    values.sort()
    m = len(values) - 1
    tail = (1 - LEVEL) / 2
    return values[int(round(tail * m))], values[int(round((1 - tail) * m))]


def _ratio(s):
    return s[0] / s[1] if s[1] else None


def ratio(num, den, **kw):
    """Interval of sum(num) / sum(den) (points per hand, share of points,
    games won out of 2 per pair)."""
    return bootstrap([num, den], _ratio, **kw)


def _diff(s):
    if not s[1] or not s[3]:
        return None
    return s[0] / s[1] - s[2] / s[3]


def ratio_difference(xs, hs, ys, ks, **kw):
    """Interval of sum(xs)/sum(hs) - sum(ys)/sum(ks): two series on the same
    seed pairs (a pair's figures stay together in a resample)."""
    return bootstrap([xs, hs, ys, ks], _diff, **kw)


def sign_test(a, b):
    """Two-sided exact binomial p-value for ``a`` successes against ``b``
    under a fair coin (the ties, split pairs, left out)."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    # P(X <= k) for X ~ Binomial(n, 1/2), in logs to stay finite for large n
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
            for i in range(k + 1)]
    top = max(logs)
    tail = math.exp(top) * sum(math.exp(x - top) for x in logs)
    return min(1.0, 2 * tail)


def p_text(p):
    return "p < 0.001" if p < 0.001 else "p = %.3f" % p
