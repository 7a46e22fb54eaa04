"""One program at a time: a board's serial port and a virtual board's flash
directory (docs/reliability.md). Both are advisory ``flock`` locks, the kind pyserial's
``exclusive=True`` and mpremote already take on a port, so okgin, mpremote
and miniterm -- anything that asks -- refuse to share; the message names
the program that holds it (Linux: /proc/locks), so the user knows what to
close. A program that does not ask (``cat``, a terminal emulator) is not
stopped: docs/reliability.md.
"""
import os

from .errors import CommandError

DIR_LOCK = ".okgin-lock"     # in a virtual board's flash directory


def holder(path):
    """'okgin board --flash-dir f (pid 1234)' for the process holding a
    flock on ``path``, or None if none is found (not Linux, no lock)."""
    try:
        st = os.stat(path)
        want = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
        with open("/proc/locks") as f:
            rows = f.read().splitlines()
    except (OSError, AttributeError):
        return None
    for row in rows:
        w = row.split()
        # "1: FLOCK  ADVISORY  WRITE 12345 00:1a:7 0 EOF" ("->" marks waiters)
        if len(w) >= 6 and w[1] == "FLOCK" and w[5] == want and w[4].isdigit():
            pid = int(w[4])
            if pid == os.getpid():
                continue
            return "%s (pid %d)" % (command_of(pid), pid)
    return None


def command_of(pid):
    """The command line of process ``pid``, shortened, as a person would
    recognise it ('okgin sim --tui', 'mpremote connect ...')."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return "another program"
    if not argv:
        return "another program"
    # "python -m okgin.cli sim" and ".../bin/python .../okgin sim" read better
    # as what was typed
    names = [os.path.basename(a) for a in argv]
    for i, n in enumerate(names):
        if n in ("okgin", "mpremote", "pyserial-miniterm", "miniterm.py") or \
                (n == "okgin.cli" and i and argv[i - 1] == "-m"):
            words = ["okgin" if n == "okgin.cli" else n] + argv[i + 1:]
            break
    else:
        words = [names[0]] + argv[1:]
    text = " ".join(words)
    return text if len(text) <= 160 else text[:157] + "..."


def busy_message(what, path, advice):
    """'<what> is in use by <holder>: <advice>'."""
    who = holder(path)
    return "%s is in use by %s: %s" % (what, who or "another program", advice)


class DirLock:
    """Holds ``DIR_LOCK`` in ``directory`` until close(); the file says who
    holds it (for people: the lock itself is the flock)."""

    def __init__(self, directory, what="the flash directory %s",
                 advice="close it, or use another directory"):
        self.path = os.path.join(directory, DIR_LOCK)
        self.fd = None
        try:
            import fcntl
        except ImportError:   # not POSIX: the virtual board does not run there
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)   # not truncated: the holder's note
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise CommandError(busy_message(what % directory, self.path, advice)) from None
        os.ftruncate(fd, 0)
        os.write(fd, ("%s\n" % command_of(os.getpid())).encode())
        self.fd = fd

    def close(self):
        if self.fd is not None:
            os.close(self.fd)   # releases the flock; the file may stay
            self.fd = None


def port_busy(port, e):
    """A CommandError for a port another program holds (pyserial's
    exclusive open failed), or None when ``e`` is about something else."""
    text = str(e)
    if "exclusively lock" not in text and "Resource temporarily unavailable" not in text:
        return None
    return CommandError(busy_message(
        port, port, "close it (or stop its okgin board / okgin sim), then try again"))
