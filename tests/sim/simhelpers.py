"""Helpers shared by the simulator tests (imported as a plain module: pytest
puts this directory on sys.path)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))


def have_vboard():
    try:
        from host.vboard import VirtualBoard  # noqa: F401
    except ImportError:
        return False
    return os.path.exists(os.path.join(ROOT, "firmware", "main.py"))


def env_with(**kw):
    env = dict(os.environ)
    env.update(kw)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def okgin_cmd():
    """The okgin command of this checkout, run with this Python; with the
    stand-in board when the real one is not in the tree yet."""
    if have_vboard():
        return [sys.executable, "-m", "host.cli"]
    return [sys.executable, os.path.join(HERE, "launch.py")]


def new_board(flash_dir, speed=0.0):
    """The real virtual board if it is in the tree, else the stand-in."""
    os.makedirs(flash_dir, exist_ok=True)
    if have_vboard():
        from host.simui.session import make_board
        return make_board(flash_dir=flash_dir, speed=speed)
    sys.path.insert(0, HERE)
    from standin import StandInBoard
    return StandInBoard(speed=speed)
