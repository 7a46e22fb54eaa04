"""Row "heap": junk in test mode and on the protocol, round after round,
with the heap's highest point after each round (``mem``: in use after a
collection, and the largest seen). Made-up option names, arguments and
commands must not grow the heap (MicroPython never frees an interned
name: issue 29, item 4); survived: one answer per line, and after the
first round the heap in use stays within 2 KB of where it was."""
from ..registry import Kind
from ..judge import answers, expected_answers
from ..tally import Row

LETTERS = "abcdefghijklmnopqrstuvwxyz_0123456789"
FLAT = 2048     # bytes


def _name(rng):
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 24)))


def _junk(rng, i):
    """A line of test-mode junk (each answered ERR, or OK for a valid one)."""
    k = i % 8
    if k in (0, 1, 2):       # newgame naming options that do not exist
        opts = " ".join("%s=%s" % (_name(rng), rng.choice(("1", "yes", _name(rng))))
                        for _ in range(rng.randint(1, 4)))
        return "newgame seed=%d %s" % (rng.randrange(1 << 30), opts)
    if k == 3:               # known options, bad values
        return "newgame seed=%d %s=%s" % (rng.randrange(1 << 30),
                                          rng.choice(("target", "gin_bonus", "hollywood",
                                                      "preset", "vs", "dealer")), _name(rng))
    if k == 4:
        return "press %s %s %s" % (rng.choice(("0", "1", "2", _name(rng))), _name(rng),
                                   rng.choice(("long", "", _name(rng))))
    if k == 5:
        return "%s %s" % (_name(rng), _name(rng))          # unknown commands
    if k == 6:               # known commands, a junk argument: "x" first, so never
        # a valid one ("entropy 7" is answered with a block of seeds, as it
        # should be: once a long chip run drew it and counted 50 wrongs)
        return rng.choice(("screen", "record", "mem", "entropy", "reset", "sync", "testmode",
                           "status", "hello", "stats")) + " x" + _name(rng)
    return "%s=%s" % (_name(rng), _name(rng))


def _mem(t):
    text = t.req("mem")
    d = dict(kv.split("=") for kv in text.split())
    return int(d["alloc"]), int(d["peak"])


def run(table, n, rng, work, log):
    r = Row("heap")
    t = table(work, "heap")
    t.on()
    try:
        t.req("testmode on", timeout=300)
        t.req("newgame seed=%d" % rng.randrange(1 << 30))
        t.sync()
        heap = []
        peak = 0
        for rnd in range(n):
            lines = [_junk(rng, i) for i in range(50)]
            data = "".join(x + "\n" for x in lines).encode()
            owed = expected_answers(data)
            t.b.send_raw(data)
            got = answers(t, owed, timeout=60 * t.answer_slowness)
            bad = [a for a in got if not a.startswith(("ERR", "OK"))]
            if len(got) != owed or bad:
                r.bad_many("lost" if len(got) < owed else "wrong", len(lines),
                           "round %d: %d answers for %d lines; %r" % (rnd, len(got), owed, bad[:2]))
                t.resync()
            else:
                for _ in lines:
                    r.ok()
            t.sync()
            a, peak = _mem(t)
            heap.append(a)
            log("heap", r)
        growth = max(heap[1:] or heap) - heap[0]
        r.info.append("heap in use after each round (bytes): first %d, highest %d, last %d; "
                      "largest seen (peak) %d; %d rounds of 50 lines"
                      % (heap[0], max(heap), heap[-1], peak, n))
        if growth > FLAT:
            r.bad("wrong", "the heap in use grew by %d bytes over %d rounds: %s"
                  % (growth, n, heap[:12]))
        t.req("testmode off")
        t.sync()
        st = t.status()
        if st["screen"] == "error":
            r.bad("stuck", "the real game is on the error screen after testmode off")
    finally:
        t.stop()
    return r


KIND = Kind(
    name="heap", order=10,
    goal="test-mode and protocol junk, round after round: one answer per line, the heap's "
         "highest point flat (within 2 KB after the first round)",
    # the short runs: enough rounds to see a leak of the size (before
    # the fix the heap grew ~550-800 B a round of 50 lines: over 2 KB after
    # the 5th, four rounds past the first). On the chip a round is ~6 s of
    # its time (a junk newgame loads the menu: ~225 ms), so 5 there
    sizes={"quick": 8, "long": 100, "chip_quick": 5, "chip_long": 100},
    run=run)
