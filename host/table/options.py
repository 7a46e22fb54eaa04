"""The options that choose and shape a table under test, declared and
checked in one place for every command that opens one (sim, board, hil,
replay, faults, stats, the bench suites, web, screenshots, flash, uf2):
``--chip``, ``--board``, ``--speed``, ``--heapsize``, ``--flash-dir``.

``add(parser, "board", "speed", ...)`` declares the ones a command takes;
``resolve(args)`` checks them against the world and gives a
``TableOptions``, what ``open_table`` (and make_board) take. Two kinds of
mistake, two exit codes, the same line from every command:

- a value that cannot be one (``--speed fast``, ``--speed -1``,
  ``--heapsize 10x``) is refused by the parser: exit 2,
  ``okgin CMD: error: argument --speed: ...``, as every other malformed
  option value of okgin;
- a value the world does not bear out (``--board missing.json``, a board
  definition the firmware refuses, ``--flash-dir`` on a file or nowhere,
  ``--heapsize`` or ``--flash-dir`` with ``--chip``) is a CommandError:
  exit 1, ``okgin: ...``, before anything is started or written.

docs/architecture.md ("Table options") lists which command takes which
option and their defaults."""
import argparse
import math
import os
from dataclasses import dataclass
from typing import Any

from ..lib.errors import CommandError

SPEED_MAX = 100.0
NAMES = ("chip", "board", "speed", "heapsize", "flash_dir")

HELP = {
    "chip": "on the emulated Pico (stock MicroPython rp2; docs/emulated-pico.md)",
    "board": "board definition (default hardware/board.json, the 4.2in table; "
             "board-2in9.json: the 2.9in one)",
    "speed": "e-ink speed: 1 = a real panel's refresh times, 0 = instant (up to 100)",
    "heapsize": "the virtual board's MicroPython heap, e.g. 208K (default 208K, the "
                "firmware's budget on this port: docs/memory.md)",
    "flash_dir": "the virtual board's flash: a directory kept between runs",
}


def speed(text):
    """``--speed``'s value: a number from 0 (instant e-ink) to 100."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r (0 = instant e-ink, 1 = a real "
                                         "panel's times)" % text) from None
    if not (math.isfinite(v) and 0 <= v <= SPEED_MAX):
        raise argparse.ArgumentTypeError("%s: must be between 0 (instant e-ink) and %g "
                                         "(1 = a real panel's times)" % (text, SPEED_MAX))
    return v


def heapsize(text):
    """``--heapsize``'s value: bytes, or kilobytes/megabytes with K or M
    (as MicroPython's ``-X heapsize``), more than none; written as given
    (upper case)."""
    h = text.strip().upper()
    num = h[:-1] if h[-1:] in ("K", "M") else h
    if not num.isdigit() or int(num) <= 0:
        raise argparse.ArgumentTypeError("%r: expected bytes like 131072, 128K or 1M" % text)
    return h


TYPES: "dict[str, Any]" = {"speed": speed, "heapsize": heapsize}
METAVARS = {"board": "FILE", "speed": "X", "heapsize": "SIZE", "flash_dir": "DIR"}


def add(parser, *names, help=None, defaults=None):
    """Declare the table options ``names`` (of NAMES) on ``parser`` (or an
    argument group): the same spelling, type, metavar and checks for every
    command; ``help`` and ``defaults`` ({name: ...}) for what is the
    command's own (speed's default: None when not given)."""
    for name in names:
        if name not in NAMES:
            raise ValueError("no table option %r (%s)" % (name, ", ".join(NAMES)))
        flag = "--" + name.replace("_", "-")
        text = (help or {}).get(name, HELP[name])
        if name == "chip":
            parser.add_argument(flag, action="store_true", help=text)
            continue
        kw: "dict[str, Any]" = {"metavar": METAVARS[name], "help": text,
                                "default": (defaults or {}).get(name)}
        if name in TYPES:
            kw["type"] = TYPES[name]
        parser.add_argument(flag, **kw)


@dataclass
class TableOptions:
    """The table a command's options ask for, checked: ``kind`` "vboard" or
    "chip"; ``board`` a board definition that exists and the firmware
    accepts (absolute), or None for the command's default; ``speed``,
    ``heapsize`` (None: the default), ``flash_dir`` (absolute, or None)."""
    kind: str = "vboard"
    board: "str | None" = None
    speed: "float | None" = None
    heapsize: "str | None" = None
    flash_dir: "str | None" = None

    @property
    def chip(self):
        return self.kind == "chip"

    def table_options(self):
        """The keywords open_table takes from these (speed, and the virtual
        board's heapsize; the board goes to it as ``board``)."""
        out: "dict[str, Any]" = {}
        if self.speed is not None:
            out["speed"] = self.speed
        if self.heapsize is not None and not self.chip:
            out["heapsize"] = self.heapsize
        if self.board is not None:
            out["board"] = self.board
        return out

    def open(self, work, name, **more):
        """open_table with these options (``more``: the rest, e.g. settings)."""
        from .table import open_table
        return open_table(self.kind, work, name, **dict(self.table_options(), **more))


def check_board(name):
    """A --board value as the absolute path of a board definition that
    exists and that the firmware's own validator accepts (a name under
    hardware/ works from any folder); else a one-line CommandError."""
    from ..lib.build import validate_board
    from ..lib.paths import resolve_board
    path = os.path.abspath(resolve_board(os.path.expanduser(name)))
    if not os.path.isfile(path):
        raise CommandError("board definition %s not found" % path)
    validate_board(path)
    return path


def check_flash_dir(name, missing=None):
    """A --flash-dir value as an absolute path; a file there is refused,
    and so is no directory there when ``missing`` says what makes one (the
    hint in the message; None: it is made when needed)."""
    path = os.path.abspath(os.path.expanduser(name))
    if os.path.exists(path) and not os.path.isdir(path):
        raise CommandError("--flash-dir %s is not a directory" % path)
    if missing and not os.path.isdir(path):
        raise CommandError("--flash-dir %s does not exist (mistyped? %s)" % (path, missing))
    return path


# what a virtual board's option is on the emulated Pico, said alike by every command
NOT_ON_CHIP = {
    "heapsize": "the emulated Pico has the rp2 port's heap",
    "flash_dir": "the emulated Pico's flash is a 2 MB image file",
}


def resolve(args, flash_dir_missing=None):
    """The table options on ``args`` (those the command declared with
    ``add``) checked, as a TableOptions; each mistake is one CommandError
    line (exit 1) raised before anything starts. ``flash_dir_missing``:
    see check_flash_dir."""
    chip = bool(getattr(args, "chip", False))
    if chip:
        for name, why in NOT_ON_CHIP.items():
            if getattr(args, name, None):
                raise CommandError("--%s is for the virtual board, not --chip (%s)"
                                   % (name.replace("_", "-"), why))
    board = getattr(args, "board", None)
    flash_dir = getattr(args, "flash_dir", None)
    return TableOptions(kind="chip" if chip else "vboard",
                        board=check_board(board) if board else None,
                        speed=getattr(args, "speed", None),
                        heapsize=getattr(args, "heapsize", None),
                        flash_dir=check_flash_dir(flash_dir, flash_dir_missing) if flash_dir else None)
