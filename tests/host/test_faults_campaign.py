"""The campaign's own bookkeeping (host/faults/campaign.py): a row whose
harness fails part-way is reported with the cases it judged and fails,
and the rows after it still run (a long chip run is hours of rows)."""
import io

from okgin.faults.campaign import run_campaign
from okgin.faults.registry import Kind
from okgin.faults.tally import Row, table


def _kind(name, judged, fails):
    def run(tbl, n, rng, work, log):
        r = Row(name)
        for _ in range(judged):
            r.ok()
            log(name, r)
        if fails:
            raise OSError("could not enter raw repl")
        return r
    return Kind(name=name, goal="a row", sizes={"quick": 3}, run=run)


def test_a_row_whose_harness_fails_stops_fails_and_the_next_row_still_runs():
    kinds = {"first": _kind("first", 2, True), "second": _kind("second", 3, False)}
    out = io.StringIO()
    rows = run_campaign(["first", "second"], {"first": 3, "second": 3}, 1, out=out,
                        progress=False, kinds=kinds)
    first, second = rows
    assert (first.name, first.injected, first.survived) == ("first", 2, 2)
    assert not first.passed() and "could not enter raw repl" in first.broken
    assert "first stopped early, its harness failed: OSError: could not enter raw repl" \
        in out.getvalue()
    assert second.passed() and second.injected == 3
    md = table(rows)
    assert "| first (stopped early: the harness failed) | 2 | 2 | 0 | 0 | 0 |" in md
    assert "| second | 3 | 3 | 0 | 0 | 0 |" in md


def test_a_row_that_fails_before_its_first_case_is_reported_empty():
    rows = run_campaign(["first"], {"first": 3}, 1, out=io.StringIO(), progress=False,
                        kinds={"first": _kind("first", 0, True)})
    assert rows[0].injected == 0 and not rows[0].passed() and rows[0].broken


def test_every_seat_pair_of_the_seats_row_makes_a_record_the_engine_writes():
    # a name the engine refuses (it once had "hard2") stopped the long run's
    # 7th case with a ValueError in the harness, not a verdict on the table
    import random
    from okgin.faults.kinds.seats import SEATS, _record
    rng = random.Random(3)
    made = [_record(rng, i)[1] for i in range(3 * len(SEATS))]
    assert {"players=%s,%s" % s for s in SEATS} <= set(made)


def test_the_heap_rows_junk_never_makes_a_valid_command_with_a_block_answer():
    # "entropy 7" (a digit-only junk name) is answered with OK lines=7 and
    # seven seeds: a long chip run counted that round as 50 wrongs
    import random
    from okgin.faults.kinds.heap import _junk
    rng = random.Random(11)
    for i in range(40000):
        w = _junk(rng, i).split()
        if w[0] in ("entropy", "testmode", "mem", "record", "screen") and len(w) == 2:
            assert not w[1].isdigit() and w[1] not in ("on", "off"), w


def test_a_lost_game_names_the_first_line_that_moved():
    # a row's "lost" says what changed, so a rare failure can be read from
    # its one line (a cursor saved, an action played, the file cut)
    from okgin.faults.judge import changed
    real = b"okgin-record 1\nrules target=100\nhand 1\n0 draw stock\n"
    assert changed(real, real) == ""
    why = changed(real.replace(b"0 draw stock", b"0 draw discard"), real)
    assert "line 4" in why and "draw stock" in why and "draw discard" in why
    assert "line 5" in changed(real + b"cursor 0 3\n", real)
    assert changed(None, real) == "the saved game is gone"


def test_a_saved_knock_that_deals_the_next_hand_is_the_press_it_was():
    """The power row's judge: a knock saved with the next hand's deal key
    ("6 0 knock 8c deal=..."), cut while its refresh ran, is the press
    that was made. It was judged "wrong" (a quiet fresh-clone CI run,
    2026-12-07: saved '6 0 knock 8c deal=1bc8... ;f6113723', the press
    was 0 knock 8c)."""
    from okgin.faults.judge import action_of
    assert action_of("6 0 knock 8c deal=1bc846e8ccea513fefab0292f6aafdd6 ;f6113723") == ("0", "knock 8c")
    assert action_of("7 1 discard Qh ;0a1b2c3d") == ("1", "discard Qh")
    assert action_of("8 0 take ;0a1b2c3d") == ("0", "take")
