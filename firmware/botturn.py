"""The computer's turn (seat 1, docs/bots.md "The player's wait", issue
41): it decides and plays its whole turn (the upcard, or its draw and
discard) in one loop turn, while the player's own move is on its way to
the ink; both actions are saved in one write, before anything shows either,
and shown in one update. The app loads this module for a game against the
computer (App.step, when App.bot_due) and drops it with the computer's code
when the game ends; it calls only the app's public names."""
import gc
import time

# test mode's ``bottimes`` (app.bot_us): the computer's decision times (us)
# in test mode's game, once it has been asked for (None: not recording),
# forgotten whenever test mode is switched (nothing of the real game is
# recorded); this many, the newest (a hand has ~30 of the computer's; a
# host reads them after each hand)
BOT_TIMES = 128


def play(app):
    """The computer's whole turn; the app has checked it is due."""
    m = app.match
    # the turn screens' views go (the search needs the room; they are
    # rebuilt for the reply). The drawing code stays loaded: dropping
    # it here and importing it again for the reply cost ~100 ms of the
    # player's wait (docs/bots.md "The player's wait")
    app.touch()
    hand_no = m.hand_no
    lines = []
    # a fresh bot seeded from the game and the move number: a resumed
    # game replays the same decisions
    from engine.bots import bot, move_seed
    while True:
        t0 = time.ticks_us()   # the decision as the player waits for it
        obs = m.observation(1)
        b = bot(app.vs, move_seed(m.seed, len(obs["history"])))
        # main.py's gc.threshold counts every byte allocated, and
        # MicroPython puts most call frames on the heap (freed as the
        # call returns): the search's thousands of calls set off a
        # collection every few dozen of them, 555 ms a decision on the
        # chip instead of 121 (issue 26). Lifted while the computer
        # thinks; what the decision leaves behind (a few KB) is
        # collected at once, before the move's lasting allocations, so
        # nothing lasting is laid out among it.
        th = gc.threshold()
        gc.threshold(-1)
        try:
            act = b.choose(obs)
        finally:
            gc.threshold(th)
        b = obs = None
        gc.collect()
        m.play(act)
        lines.append(m.record_line())
        bt = app.bot_us   # test mode's own game only, the newest BOT_TIMES
        if bt is not None and app.testmode:
            if len(bt) >= BOT_TIMES:
                bt.pop(0)
            bt.append(time.ticks_diff(time.ticks_us(), t0))
        if m.hand_no != hand_no or m.winner is not None or m.hand.to_move != 1:
            break
    # the computer's code stays loaded (7.5 KB on the chip): dropping it
    # after each move cost 72 ms per move there (docs/memory.md)
    app.save(False, "\n".join(lines))
    lines = None
    app.replied = True   # its update: no full refresh in its way
    app.after_action(None, None, hand_no)
    if app.showdown:
        # its knock: the showdown on the player's panel by a partial
        # refresh (0.4 s, not 2.5: the reply), read until OK; the next
        # screen, a deal or the menu, is a full one and clears the
        # ghosting (hand_boundary)
        app.panels[0].need_full = False
