"""The terminal front end in a real terminal (tmux): panels drawn in braille
decode back to the board's panels pixel for pixel, keys reach the board,
Esc q quits cleanly; in an 80x24 terminal the panels are text, and a hand
is played reading it."""
import os
import re
import shlex
import shutil
import subprocess
import time

import pytest

from okgin.simui import render
from okgin.table.session import Session
from tests.support.sim import ROOT, env_with, exit_status, new_board, okgin_cmd

COLS, ROWS = 310, 45  # room for both panels side by side at full size (either table)


@pytest.fixture
def tmux(tmp_path):
    if not shutil.which("tmux"):
        pytest.skip("tmux is not installed (apt install tmux) - needed to run the terminal UI")
    sock = "okgin-sim-test-%d" % os.getpid()
    base = ["tmux", "-L", sock, "-f", "/dev/null"]

    def run(*args):
        return subprocess.run(base + list(args), capture_output=True, text=True, timeout=10)

    yield base, run
    run("kill-server")


def _terminal_env():
    """The environment of the terminal's shell: UTF-8, and no LINES or
    COLUMNS, which curses would take over the terminal's own size (pytest-
    xdist's workers have LINES=24 COLUMNS=80: the 80x24 text view instead
    of the full-size panels, in every parallel run)."""
    env = env_with(LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("LINES", None)
    env.pop("COLUMNS", None)
    return env


def capture(run):
    return run("capture-pane", "-p", "-t", "sim").stdout.splitlines()


def wait_for(run, pred, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        lines = capture(run)
        if pred(lines):
            return lines
        time.sleep(0.1)
    raise AssertionError("terminal never showed it; last screen:\n" + "\n".join(capture(run)))


def panel_from_screen(lines, p):
    """Decode the braille box of player p (side-by-side layout) of the
    default table: its panel's screen (200x150 on the 4.2" panels)."""
    from okgin.simui.tui import sizes
    (w, h), _text = sizes()
    x = 1 + p * (w + 3)
    rows = [ln[x:x + w] for ln in lines[2:2 + h]]
    bw, bh, scale = render.board_panel()
    return render.braille_decode(rows, size=(bw // scale, bh // scale))


def test_terminal_ui_shows_the_panels_and_takes_keys(tmux, tmp_path):
    base, run = tmux
    flash = tmp_path / "flash"
    flash.mkdir()
    status = tmp_path / "exit"
    cmd = " ".join(shlex.quote(a) for a in okgin_cmd() + ["sim", "--tui", "--speed", "0", "--flash-dir", str(flash)])
    env = _terminal_env()
    shell = "cd %s && PYTHONPATH=%s %s; echo $? > %s" % (
        shlex.quote(ROOT), shlex.quote(env["PYTHONPATH"]), cmd, shlex.quote(str(status)))
    r = subprocess.run(base + ["new-session", "-d", "-s", "sim", "-x", str(COLS), "-y", str(ROWS),
                               "env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "sh", "-c", shell],
                       capture_output=True, text=True, env=env, timeout=10)
    assert r.returncode == 0, r.stderr
    lines = wait_for(run, lambda ls: any("board ready" in ln for ln in ls))
    lines = wait_for(run, lambda ls: panel_from_screen(ls, 0).getbbox() is not None)
    # tmux can be captured while the UI is still writing the panels' rows
    # (seen on a loaded machine: a torn first frame); the boot screen is the
    # one that two captures in a row agree on
    seen = []

    def settled(ls):
        seen.append([panel_from_screen(ls, p).tobytes() for p in (0, 1)])
        return len(seen) > 1 and seen[-1] == seen[-2]
    lines = wait_for(run, settled)
    boot = [panel_from_screen(lines, 0), panel_from_screen(lines, 1)]
    assert "Player 1" in lines[0] and "Player 2" in lines[0]

    run("send-keys", "-t", "sim", "d")                   # player 0: right
    lines = wait_for(run, lambda ls: any("last: P1 right" in ln for ln in ls))
    lines = wait_for(run, lambda ls: panel_from_screen(ls, 0).tobytes() != boot[0].tobytes())

    run("send-keys", "-t", "sim", "L")                   # Shift: a long press of player 1's right
    wait_for(run, lambda ls: any("last: P2 right long" in ln for ln in ls))

    run("send-keys", "-t", "sim", "Escape")              # the serial console and its input line
    run("send-keys", "-t", "sim", "s")
    wait_for(run, lambda ls: any(ln.startswith("serial>") for ln in ls))
    run("send-keys", "-t", "sim", "-l", "hello")
    run("send-keys", "-t", "sim", "Enter")
    wait_for(run, lambda ls: any(ln.startswith("< OK okgin fw=") for ln in ls))
    assert "last: P2 right long" in "\n".join(capture(run))  # typing pressed no button
    _quit(run, status)

    # What the terminal showed at boot is exactly what the board draws at
    # boot (the default table's screen: its panel's 2x2 blocks halved):
    # boot another fresh board and compare pixel for pixel.
    from okgin.lib.screen import screen_of
    s = Session(new_board(str(tmp_path / "flash2")))
    try:
        s.start()
        s.sync()
        for p in (0, 1):
            assert s.panel(p).size == (400, 300)
            assert screen_of(s.panel(p)).tobytes() == boot[p].tobytes()
    finally:
        s.close()


@pytest.mark.parametrize("cols, rows, want", [
    (310, 45, ("side", "full")),
    (160, 80, ("stacked", "full")),
    (160, 48, ("single", "full")),   # one pixel-exact panel beats two as text
    (160, 30, ("side", "text")),
    (80, 24, ("side", "text")),      # the usual terminal: both panels, as text
    (60, 24, ("single", "text")),
    (30, 24, ("small", None)),
])
def test_layout_picks_the_largest_picture_that_fits(cols, rows, want):
    from okgin.simui.tui import layout, sizes
    assert sizes("board-2in9.json") == ((148, 32), (37, 12))
    assert layout(cols, rows, sizes("board-2in9.json")) == want


@pytest.mark.parametrize("cols, rows, want", [
    (206, 44, ("side", "full")),     # the 4.2" panels' 200x150 screens: 100x38 cells each
    (204, 90, ("stacked", "full")),
    (102, 45, ("single", "full")),
    (80, 24, ("side", "text")),      # 37 columns a panel: the hand of 11 and the pile take 36
    (39, 20, ("single", "text")),
    (38, 24, ("small", None)),
])
def test_layout_on_the_default_4in2_table(cols, rows, want):
    from okgin.simui.tui import layout, sizes
    assert sizes() == ((100, 38), (37, 13))
    assert layout(cols, rows, sizes()) == want


CARD = re.compile("[A2-9TJQK][\u2663\u2666\u2665\u2660]")
SUIT = dict(zip("cdhs", "\u2663\u2666\u2665\u2660", strict=True))


def _slice(line, start, n):
    """The part of a captured line from terminal column ``start``, ``n``
    columns: tmux gives a wide character (Hangul) once, for two columns."""
    from okgin.simui.textview import terminal_width
    out, col = "", 0
    for ch in line:
        if start <= col < start + n:
            out += ch
        col += terminal_width(ch)
    return out


def _box(lines, p):
    """Player p's box in the 80-column side-by-side text layout, its rows."""
    return [_slice(ln, 1 + p * 40, 37) for ln in lines[2:14]]


def _start_80x24(base, tmp_path, *args):
    """okgin sim --tui in an 80x24 tmux window; the file its exit status goes to."""
    flash = tmp_path / "flash"
    status = tmp_path / "exit"
    # the 2.9" table: the columns of its 37-column text boxes below
    cmd = " ".join(shlex.quote(a) for a in okgin_cmd() + ["sim", "--tui", "--speed", "0", "--flash-dir",
                                                          str(flash), "--board", "board-2in9.json"]
                   + list(args))
    env = _terminal_env()
    shell = "cd %s && PYTHONPATH=%s %s; echo $? > %s" % (
        shlex.quote(ROOT), shlex.quote(env["PYTHONPATH"]), cmd, shlex.quote(str(status)))
    r = subprocess.run(base + ["new-session", "-d", "-s", "sim", "-x", "80", "-y", "24",
                               "env", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "sh", "-c", shell],
                       capture_output=True, text=True, env=env, timeout=10)
    assert r.returncode == 0, r.stderr
    return flash, status


def _quit(run, status):
    run("send-keys", "-t", "sim", "Escape")
    run("send-keys", "-t", "sim", "q")
    assert exit_status(status, 30) == "0"


def _shown(card):
    return card[0] + SUIT[card[1]]


def test_an_80x24_terminal_plays_a_hand_as_text(tmux, tmp_path):
    """In 80x24 both panels are text: each player's hand as ranks and
    suits, in the order the panel shows them (engine/arrange.py), the
    pile, the prompt and the footer's actions; a player's key plays and the
    text follows."""
    from okgin.engine import Match
    from okgin.engine.arrange import order
    from okgin.lib import lang
    base, run = tmux
    flash, status = _start_80x24(base, tmp_path, "--seed", "7")
    lines = wait_for(run, lambda ls: all(len(CARD.findall(" ".join(_box(ls, p)))) >= 10 for p in (0, 1)))
    assert len(lines) == 24 and max(len(ln) for ln in lines) <= 80
    assert "Player 1" in lines[0] and "Player 2" in lines[0]
    m = Match.from_record((flash / "game.okg").read_text())
    mover = m.hand._to_move
    for p in (0, 1):
        box = _box(lines, p)
        hand_rows = [row for row in box if len(CARD.findall(row)) >= 10]
        assert len(hand_rows) == 1, box
        want = [_shown(c) for c in order(m.observation(p)["hand"])]
        assert CARD.findall(hand_rows[0]) == want, (hand_rows[0], want)
        text = "\n".join(box)
        upcard = _shown(m.observation(p)["discard_top"])
        assert box[1].startswith(upcard), box[1]                  # the pile, top left
        assert ("Take the upcard?" in text) == (p == mover), text  # the prompt
    en = lang.read("en")
    # the footer: each button's icon read as its word, then what it does
    footer = [ln for ln in _box(lines, mover) if ln.split() == en["hint.upcard"].split()]
    assert footer, _box(lines, mover)                            # the footer's actions

    # the mover passes the upcard with its draw key; the other panel's
    # text says whose turn it is now
    from okgin.simui.keymaps import KEYMAP
    run("send-keys", "-t", "sim", KEYMAP[mover]["draw"][0])
    m.play("pass")
    nxt = m.hand._to_move
    wait_for(run, lambda ls: "Take the upcard?" in "\n".join(_box(ls, nxt))
             and "Take the upcard?" not in "\n".join(_box(ls, mover)))
    _quit(run, status)


def test_an_80x24_terminal_shows_a_korean_table_in_korean(tmux, tmp_path):
    """okgin sim --lang ko in 80x24: the panels read back in Korean, a
    Hangul syllable two columns wide as the terminal draws it, so both
    boxes keep their frames in columns 0, 38, 40 and 78."""
    from okgin.engine import Match
    from okgin.lib import lang
    from okgin.simui.textview import columns
    base, run = tmux
    flash, status = _start_80x24(base, tmp_path, "--seed", "7", "--lang", "ko")
    ko = lang.read("ko")
    lines = wait_for(run, lambda ls: ko["turn.upcard"] in "\n".join(ls)
                     and all(len(CARD.findall(" ".join(_box(ls, p)))) >= 10 for p in (0, 1)))
    mover = Match.from_record((flash / "game.okg").read_text()).hand._to_move
    for ln in lines[2:14]:
        assert columns(ln) <= 80
        assert [_slice(ln, c, 1) for c in (0, 38, 40, 78)] == ["\u2502"] * 4, lines
    assert ko["turn.upcard"] in "\n".join(_box(lines, mover))
    assert any(ln.split() == ko["hint.upcard"].split() for ln in _box(lines, mover)), _box(lines, mover)
    assert "Take the upcard?" not in "\n".join(lines)
    _quit(run, status)
