"""The table asleep (docs/power.md): auto-off after the menu's idle time,
or a battery below the cut-off. Power.sleep imports this module when the
table goes to sleep and drops it when it wakes, so its code is not on the
heap during play.

The game is already saved (after every action). Both panels show the
sleeping (or empty battery) screen, which stays on the ink, and go to deep
sleep; the chip sleeps as deep as a button can end: DORMANT on batteries,
a light sleep that keeps the serial port on USB. Any button wakes it into
the same game, and that press does nothing else: nor do the presses made
until the panels show the game again (Power.woken). A press made while the
sleeping screen is being drawn wakes the table as soon as it is drawn.
"""
from time import sleep_ms, ticks_ms

from i18n import t
import text


def sleep(pw, app, why, cutoff_mv, rest_ms):
    """Save (already done after every action), show the sleeping (or
    empty battery) screen on both panels, sleep as deep as a button can
    end, and come back into the same game. ``pw``: the app's Power;
    ``cutoff_mv``, ``rest_ms``: power.py's CUTOFF_MV and REST_MAX_MS."""
    import gc
    pw.sleeping = True
    hw = pw.hw
    gc.collect()
    for p in range(app.nplayers):
        if app.dead[p]:
            continue
        pn = app.panels[p]
        _settle(pw, app, p)
        if why == "asleep":
            screen(pn.fb, t("power.asleep"), t("power.wake"))
        else:
            screen(pn.fb, t("power.empty"), t("power.empty_more"))
        try:
            pn.d.show(full=True)
        except OSError:
            pass
    for p in range(app.nplayers):
        if not app.dead[p]:
            _settle(pw, app, p)
            try:
                app.panels[p].d.sleep()
            except OSError:
                pass
    for led in hw.leds:
        led.value(0)
    b = app.buttons
    # a press while the sleeping screen was being drawn (_settle polls the
    # buttons) is the waking press: once the screen is on the ink, at once
    woke = b.held_any() or b.pending()
    while True:
        if not woke:
            s = hw.supply()
            usb = s is None or s[0]
            if usb:
                # USB: the serial port stays up; its requests are answered
                # without a panel or a light (protocol.py: pw.sleeping)
                hw.rest(rest_ms, None if app.proto is None else app.proto.pending)
                if app.proto is not None:
                    app.proto.poll()
            else:
                hw.dormant()
            b.poll()
        if b.held_any() or b.pending():
            if why == "empty":
                s = hw.supply()
                if s is not None and not s[0] and s[1] and s[1] < cutoff_mv:
                    _release(b)
                    woke = False
                    continue        # still empty: back to sleep, no refresh
            break
        woke = False
    _release(b)
    # until the panels show the game again, presses do nothing and the
    # turn light stays off (Power.woken)
    pw.waking = True
    pw.sleeping = False
    pw.mv = 0
    pw.read_at = ticks_ms()
    pw.touch(pw.hot)
    # every screen again, in full (the frame buffers hold the sleeping one)
    for p in range(app.nplayers):
        pn = app.panels[p]
        pn.need_full = True
        pn.shown = None         # the ink shows the sleeping screen
        app.onfb[p] = None
    app.dirty = [True, True]


def _settle(pw, app, p):
    """Wait for p's refresh to end, looking at the buttons meanwhile (an
    edge ends the rest): a press made now wakes the table."""
    pn = app.panels[p]
    b = app.buttons
    try:
        while pn.d.busy():
            pw.hw.rest(1000 if not b.settling else b.debounce_ms)
            b.poll()
    except OSError:
        pass
    pn.started = None


def _release(b):
    """Wait for the waking press to end; it does nothing else."""
    while b.held_any() or b.settling:
        sleep_ms(4)
        b.poll()
    while b.get() is not None:
        pass


def screen(fb, title, line):
    """The sleeping (or empty battery) screen: it stays on the ink. The
    title in bold, centred, the line below it wrapped and centred, in the
    players' language (text.py's glyphs), on the panel's logical size
    (text.FB_W x text.FB_H: 296x128, or the 4.2"'s 200x150 at scale 2).
    The block sits a third of the way down where the panel has the lines,
    else 24 px from the top as on the 2.9"."""
    fb.fill(0)
    w = text.FB_W
    h = text.FB_H
    parts = text.wrap(line, w - 16)
    tw = min(text.width(title) + 1, w - 8)
    need = 2 * text.H + len(parts) * (text.H + 2)
    top = max(24, ((h - need) // 3) & ~7)
    text.draw(fb, title, (w - tw) // 2, top, tw, 1, True)
    y = top + 2 * text.H
    for part in parts:
        if y + text.H > h:
            text.no_room(part, 8, y)
            break
        pw = text.width(part)
        text.draw(fb, part, (w - pw) // 2, y, pw)
        y += text.H + 2
