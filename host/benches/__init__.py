"""The benchmarks behind ``okgin bench SUITE`` (host/bench.py): one module
per suite, each with ``configure(parser)`` (its own options: ``okgin bench
SUITE --help``) and ``run(args)``; they print figures and assert nothing. What
several suites share is here (smallest) or in board.py (the firmware over
the serial transport, a board of its own)."""


def smallest(fits, lo, hi, step):
    """Bisection for the benches' "smallest heap" figures: the smallest
    multiple of ``step`` above ``lo`` (up to ``hi``) for which ``fits(size)``
    is True, taking larger sizes to fit too; None if ``hi`` does not fit."""
    if not fits(hi):
        return None
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi
