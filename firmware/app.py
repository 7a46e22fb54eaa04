"""The table application: its state and its main loop, which takes the
buttons' events to actions, saves each action and redraws what changed.

One App object owns the match, both players' screens and the main loop; its
parts are modules of their own that get the app as their context: the turn
screen (turn.py: a turn's buttons and view), the panels (panels.py: which
screen each shows, its way to the ink; panel.py: one panel's refresh
policy), the owner's lock (ownerlock.py), the turn lights (power.py), and,
loaded only while needed, the computer's turn (botturn.py), the coach's
steps (coachstep.py), the menu, the showdown, the score pad, statistics,
recovery, test mode and its commands (docs/architecture.md "How a button
press travels to the ink").
Each player's screen is drawn only from ``match.observation(player)`` (the
other player's hidden cards never reach the drawing code). Panels refresh
without blocking: ``show()`` starts an update and the loop keeps polling the
buttons and the serial port while the ink settles.
"""
import gc
import sys

import engine
from engine import IllegalAction, Match
# needed by every game (each action's record line): loaded at boot, before
# the heap fragments, rather than in the middle of the first new game
import engine.record  # noqa: F401
from engine.levels import LEVELS
# engine/arrange.py, screens.py (and font.py through it) are imported where
# they are used (panels.py), not held here: a knock and the coach drop them
# to make room (heap.make_room), the next redraw loads them again. The
# computer's move keeps them: the player waits for its redraw (botturn.py).
from heap import drop_computer, make_room, unload
import ownerlock
import panels
import power
import store
# the players' language: its catalogue and glyphs, read from flash as drawn
import i18n
from i18n import t
import turn
from panel import Panel


class App:
    """The table. Its parts (panels, ownerlock, turn; loaded on demand:
    botturn, coachstep, menu, recover, stats, endview, padview, testmode,
    testcmds) are peers it calls with itself as the context: they read and
    set its state and never import this module."""

    # Computer levels (engine/levels.py): offered only when the engine has a
    # bot (docs/bots.md).
    levels = LEVELS if hasattr(engine, "bot") else ()

    def __init__(self, hw, board):
        self.hw = hw
        # only the name and the timing are kept: main.py frees the rest of
        # the board definition (~2.8 KB on the unix port, docs/memory.md)
        self.board_name = board.get("name", "okgin")
        timing = board.get("timing", {})
        n = timing.get("partials_before_full", 8)
        self.panels = [Panel(d, n) for d in hw.displays]
        # text.py writes glyph bytes straight into the MONO_VLSB frame
        # buffer: its row stride is the panel's logical width (296 on the
        # 2.9" panels, 200 on the 4.2" at scale 2; both panels of a board
        # are alike). screens.py takes its size (W, H, the layout) from
        # these when imported: one imported before now is dropped
        import text
        text.size(hw.displays[0].width, hw.displays[0].height)
        sys.modules.pop("screens", None)
        self.buttons = hw.buttons
        self.nplayers = 2
        self.settings = store.load_settings()
        # the language the players chose (menu, serial lang, the web page's
        # switch), English until they do; one not on the flash: English
        i18n.load(self.settings.get("lang", i18n.DEFAULT))
        try:
            store.slow_ms = int(self.settings.get("slow_save_ms", 0) or 0)
        except (TypeError, ValueError):
            store.slow_ms = 0   # a hand-edited settings.json must not stop the boot
        # host hook (okgin replay): the computer does not move, so a
        # position is shown as saved
        self.hold = self.settings.get("hold_computer") is True
        # sleeping between presses, the panels' deep sleep, the battery,
        # auto-off (power.py, docs/power.md)
        self.power = power.Power(hw, self.settings)
        self.match = None
        self.vs = "human"       # who plays seat 1: the saved game says (recover.py)
        self.mode = "menu"
        self.cursor = [0, 0]
        self.confirm = [False, False]
        self.msg = ["", ""]
        self.notice = [None, None]   # (title, lines) over a player's screen
        # the coach's reviews of the hand just ended, one per human player:
        # [p, hand number, the Hand (then its engine.coach Review), game seed]
        self.reviews = []
        self.menu_sel = 0
        self.menu_msg = ""
        self.menu_page = ""   # menu.py: "", "rules", "stats", "reset"
        self.dirty = [True, True]
        # per player: the position's view (turn.base), and the view of it its
        # frame buffer holds (redraw: a cursor move draws only what changed)
        self.bases = [None, None]
        self.onfb = [None, None]
        self.testmode = False
        self.error_text = None
        self.peak = 0
        self.bot_us = None   # test mode's bottimes (botturn.py)
        self.showdown = False
        self.pad = False                 # the score pad after a won game
        self.dead = [False, False]       # a panel that reset did not revive
        self.failures = store.panel_failures()
        ownerlock.start(self)

    # ----- persistence (boot and resume: recover.py) -----
    def save(self, whole=False, lines=None):
        """After every action: the record on flash gains the action's line
        (store.append_action copies and renames, atomically); ``lines``:
        the computer's turn, its actions' lines in one write (botturn.py)."""
        m = self.match
        if m is None:
            return
        gc.collect()   # a calm point before the flash write
        if not whole:
            try:
                store.append_action(lines or m.record_line())
                return
            except (OSError, ValueError):
                pass   # no game.okg yet, or no action yet: write it whole
        store.save_lines(m.record_lines())

    # ----- game control -----
    def new_game(self, args):
        """Start a game from newgame.game_args() (vs, seed, dealer, rules, fresh).
        Called once the menu has returned: it is dropped and the heap
        collected first, so the long-lived match is not laid out between
        the menu's code and its garbage (fragmentation, docs/memory.md)."""
        self.drop_menu()
        # the game being replaced goes first (it is still on flash): two
        # matches at once do not fit near the 128K budget
        had = self.match is not None
        self.match = None
        gc.collect()
        vs, seed, dealer, r, fresh = args
        try:
            # the record says who plays each seat: nothing about the game
            # lives anywhere else (a power cut here keeps the old game or
            # starts the new one, never a mix)
            m = Match(r, seed=seed, dealer=dealer, players=("human", vs),
                      entropy=self.hw.random_bytes if fresh else None)
        except Exception:
            if had:
                self.resume()   # the saved game back, then the error
            raise
        self.match = m
        self.vs = vs
        self.save(True)
        unload("rulestext", "options")   # the header's rules line is written
        self.mode = "game"
        self.showdown = False
        self.cursor = [0, 0]
        self.confirm = [False, False]
        self.msg = ["", ""]
        self.notice = [None, None]
        self.reviews = []
        self.hand_boundary()

    def play(self, p, action, before):
        """Play one action for player p through the engine's safe path;
        an illegal one becomes a short message on p's screen. ``before``:
        p's hand before it (from the caller's observation: one fewer per
        move)."""
        m = self.match
        hand_no = m.hand_no
        if action[0] == "k":
            # the showdown's code and search come in now (engine/hand.py)
            self.touch()
            make_room()
        try:
            m.play(action)
        except (IllegalAction, ValueError) as e:
            # the engine's reason in the players' words (its English text
            # is for records and the serial port)
            r = getattr(e, "reason", None)
            self.msg[p] = i18n.why(r, lambda q: self.name(p, q)) if r else t("msg.not_allowed")
            return False
        self.save()   # after every action, atomically
        self.after_action(p, before, hand_no)
        return True

    def after_action(self, p, before, hand_no=None):
        """After an action (``p``'s; None: the computer's turn, botturn.py):
        the showdown when the hand ended, else the screens redrawn."""
        m = self.match
        self.confirm = [False, False]
        self.msg = ["", ""]
        if m.winner is not None or (hand_no is not None and m.hand_no != hand_no):
            # The engine has already dealt the next hand (or the game is
            # won): show the showdown of the hand just ended until OK. Its
            # result is computed: the engine's showdown code can go (~4 KB).
            unload("showdown", "scoring")
            self.showdown = True
            self.cursor = [0, 0]
            if self.settings.get("coach_review") is True and m.last_hand is not None:
                # the menu's "Coach after a hand": each human player's own
                # review, worked out a decision per main-loop turn (step)
                for q in ((0,) if self.vs != "human" else (0, 1)):
                    self.reviews.append([q, hand_no or m.hand_no, m.last_hand, m.seed])
            if m.winner is not None:
                self.count_game()
            self.hand_boundary()
            return
        if p is not None and before is not None:
            turn.follow_draw(self, p, before)
        self.touch()

    def hand_boundary(self):
        # ghosting is cleared at hand boundaries (full refresh)
        for pn in self.panels:
            pn.need_full = True
        self.touch()

    def count_game(self):
        """The game just won goes into the statistics (once: firmware/
        stats.py), loaded for it and dropped. A flash that cannot be
        written loses the statistics' update, never the game."""
        if not self.reviews:    # won: nobody moves again (a review needs it: coachstep.drop)
            drop_computer()
        import stats
        try:
            stats.count(self)
        except OSError:
            pass
        sys.modules.pop("stats", None)
        unload("scoring")

    def next_hand(self):
        """OK on the showdown: on to the hand the engine has dealt, or, when
        the game is won, to the score pad (R16, R17) and then the menu."""
        m = self.match
        if m.winner is not None and not self.pad:
            r = m.rules
            if r.box_bonus or r.game_bonus or r.shutout_double or r.hollywood:
                self.pad = True
                sys.modules.pop("endview", None)   # the pad has its own
                self.hand_boundary()
                return
        self.showdown = False
        self.pad = False
        if m.winner is not None:
            self.match = None
            store.clear_game()
            # the computer's code: gone when the game was won (count_game),
            # or after the coach's last review, unless one is still under way
            drop_computer()
            self.mode = "menu"
            self.menu_sel = 0
            self.menu_page = ""
        sys.modules.pop("endview", None)   # until the next showdown
        sys.modules.pop("padview", None)
        unload("scoring")
        self.cursor = [0, 0]
        self.msg = ["", ""]
        self.hand_boundary()

    def bot_due(self):
        """The computer (seat 1) has a move to make now."""
        m = self.match
        return self.vs != "human" and self.mode == "game" and m is not None \
            and not self.hold and not self.showdown and m.hand.to_move == 1

    # ----- buttons -----
    def drain(self):
        b = self.buttons
        ev = b.get()
        while ev is not None:
            self.handle(ev[0], ev[1], ev[2])
            ev = b.get()
        self.redraw()

    def handle(self, p, button, kind):
        if p < 0 or p >= self.nplayers:
            return
        self.power.touch(p)
        if not self.power.woken(self):
            return   # the ink still says "Sleeping": this press does nothing
        if kind == "repeat" and button not in ("left", "right"):
            return
        self.dirty[p] = True
        if self.notice[p] is not None:
            self.notice[p] = None   # any button closes a notice
            return
        if self.mode == "menu":
            import menu
            a = menu.menu_button(self, button, kind)
            if a == "resume":
                self.mode = "game"
                self.hand_boundary()
                self.drop_menu()   # not needed during play
                self.touch()
            elif a:
                self.new_game(a)
            return
        if self.mode == "error":
            if button == "ok":
                self.error_text = None
                if self.reload:
                    # the error may have struck in the middle of an action,
                    # leaving the game in RAM half-changed: the saved one is
                    # exact (saved after every completed action). If this
                    # fails too, the next OK tries again.
                    self.match = None
                    gc.collect()
                    self.resume()
                    self.reload = False
                else:
                    self.mode = "menu"
                self.hand_boundary()
            return
        if button == "ok" and kind == "long":
            self.mode = "menu"
            self.menu_sel = 0
            self.menu_page = ""
            self.hand_boundary()
            return
        if self.vs != "human" and p == 1:
            return   # the computer's seat has no human buttons
        if self.showdown:
            if button == "ok":
                self.next_hand()
            return
        if button == "draw" and kind == "long":
            import coachstep   # hold DRAW: the coach, on p's panel only
            coachstep.advise(self, p)
            return
        turn.press(self, p, button)

    # ----- drawing -----
    def touch(self):
        """The position changed (or may have): every screen is redrawn and
        the turn screens' views of the position (turn.base) go."""
        self.dirty = [True] * self.nplayers
        self.bases = [None, None]
        self.onfb = [None, None]

    def name(self, viewer, p):
        """What ``viewer``'s panel calls the player in seat p."""
        if self.vs != "human":
            if p == 1:
                return t("name.cpu")
            return t("name.you") if viewer == 0 else t("name.human")
        return t("name.you") if p == viewer else t("name.player", p + 1)

    def set_lang(self, code):
        """The table's language from now on (the menu's Language, the
        serial lang command, the web page's switch): kept in settings.json
        across power cuts, both panels redrawn in it at once."""
        code = i18n.load(code)
        if self.settings.get("lang") != code:
            self.settings["lang"] = code
            store.save_settings(self.settings)
        self.touch()

    def kind(self):
        if self.mode != "game":
            return self.mode
        if self.pad:
            return "scorepad"
        if self.showdown:
            return "over" if self.match.winner is not None else "showdown"
        return "game"

    # ----- parts loaded on demand (menu.py, endview.py...) -----
    def drop_menu(self):
        """The menu's code, its statistics and the rules options leave the heap (imported again when shown)."""
        for name in ("menu", "newgame", "statsview", "stats"):
            sys.modules.pop(name, None)
        unload("options", "rulestext")

    def idle(self):
        """Nothing left to do (the port's sync, auto-off): the buttons
        handled, every panel's screen on the ink, the computer's move
        made, the coach's reviews done."""
        self.buttons.poll()
        self.drain()
        if self.buttons.settling:
            # a button changed within its debounce time (a quick tap's
            # release): its event is still to come
            return False
        return panels.shown(self) and not self.bot_due() and not self.reviews

    # ----- the panels (panels.py), the owner's lock (ownerlock.py) -----
    def redraw(self):
        """Draw the screens that changed, each on its way to the ink at
        once; True if one was drawn."""
        return panels.redraw(self)

    def panel_failed(self, p, e):
        import recover   # rare: loaded only when a panel times out
        recover.panel_failed(self, p, e)
        sys.modules.pop("recover", None)

    def locked(self):
        """The owner's lock holds (crash.py, the port's test mode)."""
        return ownerlock.locked(self)

    proto = None
    replied = False   # the computer has moved: its update is not yet under way
    reload = False   # after an error: OK reloads the saved game
    kbd_locked = False   # Ctrl-C off now (main.py, ownerlock.py)
    lock_held = False   # an error under the owner's lock (ownerlock.py)
    real_cursor = None   # the real game's cursors while test mode is on (testmode.py)

    def resume(self):
        """The saved game back from flash (or the menu): at boot, and after
        an error."""
        # the menu (shown before test mode was switched, or at boot) goes first: replaying
        # a record is a heavy moment; a menu shown after is imported again when drawn
        self.drop_menu()
        self.vs, self.mode = "human", "menu"   # no game: the menu, without the resuming code
        f = store.open_game()
        if f is not None:
            try:
                import recover   # the record parser: only to resume (heap)
                recover.boot(self, f)
            finally:
                f.close()        # closed there too: a MemoryError above
            sys.modules.pop("recover", None)
        unload("record_read", "showdown", "scoring", "rulestext", "options")

    def fail(self, e):
        """An unexpected error (a bug, MemoryError): show it on both screens
        instead of dying at the REPL; the game on flash is intact, so OK
        goes back to it (reloaded from flash: see handle())."""
        self.buttons.get()   # drop the event that may have caused it
        if self.settings.get("owner_lock") is True:
            self.lock_held = True
        if self.match is not None:
            self.reload = True   # OK brings the game back from flash
        gc.collect()
        self.error_text = "%s: %s" % (type(e).__name__, e)
        self.mode = "error"
        self.notice = [None, None]
        self.reviews = []
        self.hand_boundary()

    # ----- the main loop, as steps a host can take -----
    # The device calls step() in run()'s endless loop; a browser calls it
    # from its event loop (an endless loop would freeze the page), tests
    # call it directly. Everything a turn does lives here, not in the host.
    def start(self, proto=None):
        """Boot: the saved game (or the menu) on the panels, then READY on the serial port, if any."""
        self.proto = proto
        try:
            self.resume()   # the saved game, or the menu
        except Exception as e:   # never crash-loop at boot
            self.fail(e)
        ownerlock.follow(self)
        try:
            self.redraw()
        except Exception as e:   # a screen that cannot be drawn: the error screen, next turn
            self.fail(e)
        panels.service(self)
        if proto is not None:
            proto.ready()

    calm = False   # nothing has happened since the last collection

    def step(self):
        """One turn of the main loop: buttons, the serial port, the
        computer's move, redraws and panel updates. Never raises: an error
        becomes the error screen. True when something happened; when not,
        the caller may rest a few ms (buttons are debounced over 20 ms)."""
        busy = False
        th = gc.threshold()
        try:
            ownerlock.follow(self)
            b = self.buttons
            # A cursor move is answered without a collection: main.py's
            # gc.threshold counts every byte since the last one, the idle
            # turns' and a host's included, and a cursor move's ~2 KB met
            # it in 8 of 8 moves on the chip (7-8 ms of a 23 ms reaction).
            # Lifted from the poll that queues the press (its event is the
            # first allocation) to its panel's first bytes (service_panels);
            # what it leaves is collected at the calm point below, while
            # the ink settles and nobody waits (as for the computer's
            # move, botturn.py). Any other button's work (the engine, a
            # save, the coach) and the host's requests collect as usual:
            # the coach asked over the port with the threshold lifted
            # left a Korean game at 160K without 32 bytes.
            gc.threshold(-1)
            b.poll()
            ev = b.get()
            lifted = ev is not None
            while ev is not None:
                if lifted and ev[1] != "left" and ev[1] != "right":
                    gc.threshold(th)
                    lifted = False
                self.handle(ev[0], ev[1], ev[2])
                busy = True
                ev = b.get()
            gc.threshold(th)
            if self.proto is not None:
                self.proto.poll()
            if lifted:
                gc.threshold(-1)
            if not busy and self.bot_due():
                import botturn   # kept for the game (next_hand drops it)
                botturn.play(self)
                busy = True
            if not busy and self.reviews:
                import coachstep   # dropped with the coach's code
                coachstep.review(self)
                busy = True
            if True in self.dirty and panels.redraw(self):
                busy = True
            panels.service(self)
            if not busy and panels.clean(self):
                busy = True
            gc.threshold(th)
            self.power.tick(self)
        except Exception as e:
            gc.threshold(th)
            self.fail(e)
            busy = True
        if busy:
            self.calm = False
        elif not self.calm:
            # a calm point after some work: collect once, not on every idle
            # turn (a full collection costs CPU time)
            self.calm = True
            gc.collect()
            a = gc.mem_alloc()
            if a > self.peak:
                self.peak = a   # the largest live heap seen (``mem``)
        return busy

    def run(self, proto=None, threshold=-1):
        """The device's main loop, never returns; gc's ``threshold`` from READY on (main.py)."""
        self.start(proto)
        gc.threshold(threshold)   # the boot collects only where main.py does
        while True:
            if not self.step():
                self.power.rest(self)   # until the next thing is due (power.py)
