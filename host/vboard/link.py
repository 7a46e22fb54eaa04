"""The pin/SPI link between vmachine.py (inside micropython) and the host.

A stream socket (unix-domain on Linux, loopback TCP elsewhere) whose address
reaches micropython in OKGIN_VBOARD_LINK. Only pin and SPI traffic uses it;
the serial console is the pty.

micropython -> host (type byte, then fields, little-endian):
  H token:u32                   hello; token = OKGIN_VBOARD_TOKEN of this process
  M pin:u8 mode:i8 pull:i8      Pin init
  P pin:u8 level:u8             Pin output level
  B bus:u8 sck:u8 mosi:u8 firstbit:u8   SPI init
  S bus:u8 len:u32 data         SPI write
  Y                             sync: answer once everything before is applied
  A seq:u32                     a pushed input state was seen by the firmware
  R                             machine.reset()
  K on:u8                       micropython.kbd_intr: Ctrl-C interrupts (1) or not (0);
                                vmachine follows it with Y and waits: applied before the answer
  D pin:u8                      ADC read of that GPIO (machine.ADC.read_u16)
host -> micropython, 9 bytes: kind:u8 ('Y' sync answer, 'T' push, 'D' ADC
  answer) seq:u32 bits:u32
  bits = the level of GPIO 0..29 as the MCU reads them ('D': the ADC's
  16-bit reading instead).

Writes are not acknowledged one by one (a refresh is a few dozen of them);
before reading an input after a write, vmachine sends Y and waits for the
answer, which carries the levels *after* the host applied the writes — so a
BUSY read right after the master activation sees the panel busy. Otherwise
input reads use the last pushed levels (no round trip: 12 button pins polled
at 100 Hz cost nothing), and the host pushes a new state whenever an input
changes (a button, BUSY falling).
"""
import os
import select
import socket
import struct
import sys
import threading
import time

_MSG = struct.Struct("<BII")


def _hang_up(sock):
    """End a socket another thread may be blocked on (accept, select, recv).

    Never close() it from here: close() does not wake that thread on Linux,
    and it frees the fd number, which the next accept() reuses at once for
    the new process's connection. The old _serve thread, between reading
    the number and entering select()/recv(), then ran on the *new*
    connection: it swallowed the new process's hello, the new connection's
    own thread saw a stream without one and dropped it, and the new
    process failed (EPIPE in vmachine._send, or waiting forever for a sync
    answer: no READY). shutdown() wakes the thread with EOF and keeps the
    number taken until the owning thread closes the socket."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class LinkServer:
    """Accepts the micropython process's connection and serves it."""

    def __init__(self, pins, workdir, use_unix=None):
        self.pins = pins
        self.on_reset = None           # called when the firmware asks for machine.reset()
        self.on_kbd = None             # (token, 1|0): Ctrl-C interrupts or not (kbd_intr)
        self.token = None              # token of the process we expect
        self.conn = None
        self.seq = 0
        self.seen = 0
        self.last_bits = None          # the levels micropython last received
        self.seen_cond = threading.Condition()
        self.polling = True            # False once the firmware stopped reading pins
        self.send_lock = threading.Lock()
        self.idle_cv = threading.Condition()
        self.idle = {}                 # connection -> waiting for bytes (all applied)
        self.closed = False
        if use_unix is None:
            use_unix = sys.platform.startswith("linux")
        path = os.path.join(workdir, "link.sock")
        if use_unix and len(path.encode()) > 100:
            use_unix = False    # sockaddr_un holds ~104 bytes (a long TMPDIR)
        if use_unix:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.bind(path)
            self.address = "unix:" + path
        else:
            self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.sock.bind(("127.0.0.1", 0))
            self.address = "tcp:127.0.0.1:%d" % self.sock.getsockname()[1]
        self.sock.listen(4)
        pins.on_change = self.push
        self._serving = []             # the _serve threads, joined by close()
        self._thread = threading.Thread(target=self._accept_loop, name="vboard-link", daemon=True)
        self._thread.start()

    def expect(self, token):
        """A new process is starting: drop the old connection."""
        with self.send_lock:
            self.token = token
            self.last_bits = None
            old, self.conn = self.conn, None
        if old is not None:
            _hang_up(old)
        with self.seen_cond:
            self.seen = self.seq
            self.polling = True
            self.seen_cond.notify_all()

    def close(self):
        self.closed = True
        self.expect(None)
        # close() alone does not wake a thread blocked in accept() on Linux:
        # that thread (and the socket it holds) used to outlive stop().
        # shutdown() makes the pending accept() fail at once.
        _hang_up(self.sock)
        me = threading.current_thread()
        if self._thread is not me:
            self._thread.join(2.0)  # then no connection is accepted any more
        try:
            self.sock.close()
        except OSError:
            pass
        with self.idle_cv:
            conns = list(self.idle)
        for conn in conns:          # end the _serve threads too
            _hang_up(conn)
        for t in self._serving:
            if t is not me:
                t.join(2.0)

    def _accept_loop(self):
        # accept() happens under idle_cv, after select() said a connection
        # waits: settle() (which holds idle_cv while it looks) then always
        # sees a new connection either still queued or registered, never
        # in between (a CI run read an LED before its writes were applied).
        self.sock.setblocking(False)
        while not self.closed:
            try:
                select.select([self.sock], [], [])
            except (OSError, ValueError):
                return
            with self.idle_cv:
                try:
                    conn, _ = self.sock.accept()
                except BlockingIOError:
                    continue
                except OSError:
                    return
                conn.setblocking(True)
                self.idle[conn] = False      # settle() waits for its first bytes
            if self.closed:
                with self.idle_cv:
                    self.idle.pop(conn, None)
                conn.close()
                return
            if conn.family == socket.AF_INET:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            t = threading.Thread(target=self._serve, args=(conn,), name="vboard-link-conn",
                                 daemon=True)
            self._serving = [x for x in self._serving if x.is_alive()] + [t]
            t.start()

    # -- sending ---------------------------------------------------------------
    def _send(self, conn: socket.socket, kind: int, again: bool = False) -> None:
        with self.send_lock:
            if conn is not self.conn:
                return      # dropped meanwhile: its fd may be closed (and reused)
            # Levels read under the lock: a push can never overtake a newer answer.
            bits = self.pins.input_bits()
            if kind == ord("T"):
                if bits == self.last_bits and not again:
                    return          # nothing new for the firmware
                self.seq += 1
            self.last_bits = bits
            msg = _MSG.pack(kind, self.seq, bits)
            try:
                conn.sendall(msg)
            except OSError:
                pass

    def _send_adc(self, conn: socket.socket, pin: int) -> None:
        with self.send_lock:
            if conn is not self.conn:
                return
            try:
                conn.sendall(_MSG.pack(0x44, self.seq, self.pins.adc_u16(pin)))
            except OSError:
                pass

    def push(self, again=False):
        """Send the input levels if they changed; ``again``: even if not,
        under a new number, so that wait_seen() then waits for the
        firmware's next read of a pin."""
        conn = self.conn
        if conn is not None:
            self._send(conn, ord("T"), again)

    def wait_seen(self, timeout, again=False):
        """Wait until the firmware has read a pin since the last push. After
        one timeout (the firmware stopped polling, e.g. it sits at the REPL)
        do not wait again until it reads a pin again, unless ``again`` (a
        caller that knows the firmware polls: a timeout before must not
        skip this wait)."""
        with self.seen_cond:
            if again:
                self.polling = True
            if not self.polling:
                return False
            target = self.seq
            ok = self.seen_cond.wait_for(
                lambda: self.seen >= target or self.conn is None, timeout)
            if not ok:
                self.polling = False
            return ok

    # -- receiving ---------------------------------------------------------------
    def settle(self, timeout=10.0):
        """Return once every byte micropython has written to the link so far
        has been applied. The firmware writes pins before it prints, so
        after a client has read a line, settle() makes the pins and panels
        reflect everything that happened before that line (including a
        first connection still in the listen queue)."""
        if threading.current_thread() in self._serving:
            # Called while applying the link's bytes (an event hook looking
            # at a panel): what came before is applied, and waiting for this
            # thread to go idle would wait for ourselves.
            return True
        deadline = time.monotonic() + timeout
        with self.idle_cv:
            while True:
                conns = list(self.idle.items())
                busy = any(not idle for _, idle in conns)
                if not busy:
                    try:
                        socks = [c for c, _ in conns] + [self.sock]
                        busy = bool(select.select(socks, [], [], 0)[0])
                    except (OSError, ValueError):
                        return True
                if not busy:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.idle_cv.wait(min(left, 0.005))

    def _serve(self, conn):
        pins = self.pins
        buf = bytearray()
        token = None
        try:
            while True:
                # Idle while waiting: settle() knows all received bytes are applied.
                with self.idle_cv:
                    self.idle[conn] = True
                    self.idle_cv.notify_all()
                select.select([conn], [], [])
                with self.idle_cv:
                    self.idle[conn] = False
                data = conn.recv(262144)
                if not data:
                    return
                buf += data
                i = 0
                n = len(buf)
                while i < n:
                    t = buf[i]
                    if token is None:
                        if t != 0x48 or n - i < 5:
                            if t != 0x48:
                                return
                            break
                        token = struct.unpack_from("<I", buf, i + 1)[0]
                        if token != self.token:
                            return          # a process from before a reset: ignore it
                        # The same process may reconnect after a Ctrl-C cut a
                        # message: what it wrote on its old connection came
                        # first, so that is applied first (the old thread ends
                        # at its EOF). Applied side by side, a loaded host put
                        # the old connection's last panel update on the ink
                        # after the new one's (a CI run saw a white panel).
                        me = threading.current_thread()
                        for t in list(self._serving):
                            if t is not me:
                                t.join(5.0)
                        with self.send_lock:
                            if token != self.token:
                                return
                            self.conn = conn
                            self.last_bits = None
                        i += 5
                    elif t == 0x50:        # P pin level
                        if n - i < 3:
                            break
                        pins.write(buf[i + 1], buf[i + 2])
                        i += 3
                    elif t == 0x53:        # S SPI bytes
                        if n - i < 6:
                            break
                        size = struct.unpack_from("<I", buf, i + 2)[0]
                        if n - i < 6 + size:
                            break          # wait for the rest (never feed half a transfer)
                        pins.spi_write(buf[i + 1], bytes(buf[i + 6:i + 6 + size]))
                        i += 6 + size
                    elif t == 0x59:        # Y sync
                        self._send(conn, 0x59)
                        i += 1
                    elif t == 0x4D:        # M pin mode
                        if n - i < 4:
                            break
                        mode, pull = struct.unpack_from("<bb", buf, i + 2)
                        pins.configure(buf[i + 1], mode, pull)
                        i += 4
                    elif t == 0x41:        # A seen
                        if n - i < 5:
                            break
                        seq = struct.unpack_from("<I", buf, i + 1)[0]
                        with self.seen_cond:
                            self.seen = max(self.seen, seq)
                            self.polling = True
                            self.seen_cond.notify_all()
                        i += 5
                    elif t == 0x42:        # B SPI init
                        if n - i < 5:
                            break
                        pins.spi_config(buf[i + 1], buf[i + 2], buf[i + 3], buf[i + 4])
                        i += 5
                    elif t == 0x4B:        # K Ctrl-C interrupts: 1 yes, 0 no
                        if n - i < 2:
                            break
                        # Not from a connection a reconnect replaced (a
                        # Ctrl-C cut a kbd_intr): its late switch would undo
                        # the newer one the firmware is waiting for.
                        if self.on_kbd and conn is self.conn:
                            self.on_kbd(token, buf[i + 1])
                        i += 2
                    elif t == 0x44:        # D ADC read
                        if n - i < 2:
                            break
                        self._send_adc(conn, buf[i + 1])
                        i += 2
                    elif t == 0x52:        # R reset
                        i += 1
                        if self.on_reset:
                            self.on_reset(token)
                    else:
                        return             # out of step: drop the connection
                del buf[:i]
        except (OSError, ValueError, struct.error, IndexError):
            return
        finally:
            with self.send_lock:
                if self.conn is conn:
                    self.conn = None
            with self.seen_cond:
                self.seen_cond.notify_all()
            with self.idle_cv:
                self.idle.pop(conn, None)
                self.idle_cv.notify_all()
            try:
                conn.close()
            except OSError:
                pass
