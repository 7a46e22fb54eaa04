"""A private X server (Xvfb) for what draws a window where no display is:
``okgin screenshots``' sim.png, the printable case's pictures (OpenSCAD,
host/hardware/scad.py) and the simulator's window tests
(tests/sim/conftest.py). Xvfb picks a free display number itself and
writes it to a pipe (-displayfd), so two of them never race for one.

It runs with -noreset. By default an X server resets when its last client
leaves, and a client that connects during the reset is turned away
("Unable to open a connection to the X server"): two OpenSCAD pictures
drawn at once on one Xvfb, one ending as the other started, failed so
(exit -11, "Can't create OpenGL OffscreenView"; a busy-loop CI run of
2026-12-07). Two streams of short clients on a quiet PC: 19-28 of 300
turned away without it, 0 with it."""
import os
import shutil
import subprocess

from .errors import CommandError


def start(screen="1920x1080x24"):
    """An Xvfb of one ``screen`` (WxHxDEPTH) listening on no TCP port:
    (its process, the display's name ":N"). CommandError when Xvfb is not
    installed or does not start; ``stop`` ends it."""
    if not shutil.which("Xvfb"):
        raise CommandError("Xvfb is not installed (apt-get install xvfb)")
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp",
                             "-noreset"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        num = f.readline().strip()
    if not num:
        proc.kill()
        proc.wait(timeout=10)
        raise CommandError("Xvfb did not start")
    return proc, ":" + num


def stop(proc):
    """End an Xvfb that ``start`` started."""
    proc.terminate()
    proc.wait(timeout=10)
