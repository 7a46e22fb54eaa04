"""`okgin` with the stand-in board, for front-end tests while host.vboard is
not in the tree (python tests/sim/launch.py sim --tui ...)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from host import cli
from host.simui import session
from standin import StandInBoard

session.make_board = lambda flash_dir=None, speed=0.0, board_path=None, heapsize=None: StandInBoard(speed=speed)

if __name__ == "__main__":
    sys.exit(cli.main())
