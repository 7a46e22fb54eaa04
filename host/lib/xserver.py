"""A private X server (Xvfb) for what draws a window where no display is:
``okgin screenshots``' sim.png and the simulator's window tests
(tests/sim/conftest.py). Xvfb picks a free display number itself and
writes it to a pipe (-displayfd), so two of them never race for one."""
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
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp"],
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
