"""``okgin bench board``: the firmware on the virtual board, measured.

Plays scripted hands (a greedy player on both seats) with the players'
emulated buttons at speed 0 and reads the e-ink time from the SSD1680
emulation's counters (the nominal time a real panel would be busy), so the
figures do not depend on how loaded this machine is:

- per display: full and partial refreshes per hand;
- e-ink time a player waits per turn (their own panel, from the button press
  that ends their action until the ink has settled);
- button-to-ink latency of a cursor move: firmware reaction (wall clock,
  from the emulated button going down to the start of the refresh, so the
  debounce is included) plus the partial refresh's nominal e-ink time;
- boot time to the first screen (wall clock to READY, plus the first full
  refresh's e-ink time);
- heap: the largest live heap after a collection (``mem`` in test mode),
  and (without --quick) the smallest -X heapsize that boots and plays a hand.
"""
import os
import shutil
import statistics
import tempfile
import threading
import time

from ..lib.errors import CommandError
from ..lib import transport

from ..lib.paths import BOARD


# `okgin bench` passes only --quick; these are the defaults of the full run.
HANDS = 3
HEAP = os.environ.get("OKGIN_BENCH_HEAP", "208K")   # the tools' heap (host/vboard/vboard.py HEAPSIZE)


class BenchFailed(CommandError):
    """The firmware did not boot, refused a request or went quiet."""


class Firmware:
    """The game firmware on a started board (either kind), spoken to
    through okgin.lib.transport as every host tool speaks to a board.
    ``cmd`` returns the text after ``OK``; anything else is BenchFailed,
    naming the last lines the board printed. ``client``: the table's own
    (a Table's ``b``, okgin.table: no bench opens a client of its own)."""

    def __init__(self, board, timeout, client):
        self.board = board
        self.seen = []
        client.timeout = timeout
        client.on_line = self._heard
        self.client = client

    def _heard(self, direction, text):
        if direction == "<":
            self.seen = (self.seen + [text])[-8:]

    def last_lines(self):
        return " | ".join(self.seen) or "no output"

    def wait_ready(self, timeout=60.0):
        """Its READY line (asked with ``hello`` if it came before the port
        was open); BenchFailed when it stopped at boot or stays quiet."""
        try:
            return self.client.wait_ready(timeout)
        except transport.TransportError as e:
            raise BenchFailed("did not boot: %s (%s)" % (e, self.last_lines())) from None

    def cmd(self, line, timeout=None):
        try:
            return self.client.request(line, timeout)
        except transport.TransportError as e:
            raise BenchFailed("%s: %s (%s)" % (line, e, self.last_lines())) from None

    fields = staticmethod(transport.parse_fields)

    def record(self):
        try:
            return self.client.record()
        except transport.TransportError as e:
            raise BenchFailed("record: %s" % e) from None

    def flush_input(self):
        self.client.flush_input()

    def close(self):
        self.client.close()


class VboardFirmware(Firmware):
    """The firmware on a virtual board opened as a Table (okgin.table) on
    the flash directory ``flash`` (its firmware brought up to date, other
    files kept), spoken to through the table's client (speed 0: e-ink time
    costs no wall time; its nominal time is read from the panels'
    counters)."""

    def __init__(self, flash, heap, speed=0.0, timeout=30.0, crash_restarts=3):
        from ..table.table import open_table
        self.events = []
        self.lock = threading.Lock()
        flash = os.path.abspath(flash)
        t0 = time.monotonic()
        self.table = open_table("vboard", os.path.dirname(flash), os.path.basename(flash),
                                speed=speed, heapsize=heap, board=BOARD,
                                crash_restarts=crash_restarts, on_event=self._on_event)
        self.vb = self.table.vb
        try:
            Firmware.__init__(self, self.vb, timeout, client=self.table.b)
            try:
                self.table.on(timeout)      # its READY
            except transport.TransportError as e:
                raise BenchFailed("did not boot: %s (%s)" % (e, self.last_lines())) from None
        except BaseException:
            self.stop()
            raise
        self.boot_wall = time.monotonic() - t0

    def _on_event(self, ev):
        with self.lock:
            self.events.append((time.monotonic(), ev))

    def ink(self, p):
        return self.vb.stats(p)["ink_seconds"]

    def press(self, p, button):
        self.vb.press(p, button)
        self.cmd("sync")

    def stop(self):
        self.table.stop()


def _choose(obs, deadwood):
    legal = obs["legal"]
    knocks = [a for a in legal if a.startswith("knock")]
    if knocks:
        return min(knocks, key=lambda a: deadwood([c for c in obs["hand"] if c != a.split()[1]]))
    hand = obs["hand"]
    if obs["phase"] in ("upcard", "draw"):
        top = obs["discard_top"]
        if top and "take" in legal:
            best = min(deadwood([x for x in hand + [top] if x != c]) for c in hand)
            if best < deadwood(hand) - 2:
                return "take"
        return "draw" if "draw" in legal else "pass"
    discards = [a for a in legal if a.startswith("discard")]
    return min(discards, key=lambda a: deadwood([c for c in hand if c != a.split()[1]]))


def play_hands(s, hands, seed=21):
    """Play with the emulated buttons; returns the measurements."""
    from okgin.engine import Match, deadwood
    from ..lib.presses import Presses
    s.cmd("testmode on")
    s.cmd("newgame seed=%d dealer=0" % seed)
    s.cmd("sync")
    keys = Presses()    # always right: each cursor move is one timed press
    waits = []          # e-ink seconds the mover waits per turn
    latencies = []      # (reaction wall s, partial ink s) per cursor move
    per_hand = []
    counts0 = [dict(s.vb.refresh_counts(p)) for p in (0, 1)]
    m = Match.from_record(s.record())
    played = 0
    while played < hands:
        p = m.hand._to_move
        obs = m.observation(p)
        act = _choose(obs, deadwood)
        before_hand = obs["hand"]
        hand_no = m.hand_no
        ink0 = s.ink(p)
        for button in keys.for_action(p, act, before_hand):
            if button != "right":
                s.press(p, button)
                continue
            # a cursor move: from the finger going down to the ink
            with s.lock:
                n0 = len(s.events)
            ink_before = s.ink(p)
            t_press = time.monotonic()
            s.vb.press(p, "right")
            s.cmd("sync")
            with s.lock:
                evs = s.events[n0:]
            ref = [(t, e) for t, e in evs if e[0] == "refresh" and e[1] == p]
            if ref:
                t, e = ref[0]
                latencies.append((t - t_press, e[2], s.ink(p) - ink_before))
        m.play(act)
        waits.append(s.ink(p) - ink0)
        if m.hand_no != hand_no or m.winner is not None:
            counts = [dict(s.vb.refresh_counts(q)) for q in (0, 1)]
            per_hand.append([{k: counts[q][k] - counts0[q][k] for k in ("full", "partial")}
                             for q in (0, 1)])
            played += 1
            keys.reset()
            s.press(0, "ok")          # leave the showdown
            if m.winner is not None:
                s.cmd("newgame seed=%d dealer=0" % (seed + played))
                m = Match.from_record(s.record())
            counts0 = [dict(s.vb.refresh_counts(q)) for q in (0, 1)]
        else:
            keys.played(p, before_hand, m.observation(p)["hand"])
    mem = s.fields(s.cmd("mem"))
    return waits, latencies, per_hand, mem


def _boots_and_plays(heap):
    from ..vboard import populate
    work = tempfile.mkdtemp(prefix="okgin-bench-")
    try:
        populate(os.path.join(work, "flash"))   # compiled, as `okgin flash` does
        try:
            s = VboardFirmware(os.path.join(work, "flash"), heap)
        except Exception:
            return False
        try:
            play_hands(s, 1)
            return True
        except Exception:
            return False
        finally:
            s.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def configure(parser):
    parser.add_argument("--quick", action="store_true",
                        help="one hand, and not the smallest heap that boots and plays one")
    parser.epilog = "examples:\n  okgin bench board\n  okgin bench board --quick\n"


def run(args):
    try:
        from ..vboard import populate   # is the virtual board there?
    except ImportError as e:
        raise CommandError("the virtual board is not available: %s" % e) from e
    quick = getattr(args, "quick", False)
    hands = 1 if quick else HANDS
    heap = HEAP
    work = tempfile.mkdtemp(prefix="okgin-bench-")
    try:
        flash = populate(os.path.join(work, "flash"))   # compiled, as `okgin flash` does
        s = VboardFirmware(flash, heap)
        try:
            boot_counts = [dict(s.vb.refresh_counts(p)) for p in (0, 1)]
            boot_ink = max(s.vb.stats(p)["ink_seconds"] for p in (0, 1))
            waits, lat, per_hand, mem = play_hands(s, hands)
        finally:
            s.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = statistics.median
    print("okgin bench board: %d hand(s), speed 0 (e-ink times are the emulated panel's nominal"
          " times), heap %s" % (len(per_hand), heap))
    print("boot to first screen: %.2f s to READY (wall) + %.1f s first full refresh (e-ink);"
          " refreshes at boot: %s" % (s.boot_wall, boot_ink, "; ".join(
              "panel %d: %d full, %d partial" % (q + 1, c.get("full", 0), c.get("partial", 0))
              for q, c in enumerate(boot_counts))))
    for q in (0, 1):
        fulls = [h[q]["full"] for h in per_hand]
        parts = [h[q]["partial"] for h in per_hand]
        print("panel %d refreshes per hand: full %s, partial %s (median %g full, %g partial)"
              % (q + 1, " ".join(str(n) for n in fulls), " ".join(str(n) for n in parts),
                 med(fulls), med(parts)))
    if waits:
        print("e-ink wait per turn (mover's panel): median %.2f s, max %.2f s, %d turns"
              % (med(waits), max(waits), len(waits)))
    if lat:
        parts = [x for x in lat if x[1] == "partial"]
        fulls = [x for x in lat if x[1] == "full"]
        react = med([x[0] for x in lat]) * 1000
        ink = med([x[2] for x in parts]) if parts else 0.0
        print("cursor move, button to ink: median %.2f s = reaction %.0f ms (wall, from the"
              " button going down, incl. the debounce) + partial refresh %.2f s (e-ink);"
              " %d moves: %d partial, %d full"
              " (ghosting clean-up every N partials)"
              % (react / 1000 + ink, react, ink, len(lat), len(parts), len(fulls)))
    print("heap: live after collect %s bytes, largest live seen %s bytes, free %s bytes"
          % (mem.get("alloc"), mem.get("peak"), mem.get("free")))
    if not quick:   # the smallest -X heapsize that boots and plays a hand
        for heap in ("96K", "112K", "128K", "144K", "160K", "192K", "256K"):
            ok = _boots_and_plays(heap)
            print("heapsize %s: %s" % (heap, "boots and plays a hand" if ok else "fails"))
            if ok:
                break
    return 0
