"""Running OpenSCAD: exports (STL) and pictures (PNG, which need an X
display: a private Xvfb is started when there is none)."""
import os
import shutil
import subprocess
import time

from ..lib import xserver
from ..lib.errors import CommandError

INSTALL_HINT = "openscad is not installed (apt install openscad)"


def find_openscad():
    exe = os.environ.get("OKGIN_OPENSCAD") or shutil.which("openscad")
    if not exe or not os.access(exe, os.X_OK):
        raise CommandError(INSTALL_HINT)
    return exe


def _defines(defines):
    out = []
    for k, v in sorted(defines.items()):
        if isinstance(v, bool):
            val = "true" if v else "false"
        else:
            val = '"%s"' % v if isinstance(v, str) else repr(v)
        out += ["-D", "%s=%s" % (k, val)]
    return out


def start(scad, out, defines=None, extra=(), env=None):
    """Start one OpenSCAD export; returns the Popen (stderr captured)."""
    cmd = [find_openscad(), "-q", "-o", out] + _defines(defines or {}) + list(extra) + [scad]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)


def finish(proc, what, out):
    _, err = proc.communicate()
    text = err.decode("utf-8", "replace")
    if proc.returncode != 0 or not os.path.exists(out):
        lines = [ln for ln in text.splitlines() if ln.strip()]
        # its last three lines: the cause of "Can't create OpenGL
        # OffscreenView" is the line before it (no X server, ...)
        said = " / ".join(lines[-3:]) if lines else "no output"
        raise CommandError("openscad failed on %s (exit %d): %s" % (what, proc.returncode, said))
    return text


def run_all(jobs, parallel=2, progress=None):
    """Run (what, scad, out, defines, extra, env) jobs, ``parallel`` at a
    time. Returns {what: seconds}. A picture whose private X server went
    away while it was drawn (killed from outside: seen once in a CI run as
    "Can't create OpenGL OffscreenView") is drawn again on a new one, once."""
    pending = list(jobs)
    running: "list" = []
    times = {}
    again = set()
    while pending or running:
        while pending and len(running) < parallel:
            job = pending.pop(0)
            what, scad, out, defines, extra, env = job
            own = _OWN.get(id(env))
            shown_on = own.generation if own else None   # which X server it drew on
            running.append((job, start(scad, out, defines, extra, env), time.monotonic(), shown_on))
        job, proc, t0, shown_on = running.pop(0)
        what, out, env = job[0], job[2], job[5]
        try:
            finish(proc, what, out)
        except CommandError as e:
            display = _OWN.get(id(env))
            if what in again or display is None:
                raise
            if display.lost():
                if progress:
                    progress("%s: the X server went away (%s); starting another" % (what, e))
                display.restart()   # env is display.env: the jobs to come use the new one too
            elif shown_on == display.generation:
                raise               # it failed on a live X server: a real failure
            again.add(what)
            pending.insert(0, job)
            continue
        times[what] = time.monotonic() - t0
        if progress:
            progress("%s done in %.1f s" % (what, times[what]))
    return times


# Display objects by id(their env), for run_all's one retry
_OWN: "dict" = {}


class Display:
    """An X display for OpenSCAD's PNG export: $DISPLAY if set, else a
    private Xvfb (apt install xvfb), stopped on close()."""

    def __init__(self):
        self.proc = None
        self.generation = 0   # X servers started so far (a new one may get the old number)
        self.env = dict(os.environ)
        if os.environ.get("DISPLAY"):
            return
        if not shutil.which("Xvfb"):
            raise CommandError("the pictures need an X display or Xvfb (apt install xvfb); "
                               "--no-renders builds without them")
        self._start()
        _OWN[id(self.env)] = self

    def _start(self):
        # okgin.lib.xserver's: never reset when its last client leaves (two
        # pictures drawn at once, one ending as the other connects)
        self.generation += 1
        self.proc, self.env["DISPLAY"] = xserver.start("1280x1024x24")

    def lost(self):
        """Did our private Xvfb exit? (Never for a $DISPLAY we did not start.)"""
        return self.proc is not None and self.proc.poll() is not None

    def restart(self):
        self._stop()
        self._start()

    def close(self):
        self._stop()
        _OWN.pop(id(self.env), None)

    def _stop(self):
        if self.proc:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None
