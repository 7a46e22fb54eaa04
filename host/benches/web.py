"""``okgin bench web``: figures of the web page (okgin web) in a real
headless chromium on this machine:

- the site's size, raw and gzipped (each file with gzip -9, as a static
  host sends it compressed);
- time to the first screen: from navigation to the first panel image on a
  canvas, on a first visit (nothing cached) and on a reload (the service
  worker's copy), medians;
- ms per key: from a key going down to the new image on the canvas (e-ink
  refresh times at 0, so this is the page and the firmware's work), over
  whole games played by key events: one against the computer (easy), one
  between two people, to the game's end; cursor moves (their event comes on
  the press) apart from the other buttons (on the release, after the
  buttons' 20 ms debounce);
- the engine's random-play hands/s in the page: okgin bench engine's own
  script, run by the page's MicroPython, in rounds alternating with the
  unix port (medians, and the median ratio: a busy machine slows both).
"""
import os
import re
import tempfile
import time

from ..lib.errors import CommandError


def _median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else float("nan")


def _p90(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.9))] if xs else float("nan")


def _first_screen(browser, url):
    d = browser.driver
    d.get(url)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        got = d.execute_script("return window.okgin ? [okgin.firstScreen, okgin.errors] : [null, []]")
        if got[1]:
            raise CommandError("the page failed: %s" % got[1])
        if got[0] is not None:
            return got[0]
        time.sleep(0.01)
    raise CommandError("no first screen within 60 s")


def _game(d, vs, seed, limit_s):
    """A whole game by key events at e-ink speed 0: the engine's greedy
    chooser for the people (tests/web's), the page's computer for seat 1
    when vs is a level. Returns (hands, presses)."""
    from ..web import browser as w
    from okgin.engine import Match, Rules, bot
    from okgin.engine.bots import move_seed
    from ..lib.presses import Presses
    w.open_page(d, "%s?speed=0&seed=%d" % (d.current_url.split("?")[0], seed))
    d.execute_script("localStorage.clear()")   # a fresh table: the menu at boot
    w.open_page(d, d.current_url)
    w.settle(d)
    if vs != "human":
        w.press(d, 0, "right", "key")   # the menu's first level: easy
    w.press(d, 0, "ok", "key")
    m = Match(Rules(), seed=seed)
    keys = Presses(shortest=True)
    presses = 0
    t0 = time.monotonic()
    while m.winner is None:
        if time.monotonic() - t0 > limit_s:
            raise CommandError("the game took over %d s" % limit_s)
        p = m.hand.to_move
        assert p is not None    # the game goes on, so a hand is being played
        obs = m.observation(p)
        hand_no = m.hand_no
        if vs != "human" and p == 1:   # the page's computer plays this one
            m.play(bot(vs, move_seed(seed, len(obs["history"]))).choose(obs))
        else:
            act = w.choose(obs)
            for b in keys.for_action(p, act, obs["hand"]):
                w.press(d, p, b, "key")
                presses += 1
            m.play(act)
            if m.hand_no == hand_no and m.winner is None:
                keys.played(p, obs["hand"], m.observation(p)["hand"])
        if m.hand_no != hand_no or m.winner is not None:
            w.press(d, 0, "ok", "key")   # OK on the showdown: the next hand, or the menu
            keys.reset()
    if w.stored(d, "game.okg") is not None:
        raise CommandError("the page still has a saved game after the end of the game")
    return m.hand_no, presses


def _engine_in_page(d, reps, n_dw, n_hands):
    from .engine import BENCH_SCRIPT
    code = ("import sys\nsys.argv[:] = ['bench', '/flash', '%d', '%d', '%d']\n"
            % (reps, n_dw, n_hands)) + BENCH_SCRIPT
    d.execute_script("okgin.stdout.length = 0; okgin.python(arguments[0])", code)
    out = {}
    for line in d.execute_script("return okgin.stdout"):
        m = re.match(r"(\w+) (\d+)$", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def configure(parser):
    parser.add_argument("--quick", action="store_true", help="3 runs instead of 5, fewer keys and hands")
    parser.epilog = "examples:\n  okgin bench web --quick\n"


def run(args):
    from .engine import _run_script, _tool, BENCH_SCRIPT
    from ..web import build, serve_in_thread, site_size
    from ..web.browser import Browser, press
    quick = getattr(args, "quick", False)
    runs = 3 if quick else 5
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="okgin-bench-web-") as tmp:
        site = build(os.path.join(tmp, "site"))
        raw, gz = site_size(site)
        wasm = os.path.getsize(os.path.join(site, "mp", "micropython.wasm"))
        print("okgin web benchmark (%s; headless chromium, e-ink times at 0 for the key figures)"
              % ("quick" if quick else "full"))
        print("site size: %.0f KB raw, %.0f KB gzipped (MicroPython's .wasm %.0f KB of it)"
              % (raw / 1024, gz / 1024, wasm / 1024))
        with Browser() as browser:
            firsts, reloads = [], []
            for _ in range(runs):
                server = serve_in_thread(site)   # a new port: a new origin, nothing cached
                url = "http://127.0.0.1:%d/?speed=0" % server.server_address[1]
                try:
                    firsts.append(_first_screen(browser, url))
                    deadline = time.monotonic() + 20
                    while not browser.driver.execute_script("return !!navigator.serviceWorker.controller"):
                        if time.monotonic() > deadline:
                            raise CommandError("the service worker did not take over")
                        time.sleep(0.05)
                    reloads.append(_first_screen(browser, url))
                finally:
                    server.shutdown()
                    server.server_close()
            print("time to first screen: median %.0f ms first visit, %.0f ms reload (offline copy); "
                  "%d runs" % (_median(firsts), _median(reloads), runs))
            server = serve_in_thread(site)
            d = browser.driver
            try:
                d.get("http://127.0.0.1:%d/?speed=0" % server.server_address[1])
                for vs, seed in (("easy", 7), ("human", 11)):
                    g0 = time.monotonic()
                    hands, presses = _game(d, vs, seed, 600)
                    ks, turns = d.execute_script("return [okgin.keyToScreen, okgin.busyTurns]")
                    print("a whole game %s: %d hands, %d presses by key events in %.0f s; "
                          "key to screen median %.1f ms, 90th percentile %.1f ms (%d screens); "
                          "the firmware's turn that handles a key (App.step and the canvas): "
                          "median %.1f ms"
                          % ("against the computer (easy)" if vs != "human" else "between two people",
                             hands, presses, time.monotonic() - g0, _median(ks), _p90(ks), len(ks),
                             _median(turns)))
                cursor = []
                for _ in range(30 if quick else 60):
                    d.execute_script("okgin.keyToScreen.length = 0")
                    press(d, 0, "right", "key")
                    cursor += d.execute_script("return okgin.keyToScreen")
                print("key to screen, menu cursor moves (their event comes on the press): "
                      "median %.1f ms, 90th percentile %.1f ms (%d)"
                      % (_median(cursor), _p90(cursor), len(cursor)))
                idle = []
                for _ in range(20):
                    time.sleep(0.02)
                    idle.append(d.execute_script("return okgin.idleTurnMs"))
                print("an idle turn (every %d ms): median %.2f ms" % (10, _median(idle)))
                # rounds alternate the page and the unix port, so a busy
                # machine slows both alike: medians, and the median ratio
                script = os.path.join(tmp, "bench_engine_script.py")
                with open(script, "w") as f:
                    f.write(BENCH_SCRIPT)
                rounds, n_hands = (3, 10) if quick else (7, 30)
                keys = ("hands_fast_per_s", "hands_safe_per_s")
                got: "dict[str, tuple[list, list, list]]" = {k: ([], [], []) for k in keys}   # page, unix, ratio
                for _ in range(rounds):
                    page = _engine_in_page(d, 1, 100, n_hands)
                    unix = _run_script(_tool("micropython"), script, 1, 100, n_hands)
                    for k in keys:
                        if k not in page:
                            raise CommandError("the page's engine benchmark printed no %s" % k)
                        got[k][0].append(page[k])
                        got[k][1].append(unix[k])
                        got[k][2].append(page[k] / float(unix[k]))
            finally:
                server.shutdown()
                server.server_close()
        for k, label in zip(keys, ("fast path", "safe path, strings"), strict=True):
            print("engine random-play hands/s (%s): median %d in the page, %d on the unix port; "
                  "page/unix median x%.2f (%d alternating rounds of %d hands)"
                  % (label, _median(got[k][0]), _median(got[k][1]), _median(got[k][2]),
                     rounds, n_hands))
    print("(%.0f s; reproduce: okgin bench web%s)" % (time.monotonic() - t0, " --quick" if quick else ""))
    return 0
