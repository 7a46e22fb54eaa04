"""Test mode switched on or off (the serial port's ``testmode on|off``,
docs/protocol.md). Loaded by protocol.py for that command and dropped
after it; it calls only the app's public names."""
import gc

import store


def switch(app, on):
    """Test mode plays its own game (store.sandbox: test.okg): the game
    in progress leaves RAM (it is on flash, saved after every action)
    and comes back from flash when test mode ends, so nothing a test
    command shows (screens, record) is ever of the real game."""
    if on == app.testmode:
        return
    app.testmode = on
    app.bot_us = None   # bottimes: test mode's own decisions, from its next ask
    # where each player's cursor was in the real game, for its return
    # (after resume(): its saved cursors may be a moment older)
    real = app.real_cursor
    app.real_cursor = app.cursor if on else None
    app.cursor = [0, 0]
    app.match = None
    app.mode = "menu"
    app.showdown = False
    app.error_text = None
    app.reload = False
    app.notice = [None, None]
    app.reviews = []   # a review of the real game's hand goes with it
    app.msg = ["", ""]
    app.confirm = [False, False]
    app.menu_sel = 0
    gc.collect()
    store.sandbox(on)
    try:
        app.resume()
    except Exception as e:   # as at boot: never stuck
        app.fail(e)
    if real is not None:
        app.cursor = real
    app.hand_boundary()
    if not app.power.sleeping:   # asleep: drawn when a button wakes it
        app.redraw()
