"""Row "serial" of the fault campaign: random bytes, bad UTF-8, control bytes, MB lines, floods, commands out of order: no crash, state unchanged, heap flat"""
import time

from ..registry import Kind
from ..tally import Row
from ..judge import answers, expected_answers
from ..play import menu_new_game_fresh


def _fuzz_line(rng):
    """(bytes ending in \\n, kind). Never Ctrl-C: on any MicroPython board
    it interrupts into the REPL by design (docs/reliability.md)."""
    kind = rng.choice(("bytes", "bytes", "utf8", "control", "words", "words", "order", "long"))
    if kind == "bytes":
        b = bytes(rng.choice([c for c in range(256) if c not in (3, 10)])
                  for _ in range(rng.randint(0, 120)))
    elif kind == "utf8":
        b = rng.choice((b"caf\xc3\xa9", b"\xc3\x28", b"\xe2\x82", b"\xf0\x9f\x92\xa9 hello",
                        b"\xed\xa0\x80", b"status\xc0\xaf", "résumé".encode()))
    elif kind == "control":
        b = bytes(rng.choice((0, 1, 2, 4, 7, 8, 13, 26, 27, 127)) for _ in range(rng.randint(1, 8)))
    elif kind == "words":
        words = ("press", "screen", "newgame", "record", "sync", "reset", "mem", "status",
                 "hello", "testmode", "entropy", "seed=1", "0", "1", "2", "ok", "left",
                 "long", "on", "off", "vs=hard", "-1", "x" * 30, "seed=+1", "seed=1_0")
        b = " ".join(rng.choice(words) for _ in range(rng.randint(1, 4))).encode()
        # never a working state change: only the commands test mode refuses
        # outside it, with wrong arguments, or harmless ones
        w = b.split()
        if w and w[0] in (b"testmode", b"sync") or (w == [b"status"] or w == [b"hello"]):
            b = b"x" + b
    elif kind == "order":
        b = rng.choice((b"press 0 ok", b"screen 1", b"record", b"newgame seed=5",
                        b"mem", b"reset", b"entropy 5", b"press 1 draw long"))
    else:
        b = rng.choice((b"a", b" ", b"hello ")) * rng.randint(190, 260)
    return b + rng.choice((b"\n", b"\r\n")), kind


def row_serial(table, n, rng, work, log):
    """Junk on the port outside test mode, with a game in progress: every
    line gets its one ERR, the game (flash, status, both panels) does not
    change, the board keeps answering. Then megabyte lines and floods.
    The heap (``mem``, test mode) before and after the junk."""
    r = Row("serial")
    t = table(work, "serial")
    t.on()
    try:
        menu_new_game_fresh(t, 0)
        t.press(int(t.status()["to_move"]), "draw")
        t.sync()

        def snapshot():
            t.sync()
            # (the emulated Pico's flash is read through its REPL, which
            # stops the firmware: there status and panels say it)
            return (t.saved() if t.cheap_files else None, t.status(),
                    [t.vb.panel_image(p).tobytes() for p in (0, 1)])

        t.req("testmode on")
        t.sync()
        heap0 = _alloc(t)
        t.req("testmode off")
        t.sync()
        ref = snapshot()
        sent = 0
        big = 0
        batch = 0
        while sent < n:
            data = b""
            lines = 0
            kinds = set()
            for _ in range(min(50, n - sent)):
                b, kind = _fuzz_line(rng)
                data += b
                lines += 1
                kinds.add(kind)
            if batch in (5, 60, 150):   # three over-long lines in a long run
                data += b"y" * t.long_line + b"\n"    # a megabyte line (64 KB on the chip)
                lines += 1
                big += 1
            owed = expected_answers(data)
            t.b.send_raw(data)
            got = answers(t, owed, timeout=60 * t.answer_slowness)
            sent += lines
            batch += 1
            bad = [a for a in got if not a.startswith(("ERR", "OK"))]
            if len(got) != owed or bad:
                for _ in range(lines):
                    r.bad("wrong", "batch %d (%s): %d answers for %d lines; %r"
                          % (batch, ",".join(sorted(kinds)), len(got), owed, bad[:2]))
                break
            if batch % 20 == 0 or sent >= n:
                now = snapshot()
                if now != ref:
                    what = [k for k, a, b in zip(("flash", "status", "panels"), ref, now, strict=True) if a != b]
                    for _ in range(lines):
                        r.bad("wrong", "batch %d changed the %s" % (batch, ", ".join(what)))
                    break
            for _ in range(lines):
                r.ok()
            log("serial", r)
        # a flood: 5,000 requests, 500 queued at a time, get 5,000 answers,
        # in order; each answered one survived, a missing answer is lost,
        # another is wrong
        t0 = time.monotonic()
        got = _flood(t, b"hello\n", FLOOD, idle=60 * t.answer_slowness)
        took = time.monotonic() - t0
        right = sum(1 for a in got if a.startswith("OK okgin"))
        for _ in range(right):
            r.ok()
        if len(got) > right:
            r.bad_many("wrong", len(got) - right, "flood: %d of %d answers were not hello's: %r"
                       % (len(got) - right, FLOOD, [a for a in got if not a.startswith("OK okgin")][:2]))
        if len(got) < FLOOD:
            r.bad_many("lost", FLOOD - len(got), "flood: %d answers to %d hellos (none for %d s)"
                       % (len(got), FLOOD, 60 * t.answer_slowness))
        r.info.append("a flood of %d hellos: %d answers in %.0f s (%.0f a second)"
                      % (FLOOD, len(got), took, len(got) / max(took, 1e-3)))
        if snapshot() != ref:
            r.bad("wrong", "the game changed after the flood")
        t.req("testmode on")
        t.sync()
        heap1 = _alloc(t)
        t.req("testmode off")
        r.info.append("%d line(s) of %d KB; heap in use %d -> %d bytes"
                      % (big, t.long_line // 1024, heap0, heap1))
        if heap1 - heap0 > 2048:
            r.bad("wrong", "the heap grew by %d bytes" % (heap1 - heap0))
    finally:
        t.stop()
    return r


FLOOD = 5000     # hellos sent by the serial row, as fast as they are answered
WINDOW = 500     # of them owed an answer at most (~30 KB of answers: within the 64 KB a board keeps)
BATCH = 100      # sent together once that many have been answered


def _flood(t, line, count, idle):
    """Send ``line`` ``count`` times as fast as the board answers, reading
    the answers as a client does, and return them (it stops when none came
    for ``idle`` seconds). Up to WINDOW requests are owed an answer at any
    moment: a board keeps only so many answers its client has not read (a
    Pico's USB serial drops the rest after its timeout; the virtual
    board's relay and the emulated Pico keep 64 KB, host/vboard/console.py
    and host/chip), so a flood sent whole lost answers whenever the host's
    reader fell behind: half of them on the emulated Pico when written
    before any was read, and 137 of 5,000 on the virtual board in a
    busy-loop CI run (2026-12-07) with a reader beside the writer."""
    got: "list[str]" = []
    sent = 0
    while len(got) < count:
        owed = sent - len(got)
        if sent < count and owed <= WINDOW - BATCH:
            n = min(BATCH if owed else WINDOW, count - sent)
            t.b.send_raw(line * n)
            sent += n
            continue
        answer = t.b.read_line(idle)
        if answer is None:
            break
        got.append(answer)
    return got


def _alloc(t):
    text = t.req("mem")
    return int(dict(kv.split("=") for kv in text.split())["alloc"])


run = row_serial


KIND = Kind(
    name='serial', order=3,
    goal='random bytes, bad UTF-8, control bytes, MB lines, floods, commands out of order: no crash, state unchanged, heap flat',
    sizes={"quick": 600, "long": 21000, "chip_quick": 100, "chip_long": 2000},
    run=run)
