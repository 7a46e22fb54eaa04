"""Helpers for the web page's tests (a plain module: pytest puts this
folder on sys.path): a scripted hand with the CPython engine as the oracle,
the virtual board as the yardstick for the panels, and the page driven in
a real chromium through selenium."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from okgin.engine import Match, Rules
from okgin.lib.presses import Presses
from okgin.simui import render
from okgin.web.browser import (canvas, choose, open_page, press, settle,  # noqa: E402,F401
                              stored, wait_ready)

FAILED = os.path.join(os.environ.get("TMPDIR", "/tmp"), "okgin_web_failed")


def hand_script(seed, players=(0, 1)):
    """The first hand of a new two-player game with this deal, as button
    presses: [("press", player, button)] with a ("check", what) after each
    action, up to the end of the hand. The engine (CPython) is the oracle;
    host/lib/presses.py follows the firmware's cursor. Returns (steps, match)."""
    m = Match(Rules(), seed=seed)
    keys = Presses(shortest=True)
    steps = []
    while m.hand_no == 1 and m.winner is None:
        p = m.hand.to_move
        obs = m.observation(p)
        act = choose(obs)
        steps += [("press", p, b) for b in keys.for_action(p, act, obs["hand"])]
        m.play(act)
        steps.append(("check", "%d %s" % (p, act)))
        if m.hand_no == 1:
            keys.played(p, obs["hand"], m.observation(p)["hand"])
    return steps, m


def assert_same_panels(driver, board_images, what):
    """Each canvas pixel for pixel equal to the virtual board's panel, in
    the e-ink colours the simulator's window uses (host/simui/render.py)."""
    for p, img in enumerate(board_images):
        want = render.to_rgb(img)
        got = canvas(driver, p)
        if got.tobytes() != want.tobytes():
            os.makedirs(FAILED, exist_ok=True)
            name = "".join(c if c.isalnum() else "_" for c in what)
            got.save(os.path.join(FAILED, "%s-p%d-page.png" % (name, p)))
            want.save(os.path.join(FAILED, "%s-p%d-board.png" % (name, p)))
            raise AssertionError("player %d's panel differs from the virtual board's after %s "
                                 "(both saved in %s)" % (p + 1, what, FAILED))


