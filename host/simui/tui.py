"""The simulator in a terminal (curses): for machines without a display, or
with ``okgin sim --tui``.

Panels are drawn with braille characters, 2x4 pixels of the panel's screen
per character, so at full size the picture is pixel-exact: 100x38
characters a panel on the 4.2" table (its 200x150 screen, which the panel
shows as 2x2 blocks), 148x32 on the 2.9" one. A terminal too small for that
(an 80x24 one) gets the panels as text instead, read back from their pixels
(textview.py): the header, the pile and the prompt, the hand as ranks and
suits, the footer's actions, in the language the board speaks, 37 columns a
panel on either table (the 4.2"'s hand of 11 cards read as ranks and
suits takes 32 of them; a Hangul syllable takes two), both side by side in
80. The keys are the window's
(keymaps.py). A terminal reports key presses but not releases, so every key
is a short press and Shift+key (an upper-case letter) a long one; holding a
key sends the terminal's own repeats as presses.

Esc then q quits (so does Ctrl-C); Esc p power-cycles; Esc c shows the
serial console, Esc s types a line to it; Esc h hides player 2.
"""
import curses
import locale
import os
import sys
import threading

from . import keymaps, render
from .keymaps import BUTTONS
from .textview import clip, columns, text_columns
from .workers import Watcher, Worker, ready_note, speed_note

FULL_W, FULL_H = 148, 32    # braille cells of a full-size 2.9" panel (its 296x128 screen)
TEXT_W, TEXT_H = 37, 12     # that panel as text: 37 columns (8 pixels each), its lines


def sizes(board=None):
    """((braille columns, rows), (text columns, rows)) of a panel of the
    board definition (None: hardware/board.json): its screen, the panel's
    pixels over its scale, at 2x4 pixels a braille cell; as text, a column
    per 8 pixels (at least 37: textview.text_columns) and a row per 16, with
    room for the cursor's marks."""
    w, h, scale = render.board_panel(board)
    w, h = w // scale, h // scale
    return ((w + 1) // 2, (h + 3) // 4), (text_columns(w), h // 16 + 4)
POLL_S = 0.05

_SPECIAL = {curses.KEY_LEFT: "Left", curses.KEY_RIGHT: "Right", curses.KEY_DOWN: "Down",
            curses.KEY_ENTER: "Return", 10: "Return", 13: "Return"}


def layout(cols, rows, dims=((FULL_W, FULL_H), (TEXT_W, TEXT_H))):
    """(mode, scale) that fits: both panels side by side or stacked, else
    one at a time ('single', Tab switches); the pixel-exact picture
    ('full') where the terminal is big enough, else the panels as text
    ('text', 80x24 is enough for both). ``dims``: sizes() of the board
    (default the 2.9" panel's)."""
    options = []
    for scale, (w, h) in (("full", dims[0]), ("text", dims[1])):
        box_w, box_h = w + 2, h + 4          # border + title + key hint
        options += [("side", scale, 2 * box_w + 1, box_h + 2),
                    ("stacked", scale, box_w, 2 * box_h + 2),
                    ("single", scale, box_w, box_h + 3)]
    for mode, scale, need_cols, need_rows in options:
        if cols >= need_cols and rows >= need_rows:
            return mode, scale
    return "small", None


def key_hint(p, width=None, utf8=True):
    """The player's keys and their buttons, long or short to fit."""
    long = "  ".join("%s %s" % (keymaps.key_label(p, b), b) for b in BUTTONS)
    if width is None or len(long) <= width:
        return long
    arrows = "\u25c0\u25b6" if utf8 else "<>"
    return "%s/%s:%s " % (keymaps.key_label(p, "left"), keymaps.key_label(p, "right"), arrows) + \
        " ".join("%s:%s" % (keymaps.key_label(p, b), b) for b in BUTTONS if b not in ("left", "right"))


class TermUI:
    def __init__(self, scr, info="", dims=((FULL_W, FULL_H), (TEXT_W, TEXT_H))):
        self.scr = scr
        self.dims = dims            # sizes(): the panel in braille, as text
        self.info = info
        self.session = None
        self.watcher: "Watcher | None" = None
        self.failed = None
        self.quit = False
        self.esc = False
        self.console = False
        self.typing: "str | None" = None   # the serial input line while Esc s is open
        self.hidden = [False, False]
        self.single = 0
        self.follow_turn = True  # one panel at a time: show whoever's LED is lit, until Tab
        self.note = "booting the virtual board\u2026"
        self.errors: "list[Exception]" = []
        self.worker = Worker(self.errors.append)
        self._keys = [None, None]
        self._dirty = True
        self.reader = None          # textview.PanelReader, made on first need
        self._text: "dict[int, tuple]" = {}   # player -> (panel key, rows of cells)
        self.utf8 = (locale.getpreferredencoding(False) or "").lower().replace("-", "") == "utf8"
        self.colour = 0
        if curses.has_colors():
            try:
                curses.start_color()
                curses.use_default_colors()
                curses.init_pair(1, curses.COLOR_BLACK, curses.COLOR_WHITE)
                self.colour = curses.color_pair(1)
            except curses.error:
                self.colour = 0
        try:
            curses.curs_set(0)
        except curses.error:
            pass
        scr.keypad(True)
        scr.timeout(int(POLL_S * 1000))

    # -- input --------------------------------------------------------------
    def handle_key(self, ch):
        if ch == -1 or ch is None:
            return
        if self.typing is not None:
            self._type(ch)
            return
        if ch == 27 or ch == "\x1b":  # get_wch gives characters as str
            self.esc = True
            return
        if isinstance(ch, int) and ch in _SPECIAL:
            sym = _SPECIAL[ch]
        elif isinstance(ch, str):
            sym = ch
        elif 0 <= ch < 128:
            sym = chr(ch)
        else:
            if ch == curses.KEY_RESIZE:
                self._dirty = True
            return
        if self.esc:
            self.esc = False
            cmd = keymaps.TUI_COMMANDS.get(sym.lower())
            if cmd:
                self.command(cmd)
            return
        if sym == "\t":
            self.single = 1 - self.single
            self.follow_turn = False
            self._dirty = True
            return
        hit = keymaps.lookup(sym)
        if hit is None or self.session is None:
            return
        p, b = hit
        long = len(sym) == 1 and sym.isupper()
        self.worker(self.session.press, p, b, long=long)

    def _type(self, ch):
        """The serial input line: Enter sends, Esc cancels."""
        typed = self.typing or ""
        if ch in (27, "\x1b"):
            self.typing = None
        elif ch in (10, 13, "\n", "\r", curses.KEY_ENTER):
            line, self.typing = typed.strip(), None
            if line and self.session is not None:
                self.worker(self.session.write_line, line)
        elif ch in (curses.KEY_BACKSPACE, 127, 8, "\x7f", "\x08"):
            self.typing = typed[:-1]
        elif isinstance(ch, str) and ch.isprintable() and len(typed) < 200:
            self.typing = typed + ch
        self._dirty = True

    def command(self, name):
        if name == "serial":
            self.console = True
            self.typing = ""
        elif name == "quit":
            self.quit = True
        elif name == "power" and self.session is not None:
            self.note = "power cycle\u2026"
            self.worker(self.session.power_cycle)
        elif name == "console":
            self.console = not self.console
        elif name == "hide1":
            self.hidden[1] = not self.hidden[1]
        self._dirty = True

    # -- drawing ------------------------------------------------------------
    def _put(self, y, x, text, attr=0):
        try:
            self.scr.addstr(y, x, text, attr)
        except curses.error:
            pass  # writing the last cell of the screen raises; the text is there

    def _panel_lines(self, p, scale):
        """Rows of (text, inverse) cells, ``w`` columns each."""
        w, h = self.dims[0] if scale == "full" else self.dims[1]
        key, img = self.watcher.panel(p) if self.watcher is not None else (None, None)
        if img is None:
            return [[(" " * w, False)]] * h
        if scale == "text":
            cached = self._text.get(p)
            if cached is None or cached[0] != key:
                rows = self._reader().read(img)
                cached = self._text[p] = (key, [_cells_to_runs(r) for r in rows[:h]])
            return cached[1]
        from ..lib.screen import screen_of
        lines = render.braille_lines(screen_of(img.convert("1")))
        if not self.utf8:  # no braille: one '#' per cell with ink
            lines = ["".join("#" if c != "\u2800" else " " for c in ln) for ln in lines]
        return [[(ln, False)] for ln in lines]

    def _reader(self):
        if self.reader is None:
            from .textview import PanelReader
            self.reader = PanelReader(utf8=self.utf8)
        return self.reader

    def _draw_panel(self, p, y, x, scale):
        w, h = self.dims[0] if scale == "full" else self.dims[1]
        title = "Player %d" % (p + 1)
        c = self.watcher.counts(p) if self.watcher is not None else {}
        if c and scale == "full":
            title += "  (refreshes: %d full, %d partial)" % (c.get("full", 0), c.get("partial", 0))
        if self.watcher is not None and self.watcher.led(p):
            title += "  \u25cf LED on" if self.utf8 else "  * LED on"
        self._put(y, x, title[:w + 2], curses.A_BOLD)
        win_y = y + 1
        self._put(win_y, x, "\u250c" + "\u2500" * w + "\u2510" if self.utf8 else "+" + "-" * w + "+")
        if self.hidden[p]:
            lines = [[(" " * w, False)]] * h
            msg = "player %d is hidden (Esc h shows it)" % (p + 1)
            lines[h // 2] = [(msg.center(w), False)]
            attr = curses.A_DIM
        else:
            lines = self._panel_lines(p, scale)
            attr = self.colour if scale == "full" else 0
        side = "\u2502" if self.utf8 else "|"
        for i in range(h):
            runs = lines[i] if i < len(lines) else [(" " * w, False)]
            self._put(win_y + 1 + i, x, side)
            self._put(win_y + 1 + i, x + 1, " " * w, attr)
            cx = x + 1
            for text, inverse in runs:
                # a Hangul syllable takes two columns (textview.columns)
                text = clip(text, x + 1 + w - cx)
                self._put(win_y + 1 + i, cx, text, attr | (curses.A_REVERSE if inverse else 0))
                cx += columns(text)
            self._put(win_y + 1 + i, x + 1 + w, side)
        self._put(win_y + 1 + h, x, "\u2514" + "\u2500" * w + "\u2518" if self.utf8 else "+" + "-" * w + "+")
        self._put(win_y + 2 + h, x, key_hint(p, w + 2, self.utf8)[:w + 2], curses.A_DIM)

    def draw(self):
        rows, cols = self.scr.getmaxyx()
        self.scr.erase()
        mode, scale = layout(cols, rows, self.dims)
        if mode == "small":
            self._put(0, 0, "terminal too small for a panel: need %dx%d, have %dx%d"
                      % (self.dims[1][0] + 2, self.dims[1][1] + 7, cols, rows))
        else:
            w, h = self.dims[0] if scale == "full" else self.dims[1]
            bw, bh = w + 2, h + 4
            if mode == "side":
                self._draw_panel(0, 0, 0, scale)
                self._draw_panel(1, 0, bw + 1, scale)
            elif mode == "stacked":
                self._draw_panel(0, 0, 0, scale)
                self._draw_panel(1, bh, 0, scale)
            else:
                self._draw_panel(self.single, 0, 0, scale)
                self._put(bh, 0, "Tab: show player %d%s" % (2 - self.single,
                          "  (showing the player whose LED is lit)" if self.follow_turn else ""), curses.A_DIM)
        if self.console:
            self._draw_console(rows, cols)
        self._draw_status(rows, cols)
        self.scr.refresh()

    def _draw_console(self, rows, cols):
        n = min(10, max(3, rows // 3))
        top = rows - 2 - n
        entries = self.session.log_since(0)[-(n - 1):] if self.session else []
        self._put(top, 0, " serial console (Esc s: type a line) ".ljust(cols - 1, "-"), curses.A_REVERSE)
        for i in range(n - 1):
            text = ""
            if i < len(entries):
                _, d, t = entries[i]
                text = "%s %s" % (d, t)
            self._put(top + 1 + i, 0, text[:cols - 1].ljust(cols - 1))
        if self.typing is not None:
            self._put(rows - 3, 0, ("serial> " + self.typing)[-(cols - 1):].ljust(cols - 1), curses.A_BOLD)

    def _draw_status(self, rows, cols):
        parts = [self.note]
        if self.errors:
            parts = ["error: %s" % self.errors[-1]]
        s = self.session
        if s is not None and s.last_press:
            p, b, k = s.last_press
            parts.append("last: P%d %s%s" % (p + 1, b, " long" if k == "long" else ""))
        speed = speed_note(s)
        if speed:
            parts.append(speed)
        if self.info:
            parts.append(self.info)
        self._put(rows - 2, 0, " \u00b7 ".join(parts)[:cols - 1] if self.utf8 else " - ".join(parts)[:cols - 1])
        help_ = ("Esc q quit  Esc p power cycle  Esc c console  Esc s serial line  Esc h hide player 2  "
                 "Shift+key long press")
        if len(help_) > cols - 1:
            help_ = "Esc then: q quit  p power  c console  s serial  h hide P2;  Shift+key: long"
        self._put(rows - 1, 0, help_[:cols - 1], curses.A_DIM)

    def tick(self):
        """Redraw when a panel, the log or the layout changed."""
        w = self.watcher
        if self.session is not None and w is not None:
            for ev in self.session.drain_events():
                if ev[0] == "reset":
                    self.note = "reset: the firmware restarts"
                elif ev[0] == "ready":
                    self.note = ready_note(self.session)
                elif ev[0] == "exit":
                    self.note = "the firmware stopped"
                self._dirty = True
            keys = [w.panel(0)[0], w.panel(1)[0], w.counts(0), w.counts(1), w.led(0), w.led(1)]
            if keys != self._keys:
                self._keys = keys
                self._dirty = True
                lit = [p for p in (0, 1) if w.led(p)]
                if self.follow_turn and len(lit) == 1:
                    self.single = lit[0]
            if self.session.log_seq != getattr(self, "_seq", None):
                self._seq = self.session.log_seq
                crash = self.session.firmware_crash()
                if crash:
                    self.note = "the firmware stopped: %s (Esc c console, Esc p restart)" % crash
                self._dirty = True
            press = self.session.last_press, self.session.presses
            if press != getattr(self, "_press", None):
                self._press = press
                self._dirty = True
        if self._dirty:
            self._dirty = False
            self.draw()


def _cells_to_runs(cells):
    """A row of (character, inverse) cells as runs of one attribute."""
    runs: "list[tuple[str, bool]]" = []
    for ch, inv in cells:
        if runs and runs[-1][1] == inv:
            runs[-1] = (runs[-1][0] + ch, inv)
        else:
            runs.append((ch, inv))
    return runs


def main(args, flash_dir, speed):
    from ..table.session import open_session
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        from ..lib.errors import CommandError
        raise CommandError("no display and no terminal: use --headless --script FILE")
    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")
    home = os.path.expanduser("~")
    info = "speed %g, flash %s" % (speed, flash_dir.replace(home, "~", 1))
    box = {}

    def boot():
        try:
            box["session"] = open_session(args, flash_dir, speed)
        except BaseException as e:
            box["error"] = e

    t = threading.Thread(target=boot, name="okgin-sim-boot", daemon=True)
    if getattr(args, "chip", False):
        # the emulated Pico's start-up says what it does (the emulator's
        # install, the flash, READY) in lines of its own: before the view
        # takes the screen, not over its panels
        boot()
        if "error" in box:
            raise box.pop("error")
    else:
        t.start()
    ui_box = {}

    def loop(scr):
        ui = ui_box["ui"] = TermUI(scr, info=info, dims=sizes(getattr(args, "board", None)))
        while not ui.quit:
            if ui.session is None:
                if "session" in box:
                    ui.session = box.pop("session")
                    ui.watcher = Watcher(ui.session)
                    ui.note = ready_note(ui.session)
                    ui._dirty = True
                elif "error" in box:
                    ui.failed = box.pop("error")
                    return
            try:
                ch = scr.get_wch()
            except curses.error:
                ch = -1
            except KeyboardInterrupt:
                return
            ui.handle_key(ch)
            ui.tick()

    curses_error = None
    try:
        curses.wrapper(loop)
    except KeyboardInterrupt:
        pass
    except curses.error as e:  # e.g. TERM=dumb: no cursor addressing
        curses_error = e
    ui = ui_box.get("ui")
    if ui is not None:
        ui.worker.stop()
        if ui.watcher is not None:
            ui.watcher.stop()
    session = (ui.session if ui else None) or box.get("session")
    if session is None and t.is_alive():
        t.join(timeout=60)
        session = box.get("session")
    if session is not None:
        session.close()
    if curses_error is not None:
        from ..lib.errors import CommandError
        raise CommandError("this terminal cannot run the terminal UI (%s, TERM=%s); use a window or --headless"
                           % (curses_error, os.environ.get("TERM", "")))
    if ui is not None and ui.failed is not None:
        from ..lib.errors import CommandError
        if isinstance(ui.failed, CommandError):
            raise ui.failed
        raise CommandError(str(ui.failed))
    return 0
