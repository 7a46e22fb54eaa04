"""Power loss and damaged records: the micropython process is killed at
random moments (also in the middle of a deliberately slowed save) and the
game resumes at the last completed action with a valid record; a damaged
record is repaired to its valid part, kept as game.bad, and the players are
told, without a crash loop."""
import json
import os
import random
import time


from tests.support.play import Player

from okgin.engine import IllegalAction, Match

SEED = 2


def _with_slow_saves(flash, ms):
    with open(os.path.join(flash, "settings.json"), "w") as f:
        json.dump({"slow_save_ms": ms}, f)


def test_power_cuts_at_random_moments_resume_at_the_last_action(flash):
    from tests.support.harness import RunningFirmware
    # each 256-byte chunk of a save waits 15 ms: a kill often lands mid-write
    _with_slow_saves(flash, 15)
    b = RunningFirmware(flash)
    mid_save = []
    # test mode's game is test.okg (saved like the real one, store.py)
    b.after_kill = lambda: mid_save.append(os.path.exists(os.path.join(flash, "test.tmp")))
    b.start()
    rng = random.Random(5)
    try:
        b.ok("testmode on")
        b.ok("newgame seed=%d dealer=0" % SEED)
        pl = Player(b, SEED, dealer=0, rng_seed=3)
        cuts = 0
        torn = 0
        while pl.m.hand_no == 1 and cuts < 8:
            # a few actions normally, then one whose press is cut short
            for _ in range(rng.randint(0, 3)):
                if pl.m.hand_no != 1:
                    break
                pl.step()
            if pl.m.hand_no != 1:
                break
            before = pl.m.to_record()
            p = pl.m.hand._to_move
            phase = pl.m.observation(p)["phase"]
            button = "draw" if phase in ("upcard", "draw") else "ok"
            b.write(("press %d %s\n" % (p, button)).encode())
            time.sleep(rng.uniform(0.0, 0.08))
            b.power_cut_and_boot()
            cuts += 1
            b.ok("testmode on")
            rec = b.record()
            m = Match.from_record(rec)        # always a valid record
            assert rec == before or rec.startswith(before), "lost completed actions"
            after = Match.from_record(before)
            try:
                after.play("pass" if phase == "upcard" and button == "draw" else
                           "draw" if button == "draw" else
                           "discard " + _cursor_card(pl, p))
            except IllegalAction:
                pass    # e.g. the card just taken (R7): the press changes nothing
            assert rec in (before, after.to_record())
            torn += rec == before
            assert not os.path.exists(os.path.join(flash, "test.tmp"))
            # continue from what the board resumed (the cursor starts at 0)
            pl.m = m
            pl.keys.reset()
            st = b.status()
            exp = pl.expected_status()
            assert {k: st[k] for k in exp} == exp
        assert cuts >= 3
        print("power cuts: %d, during a save: %d, before the action: %d"
              % (cuts, sum(mid_save), torn))
    finally:
        b.stop()


def _cursor_card(pl, p):
    from okgin.engine.arrange import order as arranged
    order = arranged(pl.m.observation(p)["hand"])
    return order[pl.keys.cursor[p] % len(order)]


def _boot_with_record(flash, text):
    """The table powered on with ``text`` as its saved game (the real one:
    test mode never shows it, so what it resumed is read from the panels,
    ``status`` and the flash)."""
    from tests.support.harness import RunningFirmware
    with open(os.path.join(flash, "game.okg"), "w") as f:
        f.write(text)
    b = RunningFirmware(flash)
    b.start()
    b.ok("sync")
    return b


def saved(flash, name="game.okg"):
    with open(os.path.join(flash, name)) as f:
        return f.read()


def _recorded_hand(n_actions):
    pl = Player(None, SEED, dealer=0, rng_seed=3)
    for _ in range(n_actions):
        o = pl.m.observation(pl.m.hand._to_move)
        pl.m.play(pl.choose(o))
    return pl.m.to_record()


def _notice_on_panel(b, p):
    # the notice's black title bar across the top of the panel
    return b.vb.panel_image(p).crop((0, 0, 296, 12)).tobytes().count(0) > 100


def test_torn_last_line_resumes_at_the_previous_action(flash):
    rec = _recorded_hand(9)
    lines = rec.split("\n")
    torn = "\n".join(lines[:-2]) + "\n" + lines[-2][:5]     # half a line
    b = _boot_with_record(flash, torn)
    try:
        assert saved(flash) == "\n".join(lines[:-2]) + "\n"
        m = Match.from_record(saved(flash))
        st = b.status()
        assert st["screen"] == "game" and st["stock"] == str(m.hand.stock_count)
        # the players are told; the damaged copy is kept
        assert saved(flash, "game.bad") == torn
        assert _notice_on_panel(b, 0) and _notice_on_panel(b, 1)
        b.vb.press(0, "ok")           # any button closes the notice
        b.vb.press(1, "ok")
        b.ok("sync")
        assert not _notice_on_panel(b, 0)
        assert b.status()["screen"] == "game"
    finally:
        b.stop()


def test_garbage_in_the_middle_keeps_the_valid_part(flash):
    rec = _recorded_hand(12)
    lines = rec.split("\n")
    bad = "\n".join(lines[:8] + ["7 1 discard Zz ;"] + lines[9:])
    b = _boot_with_record(flash, bad)
    try:
        got = saved(flash)
        assert got == "\n".join(lines[:8]) + "\n"
        assert b.status()["stock"] == str(Match.from_record(got).hand.stock_count)
    finally:
        b.stop()


def test_unreadable_record_goes_to_the_menu_and_keeps_the_file(flash):
    b = _boot_with_record(flash, "\x00\x01 not a record at all\n")
    try:
        assert b.status()["screen"] == "menu"
        with open(os.path.join(flash, "game.bad")) as f:
            assert "not a record" in f.read()
        assert not os.path.exists(os.path.join(flash, "game.okg"))
        # and it does not crash-loop: a second boot is a clean menu
        b.power_cut_and_boot()
        assert b.status()["screen"] == "menu"
    finally:
        b.stop()


def test_damaged_settings_fall_back_to_defaults(flash):
    from tests.support.harness import RunningFirmware
    for text in ("{not json", '{"slow_save_ms": "abc", "rules": 5, "game": []}', "\xff\xfe"):
        with open(os.path.join(flash, "settings.json"), "w") as f:
            f.write(text)
        b = RunningFirmware(flash)
        b.start()
        try:
            b.ok("testmode on")
            assert b.status()["screen"] == "menu"
            b.press(0, "ok")                   # "New game: 2 players"
            m = Match.from_record(b.record())
            assert m.rules.gin_bonus == 25 and m.rules.target == 100
        finally:
            b.stop()
        os.remove(os.path.join(flash, "test.okg"))


def _play_vs_computer(b, cut):
    """Six human turns against the computer; with cut=True the power goes
    off after each of them. Returns the record."""
    b.ok("testmode on")
    b.ok("newgame seed=%d vs=easy dealer=0" % SEED)
    pl = Player(b, SEED, dealer=0, rng_seed=4)
    for _ in range(6):
        b.ok("sync")                       # the computer has moved
        m = Match.from_record(b.record())
        if m.hand_no > 1:
            break
        pl.m = m
        pl.step()
        if cut:
            b.power_cut_and_boot()
            b.ok("testmode on")
            pl.keys.reset()                # a boot starts the cursor at 0
    b.ok("sync")
    return b.record()


def test_the_computer_plays_on_identically_after_a_power_cut(tmp_path):
    from tests.support.harness import RunningFirmware, make_flash
    recs = []
    for cut in (False, True):
        b = RunningFirmware(make_flash(str(tmp_path / ("flash%d" % cut))))
        b.start()
        try:
            recs.append(_play_vs_computer(b, cut))
        finally:
            b.stop()
    # the computer is seeded from the game and the move number, so a
    # resumed game goes on exactly as the uninterrupted one
    assert recs[0] == recs[1]
    assert len(recs[0].splitlines()) > 3 + 6
