"""A reset or power cut loses nothing: the saved game resumes (store.py)."""
import pytest


def _snapshot(board):
    st = board.status()
    return board.record(), {k: st[k] for k in ("hand_no", "phase", "to_move", "stock",
                                               "discard", "scores")}


def _play_a_little(b):
    b.press(1, "draw")      # pass
    b.press(0, "draw")      # pass
    b.press(1, "draw")      # draw from stock
    b.press(1, "ok")        # discard
    b.sync()


def test_reset_resumes_the_saved_game(testboard):
    b = testboard
    _play_a_little(b)
    before = _snapshot(b)
    ready = b.reset(ready_timeout=30)
    assert ready.startswith("READY okgin") and "proto=1" in ready
    b.request("testmode on")
    assert _snapshot(b) == before


def test_power_cut_resumes_the_saved_game(testboard, target):
    if target.power_cycle is None:
        pytest.skip("real hardware: cutting power needs a person (run okgin hil --interactive)")
    b = testboard
    _play_a_little(b)
    before = _snapshot(b)
    b.close()
    target.power_cycle()
    b.reopen(30)
    b.wait_ready(30)
    b.request("testmode on")
    assert _snapshot(b) == before
