"""okgin's output in a real terminal (a pty as its stdout, as a shell gives
it): progress redrawn on one line, not a line per step."""
import os
import pty
import select
import subprocess
import time

from tests.support.host import ROOT, okgin_cmd


def run_in_terminal(args, timeout=300, cols=80):
    """(exit status, everything written to the terminal) of okgin args run
    with a pty as stdout and stderr."""
    import fcntl
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}   # the pty's size
    p = subprocess.Popen(okgin_cmd(*args), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=slave,
                         stderr=slave, close_fds=True, env=env)
    os.close(slave)
    out = bytearray()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], 0.5)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:       # the pty closed: okgin is gone
                break
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    return p.wait(30), out.decode("utf-8", "replace")


def test_flash_redraws_one_progress_line_in_a_terminal(vboard):
    status, out = run_in_terminal(["flash", "--port", vboard.port])
    assert status == 0, out[-2000:]
    files = out.count("\r  [1/")
    assert files >= 1
    total = int(out.split("\r  [1/", 1)[1].split("]", 1)[0])
    assert total > 40                                   # a whole firmware, file by file
    bar_lines = [line for line in out.split("\n") if "\r  [" in line]
    assert len(bar_lines) == 1, "%d lines of progress, not one" % len(bar_lines)
    assert "[%d/%d]" % (total, total) in bar_lines[0]
    assert "verified" in out


def _as_a_shell_starts_it():
    """A shell starts a foreground command with Ctrl-C's SIGINT at its
    default; a signal ignored by the process that starts a command stays
    ignored in it (and Python then installs no KeyboardInterrupt): under
    CI's pytest-xdist workers the tourney played on through the Ctrl-C
    until the test gave up (60 s)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_tourney(jobs):
    import signal
    master, slave = pty.openpty()
    p = subprocess.Popen(okgin_cmd("tourney", "easy", "greedy", "--games", "2000", "--jobs", str(jobs)),
                         cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                         text=True, start_new_session=True, preexec_fn=_as_a_shell_starts_it)
    os.close(slave)
    seen = b""
    end = time.monotonic() + 120
    while b"left" not in seen.rsplit(b"\r", 1)[-1] or b" 0/" in seen.rsplit(b"\r", 1)[-1]:
        assert time.monotonic() < end, seen[-500:]
        r, _, _ = select.select([master], [], [], 1)
        if r:
            seen += os.read(master, 4096)
    os.killpg(p.pid, signal.SIGINT)          # Ctrl-C, to the whole foreground group
    # The terminal is read on while the command ends, as a terminal does:
    # its last progress lines and the figures go there, and a pty nobody
    # reads fills up (a few KB) and blocks the writer for ever (a CI run
    # hung here, the tourney stopped in its write to the terminal).
    import threading
    more = []

    def drain():
        try:
            while True:
                chunk = os.read(master, 4096)
                if not chunk:
                    break
                more.append(chunk)
        except OSError:     # EIO: the command and every holder of the slave are gone
            pass
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        out, _ = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    reader.join(10)
    os.close(master)
    return p.returncode, out, (seen + b"".join(more)).decode("utf-8", "replace")


def test_tourney_shows_games_rate_and_time_left_and_ctrl_c_prints_the_figures_so_far():
    for jobs in (1, 2):
        status, out, err = _interrupt_tourney(jobs)
        line = err.rsplit("\r", 2)[-2] if err.count("\r") > 1 else err
        assert "/4000 games, " in line and "/s, about " in line and " left" in line, line
        assert status == 130, (jobs, out, err[-1000:])
        assert "Traceback" not in err, err[-3000:]
        head = out.splitlines()[0]
        assert head.startswith("stopped (Ctrl-C) after ") and " of 2000 seed pairs" in head, out
        played = int(head.split("after ")[1].split()[0])
        assert 1 <= played < 2000
        assert "easy vs greedy: %d games (%d seeds" % (2 * played, played) in out
        assert "easy wins" in out


def test_replay_prints_readable_text_in_an_80_column_terminal_and_braille_in_a_wide_one():
    rec = os.path.join(ROOT, "tests", "firmware", "fixtures", "v1-vs-easy.okg")
    status, out = run_in_terminal(["replay", rec], cols=80)
    assert status == 0, out[-2000:]
    from okgin.simui.textview import columns
    lines = out.replace("\r\n", "\n").split("\n")
    assert max(columns(line) for line in lines) <= 80, max(lines, key=columns)
    assert not any("\u2800" <= ch <= "\u28ff" for ch in out)          # no Braille
    assert "Player 1" in out and "Player 2" in out and "Deadwood" in out and "♦" in out
    status, out = run_in_terminal(["replay", rec], cols=200)
    assert status == 0
    assert sum("\u2800" <= ch <= "\u28ff" for ch in out) > 1000
