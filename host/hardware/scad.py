"""Running OpenSCAD: exports (STL) and pictures (PNG, which need an X
display: a private Xvfb is started when there is none)."""
import os
import shutil
import subprocess
import time

from host.errors import CommandError

INSTALL_HINT = "openscad is not installed (apt install openscad)"


def find_openscad():
    exe = os.environ.get("OKGIN_OPENSCAD") or shutil.which("openscad")
    if not exe or not os.access(exe, os.X_OK):
        raise CommandError(INSTALL_HINT)
    return exe


def _defines(defines):
    out = []
    for k, v in sorted(defines.items()):
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
        raise CommandError("openscad failed on %s: %s" % (what, lines[-1] if lines else "exit %d" % proc.returncode))
    return text


def run_all(jobs, parallel=2, progress=None):
    """Run (what, scad, out, defines, extra) jobs, ``parallel`` at a time.
    Returns {what: seconds}."""
    pending = list(jobs)
    running: "list" = []
    times = {}
    while pending or running:
        while pending and len(running) < parallel:
            what, scad, out, defines, extra, env = pending.pop(0)
            running.append((what, out, start(scad, out, defines, extra, env), time.monotonic()))
        what, out, proc, t0 = running.pop(0)
        finish(proc, what, out)
        times[what] = time.monotonic() - t0
        if progress:
            progress("%s done in %.1f s" % (what, times[what]))
    return times


class Display:
    """An X display for OpenSCAD's PNG export: $DISPLAY if set, else a
    private Xvfb (apt install xvfb), stopped on close()."""

    def __init__(self):
        self.proc = None
        self.env = dict(os.environ)
        if os.environ.get("DISPLAY"):
            return
        xvfb = shutil.which("Xvfb")
        if not xvfb:
            raise CommandError("the pictures need an X display or Xvfb (apt install xvfb); "
                               "--no-renders builds without them")
        r, w = os.pipe()
        self.proc = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", "1280x1024x24",
                                      "-nolisten", "tcp"], pass_fds=(w,),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            num = f.readline().strip()
        if not num:
            self.close()
            raise CommandError("Xvfb did not start")
        self.env["DISPLAY"] = ":" + num

    def close(self):
        if self.proc:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None
