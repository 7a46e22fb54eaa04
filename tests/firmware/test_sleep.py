"""Sleep without surprises (docs/power.md "Auto-off", issue 40), on the
virtual board through its real buttons: a waking press only wakes; presses
made before the panels show the game again do nothing, including those made
while the sleeping screen itself is being drawn (they wake the table); the
turn light follows the panels; and a host's requests to a sleeping table on
USB are answered at once without waking its panels or its lights, and never
leave a press pending. The emulated Pico's case is in tests/chip/test_sleep.py.

Some cases run the panels slower than real time (``speed`` 2: a full refresh
takes 5 s) so that a burst of presses made after the waking press surely
falls inside the waking redraw, however loaded the machine; each such test
checks that it did."""
import json
import os
import time

from tests.support.harness import RunningFirmware
from tests.support.real_game import new_real_game, play, put, saved


def _board(flash, auto_off_s, speed=0.0):
    # settings.json "auto_off_s": the host hook for a short idle time
    put(flash, "settings.json", json.dumps({"auto_off_s": auto_off_s}))
    b = RunningFirmware(flash, speed=speed)
    b.start()
    b.ok("sync")
    return b


def _slow_board(flash, auto_off_s=10, speed=2.0):
    """A game started from the menu (instant panels, so nothing sleeps
    meanwhile), then the table powered up again with slow panels and a
    short auto-off: it resumes the game and falls asleep on its own.
    Returns the board and the game."""
    b = _board(flash, 600)
    try:
        m = new_real_game(b, flash)
    finally:
        b.stop()
    return _board(flash, auto_off_s, speed), m


def _ink(b):
    return [b.vb.panel_bytes(p) for p in (0, 1)]


def _asleep(b, game):
    """Both panels in deep sleep with something else than the game on them
    (the sleeping screen), the turn lights out."""
    return all(b.vb.panel(p).asleep for p in (0, 1)) and _ink(b) != game


def _wait_asleep(b, game, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _asleep(b, game):
            return _ink(b)
        time.sleep(0.1)
    raise AssertionError("the table did not fall asleep in %d s" % timeout)


def _lights(b):
    return [b.vb.led(p) for p in (0, 1)]


def _refreshing(b, p):
    pn = b.vb.panel(p)
    return not pn.asleep and pn.busy()


def _to_discard(b, flash):
    """A new game from the menu, played with the buttons until the player
    to move is to discard (their cursor is on the ink)."""
    m = new_real_game(b, flash)
    while m.observation(m.hand._to_move)["phase"] != "discard":
        m = play(b, m, 1)
    return m


def test_presses_while_the_panels_wake_do_nothing_and_the_light_waits(flash):
    b, m = _slow_board(flash)
    try:
        p = m.hand._to_move                    # the upcard: p may take it or pass
        st, rec, game = b.status(), saved(flash), _ink(b)
        assert _lights(b)[p]
        _wait_asleep(b, game)
        assert _lights(b) == [False, False]
        b.vb.press(p, "left")                  # wakes it
        # a burst while the ink still says "Sleeping": take, pass, the other
        # player's buttons; none of it is a move, nor a message, nor a light
        for q, button in ((p, "take"), (1 - p, "ok"), (p, "draw"), (1 - p, "take"),
                          (p, "ok"), (p, "right")):
            b.vb.press(q, button)
            assert _lights(b) == [False, False]
        assert _refreshing(b, p) or _refreshing(b, 1 - p), \
            "the burst outlasted the waking redraw: the test proves nothing"
        b.ok("sync")
        assert b.status() == st and saved(flash) == rec
        assert _ink(b) == game
        assert _lights(b)[p] and not _lights(b)[1 - p]   # once the game is on the ink
        # the first press after that is a move again
        b.vb.press(p, "take")
        b.ok("sync")
        assert saved(flash) != rec and b.status()["to_move"] == str(p)
    finally:
        b.stop()


def test_a_press_while_the_sleeping_screen_is_drawn_wakes_the_table(flash):
    b, m = _slow_board(flash)
    try:
        p = m.hand._to_move
        st, rec, game = b.status(), saved(flash), _ink(b)
        full = [b.vb.stats(q)["full"] for q in (0, 1)]
        end = time.monotonic() + 20
        while b.vb.stats(1)["full"] == full[1]:   # the sleeping screen starts (both panels)
            assert time.monotonic() < end, "the table did not start to sleep"
            time.sleep(0.02)
        b.vb.press(p, "take")                  # while it is being drawn
        assert _refreshing(b, 0) or _refreshing(b, 1), \
            "the press came after the sleeping screen's refresh: the test proves nothing"
        # no other press: once the sleeping screen is drawn the table wakes
        # into the same game, and the press did nothing else
        end = time.monotonic() + 30
        while _ink(b) != game:
            assert time.monotonic() < end, "the press was lost: the table sleeps on"
            time.sleep(0.2)
        b.ok("sync")
        assert b.status() == st and saved(flash) == rec
        assert _lights(b)[p]
    finally:
        b.stop()


def test_requests_to_a_sleeping_table_wake_nothing_and_leave_no_press_pending(flash):
    b = _board(flash, 1)
    try:
        m = _to_discard(b, flash)
        p = m.hand._to_move
        b.ok("lang lt")
        b.ok("sync")
        st, rec, game = b.status(), saved(flash), _ink(b)
        ink = _wait_asleep(b, game)
        assert _lights(b) == [False, False]
        for req in ("sync", "status", "lang lt", "sync", "lang", "sync"):
            r = b.cmd(req, timeout=5)          # at once: no button needed
            assert r.startswith("OK"), (req, r)
            assert _lights(b) == [False, False], req     # the turn light follows the panels
            assert _asleep(b, game) and _ink(b) == ink, req
        b.vb.press(p, "right")                 # the waking press: it only wakes
        b.ok("sync")
        assert b.status() == st and saved(flash) == rec
        assert _ink(b) == game                 # the cursor where it was
        assert _lights(b)[p]
    finally:
        b.stop()


def test_test_mode_asked_of_a_sleeping_table_waits_for_its_waking(flash):
    b = _board(flash, 1)
    try:
        m = new_real_game(b, flash)
        play(b, m, 2)
        st, rec, game = b.status(), saved(flash), _ink(b)
        ink = _wait_asleep(b, game)
        assert b.cmd("testmode on", timeout=5) == "OK testmode=1"
        assert b.cmd("sync", timeout=5) == "OK"
        assert _lights(b) == [False, False] and _ink(b) == ink
        # a test press cannot play what the panels do not show
        assert b.cmd("press 0 ok", timeout=5).startswith("ERR")
        assert b.cmd("sync", timeout=5) == "OK"
        b.vb.press(0, "ok")                    # wakes it into test mode's menu...
        b.ok("sync")
        tst = b.status()
        assert tst["screen"] == "menu" and tst["testmode"] == "1"   # ...and starts no game
        assert not os.path.exists(os.path.join(flash, "test.okg"))
        assert _ink(b) not in (ink, game)      # the TEST MODE banner over the menu
        b.ok("testmode off")
        b.ok("sync")
        assert b.status() == st and saved(flash) == rec and _ink(b) == game
    finally:
        b.stop()
