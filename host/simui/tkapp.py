"""The simulator window (Tkinter, standard library).

Both panels are drawn pixel-exact at an integer scale in e-ink colours; a
full refresh plays the panel's black/white flash and a partial one its quick
grey flicker, over the time the virtual board reports for that refresh (so
at --speed 1 the window is as slow as the real ink, and at 0 it is instant).

The board runs in the background: booting, presses (which hold a pin for
emulated milliseconds) and power cycles happen on a worker thread, and the
window polls the board with ``after()``, so it never freezes.
"""
import os
import queue
import sys
import threading
import time

from . import keymaps, render
from .keymaps import BUTTONS
from .workers import Watcher, Worker, ready_note, speed_note

try:
    import tkinter as tk
except ImportError:  # a Python built without Tk
    tk = None  # type: ignore[assignment]

TABLE = "#25272b"
BEZEL = "#0e0f11"
FG = "#e6e3d8"
DIM = "#8d8f95"
KEY_BG = "#3a3d44"
KEY_DOWN = "#6a8fd8"
ERR = "#ff8a80"
LED_ON = "#5dff7a"
LED_OFF = "#3b3e44"
BORDER = 12          # bezel around the active area, screen pixels
POLL_MS = 25
EVENT_GRACE_S = 0.08
RELEASE_GRACE_MS = 40  # X11 auto-repeat sends release+press pairs; a real release has no press after it

_LABELS = {"left": "\u25c0 left", "right": "right \u25b6", "ok": "ok",
           "draw": "draw", "take": "take", "knock": "knock"}





def _handler(fn, *args):
    """A Tk event handler that calls fn(*args) (the event is not needed)."""
    return lambda event: fn(*args)

class NoDisplay(Exception):
    """Tk cannot open a window here (no display, or no Tk)."""


def panel_size(board=None):
    """The panels' logical size in a board definition (default
    hardware/board.json): (400, 300) on the 4.2" table, (296, 128) on the
    2.9" one of board-2in9.json; the window is laid out for it."""
    w, h, _scale = render.board_panel(board)
    return w, h


def fit_scale(screen_w, screen_h, size=(render.W, render.H)):
    """The largest integer scale at which both panels fit side by side."""
    for s in (4, 3, 2):
        w = 2 * (size[0] * s + 2 * BORDER + 24) + 40
        h = size[1] * s + 2 * BORDER + 220
        if w <= screen_w and h <= screen_h:
            return s
    return 1


class SimWindow:
    def __init__(self, root, scale, info="", hide1=False, size=(render.W, render.H)):
        self.root = root
        self.scale = scale
        self.size = size              # the panels' logical size (panel_size())
        self.blank = render.Image.new("1", size, 1)   # a panel never drawn: all paper
        self.info = info
        self.session = None
        self.watcher: "Watcher | None" = None
        self.failed = None
        self.closed = False
        self.hidden = [False, hide1]
        self._errors: "queue.Queue[Exception]" = queue.Queue()
        self.worker = Worker(self._errors.put)
        self._down = set()            # keys held down (keysym)
        self._pending_release = {}    # keysym -> after id
        self._mouse_down = None
        self._shown_key = [None, None]
        self._shown_img = [None, None]
        self._anim: "list[list[tuple]]" = [[], []]   # [(t_end, rgb)], last frame stays
        # last refresh event: (kind, seconds, t)
        self._refresh: "list[tuple[str, float, float] | None]" = [None, None]
        self._shown_at = [0.0, 0.0]   # when the shown image was taken
        self._pending = {}            # player -> when a change without its event was seen
        self._log_seq = 0
        self._status_note = "booting the virtual board\u2026"
        self._build()

    # -- layout -------------------------------------------------------------
    def _build(self):
        r = self.root
        r.title("okgin simulator")
        r.configure(bg=TABLE)
        r.protocol("WM_DELETE_WINDOW", self.close)
        top = tk.Frame(r, bg=TABLE)
        top.pack(side="top", padx=12, pady=(12, 4))
        self.canvas, self.photo, self.header = [], [], []
        self.keys: "list[dict[str, tuple]]" = [{}, {}]
        self.led_label = []
        for p in (0, 1):
            col = tk.Frame(top, bg=TABLE)
            col.grid(row=0, column=p, padx=12)
            hrow = tk.Frame(col, bg=TABLE)
            hrow.pack(fill="x")
            title = tk.Label(hrow, text="Player %d" % (p + 1), bg=TABLE, fg=FG,
                             font=("TkDefaultFont", 11, "bold"))
            title.pack(side="left")
            # the player's turn LED on the box (board.json players[p].led)
            led = tk.Label(hrow, text="\u25cf", bg=TABLE, fg=LED_OFF, font=("TkDefaultFont", 12))
            led.pack(side="left", padx=(8, 0))
            self.led_label.append(led)
            hdr = tk.Label(hrow, text="", bg=TABLE, fg=DIM, anchor="e", font=("TkDefaultFont", 9))
            hdr.pack(side="right")
            self.header.append(hdr)
            w, h = self.size[0] * self.scale + 2 * BORDER, self.size[1] * self.scale + 2 * BORDER
            c = tk.Canvas(col, width=w, height=h, bg=BEZEL, highlightthickness=0, bd=0)
            c.pack(pady=(4, 8))
            ph = tk.PhotoImage(data=render.ppm(render.flat(render.PAPER, self.scale, self.size)), format="PPM")
            c.create_image(BORDER, BORDER, image=ph, anchor="nw", tags="panel")
            c.create_text(w // 2, h // 2, text="", fill=FG, font=("TkDefaultFont", 14), tags="cover")
            c.bind("<ButtonPress-1>", lambda e: self.root.focus_set())
            self.canvas.append(c)
            self.photo.append(ph)
            row = tk.Frame(col, bg=TABLE)
            row.pack()
            for i, b in enumerate(BUTTONS):
                self.keys[p][b] = self._make_key(row, p, b, column=i + (1 if i >= 3 else 0))
            tk.Frame(row, width=24, bg=TABLE).grid(row=0, column=3)
        bar = tk.Frame(r, bg=TABLE)
        bar.pack(side="top", fill="x", padx=24, pady=(6, 4))
        self.tool: "dict[str, tk.Label]" = {}
        for name, text in (("power", "Power cycle  F5"), ("console", "Serial console  F2"),
                           ("hide1", "Hide player 2  F3")):
            t = tk.Label(bar, text=text, bg=KEY_BG, fg=FG, padx=10, pady=4, cursor="hand2")
            t.pack(side="left", padx=(0, 8))
            t.bind("<ButtonRelease-1>", _handler(self.command, name))
            self.tool[name] = t
        # wrap long messages (a firmware traceback line) instead of widening the window
        self.status = tk.Label(r, text="", bg=TABLE, fg=DIM, anchor="w", justify="left",
                               wraplength=2 * (self.size[0] * self.scale + 2 * BORDER + 24))
        self.status.pack(side="top", fill="x", padx=24, pady=(0, 10))
        # the serial console, hidden until asked for
        self.console = tk.Frame(r, bg=TABLE)
        self.console_text = tk.Text(self.console, height=10, bg="#141518", fg="#cfd2d8",
                                    insertbackground=FG, font=("TkFixedFont", 10), state="disabled",
                                    highlightthickness=0, bd=0)
        self.console_text.pack(fill="both", expand=True)
        self.console_entry = tk.Entry(self.console, bg="#1d1f23", fg=FG, insertbackground=FG,
                                      font=("TkFixedFont", 10), highlightthickness=0, bd=4, relief="flat")
        self.console_entry.pack(fill="x", pady=(4, 0))
        self.console_entry.bind("<Return>", self._console_send)
        self.console_visible = False

        r.bind_all("<KeyPress>", self._key_down)
        r.bind_all("<KeyRelease>", self._key_up)
        # Keys released while another window has the focus never report a
        # release here: let go of every held button when the focus leaves.
        r.bind("<FocusOut>", self._focus_out)
        for seq, name in keymaps.TK_COMMANDS.items():
            r.bind_all("<%s>" % seq, lambda e, n=name: (self.command(n), "break")[1])
        self._update_headers()

    def _make_key(self, parent, p, b, column):
        f = tk.Frame(parent, bg=KEY_BG, cursor="hand2")
        f.grid(row=0, column=column, padx=3)
        name = tk.Label(f, text=_LABELS[b], bg=KEY_BG, fg=FG, width=8, font=("TkDefaultFont", 10, "bold"))
        name.pack(padx=4, pady=(5, 0))
        key = tk.Label(f, text=keymaps.key_label(p, b), bg=KEY_BG, fg=DIM, font=("TkDefaultFont", 8))
        key.pack(pady=(0, 4))
        for w in (f, name, key):
            w.bind("<ButtonPress-1>", _handler(self._mouse, p, b, True))
            w.bind("<ButtonRelease-1>", _handler(self._mouse, p, b, False))
        return (f, name, key)

    def _light(self, p, b, on):
        for w in self.keys[p][b]:
            w.configure(bg=KEY_DOWN if on else KEY_BG)

    # -- input --------------------------------------------------------------
    def _mouse(self, p, b, down):
        self.root.focus_set()
        if down:
            self._mouse_down = (p, b)
            self._light(p, b, True)
            self._board("hold", p, b)
        elif self._mouse_down == (p, b):
            self._mouse_down = None
            self._light(p, b, False)
            self._board("release", p, b)

    def _board(self, what, *a, **kw):
        if self.session is None:
            return
        self.worker(getattr(self.session, what), *a, **kw)

    def _typing(self, event):
        return event.widget is self.console_entry

    def _key_down(self, event):
        if self._typing(event):
            return
        sym = event.keysym
        hit = keymaps.lookup(sym)
        if hit is None:
            return
        key = sym.lower() if len(sym) == 1 else sym
        pending = self._pending_release.pop(key, None)
        if pending is not None:  # auto-repeat of a key still held: not a new press
            self.root.after_cancel(pending)
            return
        if key in self._down:
            return
        p, b = hit
        shift = bool(event.state & 0x1)  # not isupper(): Caps Lock must not make every press long
        if shift:  # Shift+key: one long press, for people who prefer not to hold
            self._board("press", p, b, long=True)
            self._flash_key(p, b)
            return
        self._down.add(key)
        self._light(p, b, True)
        self._board("hold", p, b)

    def _key_up(self, event):
        if self._typing(event):
            return
        sym = event.keysym
        key = sym.lower() if len(sym) == 1 else sym
        if key not in self._down:
            return
        if key in self._pending_release:
            return
        self._pending_release[key] = self.root.after(RELEASE_GRACE_MS, self._really_release, key)

    def _really_release(self, key):
        self._pending_release.pop(key, None)
        self._down.discard(key)
        p, b = keymaps.lookup(key)
        self._light(p, b, False)
        self._board("release", p, b)

    def _focus_out(self, event):
        if event.widget is not self.root:
            return
        for key in list(self._down):
            pending = self._pending_release.pop(key, None)
            if pending is not None:
                self.root.after_cancel(pending)
            self._really_release(key)

    def _flash_key(self, p, b):
        self._light(p, b, True)
        self.root.after(150, self._light, p, b, False)

    def command(self, name):
        if name == "quit":
            self.close()
        elif name == "power":
            if self.session is not None:
                self._status_note = "power cycle\u2026"
                self._board("power_cycle")
        elif name == "console":
            self.toggle_console()
        elif name == "hide1":
            self.hidden[1] = not self.hidden[1]
            self.tool["hide1"].configure(text=("Show" if self.hidden[1] else "Hide") + " player 2  F3")
            self._shown_key[1] = None  # redraw
            self._anim[1] = []

    def toggle_console(self):
        self.console_visible = not self.console_visible
        if self.console_visible:
            self.console.pack(side="top", fill="both", expand=True, padx=24, pady=(0, 12))
            self.console_entry.focus_set()
        else:
            self.console.pack_forget()
            self.root.focus_set()

    def _console_send(self, event):
        line = self.console_entry.get().strip()
        self.console_entry.delete(0, "end")
        if line and self.session is not None:
            self.worker(self.session.write_line, line)
        return "break"

    # -- board --------------------------------------------------------------
    def attach(self, session):
        self.session = session
        self.watcher = Watcher(session)
        self._status_note = ready_note(session)

    def fail(self, error):
        self.failed = error
        self._status_note = "error: %s" % error
        self.status.configure(fg=ERR)
        print("okgin: %s" % error, file=sys.stderr)

    def poll(self):
        """One tick: events, panels, animation, console, status."""
        if self.closed:
            return
        while not self._errors.empty():
            e = self._errors.get_nowait()
            self._status_note = "error: %s" % e
        s = self.session
        now = time.monotonic()
        if s is not None:
            for ev in s.drain_events():
                self._event(ev, now)
            for p in (0, 1):
                self._update_panel(p, now)
            self._update_console()
        for p in (0, 1):
            self._step_anim(p, now)
        self._update_status()

    def _event(self, ev, now):
        if ev[0] == "refresh" and len(ev) >= 4:
            self._refresh[ev[1]] = (ev[2], float(ev[3]), now)
        elif ev[0] == "reset":
            self._status_note = "reset: the firmware restarts"
        elif ev[0] == "ready":
            self._status_note = ready_note(self.session)
        elif ev[0] == "exit":
            self._status_note = "the firmware stopped (exit code %s)" % (ev[1] if len(ev) > 1 else "?")

    def _update_panel(self, p, now):
        if self.watcher is None:
            return
        key, new = self.watcher.panel(p)
        if key is None or key == self._shown_key[p]:
            return
        ref = self._refresh[p]
        fresh = ref is not None and ref[2] > self._shown_at[p]
        if not fresh:
            # The board reports a refresh just after the image changes; give
            # the event a moment so the change is animated as what it was.
            since = self._pending.setdefault(p, now)
            if now - since < EVENT_GRACE_S:
                return
        self._pending.pop(p, None)
        old = self._shown_img[p] or self.blank
        self._shown_key[p] = key
        self._shown_img[p] = new
        self._shown_at[p] = now
        s = self.scale
        if self.hidden[p]:
            self._anim[p] = [(now, None)]
            return
        if fresh and ref[1] > 0:
            secs = ref[1]
            if ref[0] == "full":
                frames, t = [], now
                for share, img in render.full_frames(old, new, s):
                    t += share * secs
                    frames.append((t, img))
                self._anim[p] = frames
            else:
                self._anim[p] = [(now + render.PARTIAL_GREY * secs, render.partial_frame(old, new, s)),
                                 (now + secs, render.to_rgb(new, s))]
        else:
            self._anim[p] = [(now, render.to_rgb(new, s))]

    def _step_anim(self, p, now):
        frames = self._anim[p]
        if not frames:
            return
        # drop frames whose time is over, keep the last one to show
        while len(frames) > 1 and frames[0][0] <= now:
            frames.pop(0)
        t_end, img = frames[0]
        if len(frames) == 1:
            self._anim[p] = []
        elif getattr(self, "_cur_frame", {}).get(p) is img:
            return
        self._show(p, img)

    def _show(self, p, img):
        if not hasattr(self, "_cur_frame"):
            self._cur_frame = {}
        self._cur_frame[p] = img
        c = self.canvas[p]
        if self.hidden[p]:
            img = render.flat((58, 60, 66), self.scale, self.size)
            c.itemconfigure("cover", text="player 2 is hidden \u2014 F3 shows it")
        else:
            c.itemconfigure("cover", text="")
        ph = tk.PhotoImage(data=render.ppm(img), format="PPM")
        c.itemconfigure("panel", image=ph)
        self.photo[p] = ph  # keep a reference or Tk drops the image
        c.tag_raise("cover")

    def _update_console(self):
        if self.session is None:
            return
        entries = self.session.log_since(self._log_seq)
        if not entries:
            return
        self._log_seq = entries[-1][0]
        crash = self.session.firmware_crash()
        if crash:  # MicroPython's REPL took over: say so, the panels alone would not
            self._status_note = "the firmware stopped: %s (F2 shows the console; F5 restarts)" % crash
        t = self.console_text
        t.configure(state="normal")
        for _, d, text in entries:
            t.insert("end", "%s %s\n" % (d, text))
        over = int(t.index("end-1c").split(".")[0]) - 1000
        if over > 0:
            t.delete("1.0", "%d.0" % (over + 1))
        t.configure(state="disabled")
        t.see("end")

    def _update_headers(self):
        for p in (0, 1):
            txt = ""
            c = self.watcher.counts(p) if self.watcher is not None else {}
            if c:
                txt = "refreshes: %d full, %d partial" % (c.get("full", 0), c.get("partial", 0))
            if self.header[p].cget("text") != txt:
                self.header[p].configure(text=txt)
            lit = self.watcher.led(p) if self.watcher is not None else None
            colour = LED_ON if lit else LED_OFF
            if self.led_label[p].cget("fg") != colour:
                self.led_label[p].configure(fg=colour)

    def _update_status(self):
        parts = [self._status_note]
        s = self.session
        if s is not None and s.last_press:
            p, b, k = s.last_press
            parts.append("last button: P%d %s%s" % (p + 1, b, " (long)" if k == "long" else ""))
        speed = speed_note(s)
        if speed:
            parts.append(speed)
        if self.info:
            parts.append(self.info)
        text = "   \u00b7   ".join(parts)
        if self.status.cget("text") != text:
            self.status.configure(text=text)
        self._update_headers()

    def run_loop(self):
        self.poll()
        if not self.closed:
            self.root.after(POLL_MS, self.run_loop)

    def close(self):
        if self.closed:
            return
        self.closed = True
        self.worker.stop()
        if self.watcher is not None:
            self.watcher.stop()
        try:
            self.root.quit()
        except Exception:
            pass


def open_root():
    if tk is None:
        raise NoDisplay("this Python has no tkinter")
    try:
        return tk.Tk(className="okgin")
    except tk.TclError as e:
        raise NoDisplay(str(e)) from e


def main(args, flash_dir, speed):
    """`okgin sim` in a window. Returns the exit status."""
    from ..table.session import open_session
    root = open_root()
    size = panel_size(getattr(args, "board", None))
    scale = args.scale or fit_scale(root.winfo_screenwidth(), root.winfo_screenheight(), size)
    home = os.path.expanduser("~")
    info = "e-ink speed %g\u00d7   \u00b7   flash %s" % (speed, flash_dir.replace(home, "~", 1))
    win = SimWindow(root, scale, info=info, size=size)
    box = {}

    def boot():
        try:
            box["session"] = open_session(args, flash_dir, speed)
        except BaseException as e:  # reported in the window and on stderr
            box["error"] = e

    t = threading.Thread(target=boot, name="okgin-sim-boot", daemon=True)
    t.start()

    def wait_boot():
        if win.closed:
            return
        if "session" in box:
            win.attach(box.pop("session"))
        elif "error" in box:
            win.fail(box.pop("error"))
            return
        if win.session is None:
            root.after(50, wait_boot)

    root.after(50, wait_boot)
    root.after(POLL_MS, win.run_loop)
    # Ctrl-C in the terminal that started us: Tk would report the
    # KeyboardInterrupt from inside a callback and carry on; close instead.
    import signal
    old_sigint = signal.signal(signal.SIGINT, lambda *a: win.close())
    root.focus_force()
    try:
        root.mainloop()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, old_sigint)
        win.close()
        t.join(timeout=0.1)
        session = win.session or box.get("session")
        if session is None and t.is_alive():
            t.join(timeout=60)  # still booting: let it finish, then stop it cleanly
            session = box.get("session")
        if session is not None:
            session.close()
        try:
            root.destroy()
        except Exception:
            pass
    # A boot failure was printed (okgin: ...) when it happened and shown in
    # the window until it was closed.
    return 1 if win.failed is not None else 0
