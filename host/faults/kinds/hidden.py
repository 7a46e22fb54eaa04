"""Row "hidden" of the fault campaign: hidden-information attempts over the port: zero cards revealed outside test mode's own game"""
import re
import time

from ..registry import Kind
from ..tally import Row
from ..judge import parse
from ..play import menu_new_game_fresh
from ...lib.screen import screen_of

# the protocol's `screen` answer: the panel's size, then its rows in hex
SCREEN = re.compile(r"OK (\d+)x(\d+) ([0-9a-f]+)$")


def _banner(img):
    """The TEST MODE banner in the screen's top right corner (76x10 pixels
    of the screen: 2x2 blocks on the 4.2" panel)."""
    s = screen_of(img.convert("1"))
    box = s.crop((s.width - 76, 0, s.width, 10))
    return sum(1 for v in box.tobytes() for b in range(8) if not (v >> b) & 1) > 500


def _screen_image(line):
    from PIL import Image
    m = SCREEN.match(line)
    assert m is not None
    w, h = int(m.group(1)), int(m.group(2))
    return Image.frombytes("1", (w, h), bytes(x ^ 0xFF for x in bytes.fromhex(m.group(3))))


def _same_below_banner(a, b):
    """Two panel images alike but for the top rows (header, TEST MODE
    banner): the same screen of the same game."""
    a, b = screen_of(a.convert("1")), screen_of(b.convert("1"))
    if a.size != b.size:
        return False
    a = a.crop((0, 12, a.width, a.height)).tobytes()
    b = b.crop((0, 12, b.width, b.height)).tobytes()
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b, strict=True)) < 150


def row_hidden(table, n, rng, work, log):
    """Attempts to see the game in progress over the port: test mode's
    commands back to back, during refreshes, after presses and resets,
    test-only commands outside test mode. Revealed (wrong) = an answer that
    holds a line of the real game's record (its deal line says the seed,
    from which the engine rebuilds every hand), an image of its panels, or
    a card of a hand; or a test command answered before the TEST MODE
    banner was on both panels."""
    r = Row("hidden")
    t = table(work, "hidden", speed=0.1)
    t.on()
    shown = []          # (time, panel, banner?) at each refresh start

    def on_event(ev):
        # on the board's own thread: the emulated panel directly (panel_image
        # would wait for that thread to settle the link)
        if ev[0] == "refresh":
            pins = t.vb.pins
            assert pins is not None
            shown.append((time.monotonic(), ev[1], _banner(pins.panels[ev[1]].image())))
    try:
        menu_new_game_fresh(t, 0)
        real = t.saved()
        m = parse(real)
        secret = set(real.decode().splitlines()[2:])     # the deal line and the actions
        t.sync()
        ink = [t.vb.panel_image(p) for p in (0, 1)]
        st_real = t.status()
        hands = [set(m.observation(p)["hand"]) for p in (0, 1)]
        t.vb.on_event = on_event
        other_seed = (m.seed + 1) % (1 << 30)
        tries = (
            [b"testmode on", b"screen 1", b"record", b"testmode off"],
            [b"testmode on", b"screen 0", b"screen 1", b"testmode off"],
            [b"record", b"screen 1", b"press 1 ok", b"mem", b"entropy 3"],
            [b"testmode on", b"press 0 ok", b"record", b"testmode off", b"record"],
            [b"testmode on", b"newgame seed=%d" % other_seed, b"record", b"screen 1",
             b"testmode off"],
            [b"testmode on", b"reset"],
            [b"status", b"hello", b"testmode off", b"screen 1", b"sync"],
        )
        for i in range(n):
            seq = tries[i % len(tries)]
            t0 = time.monotonic()
            t.b.send_raw(b"".join(x + b"\n" for x in seq))
            leak = []
            for cmd in seq:
                if cmd == b"reset":
                    t.b.wait_ready(30, probe_after=2.0)
                    break
                line = t.b.read_line(30)
                while line is not None and line.startswith("READY"):
                    line = t.b.read_line(30)     # unsolicited (a reset's boot)
                if line is None:
                    leak.append("no answer to %r" % cmd)
                    break
                if line == "OK testmode=1":
                    now = time.monotonic()
                    for p in (0, 1):
                        if not any(p == q and b and t0 <= when <= now for when, q, b in shown):
                            leak.append("test mode answered before its banner was on panel %d" % p)
                if line.startswith("OK lines="):
                    block = [t.b.read_line(30) for _ in range(int(line[9:]))]
                    if secret & set(block):
                        leak.append("a line of the real game's record")
                elif SCREEN.match(line):
                    img = _screen_image(line)
                    if any(_same_below_banner(img, x) for x in ink):
                        leak.append("a panel of the real game")
                elif line.startswith("OK screen="):
                    for w in line.split()[1:]:
                        k, _, v = w.partition("=")
                        if k != "discard" and (v in hands[0] or v in hands[1]):
                            leak.append("a card in status: %s" % w)
            late = [x for x in t.resync() if not x.startswith("READY")]
            if late:
                leak.append("%d answer(s) came late: %r" % (len(late), late[:2]))
            t.req("testmode off")
            t.sync()
            if t.cheap_files and t.saved() != real:
                leak.append("the real game changed")
            if t.status() != st_real:
                leak.append("the real game's status changed")
            if [t.vb.panel_image(p).tobytes() for p in (0, 1)] != [x.tobytes() for x in ink]:
                leak.append("the real game's panels did not come back")
            if leak:
                r.bad("wrong", "try %d %r: %s" % (i, seq, "; ".join(leak)))
            else:
                r.ok()
            log("hidden", r)
    finally:
        t.stop()
    return r


run = row_hidden


KIND = Kind(
    name='hidden', order=7,
    goal="hidden-information attempts over the port: zero cards revealed outside test mode's own game",
    sizes={"quick": 3, "long": 60, "chip_quick": 2, "chip_long": 14},
    run=run)
