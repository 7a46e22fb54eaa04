"""Serial client of the firmware's line protocol (docs/protocol.md).

Ports are opened with ``serial.serial_for_url`` (as mpremote does), so a real
``/dev/ttyACM0``, the virtual board's pty, ``socket://host:port`` and
``rfc2217://`` URLs all behave the same. Every part of the host that speaks
the firmware's protocol does it through ``Board`` here: the simulator's
session (with ``listen()``: a reader of its own for the console), okgin hil,
stats and replay, the benches, the fault campaign, and the flasher once
the firmware is up.

Every failure is a subclass of ``okgin.lib.errors.CommandError`` so a command that
lets one escape prints a single ``okgin: ...`` line.
"""
import queue
import threading
import time

from .errors import CommandError

# USB IDs a MicroPython board enumerates with. The Pico's stock MicroPython
# uses the Raspberry Pi VID with PID 0x0005; boards built with MicroPython's
# own VID use 0xF055 (PID 0x9802 is the generic MicroPython CDC device).
USB_IDS = {
    0x2E8A: None,          # Raspberry Pi (any PID: Pico, Pico W, Pico 2)
    0xF055: None,          # MicroPython (0x9800..0x9802 and friends)
}

MAX_LINE = 200            # protocol.md: requests are at most 200 characters
PROTO = "1"


# wall seconds an emulated board's clock may stand still before a wait on
# it gives up (its emulator is gone or hung; a loaded PC only slows it)
CLOCK_STALL = 120.0


class TransportError(CommandError):
    """Something went wrong talking to the board (base class)."""


class BoardNotFound(TransportError):
    pass


class PortBusy(TransportError):
    """Another program holds the port (host/lib/locks.py names it)."""


class Disconnected(TransportError):
    """The port went away (board unplugged, reset, process died)."""


class BoardTimeout(TransportError):
    pass


class ProtocolError(TransportError):
    """The firmware answered ``ERR <reason>``; ``.reason`` holds the reason."""

    def __init__(self, request, reason):
        TransportError.__init__(self, "board refused %r: %s" % (request, reason))
        self.request = request
        self.reason = reason


def parse_fields(text):
    """``'a=1 b=x'`` -> ``{'a': '1', 'b': 'x'}``; words without ``=`` map to ''."""
    out = {}
    for word in text.split():
        key, _, value = word.partition("=")
        out[key] = value
    return out


def list_ports():
    """Every serial port the OS reports: list of ListPortInfo."""
    from serial.tools import list_ports as lp
    return list(lp.comports())


def find_boards():
    """Device paths of the plugged-in MicroPython boards (by USB vendor id)."""
    return [p.device for p in list_ports() if p.vid in USB_IDS]


def find_board(port=None):
    """The port to use: ``port`` when given, else the only board plugged in."""
    if port:
        return port
    boards = find_boards()
    if len(boards) == 1:
        return boards[0]
    seen = ", ".join(p.device for p in list_ports()) or "none"
    if not boards:
        raise BoardNotFound(
            "no MicroPython board found (ports seen: %s); plug the Pico in "
            "with a data USB cable, or name the port with --port" % seen)
    raise BoardNotFound("several boards found (%s); choose one with --port"
                        % ", ".join(boards))


def open_serial(url, timeout=0.05):
    """Open ``url`` with pyserial, exclusively (as mpremote does: two
    programs on one port get each other's answers); a clear one-line error
    if it cannot be, naming the program that holds it."""
    import serial
    try:
        ser = serial.serial_for_url(url, baudrate=115200, timeout=timeout,
                                    write_timeout=5, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        raise open_failure(url, e) from e
    return ser


def open_failure(url, e):
    """``BoardNotFound("cannot open URL: why")`` for what pyserial raised,
    with the fix when the cause is a common one."""
    import errno
    from .locks import port_busy
    busy = port_busy(url, e)
    if busy is not None:
        return PortBusy(str(busy))   # another program has it: named
    text = _short(e)
    code = getattr(e, "errno", None)
    if code == errno.ENOENT:
        why = "no such port; plug the board in, or leave out --port to find it"
    elif code == errno.EACCES:
        why = ("permission denied; add yourself to the port's group (Linux: sudo "
               "usermod -aG dialout $USER, then log in again)")
    elif "Inappropriate ioctl" in text:
        why = "not a serial port"
    else:
        why = text
    return BoardNotFound("cannot open %s: %s" % (url, why))


def _short(e):
    text = str(e) or e.__class__.__name__
    return text.splitlines()[0] if text else repr(e)


class Board:
    """A board running the okgin firmware, reached over a serial port.

    ``Board(port).open()`` (or ``with Board(port) as b``) then ``request``.
    Unsolicited ``READY`` lines are remembered in ``.ready`` and skipped.

    ``on_line(direction, text)``, when given, sees the traffic: every line
    read (``"<"``, and a REPL prompt that ends without a newline) and every
    line written (``">"``). Lines are read when a request waits for them,
    or, after ``listen()``, as they arrive, by a thread of the Board's own:
    a console then shows what the firmware prints between requests (a
    traceback, READY after a reset).
    """

    def __init__(self, url, timeout=5.0, on_line=None, clock=None):
        self.url = url
        self.timeout = timeout
        # what the waits for the firmware (READY, answers, a block's lines)
        # count their timeouts in: the wall clock, or the board's own (an
        # emulated Pico's patience_clock: its time, not the busy host's)
        self.clock = clock or time.monotonic
        self.on_line = on_line
        self.ser = None
        self.ready = None          # last READY line seen
        self.noise = []            # lines that were neither answers nor READY
        self._buf = b""
        self._late_hellos = 0      # probes that timed out: their answers may still come
        self._lines: "queue.Queue[str] | None" = None   # listen(): lines read by the reader
        self._reader: "threading.Thread | None" = None
        self._closing = threading.Event()

    # -- connection --------------------------------------------------------
    def open(self, wait_ready=None):
        """Open the port, then wait for READY (``wait_ready`` seconds) or,
        if the firmware booted long ago, probe it with ``hello``."""
        self.ser = open_serial(self.url)
        self._buf = b""
        self._start_reader()
        if wait_ready:
            self.wait_ready(wait_ready)
        return self

    def _port(self):
        """The open pyserial port (Disconnected when there is none)."""
        if self.ser is None:
            raise Disconnected("lost the connection to %s: the port is not open" % self.url)
        return self.ser

    def close(self):
        self._closing.set()
        if self.ser is not None:
            try:
                self.ser.close()
            except Exception:
                pass
            self.ser = None
        if self._reader is not None and self._reader is not threading.current_thread():
            self._reader.join(1.0)
        self._reader = None

    def listen(self):
        """From now on a thread reads the port as lines arrive (each goes
        to ``on_line`` at once) and requests take their answers from what
        it read. A port that fails for a moment (a board resetting) is read
        again until ``close()``."""
        if self._lines is None:
            self._lines = queue.Queue()
        if self.ser is not None:
            self._start_reader()
        return self

    def _start_reader(self):
        if self._lines is not None and self._reader is None:
            self._closing.clear()
            self._reader = threading.Thread(target=self._read_loop, name="okgin-serial", daemon=True)
            self._reader.start()

    def _read_loop(self):
        lines = self._lines
        assert lines is not None
        buf = b""
        while not self._closing.is_set():
            try:
                chunk = self._port().read(512)
            except Exception:
                if self._closing.is_set():
                    return
                time.sleep(0.1)   # the port can blink during a reset: keep trying
                continue
            if not chunk:
                continue
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line = raw.rstrip(b"\r").decode("utf-8", "replace")
                self._heard(line)
                lines.put(line)
            if buf.endswith((b">>> ", b"=== ")):
                # a REPL prompt ends without a newline: show it anyway
                self._heard(buf.decode("utf-8", "replace"))
                buf = b""

    def _heard(self, text, direction="<"):
        if self.on_line is not None:
            self.on_line(direction, text)

    def flush_input(self):
        """Forget what has arrived and was not asked for (stale answers, a
        console's traffic between requests, output before a reset)."""
        if self.ser is not None:
            try:
                self.ser.reset_input_buffer()
            except Exception:
                pass
        self._buf = b""
        if self._lines is not None:
            while True:
                try:
                    self._lines.get_nowait()
                except queue.Empty:
                    return

    def __enter__(self):
        if self.ser is None:
            self.open()
        return self

    def __exit__(self, *exc):
        self.close()

    def reopen(self, timeout=30.0):
        """Re-open the port after a reset: a real Pico re-enumerates (the
        device node disappears for a moment), the virtual board keeps it."""
        self.close()
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ser = open_serial(self.url)
                self._buf = b""
                self._start_reader()
                return self
            except BoardNotFound:
                if time.monotonic() > deadline:
                    raise BoardNotFound("%s did not come back within %.0f s"
                                        % (self.url, timeout)) from None
                time.sleep(0.2)

    def wait_reboot(self, timeout=30.0, clock=None):
        """After a reset: READY on the open port (the virtual board keeps it,
        and pyserial drops input on re-open, so we read on); if the port
        fails (a real Pico re-enumerates), re-open it and probe. ``clock``:
        as wait_ready's."""
        now = clock or self.clock
        deadline = now() + timeout
        try:
            return self.wait_ready(timeout, probe_after=5.0, clock=clock)
        except Disconnected:
            self.reopen(max(1.0, deadline - now()))
            return self.wait_ready(max(1.0, deadline - now()), probe_after=1.0, clock=clock)

    def wait_ready(self, timeout=10.0, probe_after=1.0, clock=None):
        """Wait for the firmware's READY line; if none comes within
        ``probe_after`` seconds, ask ``hello`` (the board may have booted
        before we opened the port, and its READY is gone). ``clock``: the
        board's own seconds in which ``timeout`` counts (an emulated Pico's
        clock, which a loaded PC slows down with the chip); else the
        board's (``self.clock``: the wall clock's, or the one it was made
        with). An explicit clock that stands still for CLOCK_STALL wall
        seconds is an emulator that stopped: named, not waited for."""
        explicit = clock is not None
        now = clock or self.clock

        def left():
            # wall seconds a read or probe may take: the time left, on
            # the wall clock; a few seconds at a time on the board's
            return max(0.01, deadline - now()) if now is time.monotonic else 3.0

        deadline = now() + timeout
        probe_at = now() + min(probe_after, timeout / 2)
        seen, moved = now(), time.monotonic()
        while now() < deadline:
            if explicit:
                if now() != seen:
                    seen, moved = now(), time.monotonic()
                elif time.monotonic() - moved > CLOCK_STALL:
                    raise BoardTimeout("no READY from the firmware on %s: its clock stopped for %.0f s"
                                       " (the emulator stalled?)" % (self.url, CLOCK_STALL))
            line = self._readline(min(0.2, left()))
            if line is not None and line.startswith("OK okgin") and self._late_hellos:
                # the answer to a probe that timed out: the firmware runs
                self._late_hellos -= 1
                self.ready = "READY " + line[3:]
                return self.ready
            if line is not None and "READY okgin" in line:
                # A prompt left unterminated by the previous boot (">>> ")
                # may share the line with READY.
                self.ready = line[line.index("READY okgin"):]
                return self.ready
            if line is not None and line.startswith("Traceback"):
                raise TransportError(
                    "the firmware on %s stopped with an error at boot: %s; run okgin "
                    "flash to reinstall it" % (self.url, self._exception_line(line)))
            if line is not None and line:
                self.noise.append(line)
                del self.noise[:-20]
            if line is None and now() >= probe_at:
                # Probe again every few seconds: a probe can be lost while
                # the board is still booting, or answered ERR if it arrived
                # glued to leftover input.
                probe_at = now() + 3.0
                try:
                    text = self.request("hello", timeout=min(3.0, max(0.5, left())))
                except BoardTimeout:
                    # a slow boot may still answer it: that answer must not
                    # be taken for the answer to a later request
                    self._late_hellos += 1
                    continue
                except ProtocolError:
                    continue
                self.ready = "READY " + text
                return self.ready
        raise BoardTimeout("no READY from the firmware on %s within %.0f s%s%s"
                           % (self.url, timeout, "" if now is time.monotonic else " of its own time",
                              self._noise_hint()))

    # -- lines -------------------------------------------------------------
    def _readline(self, timeout):
        """One decoded line (without EOL) or None on timeout."""
        if self._lines is not None:
            try:
                return self._lines.get(timeout=max(0.0, timeout))
            except queue.Empty:
                return None
        import serial
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ser = self._port()
            try:
                n = ser.in_waiting
                chunk = ser.read(n if n > 0 else 1)
            except (serial.SerialException, OSError, TypeError, AttributeError) as e:
                raise Disconnected("lost the connection to %s: %s" % (self.url, _short(e))) from e
            if chunk:
                self._buf += chunk
            elif not n:
                time.sleep(0.002)
        line, _, self._buf = self._buf.partition(b"\n")
        text = line.rstrip(b"\r").decode("utf-8", "replace")
        self._heard(text)
        return text

    def _readline_by(self, deadline):
        """One line, or None once ``self.clock()`` reaches ``deadline`` (read
        in turns of at most a wall second: a board's clock may be slower)."""
        while True:
            remaining = deadline - self.clock()
            line = self._readline(max(0.0, min(remaining, 1.0)))
            if line is not None or remaining <= 0:
                return line

    def read_line(self, timeout):
        """The next line the firmware sent, whatever it is (an answer, READY,
        a line of a block, noise), without its end of line; None if none
        came within ``timeout`` seconds (of ``self.clock``). For callers
        that read the port themselves (the fault campaign's floods and
        resyncs); ``request`` and ``read_answer`` are the protocol's way."""
        return self._readline_by(self.clock() + timeout)

    def write(self, data):
        import serial
        ser = self._port()
        try:
            ser.write(data)
            ser.flush()
        except (serial.SerialException, OSError, AttributeError) as e:
            raise Disconnected("lost the connection to %s: %s" % (self.url, _short(e))) from e

    def write_line(self, line):
        """Send one line as it is, without waiting for an answer (a
        console's input; the answer is read as any other line)."""
        self._heard(line, ">")
        self.write(line.encode("ascii", "replace") + b"\n")

    def send_raw(self, data):
        """Write bytes as they are (robustness tests); no answer is read."""
        self.write(data)

    def read_answer(self, request="?", timeout=None):
        """Read until a line starting ``OK`` or ``ERR``; return the text after ``OK``."""
        timeout = self.timeout if timeout is None else timeout
        deadline = self.clock() + timeout
        while True:
            line = self._readline_by(deadline)
            if line is None:
                raise BoardTimeout("no answer to %r from %s within %.1f s%s"
                                   % (request, self.url, timeout, self._noise_hint()))
            if self._late_hellos and line.startswith("OK okgin") and not request.startswith("hello"):
                self._late_hellos -= 1     # a probe's late answer, not ours
                continue
            if line == "OK" or line.startswith("OK "):
                return line[3:]
            if line == "ERR" or line.startswith("ERR "):
                raise ProtocolError(request, line[4:] or "(no reason)")
            if line.startswith("READY"):
                self.ready = line
                continue
            self.noise.append(line)
            del self.noise[:-20]
            if line.startswith((">>>", "Traceback")):
                # The firmware crashed into the REPL: no answer will come.
                # Name the exception (the first unindented line after).
                why = self._exception_line(line)
                self.noise.append(why)
                raise TransportError(
                    "the firmware on %s is not running (it stopped at the MicroPython "
                    "REPL: %s); run okgin flash, or reset the board" % (self.url, why[:160]))

    def _exception_line(self, line):
        """After a ``Traceback`` line: the exception's own line (the first
        unindented one that follows), else ``line``."""
        if not line.startswith("Traceback"):
            return line
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            more = self._readline(0.2)
            if more is not None and more and not more.startswith(" "):
                return more
        return line

    def _noise_hint(self):
        return (" (it printed: %r)" % self.noise[-1]) if self.noise else ""

    def request(self, line, timeout=None):
        """Send one request line; return the text after ``OK`` (may be '').
        Raises ProtocolError on ``ERR``, BoardTimeout, Disconnected."""
        if self.ser is None:
            self.open()
        self.write_line(line)
        return self.read_answer(line, timeout)

    def request_block(self, line, timeout=None):
        """For block answers ``OK lines=N``: the N lines that follow."""
        head = self.request(line, timeout)
        fields = parse_fields(head)
        if "lines" not in fields:
            raise TransportError("expected a block answer to %r, got %r" % (line, head))
        return self.read_block(line, fields["lines"], timeout)

    def read_block(self, request, n, timeout=None):
        """The ``n`` lines of a block answer (``OK lines=n``) to ``request``."""
        try:
            n = int(n)
        except ValueError:
            raise TransportError("malformed block answer to %r: lines=%r" % (request, n)) from None
        out: "list[str]" = []
        timeout = self.timeout if timeout is None else timeout
        for _ in range(n):
            got = self._readline_by(self.clock() + timeout)
            if got is None:
                raise BoardTimeout("block answer to %r ended after %d of %d lines"
                                   % (request, len(out), n))
            out.append(got)
        return out

    # -- protocol helpers --------------------------------------------------
    def probe(self):
        """Ask ``hello`` without waiting for its answer (a board that may
        have printed READY before the port was opened names itself in
        it): when the answer comes after READY, a later request does not
        take it for its own (a slow boot's READY, then this answer, was
        read as the answer to the next command)."""
        self._late_hellos += 1
        self.write_line("hello")

    def hello(self):
        return parse_fields(self.request("hello"))

    def status(self):
        return parse_fields(self.request("status"))

    def testmode(self, on=True):
        return self.request("testmode %s" % ("on" if on else "off"))

    def press(self, player, button, long=False):
        return self.request("press %d %s%s" % (player, button, " long" if long else ""))

    def newgame(self, seed, **options):
        words = ["newgame", "seed=%d" % seed]
        words += ["%s=%s" % (k, v) for k, v in options.items()]
        return self.request(" ".join(words))

    def record(self):
        return "\n".join(self.request_block("record")) + "\n"

    def sync(self, timeout=30.0):
        return self.request("sync", timeout=timeout)

    def screen(self, player):
        """The panel's framebuffer as a PIL image (mode "1", black ink = 0).
        At least 10 s, or the board's own timeout where that is longer: the
        4.2" panel's answer (its 200x150 screen doubled into 400x300 rows by
        the firmware, 30,000 hex digits) takes the emulated Pico, at a tenth
        of a Pico's speed or less, longer than 10 s."""
        return decode_screen(self.request("screen %d" % player, timeout=max(10.0, self.timeout or 0.0)))

    def reset(self, ready_timeout=30.0):
        """``reset`` (machine.reset()), then re-open the port and wait for READY."""
        self.request("reset")
        return self.wait_reboot(ready_timeout)


def decode_screen(text):
    """``'296x128 <hex>'`` -> PIL image, mode "1" (white=1 as PIL draws it).
    The wire format is rows top to bottom, 1 bit per pixel MSB first, 1 = black."""
    from PIL import Image
    try:
        size, hexdata = text.split()
        w, h = (int(v) for v in size.split("x"))
        raw = bytes.fromhex(hexdata)
    except ValueError:
        raise TransportError("malformed screen answer: %r" % text[:60]) from None
    stride = (w + 7) // 8
    if len(raw) != stride * h:
        raise TransportError("screen answer has %d bytes, expected %d for %dx%d"
                             % (len(raw), stride * h, w, h))
    # PIL's "1;I" raw mode reads 1 bit/pixel MSB first with 1 = black... no:
    # it inverts, mapping a set bit to 0 (black), which is what we want.
    return Image.frombytes("1", (w, h), raw, "raw", "1;I", stride)
