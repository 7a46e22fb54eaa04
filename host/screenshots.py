"""``okgin screenshots``: the README's pictures drawn again from this
checkout's firmware by one command, never by hand (issue 36), so that what
a newcomer sees first is what the table shows.

One scene, played the same way on each front end: a new two-player game of
deal ``SEED`` on the default table (or ``--board``), both seats playing a
plain greedy game (okgin.web.browser.choose) up to player 1's first
discard after player 2 has drawn and discarded, the cursor on the card
player 1 means to throw. It writes, into ``--out`` (default docs/img of
this checkout):

  sim.png   the simulator's window (okgin sim) on a private X server (Xvfb)
  web.png   the web page (okgin web) in headless chromium
  text.txt  the panels read back as text, as okgin sim --tui shows them in
            a small terminal (host/simui/textview.py)

The panels in each picture are the board's pixels for that scene: the
command checks it before writing (the window's canvases against the
virtual board's panels, the page's canvases against them too), and
tests/sim/test_screenshots.py checks the committed pictures against what
the firmware of the checkout draws. The frames around them (the window's
labels, the page's buttons) are what Tk and chromium draw on the machine
that ran it.
"""
import os
import tempfile
import time

from .lib import xserver
from .lib.errors import CommandError

SEED = 305          # a deal whose first turns show a take, a draw and a last move
NAMES = ("sim", "web", "text")
# the window's status line names a flash folder: the one okgin sim uses
# by default, not this command's temporary one
INFO = "flash ~/.local/share/okgin/sim-flash"

EPILOG = """examples:
  okgin screenshots                       redraw docs/img/sim.png, web.png and text.txt
  okgin screenshots --out /tmp/shots      somewhere else
  okgin screenshots --only sim,text       without chromium
  okgin screenshots --board board-2in9.json --out /tmp/2in9   the 2.9in table's

The window needs Xvfb and Tk, the page chromium, chromedriver, selenium and
npm (okgin doctor says which are here).
"""


def configure(parser):
    parser.epilog = EPILOG
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="where to write them (default: docs/img of this checkout)")
    from .table import options as table_options
    table_options.add(parser, "board", help={
        "board": "board definition (default hardware/board.json, the 4.2in table)"})
    parser.add_argument("--only", metavar="NAMES", default=",".join(NAMES),
                        help="which to make, comma-separated: sim, web, text (default: all)")
    parser.add_argument("--seed", type=int, default=SEED, help="the deal (default %d)" % SEED)


# ---------------------------------------------------------------- the scene

def scene(seed=SEED):
    """The presses of the scene, [(player, button)], from a new game of
    ``seed``: both seats play okgin.web.browser.choose until player 1
    (seat 0) is to discard and player 2 has discarded once; then player 1's
    cursor goes to the card they will throw (the discard's presses but its
    last, the OK)."""
    from okgin.engine import Match, Rules
    from .lib.presses import Presses
    from .web.browser import choose
    m = Match(Rules(), seed=seed)
    keys = Presses(shortest=True)
    presses: "list[tuple[int, str]]" = []
    opponent_discarded = False
    for _ in range(200):
        p = m.hand.to_move
        if p is None:           # the hand is over: the scene was never reached
            break
        obs = m.observation(p)
        act = choose(obs)
        buttons = keys.for_action(p, act, obs["hand"])
        if p == 0 and act.startswith("discard") and opponent_discarded:
            return presses + [(0, b) for b in buttons[:-1]]
        presses += [(p, b) for b in buttons]
        m.play(act)
        if m.hand_no != 1 or m.winner is not None:
            break
        keys.played(p, obs["hand"], m.observation(p)["hand"])
        opponent_discarded = opponent_discarded or (p == 1 and act.startswith("discard"))
    raise CommandError("deal %d never reaches player 1's discard after player 2's: choose another --seed"
                       % seed)


def play_on_board(flash, board=None, seed=SEED):
    """The virtual board (speed 0) with the scene played on it: a started
    Session, its panels settled. The caller closes it."""
    from .table.session import Session, load_timing, make_board, new_game_on_flash
    from .lib.paths import BOARD, resolve_board
    path = resolve_board(board) if board else BOARD
    if not os.path.isfile(path):
        raise CommandError("board definition %s not found" % path)
    os.makedirs(flash, exist_ok=True)
    vb = make_board(flash, speed=0.0, board_path=path)
    new_game_on_flash(flash, seed=seed)
    s = Session(vb, timing=load_timing(path))
    try:
        s.start()
        s.sync(quiet_ms=150)
        for p, button in scene(seed):
            s.press(p, button)
            s.sync(quiet_ms=150)
    except BaseException:
        s.close()
        raise
    return s


# ---------------------------------------------------------------- the text

def text_view(panels):
    """Both panels as the terminal's text view shows them in a small
    terminal: a box per player, side by side."""
    from .simui.textview import PanelReader, clip, columns
    reader = PanelReader()
    rows = [[("".join(t for t, _inv in r)).rstrip() for r in reader.read(img)] for img in panels]
    w = max(max((columns(r) for r in rs), default=0) for rs in rows)
    w = max(w, len("Player 2"))
    n = max(len(rs) for rs in rows)
    out = ["  ".join(("Player %d" % (p + 1)).ljust(w + 2) for p in range(2)).rstrip(),
           "  ".join("\u250c" + "\u2500" * w + "\u2510" for _ in range(2))]
    for i in range(n):
        cells = []
        for rs in rows:
            t = clip(rs[i], w) if i < len(rs) else ""
            cells.append("\u2502" + t + " " * (w - columns(t)) + "\u2502")
        out.append("  ".join(cells))
    out.append("  ".join("\u2514" + "\u2500" * w + "\u2518" for _ in range(2)))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the window

def _xvfb():
    """A private X server (lib/xserver.py): (process, display name)."""
    try:
        return xserver.start("1920x1080x24")
    except CommandError as e:
        raise CommandError("sim.png needs an X server: %s (--only web,text without it)" % e) from None


def window_shot(session, board=None):
    """The simulator's window showing the session's board, as an RGB image
    of the whole window. Its panels are checked to be the board's."""
    from PIL import ImageGrab
    from .simui import render
    try:
        from .simui import tkapp
    except ImportError as e:
        raise CommandError("sim.png needs Tk (apt-get install python3-tk): %s" % e) from None
    if tkapp.tk is None:
        raise CommandError("sim.png needs Tk (apt-get install python3-tk)")
    proc, display = _xvfb()
    root = win = None
    try:
        root = tkapp.tk.Tk(screenName=display, className="okgin")
        size = tkapp.panel_size(board)
        # the largest scale at which the window fits a laptop's 1400 px
        scale = tkapp.fit_scale(1400, 1000, size)
        win = tkapp.SimWindow(root, scale, info=INFO, size=size)
        win.attach(session)
        root.geometry("+0+0")

        def shows(p):
            c = win.canvas[p]
            x, y = c.winfo_rootx() + tkapp.BORDER, c.winfo_rooty() + tkapp.BORDER
            got = ImageGrab.grab(xdisplay=display).crop((x, y, x + size[0] * scale, y + size[1] * scale))
            return got.convert("RGB").tobytes() == render.to_rgb(session.panel(p), scale).tobytes()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            win.poll()
            root.update()
            if shows(0) and shows(1):
                break
            time.sleep(0.02)
        else:
            raise CommandError("the window did not show the board's panels within 60 s")
        for _ in range(20):          # the labels (refresh counts, LEDs, status) catch up
            win.poll()
            root.update()
            time.sleep(0.02)
        x, y = root.winfo_rootx(), root.winfo_rooty()
        shot = ImageGrab.grab(xdisplay=display).crop((x, y, x + root.winfo_width(), y + root.winfo_height()))
        return shot.convert("RGB")
    finally:
        if win is not None:
            if win.watcher is not None:
                win.watcher.stop()
            win.worker.stop()
        if root is not None:
            root.destroy()
        xserver.stop(proc)


# ---------------------------------------------------------------- the page

def page_shot(panels, board=None, seed=SEED):
    """The web page (okgin web) after the same scene, as an RGB image of
    its table; its canvases are checked to be the board's ``panels``."""
    from PIL import Image
    from .simui import render
    from .web import build, serve_in_thread
    from .web import browser as w
    with tempfile.TemporaryDirectory(prefix="okgin-shots-web-") as tmp:
        site = build(os.path.join(tmp, "site"), uf2=None, board=board)
        server = serve_in_thread(site)
        try:
            with w.Browser() as b:
                d = b.driver
                d.set_window_size(1280, 900)
                w.open_page(d, "http://127.0.0.1:%d/?speed=0&seed=%d" % (server.server_address[1], seed))
                w.settle(d)
                w.press(d, 0, "ok", "key")          # the menu's first line: a new game, two players
                for p, button in scene(seed):
                    w.press(d, p, button, "key")
                w.settle(d)
                d.execute_script("document.activeElement && document.activeElement.blur()")
                time.sleep(0.3)
                for p, img in enumerate(panels):
                    if w.canvas(d, p).tobytes() != render.to_rgb(img).tobytes():
                        raise CommandError("the page's panel %d is not the virtual board's after the scene"
                                           % (p + 1))
                import io
                top = d.execute_script("const r = document.getElementById('table').getBoundingClientRect();"
                                       "return [Math.ceil(r.bottom), window.devicePixelRatio || 1];")
                png = Image.open(io.BytesIO(d.get_screenshot_as_png())).convert("RGB")
                bottom = int(top[0] * top[1])
                # the header and the table, without the page's notes under it
                return png.crop((0, 0, png.width, min(png.height, bottom)))
        finally:
            server.shutdown()
            server.server_close()


# ---------------------------------------------------------------- the command

def make(out, board=None, only=NAMES, seed=SEED, say=print):
    """Write the pictures ``only`` names into ``out``; returns their paths."""
    os.makedirs(out, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory(prefix="okgin-shots-") as tmp:
        s = play_on_board(os.path.join(tmp, "flash"), board, seed)
        try:
            panels = [s.panel(0), s.panel(1)]
            if "text" in only:
                path = os.path.join(out, "text.txt")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text_view(panels))
                written.append(path)
                say("okgin screenshots: wrote %s" % path)
            if "sim" in only:
                path = os.path.join(out, "sim.png")
                window_shot(s, board).save(path, optimize=True)
                written.append(path)
                say("okgin screenshots: wrote %s" % path)
        finally:
            s.close()
        if "web" in only:
            path = os.path.join(out, "web.png")
            page_shot(panels, board, seed).save(path, optimize=True)
            written.append(path)
            say("okgin screenshots: wrote %s" % path)
    return written


def run(args):
    from .lib.paths import CHECKOUT
    from .table import options as table_options
    only = tuple(x.strip() for x in args.only.split(",") if x.strip())
    bad = [x for x in only if x not in NAMES]
    if bad or not only:
        raise CommandError("--only: the pictures are %s, not %s" % (", ".join(NAMES), ", ".join(bad) or "none"))
    out = args.out
    if out is None:
        if not CHECKOUT:
            raise CommandError("no checkout here to hold docs/img: give --out DIR")
        out = os.path.join(CHECKOUT, "docs", "img")
    make(out, table_options.resolve(args).board, only, args.seed)
    return 0
