"""Row "seats": saved records this firmware cannot resume (seats it does
not know, a computer level it does not have, a record version from the
future), put on the flash with the power off. Survived: the table boots
to its menu, the record is kept whole as game.bad, and the menu's first
new game does not write over it (issue 29, item 6)."""
import hashlib

from ..judge import ladder
from ..registry import Kind
from ..tally import Row

# valid record names (lower-case letters, at most 12: engine/match.py)
# that this firmware has no player for; "wizard" and "master" are no level
# of any okgin (a laptop's "expert" could be one)
SEATS = (("human", "god"), ("hard", "human"), ("human", "wizard"), ("easy", "easy"),
         ("human", "master"), ("computer", "human"))


def _record(rng, i):
    """(record bytes, what it is): a valid record this firmware cannot
    resume, as another firmware would have written it."""
    from okgin.engine import Match
    if i % 3 == 2:
        seats = ("human", "human")
    else:
        seats = SEATS[(i // 3 * 2 + i % 3) % len(SEATS)]
    m = Match(seed=rng.randrange(1 << 30), dealer=rng.randrange(2), players=seats)
    for _ in range(rng.randint(0, 6)):
        p = m.hand.to_move
        if p is None:
            break
        m.play(rng.choice(m.observation(p)["legal"]), p)
    text = m.to_record()
    if i % 3 == 2:
        n = rng.choice((3, 7, 99))
        lines = text.splitlines()
        lines[0] = "okgin-record %d" % n
        return ("\n".join(lines) + "\n").encode(), "a record of version %d" % n
    return text.encode(), "players=%s,%s" % seats


def _judge(r, look, rec, what, notes):
    want = (hashlib.sha256(rec).hexdigest(), len(rec))
    ladder(r, what,
           ("lost", look["game.bad"] != want and "not kept as game.bad (%r)" % (look["game.bad"],)),
           ("wrong", (look["game.okg"] is None or look["game.okg"] == rec)
            and "no new game after the menu's OK"),
           ("wrong", "; ".join(notes)))


def run(table, n, rng, work, log):
    r = Row("seats")
    t = table(work, "seats")
    t.on()
    # a case's files are read in the next case's visit to the flash (the
    # reads come before the writes): one boot a case less on the chip
    waiting = None
    try:
        for i in range(n):
            rec, what = _record(rng, i)
            look = t.session(read=("game.okg",) if waiting else (),
                             digest=("game.bad",) if waiting else (),
                             put={"game.okg": rec},
                             remove=["game.bad", "game.tmp", "settings.json"])
            if waiting:
                _judge(r, look, *waiting)
                log("seats", r)
                waiting = None
            t.sync()
            st = t.status()
            notes = []
            if st["screen"] == "error":
                r.bad("stuck", "%s: the error screen at boot" % what)
                log("seats", r)
                continue
            if st["screen"] != "menu":
                notes.append("screen=%s at boot" % st["screen"])
            # any button closes the notice; then the menu's first item: a new game
            t.press(0, "ok")
            t.press(0, "ok")
            t.sync()
            waiting = (rec, what, notes)
        if waiting:         # the last case's files: a last visit, the power left off
            _judge(r, t.session(read=("game.okg",), digest=("game.bad",), off=True), *waiting)
            log("seats", r)
    finally:
        t.stop()
    return r


KIND = Kind(
    name="seats", order=14,
    goal="records with unknown seats, levels and versions: kept whole as game.bad before "
         "anything writes over them, the menu, never stuck",
    sizes={"quick": 3, "long": 100, "chip_quick": 1, "chip_long": 100},
    run=run)
