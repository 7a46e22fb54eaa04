"""okgin sim --chip in an 80x24 terminal (tmux): the emulated Pico's
start-up lines (the flash, READY) come before the view takes the screen,
and none is printed over its panels (they were, and stayed until the
terminal was resized)."""
import os
import shlex
import shutil
import subprocess
import time

import pytest

from tests.support.sim import ROOT, env_with, exit_status, okgin_cmd


def test_sim_chip_keeps_its_screen(rp2_images, tmp_path):
    if not shutil.which("tmux"):
        pytest.skip("tmux is not installed (apt install tmux) - needed to run the terminal UI")
    sock = "okgin-chip-tui-%d" % os.getpid()
    base = ["tmux", "-L", sock, "-f", "/dev/null"]

    def run(*args):
        return subprocess.run(base + list(args), capture_output=True, text=True, timeout=10)

    status = tmp_path / "exit"
    env = env_with(LANG="C.UTF-8", LC_ALL="C.UTF-8", XDG_DATA_HOME=str(tmp_path / "data"))
    cmd = " ".join(shlex.quote(a) for a in okgin_cmd() + ["sim", "--chip", "--tui", "--speed", "0"])
    shell = "cd %s && %s; echo $? > %s" % (shlex.quote(ROOT), cmd, shlex.quote(str(status)))
    assign = ["%s=%s" % (k, env[k]) for k in ("LANG", "LC_ALL", "XDG_DATA_HOME", "PYTHONPATH",
                                              "OKGIN_RP2_DIR") if env.get(k)]
    try:
        r = subprocess.run(base + ["new-session", "-d", "-s", "sim", "-x", "80", "-y", "24",
                                   "env"] + assign + ["sh", "-c", shell],
                           capture_output=True, text=True, env=env, timeout=10)
        assert r.returncode == 0, r.stderr
        end = time.monotonic() + 600
        screen = []
        while time.monotonic() < end:
            screen = run("capture-pane", "-p", "-t", "sim").stdout.splitlines()
            if any("board ready" in ln for ln in screen) and any("Oklahoma Gin" in ln for ln in screen):
                break
            time.sleep(0.5)
        else:
            raise AssertionError("the view never came up:\n" + "\n".join(screen))
        time.sleep(3)          # the panels drawn, anything late would show now
        screen = run("capture-pane", "-p", "-t", "sim").stdout.splitlines()
        text = "\n".join(screen)
        for stray in ("okgin: ", "verified", "board: MicroPython", "running: READY"):
            assert stray not in text, "%r printed over the view:\n%s" % (stray, text)
        run("send-keys", "-t", "sim", "Escape", "q")
        assert exit_status(status, 60) == "0"
    finally:
        run("kill-server")
