"""The board's serial console: a pty whose path stays the same across resets.

Two pty pairs and a byte relay (docs/virtual-board.md): micropython runs on
slave A (its controlling terminal, so Ctrl-C becomes SIGINT as on a real
board), clients open slave B by path. Each process start gets a fresh pair A;
pair B lives as long as the VirtualBoard, and we keep slave B open ourselves
so the path stays valid while no client has it open.

Like a Pico's USB CDC, the board never blocks on a host that does not read:
up to 64 KB of output waits in the relay for a slow client, beyond that the
oldest bytes are dropped. Input the client sends while the board is down
(between a reset and the next boot) is discarded.
"""
import errno
import os
import select
import termios
import threading
import tty
from typing import Callable

OUT_LIMIT = 65536
IN_LIMIT = 65536


def _raw(fd, isig=False):
    tty.setraw(fd)
    if isig:
        # Ctrl-C -> SIGINT to the foreground process, as mpremote expects;
        # the other signal characters are disabled so binary input can never
        # stop or quit the firmware (a Pico only knows Ctrl-C).
        attrs = termios.tcgetattr(fd)
        attrs[3] |= termios.ISIG
        cc = attrs[6]
        cc[termios.VINTR] = b"\x03"
        disable = b"\x00"
        for name in ("VQUIT", "VSUSP", "VDSUSP", "VLNEXT", "VDISCARD", "VSTATUS"):
            if hasattr(termios, name):
                cc[getattr(termios, name)] = disable
        termios.tcsetattr(fd, termios.TCSANOW, attrs)


class Console:
    def __init__(self):
        self.master_b, self.slave_b = os.openpty()
        _raw(self.slave_b)
        self.port = os.ttyname(self.slave_b)
        os.set_blocking(self.master_b, False)
        self.master_a = None
        self._lock = threading.Lock()
        self._out = bytearray()   # micropython -> client
        self._in = bytearray()    # client -> micropython
        self._drained = threading.Event()
        self._drained.set()
        self._wake_r, self._wake_w = os.pipe()
        self._closed = False
        self.dropped = 0
        # Ctrl-C as a Pico's USB takes it (see _interrupted): the board's
        # callable that raises KeyboardInterrupt in its process when that
        # process has Ctrl-C on (True if it did), and the firmware's
        # kbd_intr (set_interrupt), on at every boot
        self.interrupt: "Callable[[], bool] | None" = None
        self._intr = True
        self._slave_a: "str | None" = None
        self._thread = threading.Thread(target=self._loop, name="vboard-console", daemon=True)
        self._thread.start()

    def new_slave(self):
        """A fresh pair A for a new process: returns the slave fd to hand it
        (the caller closes its copy once the process has it)."""
        # Let the previous process's last output through first (e.g. the
        # "OK" the firmware printed just before machine.reset()).
        self._drained.wait(2.0)
        master, slave = os.openpty()
        _raw(slave, isig=True)
        slave_path = os.ttyname(slave)
        os.set_blocking(master, False)
        with self._lock:
            # Bytes the client wrote before this reset were for the old
            # process (a Ctrl-C, a raw-REPL command): never let them reach
            # the new one at boot. _loop reads master_b under this lock, so
            # whatever it has not read yet is still in master_b: drop it.
            self._discard_input()
            self.master_a = master
            self._slave_a = slave_path
            self._intr = True
            self._drained.clear()
        self._wake()
        return slave

    def _discard_input(self):
        self._in.clear()
        while True:
            try:
                if not os.read(self.master_b, 65536):
                    return
            except OSError:     # EAGAIN: nothing more
                return

    def _wake(self):
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def set_interrupt(self, on):
        """Ctrl-C from the client interrupts the firmware (SIGINT, as at
        every boot) or reaches it as a plain byte (micropython.kbd_intr(-1):
        the owner's lock). The pty's line discipline is shared by its two
        ends, so the master can switch it."""
        with self._lock:
            self._intr = bool(on)
            fd = self.master_a
            if fd is None:
                return
            try:
                attrs = termios.tcgetattr(fd)
                if on:
                    attrs[3] |= termios.ISIG
                else:
                    attrs[3] &= ~termios.ISIG
                termios.tcsetattr(fd, termios.TCSANOW, attrs)
            except (OSError, termios.error):
                pass

    def _interrupted(self):
        """A Ctrl-C from the client, as a Pico's USB stack takes it: while
        the firmware has Ctrl-C on (kbd_intr), it interrupts whatever runs,
        a raw-paste command that reads its stdin included (okgin flash's
        copy, stopped by its user). The pty's line discipline does that
        only while its ISIG is on, and the unix port keeps ISIG off while
        it runs a raw-paste command (read from the port as it compiles);
        then the board's ``interrupt`` raises it, if MicroPython has Ctrl-C
        on (at the REPL's own prompt it does not, and Ctrl-C is a byte
        there, as on a Pico). Called under the lock."""
        fd, slave = self.master_a, self._slave_a
        if not self._intr or self.interrupt is None or fd is None or slave is None:
            return False
        try:
            if termios.tcgetattr(fd)[3] & termios.ISIG:
                return False        # the line discipline sends SIGINT itself
        except (OSError, termios.error):
            return False
        if not self.interrupt():
            return False
        try:
            # what the firmware has not read yet goes too (ISIG's flush):
            # the slave's own input queue, flushed from its side
            s = os.open(slave, os.O_RDWR | os.O_NOCTTY)
            try:
                termios.tcflush(s, termios.TCIFLUSH)
            finally:
                os.close(s)
        except (OSError, termios.error):
            pass
        return True

    def close(self):
        self._closed = True
        self._wake()
        self._thread.join(2.0)
        for fd in (self.master_b, self.slave_b, self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        with self._lock:
            if self.master_a is not None:
                os.close(self.master_a)
                self.master_a = None

    def _detach_a(self, fd):
        """The process behind master ``fd`` is gone. new_slave() may already
        have installed the next process's master (it waits at most 2 s for
        this): then only the old fd is closed, never the new one."""
        with self._lock:
            current = self.master_a == fd   # fd still open: numbers differ
            if current:
                self.master_a = None
                self._in.clear()
        os.close(fd)
        if current:
            self._drained.set()

    def _loop(self):
        while not self._closed:
            a = self.master_a
            rl = [self._wake_r]
            wl = []
            if len(self._in) < IN_LIMIT:
                rl.append(self.master_b)   # else: flow control, the client's writes wait
            if a is not None:
                rl.append(a)
                if self._in:
                    wl.append(a)
            if self._out:
                wl.append(self.master_b)
            try:
                r, w, _ = select.select(rl, wl, [], 1.0)
            except (OSError, ValueError):
                if self._closed:
                    return
                continue
            if self._wake_r in r:
                os.read(self._wake_r, 512)
            if a is not None and a in r:
                try:
                    data = os.read(a, 65536)
                except BlockingIOError:
                    data = None
                except OSError:
                    data = b""          # EIO: the process is gone and all is read
                if data == b"":
                    self._detach_a(a)
                    a = None
                elif data:
                    self._out += data
                    if len(self._out) > OUT_LIMIT:
                        n = len(self._out) - OUT_LIMIT
                        del self._out[:n]
                        self.dropped += n
            if self.master_b in r:
                # Under the lock: new_slave() (a reset) then knows that every
                # byte read before it was queued for the old process, and
                # discards them with everything read after.
                with self._lock:
                    try:
                        data = os.read(self.master_b, 65536)
                    except OSError:     # EAGAIN, EINTR, EIO: nothing now
                        data = b""
                    if data and b"\x03" in data and self._interrupted():
                        # what came before the Ctrl-C is dropped, as a
                        # Pico's USB clears its input when it interrupts
                        self._in.clear()
                        data = data[data.rindex(b"\x03") + 1:]
                    if data and self.master_a is not None:
                        self._in += data      # with no process the bytes are lost
            if self.master_b in w and self._out:
                try:
                    n = os.write(self.master_b, self._out)
                    del self._out[:n]
                except BlockingIOError:
                    pass
                except OSError as e:
                    if e.errno != errno.EAGAIN:
                        self._out.clear()
            if a is not None and a in w:
                with self._lock:
                    if self._in and self.master_a == a:   # not after a reset
                        try:
                            n = os.write(a, self._in)
                            del self._in[:n]
                        except BlockingIOError:
                            pass
                        except OSError:
                            self._in.clear()
