"""Issue 40, 3: with the owner's lock on, no crash returns to the REPL.
Before, main.py had no catch-all around main(): anything App.start or the
main loop let out (SystemExit, a broken module, an error inside the error
screen) stopped the firmware at the ``>>>`` prompt, where
``print(open('game.okg').read())`` printed the saved record. A crash is
injected here as a module on the flash that raises a BaseException of its
own (which App.step's ``except Exception`` does not catch): at boot (recover.py,
which resumes the game), during play (coachview.py, hold DRAW) and
during sleep (asleep.py, auto-off). The table must answer on its port,
show the error, keep Ctrl-C a plain byte and lose nothing; without the
lock, a crash still reaches the REPL (where `okgin flash` repairs)."""
import json
import os
import time

import pytest

from okgin.engine import Match
from tests.support.harness import RunningFirmware

INJECT = "class InjectedCrash(BaseException):\n    pass\n\n\nraise InjectedCrash('injected crash')\n"
ASK = b"print(open('game.okg').read())\r"


def put(flash, name, data):
    with open(os.path.join(flash, name), "w") as f:
        f.write(data)


def repl_try(b, wait=2.0):
    """What a player with a laptop would try: Ctrl-C, then read the saved
    game at the prompt. The bytes the port gave back."""
    b.write(b"\r\x03\x03\r\n")
    time.sleep(0.5)
    b.write(ASK)
    got = b""
    t0 = time.monotonic()
    b.ser.timeout = 0.2
    while time.monotonic() - t0 < wait:
        got += b.ser.read(4096)
    b.write(b"\nhello\n")      # and the answers owed, up to hello's
    while b"OK okgin" not in got and time.monotonic() - t0 < wait + 10:
        got += b.ser.read(4096)
    return got


def start_crashed(b):
    """Start a board whose boot may crash: READY must still come (after
    the crash's ERR line)."""
    try:
        b.start()
    except AssertionError as e:
        # the harness wants READY first; here the crash's line comes before
        assert "\nREADY okgin" in str(e), "no READY after a crash at boot: %s" % e


@pytest.mark.parametrize("when", ["boot", "play", "sleep"])
def test_a_crash_under_the_owners_lock_never_opens_the_repl(flash, when):
    m = Match(seed=5, players=("human", "human"))
    for a in ("pass", "pass", "draw"):
        m.play(a)
    rec = m.to_record()
    put(flash, "game.okg", rec)
    settings = {"owner_lock": True}
    if when == "sleep":
        settings["auto_off_s"] = 1
    put(flash, "settings.json", json.dumps(settings))
    put(flash, {"boot": "recover.py", "play": "coachview.py", "sleep": "asleep.py"}[when], INJECT)
    b = RunningFirmware(flash)
    try:
        start_crashed(b)
        if when == "play":
            b.vb.press(0, "draw", long=True)      # hold DRAW: the coach (its module crashes)
        elif when == "sleep":
            time.sleep(3)                         # auto-off after 1 s: asleep.py crashes
        got = repl_try(b)
        assert b"okgin-record" not in got and b">>>" not in got and b"Traceback" not in got, got
        st = b.status()
        assert st["screen"] == "error", st
        # nothing lost: the saved game is the same
        with open(os.path.join(flash, "game.okg")) as f:
            assert f.read() == rec
        if when != "boot":
            # OK on the error screen: the saved game again, and the lock still holds
            b.vb.press(0, "ok")
            time.sleep(0.5)
            assert b.status()["screen"] == "game", b.status()
            got = repl_try(b)
            assert b"okgin-record" not in got and b">>>" not in got, got
    finally:
        b.stop()


def test_without_the_lock_a_crash_at_boot_still_reaches_the_repl(flash):
    """The catch-all keeps the way `okgin flash` repairs a table that has
    no locked game: the REPL, as before."""
    put(flash, "game.okg", Match(seed=5).to_record())
    put(flash, "recover.py", INJECT)
    b = RunningFirmware(flash)
    try:
        with pytest.raises(AssertionError):
            b.start(timeout=10)              # no READY: the REPL instead
        got = repl_try(b)
        assert b"okgin-record" in got, got
    finally:
        b.stop()
