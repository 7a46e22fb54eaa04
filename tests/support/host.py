"""Shared by the host-tool tests (a unique module name: every test directory
has its own conftest, so `from conftest import` could find another one)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.dirname(sys.executable)


def okgin_cmd(*args):
    return [sys.executable, "-m", "okgin.cli"] + list(args)
