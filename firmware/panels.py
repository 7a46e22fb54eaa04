"""The table's two panels, from the app's state to the ink: which screen
each shows now (``redraw``: the menu, a notice, the error, the turn screen,
the showdown, the score pad), each update started as soon as its screen is
drawn (``push``), the full refresh put off while the computer's reply waits
behind it (``full_ok``, ``clean``), and whether everything drawn is on the
ink (``shown``). One panel's own refresh policy is panel.Panel's; a panel
that stops answering is recover.py's (App.panel_failed). The app calls
these with itself as the context, every turn of its loop; they call only
its public names."""
from i18n import t
import store
import turn


def redraw(app):
    """Draw the screens that changed; True if one was drawn. A panel
    still refreshing keeps its frame buffer (the driver gives it to the
    controller as the next partial refresh's base when the refresh
    ends, firmware/ssd1680.py): its screen is drawn on a later turn."""
    drawn = False
    bot = app.bot_due()
    menu = None     # a frame buffer this call drew the menu into
    for p in range(app.nplayers):
        if not app.dirty[p]:
            continue
        pn = app.panels[p]
        if bot and (p == 1 or pn.need_full):
            # the computer's panel, and a new deal's full refresh
            # (2.5 s the reply would wait behind): drawn once it has
            # moved, which is then in the same update
            continue
        try:
            if pn.refreshing():
                continue
        except OSError as e:   # the driver's EPDTimeout
            app.panel_failed(p, e)
            continue
        app.dirty[p] = False
        drawn = True
        pn.drawn = True
        fb = pn.fb
        import screens
        v = None
        note = app.notice[p]
        if note is not None:
            screens.error(fb, note[0], note[1], (t("hint.any"), t("hint.any_short")),
                          app.testmode)
        elif app.mode == "menu":
            if menu is not None and len(memoryview(menu)) == len(memoryview(fb)):
                # the same menu on both panels (it shows the app, not a
                # player): drawn once, copied (75 ms of an RP2040's boot)
                memoryview(fb)[:] = memoryview(menu)
            else:
                import menu as _menu
                _menu.show(fb, app)
                menu = fb
        elif app.mode == "error":
            # "saved" only when a game is loaded: OK brings it back; the
            # error's own words (an exception's type and message) stay
            # as they are: they are for a bug report
            screens.error(fb, t("err.title"), [
                t("err.saved") if app.reload else t("err.no_game"),
                app.error_text or ""],
                t("hint.err_back") if app.reload else t("hint.err_menu"),
                app.testmode)
        elif app.pad:
            import padview
            padview.scorepad(fb, padview.view_pad(app, p))
        elif app.showdown:
            import endview
            endview.showdown(fb, endview.view_showdown(app, p))
        else:
            v = turn.view(app, p)
            was = app.onfb[p]
            if was is not None and was["base"] is v["base"] \
                    and was["testmode"] == v["testmode"]:
                # the frame buffer holds this position's screen: only
                # what a cursor move changed is drawn (same pixels)
                screens.game_update(fb, v, was)
            else:
                screens.game(fb, v)
        app.power.overlay(fb, app.testmode)   # the battery, on batteries
        app.onfb[p] = v   # a turn screen's view, or None: another screen
        # drawing a screen is the longest stretch without a look at the
        # buttons: a quick tap made meanwhile is seen now, before its
        # update starts (a tap released as the ink starts to change would
        # otherwise be pressed and released between two looks: missed)
        app.buttons.poll()
        # on its way to the ink at once, not after the other panel's
        # drawing (~100 ms of a reply's wait, issue 41)
        push(app, p)
        app.buttons.poll()
    app.power.leds(app)
    return drawn


def full_ok(app):
    """May the full refresh due after ``partials_before_full`` partials
    go now? Not while the computer's reply waits behind the update (its
    turn: the player's own move) or is the update (``replied``): it goes
    once the reply is on the ink (clean), while the player reads it."""
    return not (app.replied or app.bot_due())


def push(app, p):
    """p's update started if what was drawn changed (panel.Panel.push)."""
    if app.dead[p]:
        return
    try:
        if app.panels[p].push(full_ok(app)) and p == 0:
            app.replied = False   # the reply is on its way to the ink
    except OSError as e:
        app.panel_failed(p, e)


def clean(app):
    """A calm point: a panel past ``partials_before_full`` whose full
    refresh was put off (full_ok) gets it now, the same picture (a
    game against the computer: between two players nothing is put
    off; a showdown waits for the next screen's full refresh)."""
    if app.vs == "human" or app.mode != "game" or app.showdown or not full_ok(app):
        return False
    done = False
    for p in range(app.nplayers):
        if app.dead[p] or app.dirty[p]:
            continue
        try:
            done = app.panels[p].clean() or done
        except OSError as e:
            app.panel_failed(p, e)
    return done


def service(app):
    """Every panel's update started once what was drawn for it changed
    and its last refresh has ended; the count of panel failures forgotten
    once both panels work again."""
    for p in range(app.nplayers):
        push(app, p)
    if app.failures and True not in app.dead and \
            app.panels[0].good and app.panels[1].good:
        # the panels work again after a reset: forget the failures
        app.failures = 0
        store.set_panel_failures(0)


def shown(app):
    """Every working panel shows what was last drawn for it (the ink
    has settled): `testmode on` answers only then, so its banner is
    on both panels before any test command can be sent; App.idle."""
    for p in range(app.nplayers):
        pn = app.panels[p]
        if app.dead[p]:
            continue
        # its screen waits for a refresh to end, or its update is in
        # progress (push() polls it and handles a timeout), or drawn but
        # not yet shown
        if app.dirty[p] or pn.started is not None or pn.changed():
            return False
    return True
