"""The table's power (docs/power.md): the chip sleeps between presses, the
panels sleep between refreshes, the battery gauge, the low-battery warning
and cut-off, and auto-off.

The app makes one Power at boot and calls, from its loop: ``touch(p)`` on
every button event, ``tick(app)`` on every turn, ``rest(app)`` when a turn
found nothing to do, and ``overlay(fb, testmode)`` after drawing a screen.

- rest: machine.lightsleep (hal.rest) until the next thing due, or until a
  button or BUSY edge or a serial byte ends it early; a held or bouncing
  button is polled every 4 ms instead (time.sleep_ms, clocks running).
- panels: a panel goes to deep sleep once its refresh has ended, except
  the panel of the player whose press is expected next (the player to
  move; else the last to press), which stays awake up to HOT_MS so the
  press it is waiting for is not delayed by the controller's wake-up.
- gauge: VSYS read every READ_MS (never while a panel refreshes),
  smoothed; an icon on the status line while on batteries; a notice once
  below LOW_MV; below CUTOFF_MV the game is already saved, the panels say
  so, and the table sleeps until USB or a button brings it back.
- turn light: on batteries the LED of the player to move flashes
  (LED_ON_MS every LED_EVERY_MS) instead of staying lit (~4 mA each);
  on USB it stays lit.
- auto-off: after the menu's idle time the panels show the sleeping screen
  and go to deep sleep, and the chip sleeps as deep as it can and still be
  woken by a button: DORMANT on batteries; on USB a light sleep that keeps
  the serial port. Any button wakes it into the same game (that press does
  nothing else, nor do presses made before the panels show the game again;
  presses made while the sleeping screen is being drawn wake it at once).
  A host's requests on USB are answered meanwhile without waking the
  panels or the lights (protocol.py).
"""
from time import ticks_add, ticks_diff, ticks_ms

try:
    from micropython import const
except ImportError:  # CPython (tests, mypy)
    def const(x):
        return x

from i18n import t
import store

AUTO_OFF = (0, 5, 15, 60)   # the menu's choices, minutes (0: never)
DEFAULT_AUTO_OFF = 15
_READ_MS = const(20000)  # a battery reading every 20 s
_FULL_MV = const(4300)  # VSYS of fresh 3 x AA behind the diode
_LOW_MV = const(3100)  # ~1.1 V a cell: the warning
CUTOFF_MV = 2700            # ~0.97 V a cell: save, say so, sleep
HOT_MS = 30000              # the awaited panel stays awake this long
_CURSOR_MS = const(1000)  # the cursors saved once nobody pressed for this long
REST_MAX_MS = 60000
_LED_EVERY_MS = const(2000)  # on batteries the turn light flashes...
_LED_ON_MS = const(60)  # ...this long
_SMOOTH = const(4)  # exponential average over ~4 readings


def auto_off_minutes(settings):
    v = settings.get("auto_off", DEFAULT_AUTO_OFF)
    return v if v in AUTO_OFF and type(v) is int else DEFAULT_AUTO_OFF


def auto_off_label(minutes):
    return t("value.never") if not minutes else t("value.minutes", minutes)


class Power:
    def __init__(self, hw, settings):
        self.hw = hw
        self.settings = settings
        # what the board offers (the web page's has none of these)
        self._supply = getattr(hw, "supply", None)
        self._rest = getattr(hw, "rest", None)
        now = ticks_ms()
        self.touched = now          # the last button event
        self.read_at = now          # the next battery reading (at once)
        self.hot = 0                # the player whose panel stays awake
        self.usb = True
        self.mv = 0                 # smoothed VSYS, 0 = not read yet
        self.level = -1             # icon bars shown (-1: no icon)
        self.warned = False
        self.sleeping = False
        # woken, until the panels show the game again: presses do nothing
        # and the turn light stays off (woken() ends it)
        self.waking = False
        self._lit = True

    # -- called by the app ----------------------------------------------------
    def touch(self, p):
        self.touched = ticks_ms()
        self.hot = p

    failed = False   # auto-off failed once: not tried again until a reset

    def due(self):
        """A battery reading is due that tick takes on the next main-loop
        turn (the first at once after a boot; tick's own condition: no
        panel busy, so a panel stuck BUSY never holds it). What it finds
        may change the screens (the gauge, the low battery's notice), so
        the port's ``sync`` waits for it."""
        if self._supply is None or ticks_diff(ticks_ms(), self.read_at) < 0:
            return False
        try:
            return not self.hw.busy()
        except OSError:     # a panel's timeout (EPDTimeout): the main loop's to handle
            return False

    def tick(self, app):
        now = ticks_ms()
        if self.waking:
            self.woken(app)
        if ticks_diff(now, self.read_at) >= 0 and not self.hw.busy():
            self.read_at = ticks_add(now, _READ_MS)
            self._read(app)
        self._panels(app, now)
        if app.mode == "game" and app.match is not None and not app.testmode \
                and ticks_diff(now, self.touched) >= _CURSOR_MS:
            store.save_cursor(app.match, app.cursor)   # written only when changed
        if self.lit() != self._lit:
            self._lit = not self._lit
            self.leds(app)
        off = self._off_ms()
        if off and self._rest is not None and ticks_diff(now, self.touched) >= off \
                and app.idle() and not self.failed:
            self.sleep(app, "asleep")

    def leds(self, app):
        """The turn light of the player who must act, as lit() allows."""
        m = app.match
        tm = None
        if m is not None and app.mode == "game" and not app.showdown:
            tm = m.hand.to_move   # public; no observation per redraw
        for p in range(app.nplayers):
            try:
                self.hw.leds[p].value(1 if tm == p and self.lit() else 0)
            except (AttributeError, IndexError, TypeError):
                pass

    def lit(self):
        """May the turn light be on now? Not while the panels say
        "Sleeping" (asleep, or woken and not yet redrawn: the light
        follows the panels); else always on USB, on batteries a short
        flash every _LED_EVERY_MS."""
        if self.sleeping or self.waking:
            return False
        return self.usb or ticks_ms() % _LED_EVERY_MS < _LED_ON_MS

    def woken(self, app):
        """Does every working panel show the game again since the table
        woke (or did it not sleep)? Until then a press does nothing
        (App.handle): the ink still says "Sleeping / Press any button",
        and a press the players cannot see the result of would be a move
        they did not see coming. Asked when a press comes, so a press made
        just after the ink settled counts."""
        if not self.waking:
            return True
        for p in range(app.nplayers):
            if app.dead[p]:
                continue
            pn = app.panels[p]
            try:
                if app.dirty[p] or pn.refreshing() or pn.changed():
                    return False
            except OSError as e:    # the driver's EPDTimeout: as redraw() does
                app.panel_failed(p, e)
        self.waking = False
        return True

    def rest(self, app):
        """Nothing to do this turn: sleep until the next thing is due (an
        edge on a button or BUSY, or a serial byte, ends it sooner)."""
        b = app.buttons
        proto = app.proto
        now = ticks_ms()
        due = REST_MAX_MS
        if proto is not None and proto.waiting is not None:
            try:
                proto.poll()        # its answer may be due now (sync: idle)
            except Exception:       # noqa: BLE001 - the next step() shows it
                return
            if proto.waiting is not None:
                # what makes its answer due (a refresh ending, a debounce)
                # ends the rest by itself (a BUSY edge, a timer below): a
                # look every second is only the safety net. Every 50 ms, a
                # host waiting for refreshes woke the chip ~10 times per
                # move (okgin bench power: docs/power.md)
                due = 1000
        if b.settling or b.held_any():
            # a debounce ending, a long press, an auto-repeat: due then;
            # the release is an edge, which ends the sleep by itself. A held
            # button is still looked at every debounce period (a bounce
            # lost between two edges costs no press)
            t = b.next_ms()
            if t is None or t > b.debounce_ms:
                t = b.debounce_ms
            if t < due:
                due = t
            if due <= 0:
                return
        for t in (self.read_at, ticks_add(self.touched, self._off_ms()),
                  ticks_add(self.touched, HOT_MS), ticks_add(self.touched, _CURSOR_MS)):
            d = ticks_diff(t, now)
            if 0 < d < due:
                due = d
        if not self.usb and _turn(app) is not None:
            # the turn light's next flash, or the end of this one
            ph = now % _LED_EVERY_MS
            d = _LED_ON_MS - ph if ph < _LED_ON_MS else _LED_EVERY_MS - ph
            if d < due:
                due = d
        try:
            if self.hw.busy():
                due = min(due, 1000)    # its BUSY edge ends the rest; the timeout is checked
        except OSError:
            due = 1
        self._rest(max(1, due), None if proto is None else proto.pending)

    def _off_ms(self):
        """Auto-off after this long without a press (0: never). settings.json
        "auto_off_s" (a host hook for tests) overrides the menu's minutes."""
        s = self.settings.get("auto_off_s")
        if type(s) is int and s > 0:
            return s * 1000
        return auto_off_minutes(self.settings) * 60000

    def overlay(self, fb, testmode=False):
        """The battery icon at the right of the status line, on batteries."""
        if self.usb or self.level < 0:
            return
        x = 296 - 17 - (76 if testmode else 0)
        fb.fill_rect(x - 2, 0, 19, 10, 0)
        fb.rect(x, 1, 13, 8, 1)
        fb.fill_rect(x + 13, 3, 2, 4, 1)
        for i in range(self.level):
            fb.fill_rect(x + 2 + 3 * i, 3, 2, 4, 1)
        if self.level == 0:
            fb.vline(x + 6, 2, 4, 1)    # "!": empty
            fb.pixel(x + 6, 7, 1)

    # -- the battery --------------------------------------------------------------
    def _read(self, app):
        s = self._supply() if self._supply is not None else None
        if s is None:
            return
        usb, mv = s
        if not mv:
            usb = True              # no VSYS reading: nothing to show
        self.mv = mv if not self.mv else self.mv + (mv - self.mv) // _SMOOTH
        if usb:
            self.mv = mv
        level = -1 if usb else max(0, min(4, (self.mv - CUTOFF_MV) * 5 // (_FULL_MV - CUTOFF_MV)))
        if usb != self.usb or level != self.level:
            self.usb = usb
            self.level = level
            # the icon changed: whole screens again (a cursor's redraw
            # would leave the old icon in the frame buffer)
            app.onfb = [None, None]
            app.dirty = [True, True]
        if usb:
            self.warned = False
            return
        if self.mv < CUTOFF_MV:
            self.sleep(app, "empty")
        elif self.mv < _LOW_MV and not self.warned:
            self.warned = True
            note = (t("power.low"), [t("power.low_more")])
            app.notice = [note, note]
            app.dirty = [True, True]

    # -- the panels -----------------------------------------------------------------
    def _hot_player(self, app):
        tm = _turn(app)
        if tm is not None and not (app.vs != "human" and tm == 1):
            return tm
        return self.hot

    def _panels(self, app, now):
        hot = self._hot_player(app) if ticks_diff(now, self.touched) < HOT_MS else -1
        for p in range(app.nplayers):
            pn = app.panels[p]
            if p == hot or app.dead[p] or pn.started is not None or app.dirty[p] or pn.changed():
                continue
            try:
                pn.d.sleep()        # nothing to send: at once when already asleep
            except OSError:
                pass                # a hung panel: the next show() resets it

    # -- auto-off and the empty battery --------------------------------------------
    def sleep(self, app, why):
        """Auto-off (why "asleep") or the empty battery ("empty"): asleep.py
        does it. Its code is on the heap only while the table sleeps: a
        table that never sleeps does not carry it through the computer's
        search, when the heap is at its lowest."""
        import sys
        try:
            import asleep
            try:
                asleep.sleep(self, app, why, CUTOFF_MV, REST_MAX_MS)
            finally:
                del sys.modules["asleep"]
        except BaseException:   # noqa: B036 - SystemExit too (main.py's catch-all)
            # a sleep that failed is not tried again until a reset: one
            # error screen, not one at every auto-off (issue 40)
            self.failed = True
            raise


def _turn(app):
    """The player to move in a game being played, else None."""
    m = app.match
    if m is not None and app.mode == "game" and not app.showdown:
        return m.hand.to_move
    return None
