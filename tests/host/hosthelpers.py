"""Shared by the host-tool tests (a unique module name: every test directory
has its own conftest, so `from conftest import` could find another one)."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython") if os.path.exists(os.path.join(BIN, "micropython")) \
    else shutil.which("micropython")


def okgin_cmd(*args):
    return [sys.executable, "-m", "okgin.cli"] + list(args)
