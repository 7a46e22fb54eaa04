"""Small pty fixtures for the transport/flash tests.

``BareBoard`` runs the real ``micropython`` unix port (stock MicroPython, no
okgin firmware) behind a pty, wired the way docs/FACTS describe: two pty
pairs with a byte relay between their master sides, the process's pty raw but
with ISIG so Ctrl-C interrupts it like a real board. It stands for "a Pico
with MicroPython but without our firmware" (a fresh board).

``GarbagePty`` is a serial port whose other end answers everything with noise:
something that is not a MicroPython board.
"""
import fcntl
import os
import select
import subprocess
import termios
import threading
import time
import tty


def _raw(fd, isig=False):
    tty.setraw(fd)
    if isig:
        attrs = termios.tcgetattr(fd)
        attrs[3] |= termios.ISIG
        termios.tcsetattr(fd, termios.TCSANOW, attrs)


class _Relay:
    def __init__(self):
        self.stop = False
        self.threads = []

    def pump(self, a, b):
        def loop():
            while not self.stop:
                try:
                    r, _, _ = select.select([a], [], [], 0.1)
                    if r:
                        data = os.read(a, 4096)
                        if not data:
                            return
                        os.write(b, data)
                except OSError:
                    if self.stop:
                        return
                    # The other side is gone for now (process restarted): idle.
                    select.select([], [], [], 0.05)
        t = threading.Thread(target=loop, daemon=True)
        t.start()
        self.threads.append(t)


# A littlefs filesystem of a given size in RAM, mounted and made the current
# directory: a board with a small flash, as the Pico's is (statvfs tells).
RAMFS = """\
import os
class _RAMBlockDev:
    def __init__(self, bs, n):
        self.bs = bs
        self.data = bytearray(bs * n)
    def readblocks(self, b, buf, off=0):
        a = b * self.bs + off
        buf[:] = self.data[a:a + len(buf)]
    def writeblocks(self, b, buf, off=0):
        a = b * self.bs + off
        self.data[a:a + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.bs
        if op == 5:
            return self.bs
        return 0
_bd = _RAMBlockDev(512, %d)
os.VfsLfs2.mkfs(_bd)
os.mount(os.VfsLfs2(_bd), '/flash', readonly=%s)
os.chdir('/flash')
"""


class BareBoard:
    """``micropython -i [script]`` in ``flash_dir`` behind a pty at ``.port``.
    ``ramfs_kb``: instead of the host directory, a littlefs of that size
    (``readonly``: mounted read-only, as a boot.py may do to protect it)."""

    def __init__(self, flash_dir, micropython="micropython", script=None, ramfs_kb=None,
                 readonly=False):
        self.flash_dir = str(flash_dir)
        self.micropython = micropython
        self.script = script
        self.proc = None
        if ramfs_kb:
            self.script = os.path.join(self.flash_dir, "..", "ramfs_boot.py")
            with open(self.script, "w") as f:
                f.write(RAMFS % (ramfs_kb * 2, readonly))

    def start(self):
        self.ma, self.sa = os.openpty()     # process side
        self.mb, self.sb = os.openpty()     # client side
        _raw(self.sa, isig=True)
        _raw(self.sb)
        self.port = os.ttyname(self.sb)
        self._spawn()
        # Like a board that has finished booting: wait for the REPL prompt
        # (a Ctrl-C arriving during the start-up script would stop it).
        seen = b""
        deadline = time.monotonic() + 15
        while b">>> " not in seen and time.monotonic() < deadline:
            r, _, _ = select.select([self.ma], [], [], 0.2)
            if r:
                seen += os.read(self.ma, 4096)
        if b">>> " not in seen:
            self.stop()
            raise RuntimeError("micropython did not start: %r" % seen[-200:])
        self.relay = _Relay()
        self.relay.pump(self.ma, self.mb)
        self.relay.pump(self.mb, self.ma)
        return self

    def _spawn(self):
        sa = self.sa

        def child():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        cmd = [self.micropython, "-i"] + ([self.script] if self.script else [])
        self.proc = subprocess.Popen(cmd, cwd=self.flash_dir, stdin=sa, stdout=sa,
                                     stderr=sa, preexec_fn=child, close_fds=True)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        relay = getattr(self, "relay", None) or _Relay()
        relay.stop = True
        for t in relay.threads:
            t.join(1)
        for fd in (self.ma, self.sa, self.mb, self.sb):
            try:
                os.close(fd)
            except OSError:
                pass


class GarbagePty:
    """A port that answers every write with noise and never a REPL prompt."""

    def __init__(self):
        self.m, self.s = os.openpty()
        _raw(self.s)
        self.port = os.ttyname(self.s)
        self.stop_flag = False
        self.t = threading.Thread(target=self._loop, daemon=True)
        self.t.start()

    def _loop(self):
        while not self.stop_flag:
            r, _, _ = select.select([self.m], [], [], 0.1)
            if r:
                try:
                    os.read(self.m, 4096)
                    os.write(self.m, b"\x8f?? NMEA $GPGGA,garbage\r\n")
                except OSError:
                    return

    def stop(self):
        self.stop_flag = True
        self.t.join(1)
        os.close(self.m)
        os.close(self.s)


def ctrl_c_while_reading(write, until):
    """At the raw REPL, in raw-paste mode (okgin flash's way to run its
    copy): a command that reads the port, stopped by Ctrl-C behind two
    bytes it has not read; then ``print(6*7)``. Returns what that prints,
    up to the REPL's next prompt, its line ends as LF (the unix port's
    raw REPL writes no CR): b"OK42" LF 4 4 ">" when the Ctrl-C stopped the
    command and dropped the two bytes, as a Pico's USB does.
    ``until(mark)``: the bytes up to and with ``mark`` (raising if it
    does not come)."""
    write(b"\r\x03\x03\x01")
    until(b"raw REPL; CTRL-B to exit\r\n>")
    write(b"\x05A\x01")
    until(b"R\x01")          # raw paste: then its window (3 bytes)
    write(b"import sys\nprint('g' + 'o')\nsys.stdin.buffer.read(100)\x04")
    until(b"go")
    write(b"ab\x03")
    until(b"KeyboardInterrupt")
    until(b"\x04>")
    write(b"print(6*7)\x04")
    return until(b"\x04>").replace(b"\r\n", b"\n")
