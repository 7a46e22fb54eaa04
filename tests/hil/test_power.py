"""A reset or power cut loses nothing: the saved game resumes (store.py)."""
import time

import pytest

from okgin.engine import Match


def _wait_for(pred, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return False


def _snapshot(board):
    st = board.status()
    return board.record(), {k: st[k] for k in ("hand_no", "phase", "to_move", "stock",
                                               "discard", "scores")}


def _play_a_little(b, slow):
    b.press(1, "draw")      # pass
    b.press(0, "draw")      # pass
    b.press(1, "draw")      # draw from stock
    b.press(1, "ok")        # discard
    b.sync(30 * slow)


def test_reset_resumes_the_saved_game(testboard, target):
    b = testboard
    _play_a_little(b, target.slow)
    before = _snapshot(b)
    ready = b.reset(ready_timeout=30 * target.slow)
    assert ready.startswith("READY okgin") and "proto=1" in ready
    b.request("testmode on")
    assert _snapshot(b) == before


def test_power_cut_resumes_the_saved_game(testboard, target):
    if target.power_cycle is None:
        pytest.skip("real hardware: cutting power needs a person (run okgin hil --interactive)")
    b = testboard
    _play_a_little(b, target.slow)
    before = _snapshot(b)
    b.close()
    target.power_cycle()
    b.reopen(30 * target.slow)
    b.wait_ready(30 * target.slow)
    b.request("testmode on")
    assert _snapshot(b) == before


def test_power_cut_during_a_save_keeps_a_whole_record(testboard, target):
    # The plug pulled while the board writes its flash: the record after
    # the next boot is the one before the action or the one after it,
    # never a torn one (store.py's tmp + rename on littlefs, or on the
    # virtual board's directory).
    if target.cut_power_during_save is None:
        pytest.skip("real hardware: cutting power during a save needs a person's timing")
    b = testboard
    _play_a_little(b, target.slow)
    before = b.record()
    st = b.status()
    assert st["to_move"] == "0" and st["phase"] == "draw"
    b.close()
    target.cut_power_during_save()     # the board's next save is cut short
    b.reopen(30 * target.slow)
    b.wait_ready(30 * target.slow, probe_after=0.0)
    b.request("testmode on")
    assert b.record() == before
    b.send_raw(b"press 0 draw\n")     # player 0 draws from the stock: a save
    assert _wait_for(lambda: not target.board.alive, 60 * target.slow), "the power was not cut"
    b.close()
    target.power_cycle()
    b.reopen(30 * target.slow)
    b.wait_ready(30 * target.slow)
    b.request("testmode on")
    after = b.record()
    Match.from_record(after)           # whole and valid
    assert after == before or (after.startswith(before) and after.count("\n") == before.count("\n") + 1)
