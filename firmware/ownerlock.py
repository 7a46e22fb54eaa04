"""The owner's lock (docs/reliability.md): during a game, no test mode and
no Ctrl-C on the USB port. Player 1 holding OK while the table powers on
lifts it (the way back in, in plain sight). The app calls these with
itself as the context: ``start`` at boot, ``follow`` on every turn of its
loop, ``locked`` for the serial port's test mode and crash.py.

The app's ``kbd_locked`` is whether Ctrl-C is off now, and ``lock_held``
keeps it off after an error under the lock until the next reset, game
loaded or not (issue 40: a game that failed to load is still on the
flash, and still locked; App.fail, crash.py)."""
from i18n import t
import store


def start(app):
    """At power-on: the lock lifted when player 1 holds OK, said on both
    panels. (Ctrl-C is as main.py left it: it sets ``kbd_locked``.)"""
    if app.settings.get("owner_lock") is True and app.buttons.held(0, "ok"):
        app.settings["owner_lock"] = False
        store.save_settings(app.settings)
        note = (t("lock.title"), [t("lock.text")])
        app.notice = [note, note]


def locked(app):
    """The owner's lock holds: a game is in progress (on its screens or
    behind the menu; not test mode's)."""
    if app.lock_held:
        return True
    m = app.match
    return m is not None and m.winner is None and not app.testmode and \
        app.settings.get("owner_lock") is True


def follow(app):
    """Ctrl-C off while the lock holds, on again at the menu (hal)."""
    lk = locked(app)
    if lk != app.kbd_locked:
        app.kbd_locked = lk
        f = getattr(app.hw, "lock_repl", None)
        if f is not None:
            f(lk)
