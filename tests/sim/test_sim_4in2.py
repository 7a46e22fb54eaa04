"""The simulator on the 4.2" table (hardware/board.json, the default: two
400x300 SSD1683 panels at scale 2): the window is laid out at the board's
panel size and shows both panels pixel for pixel, and the text view reads
the 200x150 screens the firmware draws (each pixel a 2x2 block on the
panel) as it reads the 2.9" table's."""
import os
import time

import pytest

from okgin.simui import render
from tests.support.sim import ROOT

tk = pytest.importorskip("tkinter")
from okgin.simui import tkapp

SCALE = 1
BOARD = os.path.join(ROOT, "hardware", "board.json")


@pytest.fixture
def session_4in2(tmp_path):
    from okgin.table.session import Session, load_timing, make_board
    s = Session(make_board(str(tmp_path / "flash"), speed=0.0, board_path=BOARD),
                timing=load_timing(BOARD))
    s.start()
    yield s
    s.close()


def test_the_window_is_laid_out_at_the_boards_panel_size(session_4in2, xdisplay):
    from PIL import ImageGrab
    assert tkapp.panel_size(BOARD) == (400, 300)
    assert tkapp.panel_size() == (400, 300)          # the default table's
    assert tkapp.panel_size("board-2in9.json") == (296, 128)
    session = session_4in2
    tkapp.SimWindow.display = xdisplay
    root = tk.Tk(screenName=xdisplay, className="okgin")
    win = tkapp.SimWindow(root, SCALE, info="test", size=tkapp.panel_size(BOARD))
    try:
        win.attach(session)
        root.geometry("+0+0")

        def shows(p):
            c = win.canvas[p]
            x, y = c.winfo_rootx() + tkapp.BORDER, c.winfo_rooty() + tkapp.BORDER
            shot = ImageGrab.grab(xdisplay=xdisplay).crop((x, y, x + 400 * SCALE, y + 300 * SCALE))
            want = render.to_rgb(session.panel(p), SCALE)
            return session.panel(p).size == (400, 300) and shot.convert("RGB").tobytes() == want.tobytes()

        end = time.monotonic() + 20
        ok = False
        while time.monotonic() < end and not ok:
            win.poll()
            root.update()
            ok = shows(0) and shows(1)
            time.sleep(0.02)
        assert ok, "the window does not show the 400x300 panels pixel for pixel"
        assert int(win.canvas[0].cget("width")) == 400 * SCALE + 2 * tkapp.BORDER
    finally:
        win.close()
        root.destroy()


def test_the_text_view_reads_the_4in2_panel(session_4in2):
    """The 4.2" panel shows its 200x150 screen as 2x2 blocks: the text view
    reads that screen (the menu's lines: 25 columns at most), glyph for
    glyph what the firmware drew."""
    from PIL import Image
    from okgin.lib.screen import screen_of
    from okgin.simui.textview import PanelReader
    img = session_4in2.panel(0)
    assert img.size == (400, 300)
    screen = screen_of(img)
    assert screen.size == (200, 150)
    assert screen.resize((400, 300), Image.Resampling.NEAREST).tobytes() == img.convert("1").tobytes()
    lines = PanelReader().lines(img)
    assert any("Oklahoma Gin" in ln for ln in lines), lines
    assert lines == PanelReader().lines(screen) and max(len(ln) for ln in lines) <= 25
