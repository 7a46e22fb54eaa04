"""Boot and rare recoveries, loaded only when needed and dropped after (the
heap is tight): resuming the saved game at boot, a damaged game record, a
panel whose BUSY line never goes low."""
import time

from engine import Match, Rules
import store

_LINE_MAX = 400   # bytes; the longest line a record has is ~120


def boot(app, f):
    """Resume the saved game exactly, or show the menu. ``f``: the record,
    open (store.open_game: App.resume opens it, and loads this module only
    when there is one). It is read one line at a time
    (engine.record_read.Reader), so a game of any length resumes in the
    heap one line needs; a line that is damaged, malformed or illegal ends
    the good part there (repair)."""
    app.vs = "human"
    from engine.record_read import Reader
    r = Reader("match", Match, Rules)
    good = 0       # bytes of the good part
    ln = 0
    err = None
    newline = True
    try:
        while True:
            raw = f.readline(_LINE_MAX)
            if not raw:
                break
            ln += 1
            try:
                if len(raw) >= _LINE_MAX and raw[-1] != 10:
                    raise ValueError("line %d: longer than %d bytes" % (ln, _LINE_MAX))
                r.feed(ln, raw.decode())
            except (ValueError, UnicodeError) as e:   # IllegalAction is one
                err = str(e) or "line %d: not text" % ln
                break
            good += len(raw)
            newline = raw[-1] == 10
    finally:
        f.close()
    m = r.game
    old = r.version == 1
    r = None
    from i18n import t
    if m is None:
        store.discard_game()
        app.mode = "menu"
        app.menu_msg = t("menu.unreadable")
        # the players read where the record broke and what now; the
        # engine's English reason stays in game.bad's reader (okgin faults)
        note = (t("rec.damaged"), [t("rec.bad_line", ln if err else ln + 1),
                                   t("rec.kept", store.BAD)])
        app.notice = [note, note]
        app.touch()
        return
    seat = m.players[1]
    if m.players[0] != "human" or (seat != "human" and seat not in app.levels):
        # seats this firmware does not know (another version's levels):
        # kept aside whole, before anything can write over it
        store.discard_game()
        app.match = None
        app.mode = "menu"
        note = (t("rec.not_resumed"), [t("rec.unknown_players", m.players[0], m.players[1]),
                                       t("rec.kept", store.BAD)])
        app.notice = [note, note]
        app.touch()
        return
    if m.fresh:
        m.entropy = app.hw.random_bytes   # the next hands: fresh keys again
    store.owned = True    # the record on the flash is this game's from now on
    if err is not None or not newline:
        store.keep_prefix(good, not newline, err is not None)
    if old:
        _upgrade(app, m)   # its seats from settings.json, where trusted
    app.vs = m.players[1]
    app.match = m
    app.mode = "game"
    resume_state(app)
    c = store.load_cursor(m)   # each player's selected card, as it was
    if c is not None:
        app.cursor = c
    if err is not None:
        note = (t("rec.repaired"), [t("rec.bad_line", ln), t("rec.resumed", store.BAD)])
        app.notice = [note, note]
        app.touch()


def _upgrade(app, m):
    """A record written before version 2 says nothing of its seats: they
    were in settings.json, trusted now only where that entry names the
    record's seed. The record is saved again as version 2, with its seats,
    and the entry goes: settings no longer describe a game."""
    g = app.settings.pop("game", None)
    if isinstance(g, dict) and g.get("seed") == m.seed and g.get("vs") in app.levels:
        m.players = ("human", g["vs"])
        m._key = None   # the header changed
    store.save_lines(m.record_lines())
    if g is not None:
        store.save_settings(app.settings)


def resume_state(app):
    """After boot: a hand that ended and whose successor has no action
    yet is still on its showdown screen (the engine deals at once)."""
    m = app.match
    app.showdown = m.winner is not None or (
        m.last_hand is not None and not m.hand.history(1))
    if m.winner is not None:
        # a game won before a power cut: counted now if it was not then
        app.count_game()
    app.hand_boundary()


def panel_failed(app, p, e):
    """BUSY never went low (EPDTimeout) on p's panel: say so on the
    other panel, then recover by a reset (the game resumes from flash).
    If resets do not help (twice in a row), stop driving that panel and
    keep playing on the other one rather than reset forever."""
    other = 1 - p
    app.failures += 1
    store.set_panel_failures(app.failures)
    again = app.failures <= 2
    from i18n import t
    app.notice[other] = (t("panel.title", t("name.player", p + 1)),
                         [t("panel.resetting") if again else t("panel.gave_up"),
                          str(e)])
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
