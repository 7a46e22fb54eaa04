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
host -> micropython, 9 bytes: kind:u8 ('Y' sync answer, 'T' push) seq:u32 bits:u32
  bits = the level of GPIO 0..29 as the MCU reads them.

Writes are not acknowledged one by one (a refresh is a few dozen of them);
before reading an input after a write, vmachine sends Y and waits for the
answer, which carries the levels *after* the host applied the writes — so a
BUSY read right after the master activation sees the panel busy. Otherwise
input reads use the last pushed levels (no round trip: 12 button pins polled
at 100 Hz cost nothing), and the host pushes a new state whenever an input
changes (a button, BUSY falling).
"""
import os
import socket
import struct
import sys
import threading

_MSG = struct.Struct("<BII")


class LinkServer:
    """Accepts the micropython process's connection and serves it."""

    def __init__(self, pins, workdir, use_unix=None):
        self.pins = pins
        self.on_reset = None           # called when the firmware asks for machine.reset()
        self.token = None              # token of the process we expect
        self.conn = None
        self.seq = 0
        self.seen = 0
        self.last_bits = None          # the levels micropython last received
        self.seen_cond = threading.Condition()
        self.send_lock = threading.Lock()
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
        self._thread = threading.Thread(target=self._accept_loop, name="vboard-link", daemon=True)
        self._thread.start()

    def expect(self, token):
        """A new process is starting: drop the old connection."""
        with self.send_lock:
            self.token = token
            self.last_bits = None
            old, self.conn = self.conn, None
        if old is not None:
            try:
                old.close()
            except OSError:
                pass
        with self.seen_cond:
            self.seen = self.seq
            self.seen_cond.notify_all()

    def close(self):
        self.closed = True
        self.expect(None)
        try:
            self.sock.close()
        except OSError:
            pass

    def _accept_loop(self):
        while not self.closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if conn.family == socket.AF_INET:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._serve, args=(conn,), name="vboard-link-conn",
                             daemon=True).start()

    # -- sending ---------------------------------------------------------------
    def _send(self, conn, kind):
        with self.send_lock:
            # Levels read under the lock: a push can never overtake a newer answer.
            bits = self.pins.input_bits()
            if kind == ord("T"):
                if bits == self.last_bits:
                    return          # nothing new for the firmware
                self.seq += 1
            self.last_bits = bits
            msg = _MSG.pack(kind, self.seq, bits)
            try:
                conn.sendall(msg)
            except OSError:
                pass

    def push(self):
        conn = self.conn
        if conn is not None:
            self._send(conn, ord("T"))

    def wait_seen(self, timeout):
        """Wait until the firmware has read a pin since the last push."""
        with self.seen_cond:
            target = self.seq
            return self.seen_cond.wait_for(
                lambda: self.seen >= target or self.conn is None, timeout)

    # -- receiving ---------------------------------------------------------------
    def _serve(self, conn):
        f = conn.makefile("rb", buffering=65536)
        pins = self.pins
        try:
            head = f.read(5)
            if len(head) != 5 or head[0] != ord("H"):
                return
            token = struct.unpack_from("<I", head, 1)[0]
            with self.send_lock:
                if token != self.token:
                    return          # a process from before a reset: ignore it
                # (the same process may reconnect after a Ctrl-C cut a message)
                self.conn = conn
                self.last_bits = None
            while True:
                t = f.read(1)
                if not t:
                    return
                t = t[0]
                if t == 0x50:        # P
                    b = f.read(2)
                    pins.write(b[0], b[1])
                elif t == 0x53:      # S
                    b = f.read(5)
                    n = struct.unpack_from("<I", b, 1)[0]
                    data = f.read(n)
                    if len(data) != n:
                        return       # cut off (Ctrl-C mid-write): never feed half a transfer
                    pins.spi_write(b[0], data)
                elif t == 0x59:      # Y
                    self._send(conn, 0x59)
                elif t == 0x4D:      # M
                    b = f.read(3)
                    mode, pull = struct.unpack_from("<bb", b, 1)
                    pins.configure(b[0], mode, pull)
                elif t == 0x41:      # A
                    seq = struct.unpack("<I", f.read(4))[0]
                    with self.seen_cond:
                        self.seen = max(self.seen, seq)
                        self.seen_cond.notify_all()
                elif t == 0x42:      # B
                    b = f.read(4)
                    pins.spi_config(b[0], b[1], b[2], b[3])
                elif t == 0x52:      # R
                    if self.on_reset:
                        self.on_reset(token)
                else:
                    return           # out of step: drop the connection
        except (OSError, ValueError, struct.error, IndexError):
            return
        finally:
            with self.send_lock:
                if self.conn is conn:
                    self.conn = None
            with self.seen_cond:
                self.seen_cond.notify_all()
            try:
                conn.close()
            except OSError:
                pass
