"""Hidden information over the serial port (the threat model in
docs/reliability.md): test mode plays its own game and never sees
the one in progress, and its banner is on both panels before any test-only
command is answered."""


from tests.support.real_game import boot, new_real_game, play, put, saved


def banner_pixels(img):
    # the TEST MODE banner: a black box in the top-right corner
    box = img.crop((296 - 76, 0, 296, 10))
    return sum(1 for v in box.tobytes() for b in range(8) if not (v >> b) & 1)


def test_test_mode_cannot_see_the_game_in_progress(flash):
    b = boot(flash)
    try:
        play(b, new_real_game(b, flash), 3)
        rec = saved(flash)
        st = b.status()
        ink = [b.vb.panel_image(p).tobytes() for p in (0, 1)]
        # what a laptop on the port tried: everything back to back, before
        # any panel could refresh
        b.write(b"testmode on\nscreen 1\nrecord\n")
        assert b.readline() == "OK testmode=1"
        # answered only once the banner is on the ink of both panels (and
        # nothing after it changes the ink: a "testmode off" in the same
        # write could put the game back before a loaded host looks)
        assert all(banner_pixels(b.vb.panel_image(p)) > 500 for p in (0, 1))
        screen = b.readline()
        assert screen.startswith("OK 296x128 ")
        assert b.readline() == "OK lines=0"        # test mode's own game: none yet
        b.write(b"testmode off\n")
        assert b.readline() == "OK testmode=0"
        # what `screen 1` showed is test mode's menu, not P2's hand
        from PIL import Image
        data = bytes.fromhex(screen.split(" ")[2])
        img = Image.frombytes("1", (296, 128), bytes(x ^ 0xFF for x in data))
        assert img.tobytes() != ink[1] and banner_pixels(img) > 500
        # the real game is back, untouched
        b.ok("sync")
        assert saved(flash) == rec and b.status() == st
        assert [b.vb.panel_image(p).tobytes() for p in (0, 1)] == ink
    finally:
        b.stop()


def test_test_mode_keeps_its_own_game_and_a_power_cut_ends_it(flash):
    b = boot(flash)
    try:
        new_real_game(b, flash)
        real = saved(flash)
        b.ok("testmode on")
        b.ok("newgame seed=5 dealer=0")
        b.press(1, "draw")
        sandbox = b.record()
        assert "seed=5 " in sandbox and saved(flash) == real
        # a power cut in test mode: the table comes back to the real game
        b.power_cut_and_boot()
        b.ok("sync")
        assert b.status()["testmode"] == "0" and saved(flash) == real
        # and test mode finds its own game where it left it
        b.ok("testmode on")
        assert b.record() == sandbox
        b.ok("testmode off")
        assert saved(flash) == real
    finally:
        b.stop()


def test_the_owners_lock_refuses_test_mode_and_ctrl_c_while_a_game_is_on(flash):
    """docs/reliability.md: with the lock on (a menu item), a laptop on the
    port gets neither test mode nor the REPL while a game is in progress;
    player 1 holding OK while the table powers on lifts it."""
    import json
    put(flash, "settings.json", json.dumps({"owner_lock": True}))
    b = boot(flash)
    try:
        assert b.cmd("testmode on") == "OK testmode=1"     # no game yet: allowed
        b.ok("testmode off")
        new_real_game(b, flash)
        st = b.status()
        assert b.cmd("testmode on").startswith("ERR the owner's lock is on")
        # Ctrl-C is a plain byte now: no KeyboardInterrupt, no REPL
        b.write(b"\r\x03\r\x03\n")
        assert b.readline(10).startswith("ERR not ASCII")
        assert b.status() == st
        b.vb.press(0, "ok", long=True)                    # the menu: the game is still on
        assert b.cmd("testmode on").startswith("ERR the owner's lock is on")
        # the way back in: player 1 holds OK while the table powers on
        b.vb.hold(0, "ok")
        b.power_cut_and_boot()
        b.vb.release(0, "ok")
        b.ok("sync")
        assert json.loads(saved(flash, "settings.json"))["owner_lock"] is False
        title = b.vb.panel_image(1).crop((0, 0, 296, 12)).tobytes().count(0)
        assert title > 100                                # "Owner lock lifted" on both panels
        assert b.cmd("testmode on") == "OK testmode=1"
    finally:
        b.stop()


def _computer_moves(b, flash):
    """The real game against the computer (easy), started from the menu
    with the buttons: seat 0 passes, draws and throws the card drawn until
    the computer has made a few decisions. Returns how many it made."""
    b.vb.press(0, "right")                    # the menu's second row: vs easy
    b.vb.press(0, "ok")
    b.ok("sync")
    for _ in range(4):
        st = b.status()
        if st["screen"] != "game":
            break
        b.vb.press(0, "draw")                 # pass the upcard, or draw
        b.ok("sync")
        if b.status()["phase"] == "discard" and b.status()["to_move"] == "0":
            b.vb.press(0, "ok")               # the card just drawn
            b.ok("sync")
    return sum(1 for ln in saved(flash).decode().splitlines()
               if ln.split()[1:2] == ["1"])


def test_test_mode_times_nothing_of_the_real_game(flash):
    b = boot(flash)
    try:
        b.ok("testmode on")
        assert b.ok("bottimes") == "OK n=0 us="     # recording test mode's decisions
        b.ok("testmode off")
        assert _computer_moves(b, flash) >= 2       # the real game's computer decides
        b.ok("testmode on")
        # nothing of it was recorded, not even its number of decisions
        assert b.ok("bottimes") == "OK n=0 us="
    finally:
        b.stop()


def test_test_modes_decision_times_are_bounded(tboard):
    """A host that starts `bottimes` and never reads it again: the
    firmware keeps the newest 128 decisions, not a list that grows for
    as long as the table plays."""
    b = tboard
    assert b.ok("bottimes") == "OK n=0 us="
    done = last = 0                                   # the computer's decisions
    while True:
        b.ok("sync")
        st = b.status()
        if st["screen"] == "menu":                    # a game over: another
            done += last
            last = 0
            b.ok("newgame seed=%d vs=easy dealer=1" % (11 + done))
            continue
        last = sum(1 for ln in b.record().splitlines() if ln.split()[1:2] == ["1"])
        if done + last > 140:
            break
        if st["screen"] != "game":
            b.press(0, "ok")                          # a showdown, the pad
        elif st["to_move"] == "0":
            b.press(0, "draw")                        # pass, or draw...
            st = b.status()
            if st["to_move"] == "0" and st["phase"] == "discard":
                b.press(0, "ok")                      # ...and throw what was drawn
    us = b.ok("bottimes").split("us=")[1].split(",")
    assert len(us) == 128 and all(int(x) > 0 for x in us)
