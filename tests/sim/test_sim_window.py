"""The Tk window on a private X server: what it shows is the board's panels
pixel for pixel, and real X key and mouse events (xdotool, through the X
server like a person's keyboard) reach the board."""
import shutil
import subprocess
import time

import pytest

from okgin.simui import render

tk = pytest.importorskip("tkinter")
from okgin.simui import tkapp

SCALE = 1     # the default table's 400x300 panels side by side fit the private X screen at 1


def pump(root, win, seconds=0.0, until=None, timeout=15.0):
    """Run the window's loop; stop after `seconds`, or when until() holds."""
    end = time.monotonic() + (seconds if until is None else timeout)
    while time.monotonic() < end:
        win.poll()
        root.update()
        if until is not None and until():
            return True
        time.sleep(0.01)
    return until is None


@pytest.fixture
def window(session, xdisplay):
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed (apt install xdotool) - needed to type into the window")
    root = tk.Tk(screenName=xdisplay, className="okgin")
    win = tkapp.SimWindow(root, SCALE, info="test")
    win.attach(session)
    root.geometry("+0+0")
    pump(root, win, 0.3)
    assert pump(root, win, until=lambda: all(shows(win, session, p) for p in (0, 1)))
    yield root, win, session, xdisplay
    win.close()
    root.destroy()


def grab(win, display, p):
    from PIL import ImageGrab
    c = win.canvas[p]
    x, y = c.winfo_rootx() + tkapp.BORDER, c.winfo_rooty() + tkapp.BORDER
    shot = ImageGrab.grab(xdisplay=display)
    w, h = win.size                   # the default table's: 400x300
    return shot.crop((x, y, x + w * SCALE, y + h * SCALE)).convert("RGB")


def shows(win, session, p):
    """What is on screen is the panel, pixel for pixel, in e-ink colours."""
    want = render.to_rgb(session.panel(p), SCALE)
    return grab(win, win.display, p).tobytes() == want.tobytes()


@pytest.fixture(autouse=True)
def _display_name(xdisplay):
    tkapp.SimWindow.display = xdisplay


def xdo(display, *args):
    subprocess.run(["xdotool"] + list(args), check=True, env={"DISPLAY": display}, timeout=10)


def focus(root, display):
    """Give the window the keyboard, as a window manager would on a click
    (there is none on Xvfb)."""
    xdo(display, "windowfocus", "--sync", str(int(root.wm_frame(), 16)))
    root.focus_force()
    root.update()


def test_the_window_shows_both_panels_pixel_exact(window):
    root, win, session, display = window
    for p in (0, 1):
        assert shows(win, session, p)
    # and it is a picture of the firmware's screen, not a blank paper
    assert len(grab(win, display, 0).getcolors()) >= 2


def test_keys_of_each_side_reach_their_own_player(window):
    root, win, session, display = window
    focus(root, display)
    before = [session.panel_key(0), session.panel_key(1)]
    xdo(display, "key", "d")          # player 0: right
    assert pump(root, win, until=lambda: session.last_release and session.last_release[:2] == (0, "right"))
    assert pump(root, win, until=lambda: session.panel_key(0) != before[0])
    assert pump(root, win, until=lambda: shows(win, session, 0))
    before1 = session.panel_key(1)
    xdo(display, "key", "Right")      # player 1: right, on the arrow key
    assert pump(root, win, until=lambda: session.last_release[:2] == (1, "right"))
    assert pump(root, win, until=lambda: session.panel_key(1) != before1)
    assert pump(root, win, until=lambda: shows(win, session, 1))


def test_holding_a_key_is_one_long_hold_despite_auto_repeat(window):
    root, win, session, display = window
    focus(root, display)
    n = session.presses
    xdo(display, "keydown", "a")
    pump(root, win, 0.9)              # X repeats the key meanwhile
    xdo(display, "keyup", "a")
    assert pump(root, win, until=lambda: session.last_release and session.last_release[:2] == (0, "left"))
    assert session.presses == n + 1   # one hold, not a burst of presses
    assert session.last_release[2] >= session.timing.get("long_press_ms", 600)


def test_clicking_a_button_presses_it(window):
    root, win, session, display = window
    frame = win.keys[1]["take"][0]
    x, y = frame.winfo_rootx() + frame.winfo_width() // 2, frame.winfo_rooty() + frame.winfo_height() // 2
    xdo(display, "mousemove", "--sync", str(x), str(y), "click", "1")
    assert pump(root, win, until=lambda: session.last_release and session.last_release[:2] == (1, "take"))


def test_console_shows_the_serial_traffic_and_sends_lines(window):
    root, win, session, display = window
    focus(root, display)
    xdo(display, "key", "F2")
    assert pump(root, win, until=lambda: win.console_visible)
    assert pump(root, win, until=lambda: win.console_entry.winfo_ismapped())
    xdo(display, "windowfocus", "--sync", str(win.console_entry.winfo_id()))
    xdo(display, "type", "hello")
    xdo(display, "key", "Return")
    def text():
        return win.console_text.get("1.0", "end")
    assert pump(root, win, until=lambda: "> hello\n< OK okgin" in text())
    # typing in the console is not playing: no button was pressed by "hello"
    assert session.presses == 0


def test_hiding_player_1_covers_only_that_panel(window):
    root, win, session, display = window
    focus(root, display)
    xdo(display, "key", "F3")
    assert pump(root, win, until=lambda: not shows(win, session, 1))
    assert shows(win, session, 0)
    xdo(display, "key", "F3")
    assert pump(root, win, until=lambda: shows(win, session, 1))


def test_power_cycle_button_restarts_the_board(window):
    root, win, session, display = window
    def readies():
        return sum(1 for _, d, t in session.log_since(0) if d == "<" and t.startswith("READY "))
    n = readies()
    b = win.tool["power"]
    x, y = b.winfo_rootx() + 5, b.winfo_rooty() + 5
    xdo(display, "mousemove", "--sync", str(x), str(y), "click", "1")
    assert pump(root, win, until=lambda: readies() > n, timeout=30)
    assert pump(root, win, until=lambda: shows(win, session, 0) and shows(win, session, 1))
    # The status line follows the board: once the firmware is back it says
    # so, rather than "reset: the firmware restarts" for ever.
    assert pump(root, win, until=lambda: win.status.cget("text").startswith("board ready, firmware "))


def test_okgin_sim_opens_its_window_and_quits_on_ctrl_q(xdisplay, tmp_path):
    """The command as a user runs it: window up, the firmware's screen drawn
    in it, Ctrl-Q closes it and the board with it (exit status 0)."""
    import sys
    from PIL import ImageGrab
    from tests.support.sim import ROOT, env_with
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed (apt install xdotool)")
    proc = subprocess.Popen([sys.executable, "-m", "okgin.cli", "sim", "--speed", "0", "--scale", "1",
                             "--seed", "3", "--flash-dir", str(tmp_path / "f")],
                            env=env_with(DISPLAY=xdisplay), cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wid = subprocess.run(["xdotool", "search", "--sync", "--name", "^okgin simulator$"],
                             capture_output=True, text=True, env={"DISPLAY": xdisplay}, timeout=30).stdout.split()[0]
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid], capture_output=True,
                             text=True, env={"DISPLAY": xdisplay}, timeout=10).stdout
        g = dict(line.split("=") for line in geo.split())
        box = (int(g["X"]), int(g["Y"]), int(g["X"]) + int(g["WIDTH"]), int(g["Y"]) + int(g["HEIGHT"]))
        ink = render.INK
        end = time.monotonic() + 30
        while time.monotonic() < end:  # the game's screens, in ink, inside the window
            colours = ImageGrab.grab(xdisplay=xdisplay).crop(box).getcolors(1 << 16) or []
            if any(c == ink for _, c in colours) and any(c == render.PAPER for _, c in colours):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("no panel drawn in the window")
        xdo(xdisplay, "windowfocus", "--sync", wid)
        xdo(xdisplay, "key", "ctrl+q")
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_board_that_cannot_start_is_explained_in_the_window(xdisplay, tmp_path):
    import sys
    from tests.support.sim import ROOT, env_with
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed (apt install xdotool)")
    (tmp_path / "f").mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "okgin.cli", "sim", "--flash-dir", str(tmp_path / "f")],
                            env=env_with(DISPLAY=xdisplay, OKGIN_MICROPYTHON="/nonexistent/micropython"),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wid = subprocess.run(["xdotool", "search", "--sync", "--name", "^okgin simulator$"],
                             capture_output=True, text=True, env={"DISPLAY": xdisplay}, timeout=30).stdout.split()[0]
        from PIL import ImageGrab
        red = tuple(int(tkapp.ERR[i:i + 2], 16) for i in (1, 3, 5))
        end = time.monotonic() + 20
        while time.monotonic() < end:  # the status line turns to the error, in red
            if any(c == red for _, c in ImageGrab.grab(xdisplay=xdisplay).getcolors(1 << 16) or []):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the window does not show the error")
        assert proc.poll() is None  # and stays up until it is closed
        xdo(xdisplay, "windowfocus", "--sync", wid)
        xdo(xdisplay, "key", "ctrl+q")
        assert proc.wait(timeout=30) == 1
        err = proc.stderr.read().strip().splitlines()
        assert len(err) == 1 and err[0].startswith("okgin: micropython binary '/nonexistent/micropython'")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
