"""The refresh policy, counted on the emulated SSD1680s: a cursor move is one
partial refresh of the mover's panel only; a press that changes nothing on a
screen refreshes nothing; a full refresh at hand boundaries and after
timing.partials_before_full partial ones."""
import json
import time



from tests.support.harness import BOARD_2IN9


with open(BOARD_2IN9) as _f:
    PARTIALS = json.load(_f)["timing"]["partials_before_full"]


def counts(b):
    b.ok("sync")
    return [dict(b.vb.refresh_counts(p)) for p in (0, 1)]


def delta(a, b):
    return [{k: b[p][k] - a[p][k] for k in ("full", "partial")} for p in (0, 1)]


def _to_discard_phase(b):
    b.ok("newgame seed=2 dealer=0")
    b.press(1, "draw")     # pass
    b.press(0, "draw")     # pass
    b.press(1, "draw")     # stock: player 1 now discards


def test_new_game_is_a_full_refresh_on_both(tboard):
    c0 = counts(tboard)
    tboard.ok("newgame seed=2 dealer=0")
    d = delta(c0, counts(tboard))
    assert d == [{"full": 1, "partial": 0}, {"full": 1, "partial": 0}]


def test_cursor_move_is_one_partial_on_the_movers_panel_only(tboard):
    _to_discard_phase(tboard)
    c0 = counts(tboard)
    tboard.press(1, "right")
    d = delta(c0, counts(tboard))
    assert d == [{"full": 0, "partial": 0}, {"full": 0, "partial": 1}]


def test_a_press_that_changes_no_screen_refreshes_nothing(tboard):
    _to_discard_phase(tboard)
    tboard.press(0, "right")        # waiting player: no cursor shown
    c0 = counts(tboard)
    tboard.press(0, "left")
    tboard.press(0, "right")
    assert delta(c0, counts(tboard)) == [{"full": 0, "partial": 0}] * 2


def test_a_full_refresh_clears_ghosting_after_n_partials(tboard):
    kinds = []
    tboard.ok("sync")
    tboard.vb.on_event = lambda ev: ev[0] == "refresh" and ev[1] == 1 and kinds.append(ev[2])
    _to_discard_phase(tboard)
    for _ in range(PARTIALS + 2):
        # one refresh per move: without the sync, moves made while a
        # refresh is in progress share the next one (on a loaded machine
        # 17 presses gave only 3 partials and no second full)
        tboard.press(1, "right")
        tboard.ok("sync")
    # the emulation reports refreshes from its own thread: on a loaded
    # machine they may trail the firmware's answer a little
    end = time.monotonic() + 5
    while kinds.count("full") < 2 and time.monotonic() < end:
        time.sleep(0.05)
    # new hand: full; then runs of exactly PARTIALS partials between fulls
    assert kinds[0] == "full"
    runs = "".join("F" if k == "full" else "p" for k in kinds).split("F")[1:]
    assert runs[0] == "p" * PARTIALS, kinds
    assert len(runs) >= 2
