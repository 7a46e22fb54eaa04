"""The serial line protocol (docs/protocol.md), served on stdin/stdout.

Non-blocking: ``poll()`` is called from the main loop, reads whatever bytes
are waiting (select.poll with a zero timeout) and answers complete lines.
Nothing else in the firmware writes to stdout. Ctrl-C is left to
MicroPython (kbd_intr stays on), so it still drops into the REPL.
"""
import sys
import select

MAX_LINE = 200
VERSION = "0.1.0"
PROTO = 1


class Protocol:
    def __init__(self, app, stdin=None, stdout=None):
        self.app = app
        self.inp = stdin or getattr(sys.stdin, "buffer", sys.stdin)
        self.out = stdout or sys.stdout
        poller = select.poll()
        poller.register(self.inp, select.POLLIN)
        # ipoll: MicroPython's poll that allocates no list per call
        self.ready_in = getattr(poller, "ipoll", poller.poll)
        # a request and its CR, and the byte being read, allocated once:
        # a flood of requests makes no garbage before each line is parsed
        self.buf = bytearray(MAX_LINE + 2)
        self.one = bytearray(1)
        self.n = 0
        self.overflow = False
        self.waiting = None     # "sync" or "testmode": an answer held back
        self.band = None        # testcmds.screen's conversion band
        self.band_buf = None
        self.hello = None       # the answer to hello (made at the first)

    def send(self, line):
        self.out.write(line)
        self.out.write("\n")
        try:
            self.out.flush()
        except AttributeError:
            pass

    said_ready = False   # main.py's _crashed(): READY owed after a crash at boot

    def ready(self):
        self.said_ready = True
        self.send("READY okgin fw=%s proto=%d board=%s"
                  % (VERSION, PROTO, self.app.board_name))

    def pending(self):
        """A byte from the host waits to be read by poll() (which reads
        none while an answer is owed: then nothing is pending for it)."""
        if self.waiting is not None:
            return False
        for _ in self.ready_in(0):
            return True
        return False

    def asleep(self):
        """The table sleeps (auto-off on USB, firmware/asleep.py): nothing
        waits on a panel, and nothing may wake one or light a turn light.
        idle() would handle the queued presses (the waking one) and draw."""
        pw = getattr(self.app, "power", None)
        return pw is not None and pw.sleeping

    def settled(self):
        """What ``sync`` answers on: the table asleep, or idle with no
        battery reading due (power.py due: the first comes after the
        boot's refresh, on a main-loop turn a sync answered at idle would
        not wait for, and may put the gauge or a notice on the ink)."""
        if self.asleep():
            return True
        pw = getattr(self.app, "power", None)
        return self.app.idle() and not (pw is not None and pw.due())

    def poll(self):
        """Read and answer what has arrived; never blocks."""
        w = self.waiting
        if w is not None:
            if w == "sync" and self.settled():
                self.waiting = None
                self.send("OK")
            elif w == "testmode":
                # loaded with the app (the host reads this module's
                # VERSION on CPython, where the drawing cannot load)
                import panels
                if self.asleep() or panels.shown(self.app):
                    self.waiting = None
                    self.send("OK testmode=1")
        # One byte per read: on the rp2 port a read of more waits until
        # that many have come (it cannot say how many are waiting), and a
        # line may be cut anywhere. Nothing is allocated per byte.
        ready = self.ready_in
        one = self.one
        buf = self.buf
        readinto = self.inp.readinto
        while self.waiting is None:
            for _ in ready(0):
                break
            else:
                return
            if not readinto(one):
                return
            ch = one[0]
            if ch == 10:   # \n ends a request
                self._line()
            elif self.n < MAX_LINE + 2:
                buf[self.n] = ch
                self.n += 1
            else:
                self.overflow = True

    def _line(self):
        n = self.n
        self.n = 0
        if n and self.buf[n - 1] == 13:
            n -= 1      # CR LF: the CR is not part of the request
        if self.overflow or n > MAX_LINE:
            self.overflow = False
            self.send("ERR line too long (max %d characters)" % MAX_LINE)
            return
        for i in range(n):
            c = self.buf[i]
            if c > 126 or (c < 32 and c != 9):
                self.send("ERR not ASCII text")
                return
        # (ASCII: checked above; split() drops the spaces around)
        words = str(self.buf[:n], "ascii").lower().split()
        if not words:
            return
        try:
            self.dispatch(words)
        except Exception as e:   # input must never crash the firmware
            if isinstance(e, MemoryError):
                # a test command ran out of heap, maybe in the middle of an
                # action: the app's error screen, whose OK reloads the game
                # from flash, as when a button press does
                self.app.fail(e)
            self.send("ERR %s" % (str(e) or type(e).__name__)[:120])

    def dispatch(self, w):
        cmd = w[0]
        app = self.app
        if cmd == "hello":
            if len(w) != 1:
                return self.send("ERR hello takes no arguments")
            if self.hello is None:
                # made once: on the RP2040 formatting it cost a third of
                # a hello's 2.4 ms (a flood of them, docs/reliability.md)
                self.hello = "OK okgin fw=%s proto=%d board=%s mpy=%d" % (
                    VERSION, PROTO, app.board_name,
                    getattr(sys.implementation, "_mpy", 0))
            return self.send(self.hello)
        if cmd == "status":
            if len(w) != 1:
                return self.send("ERR status takes no arguments")
            return self.send("OK " + status(app))
        if cmd == "sync":
            # public: it tells when the table is idle, nothing of a game
            if len(w) != 1:
                return self.send("ERR sync takes no arguments")
            if self.settled():
                return self.send("OK")
            self.waiting = "sync"
            return
        if cmd == "testmode":
            if len(w) != 2 or w[1] not in ("on", "off"):
                return self.send("ERR usage: testmode on|off")
            if w[1] == "on" and app.locked():
                return self.send("ERR the owner's lock is on: no test mode during a game "
                                 "(docs/reliability.md)")
            # test mode's switch, loaded for it and dropped (as testcmds)
            import testmode
            try:
                testmode.switch(app, w[1] == "on")
            finally:
                sys.modules.pop("testmode", None)
            testmode = None
            if not app.testmode:
                self.band = self.band_buf = None   # testcmds itself goes after each command
                return self.send("OK testmode=0")
            if self.asleep():
                # a sleeping table answers at once: its panels say
                # "Sleeping" until a button wakes it into test mode's
                # screens, banner first; a test press meanwhile is refused
                return self.send("OK testmode=1")
            # answered once the TEST MODE banner is on both panels (poll)
            self.waiting = "testmode"
            return
        if cmd == "lang":
            # public, as the menu's Language: the table's language, kept in
            # settings.json; without a code, the one in use and the others
            import i18n
            codes = i18n.codes()
            if len(w) == 1:
                return self.send("OK lang=%s langs=%s" % (i18n.code, ",".join(codes)))
            if len(w) != 2 or w[1] not in codes:
                return self.send("ERR usage: lang [%s]" % "|".join(codes))
            app.set_lang(w[1])
            return self.send("OK lang=%s" % i18n.code)
        if cmd == "stats":
            # the table's statistics are not secret: no test mode needed
            if len(w) != 1:
                return self.send("ERR stats takes no arguments")
            import stats
            try:
                return self.send("OK lines=1\n" + stats.text())
            finally:
                sys.modules.pop("stats", None)
        if cmd not in ("press", "screen", "newgame", "record", "reset", "mem", "bottimes",
                       "entropy"):
            return self.send("ERR unknown command %s" % cmd[:40])
        if not app.testmode:
            return self.send("ERR test mode required")
        # the test-mode commands live in testcmds.py, loaded for each one
        # (normal play does not pay for them in heap, and test mode plays
        # in the heap a real game has: tests/firmware/test_memory.py)
        import testcmds
        try:
            r = testcmds.dispatch(self, cmd, w)
        finally:
            sys.modules.pop("testcmds", None)
        testcmds = None
        if r == "drain":
            # a press: its button is queued; it is handled (the coach, the
            # computer's search...) once testcmds' code can leave the heap
            # (~2 KB on the unix port), as a real press is
            app.drain()
            self.send("OK")


def status(app):
    """The ``status`` line: where the game is, from the hand's public
    attributes (not an observation, whose history and legal moves would
    be built as text only to be thrown away)."""
    m = app.match
    if m is None:
        return ("screen=%s hand_no=0 dealer=- to_move=- phase=- stock=0 "
                "discard=- knock_limit=0 scores=0,0 vs=%s testmode=%d"
                % (app.kind(), app.vs, 1 if app.testmode else 0))
    h = m.hand
    tm = h.to_move
    return ("screen=%s hand_no=%d dealer=%d to_move=%s phase=%s stock=%d "
            "discard=%s knock_limit=%d scores=%d,%d vs=%s testmode=%d" % (
                app.kind(), m.hand_no, h.dealer,
                "-" if tm is None else str(tm), h.phase, h.stock_count,
                h.discard_top or "-", h.knock_limit, m.scores[0],
                m.scores[1], app.vs, 1 if app.testmode else 0))
