"""Helpers shared by the simulator tests (imported as a plain module: pytest
puts this directory on sys.path). Every test runs the real virtual board
(okgin.vboard) with the real firmware of this checkout."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def env_with(**kw):
    env = dict(os.environ)
    env.update(kw)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def okgin_cmd():
    """The okgin command of this checkout, run with this Python."""
    return [sys.executable, "-m", "okgin.cli"]


def new_board(flash_dir, speed=0.0):
    """A virtual board on flash_dir, prepared as `okgin sim` prepares it."""
    from okgin.table.session import make_board
    os.makedirs(flash_dir, exist_ok=True)
    return make_board(flash_dir=flash_dir, speed=speed)
