"""Helpers shared by the simulator tests (imported as a plain module: pytest
puts this directory on sys.path). Every test runs the real virtual board
(okgin.vboard) with the real firmware of this checkout."""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def env_with(**kw):
    env = dict(os.environ)
    env.update(kw)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def okgin_cmd():
    """The okgin command of this checkout, run with this Python."""
    return [sys.executable, "-m", "okgin.cli"]


def exit_status(path, timeout):
    """The exit status a terminal's shell wrote with ``...; echo $? > path``
    (a text, "" if none came within ``timeout`` s). The shell makes the file
    before it writes the code: it is read once it holds a whole line (a
    busy-loop CI run read it empty)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
            if text.endswith("\n"):
                return text.strip()
        time.sleep(0.1)
    return ""


def new_board(flash_dir, speed=0.0):
    """A virtual board on flash_dir, prepared as `okgin sim` prepares it."""
    from okgin.table.session import make_board
    os.makedirs(flash_dir, exist_ok=True)
    return make_board(flash_dir=flash_dir, speed=speed)


def find_panel(shot, panel):
    """Where ``shot`` shows ``panel``'s screen in the window's e-ink colours,
    each pixel of the screen a whole number of the shot's pixels: (x, y,
    pixels a screen pixel), or None."""
    from okgin.simui import render
    from okgin.lib.screen import screen_of
    shot = shot.convert("RGB")
    screen = screen_of(panel.convert("1"))
    data, stride = shot.tobytes(), shot.width * 3
    for k in (1, 2, 3, 4):
        want = render.to_rgb(screen, k)
        if want.width > shot.width or want.height > shot.height:
            continue
        w3 = want.width * 3
        raw = want.tobytes()
        rows = [raw[i * w3:(i + 1) * w3] for i in range(want.height)]
        # the first row with ink anchors the search (a row of paper is everywhere)
        a = next((i for i, r in enumerate(rows) if r != rows[0]), 0)
        for y in range(shot.height - want.height + 1):
            line = data[(y + a) * stride:(y + a + 1) * stride]
            x = line.find(rows[a])
            while x >= 0:
                if x % 3 == 0 and all(data[(y + i) * stride + x:(y + i) * stride + x + w3] == rows[i]
                                      for i in range(want.height)):
                    return x // 3, y, k
                x = line.find(rows[a], x + 1)
    return None
