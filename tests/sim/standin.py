"""A stand-in with the VirtualBoard API (docs/architecture.md), for the
front-end tests only, used while host.vboard is not in the tree. It is a
real pty answering a few protocol lines and two PIL panels that draw every
button event, so the front ends are exercised end to end on real pixels."""
import os
import threading
import time
import tty

from PIL import Image, ImageDraw


class StandInBoard:
    def __init__(self, flash_dir=None, board=None, speed=0.0):
        self.speed = speed
        self.on_event = None
        self.alive = False
        self._img = [Image.new("1", (296, 128), 1), Image.new("1", (296, 128), 1)]
        self._counts = [{"full": 0, "partial": 0}, {"full": 0, "partial": 0}]
        self._lines = [[], []]
        self._down = {}
        self._lock = threading.Lock()
        self.testmode = False
        self.port = None

    def start(self):
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.alive = True
        self._t = threading.Thread(target=self._serve, daemon=True)
        self._t.start()
        for p in (0, 1):
            self._draw(p, "menu", full=True)
        os.write(self._master, b"READY okgin fw=standin proto=1 board=okgin-pico-2p\r\n")

    def _emit(self, *ev):
        if self.on_event:
            self.on_event(ev)

    def _draw(self, p, text, full=False):
        with self._lock:
            self._lines[p] = (self._lines[p] + [text])[-6:]
            img = Image.new("1", (296, 128), 1)
            d = ImageDraw.Draw(img)
            d.rectangle((0, 0, 295, 127), outline=0)
            d.text((6, 4), "PLAYER %d%s" % (p, "  TEST MODE" if self.testmode else ""), fill=0)
            for i, t in enumerate(self._lines[p]):
                d.text((6, 20 + 16 * i), t, fill=0)
            kind = "full" if full else "partial"
            self._counts[p][kind] += 1
            secs = (2.5 if full else 0.4) * self.speed
        self._emit("refresh", p, kind, secs)
        if secs:
            time.sleep(secs)
        with self._lock:
            self._img[p] = img

    def _serve(self):
        buf = b""
        while self.alive:
            try:
                chunk = os.read(self._master, 256)
            except OSError:
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                reply = self._answer(line.decode().strip())
                os.write(self._master, reply.encode() + b"\r\n")

    def _answer(self, line):
        w = line.lower().split()
        if not w:
            return "ERR empty"
        if w[0] == "hello":
            return "OK okgin fw=standin proto=1 board=okgin-pico-2p"
        if w == ["testmode", "on"]:
            self.testmode = True
            return "OK testmode=1"
        if w == ["testmode", "off"]:
            self.testmode = False
            return "OK testmode=0"
        if w[0] in ("newgame", "sync", "status"):
            if w[0] == "newgame":
                if not self.testmode:
                    return "ERR test mode required"
                for p in (0, 1):
                    self._draw(p, line, full=True)
            if w[0] == "sync" and not self.testmode:
                return "ERR test mode required"
            return "OK"
        return "ERR unknown command"

    def press(self, player, button, long=False):
        self._draw(player, "%s %s" % (button, "long" if long else "short"))

    def hold(self, player, button):
        self._down[(player, button)] = time.monotonic()

    def release(self, player, button):
        t0 = self._down.pop((player, button))
        self.press(player, button, long=time.monotonic() - t0 >= 0.6)

    def panel_image(self, player):
        with self._lock:
            return self._img[player].copy()

    def panel_bytes(self, player):
        with self._lock:
            return self._img[player].tobytes()

    def refresh_counts(self, player):
        return dict(self._counts[player])

    def power_cycle(self):
        self._emit("reset")
        for p in (0, 1):
            self._lines[p] = []
            self._draw(p, "menu", full=True)
        os.write(self._master, b"READY okgin fw=standin proto=1 board=okgin-pico-2p\r\n")

    def stop(self):
        self.alive = False
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
