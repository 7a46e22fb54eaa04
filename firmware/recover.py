"""Boot and rare recoveries, loaded only when needed and dropped after (the
heap is tight): resuming the saved game at boot, a damaged game record, a
panel whose BUSY line never goes low."""
import time

from engine import IllegalAction, Match
import store


def boot(app):
    """Resume an interrupted game exactly, or show the menu."""
    text = store.load_game()
    if text is None:
        app.mode = "menu"
        return
    g = app.settings.get("game")
    if not isinstance(g, dict):
        g = {}
    app.vs = g.get("vs", "human")
    app.seed = g.get("seed", 0)
    from app import LEVELS
    if app.vs != "human" and app.vs not in LEVELS:
        app.vs = "human"
    try:
        app.match = Match.from_record(text)
        app.mode = "game"
        resume_state(app)
        return
    except (ValueError, IllegalAction) as e:
        err = str(e)
    repair_record(app, text, err)


def resume_state(app):
    """After boot: a hand that ended and whose successor has no action
    yet is still on its showdown screen (the engine deals at once)."""
    m = app.match
    app.showdown = m.winner is not None or (
        m.last_hand is not None and not m.hand.history(1))
    if m.winner is not None:
        # a game won before a power cut: counted now if it was not then
        app.count_game()
    app._hand_boundary()


def repair_record(app, text, err):
    """A record that does not replay (power cut on a filesystem without
    atomic rename, a bad copy): keep the longest valid prefix, keep the
    damaged file as game.bad, tell both players. Never crash-loop."""
    store.keep_bad(text)
    lines = text.split("\n")
    good = None
    for n in range(len(lines) - 1, 0, -1):
        try:
            good = Match.from_record("\n".join(lines[:n]) + "\n")
            break
        except (ValueError, IllegalAction):
            pass
    if good is None:
        store.clear_game()
        app.mode = "menu"
        app.menu_msg = "Saved game unreadable"
        note = ("Saved game damaged", [err, "Kept as game.bad.",
                                       "Start a new game."])
    else:
        app.match = good
        store.save_game(good.to_record())
        app.mode = "game"
        resume_state(app)
        note = ("Saved game repaired", [err, "Resumed at the last valid move.",
                                        "Damaged copy kept as game.bad."])
    app.notice = [note, note]
    app._touch()


def panel_failed(app, p, e):
    """BUSY never went low (EPDTimeout) on p's panel: say so on the
    other panel, then recover by a reset (the game resumes from flash).
    If resets do not help (twice in a row), stop driving that panel and
    keep playing on the other one rather than reset forever."""
    other = 1 - p
    app.failures += 1
    store.set_panel_failures(app.failures)
    again = app.failures <= 2
    app.notice[other] = ("Panel of P%d not responding" % (p + 1),
                          [str(e),
                           "Resetting the table; the game resumes where it was."
                           if again else
                           "Reset did not help: check its cable. Playing on."])
    app.dirty[other] = True
    pn = app.panels[other]
    try:
        # the other panel may still be showing the last move: redraw()
        # draws into a panel only once its refresh has ended
        _wait_refresh(pn)
        app.redraw()
        pn.need_full = True
        if not app.dead[other]:
            pn.push()
            _wait_refresh(pn)
    except OSError:
        pass
    if again:
        app.hw.reset()
    app.dead[p] = True


def _wait_refresh(pn, ms=5000):
    t0 = time.ticks_ms()
    while pn.refreshing() and time.ticks_diff(time.ticks_ms(), t0) < ms:
        time.sleep_ms(10)
