"""The table under test: what the virtual board and the emulated Pico both
offer (``EmulatedBoard``), and one factory that makes either (``make_board``,
``start_board``).

The two boards run the same firmware behind a serial port that pyserial,
mpremote and ``okgin flash`` open like a Pico's /dev/ttyACM0
(``okgin.lib.transport`` speaks to it); around the chip each has the same
hands and eyes: a finger on the buttons, the panels' ink and refresh
counts, the turn LEDs, the power switch. ``EmulatedBoard`` is that
contract; mypy checks both classes against it where the factory builds
them (tests/test_typecheck.py), so a method one board lacks, or takes
other arguments, fails the type check and not a front end at run time.

A real Pico offers only its port: code that also runs against one (okgin
hil) asks ``Target.board`` for the rest.
"""
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Protocol, overload

from ..lib.errors import CommandError

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..chip.chipboard import ChipBoard
    from ..vboard.vboard import VirtualBoard

# kind -> what it is (okgin board/sim/hil --chip choose the emulated Pico)
KINDS = {
    "vboard": "the virtual board (the firmware under MicroPython's unix port, docs/virtual-board.md)",
    "chip": "the emulated Pico (stock MicroPython rp2 on an emulated RP2040, docs/emulated-pico.md)",
}


class EmulatedBoard(Protocol):
    """A table under test: the firmware running on an emulated board whose
    buttons, panels, LEDs and power the host controls. Players are 0 and
    1; buttons are hardware/board.json's names (left, right, ok, draw,
    take, knock).

    ``on_event`` (None, or a callable) is called from the board's own
    thread with ``("refresh", player, "full"|"partial", seconds)`` when a
    panel starts a refresh, ``("ended", player)`` when it is over,
    ``("reset",)`` after machine.reset() or a power cycle, and
    ``("exit", status, ...)`` when the firmware's process ends."""

    on_event: Optional[Callable[[tuple], Any]]

    @property
    def port(self) -> Optional[str]:
        """The serial port (a pty path) once started; the same across
        resets and power cycles."""

    @property
    def board(self) -> "dict[str, Any]":
        """The board definition it is wired by (hardware/board.json's)."""

    @property
    def alive(self) -> bool:
        """Is the firmware's processor running (powered, not crashed)?"""

    # -- power -------------------------------------------------------------
    def start(self) -> "EmulatedBoard":
        """Power on (again, after kill()); returns at once, the firmware boots."""

    def kill(self) -> None:
        """Power cut: the processor stops wherever it is; the flash keeps
        what was written, the panels their ink. start() boots again."""

    def power_cycle(self) -> None:
        """kill(), then power on again (the port stays the same)."""

    def stop(self) -> None:
        """Power off for good and free everything (processes, temporary
        files, the flash's lock)."""

    def __enter__(self) -> "EmulatedBoard": ...

    def __exit__(self, *exc: object) -> None: ...

    # -- the players' hands ------------------------------------------------
    def press(self, player: int, button: str, long: bool = False,
              bounce_ms: float = 0.0) -> object:
        """Press and release as a person does (long: past long_press_ms),
        held until the firmware has seen it; ``bounce_ms`` of contact
        chatter at each edge."""

    def hold(self, player: int, button: str) -> None:
        """The button goes down and stays down until release()."""

    def release(self, player: int, button: str) -> None: ...

    # -- what the players see ----------------------------------------------
    def led(self, player: int) -> bool:
        """Is the player's turn LED lit?"""

    def panel(self, player: int) -> Any:
        """That player's panel controller emulation (okgin.vboard.ssd1680)."""

    def panel_image(self, player: int) -> "Image":
        """What the ink shows: PIL image, mode "1", 296x128 as the player reads it."""

    def panel_bytes(self, player: int) -> bytes:
        """The same, as rows of 1-bit pixels, MSB first, 1 = black (the
        firmware's ``screen`` answer before hex)."""

    def refresh_counts(self, player: int) -> "dict[str, int]":
        """{"full": n, "partial": n} refreshes of that panel so far."""

    def stats(self, player: int) -> "dict[str, Any]":
        """The panel's counters (refreshes, ink_seconds, commands, resets...)."""

    def reset_stats(self) -> None: ...

    def settle(self) -> None:
        """Apply every pin and SPI write the firmware made so far (called
        by the observers above: after an answer is read, they see what the
        firmware did before it)."""

    def set_fault(self, player: int, busy_stuck: bool = True) -> None:
        """Fault injection: that panel's BUSY line stays high."""

    def timing_ms(self, key: str, default: float) -> float:
        """A timing value of the board definition (debounce_ms, long_press_ms...)."""

    def patience_clock(self) -> "Callable[[], float]":
        """What waits for its firmware count their timeouts in (seconds):
        the wall clock on the virtual board, which runs at the host's
        pace; the chip's own time on the emulated Pico, so that a busy host
        makes those waits longer, never failed (transport.Board's clock)."""


@overload
def make_board(kind: Literal["vboard"] = ..., *, board: "str | dict | None" = None,
               eink: float = 1.0, flash: "str | None" = None, **options: Any) -> "VirtualBoard": ...


@overload
def make_board(kind: Literal["chip"], *, board: "str | dict | None" = None,
               eink: float = 1.0, flash: "str | None" = None, **options: Any) -> "ChipBoard": ...


@overload
def make_board(kind: str, *, board: "str | dict | None" = None,
               eink: float = 1.0, flash: "str | None" = None, **options: Any) -> EmulatedBoard: ...


def make_board(kind: str = "vboard", *, board: "str | dict | None" = None, eink: float = 1.0,
               flash: "str | None" = None, **options: Any) -> Any:
    """An emulated board of ``kind`` ("vboard" or "chip"), not started yet
    (set ``on_event`` first, then ``start()`` or ``with``).

    Both take ``board`` (a board definition file or dict; default
    hardware/board.json), ``eink`` (a panel's refresh times: 1 = a real
    panel's, 0 = instant) and ``flash`` (the board's flash, kept between
    runs: a directory laid out like the Pico's for the virtual board, a 2 MB
    image file for the emulated Pico; None: a temporary one, with this
    checkout's firmware on the virtual board's, MicroPython alone on the
    chip's).

    The other options are the kind's own: the virtual board's
    ``populate`` (bring the firmware on ``flash`` up to date with this
    checkout, compiled as okgin flash puts it on a Pico; the player's files
    are kept), ``heapsize``, ``compiled``, ``lock``, ``crash_restarts``,
    ``main_py``, ``micropython``, ``link``; the emulated Pico's
    ``realtime`` (False: a sleeping chip jumps to its next event),
    ``firmware`` (a MicroPython .uf2 to write first), ``bootrom``,
    ``download``, ``out``, ``drop`` (a .uf2 dragged onto its bootrom's USB
    drive at the first power-on, BOOTSEL held). Another kind's option is a CommandError naming
    the kind it belongs to."""
    if kind not in KINDS:
        raise CommandError("no board kind %r (choose %s)" % (kind, " or ".join(KINDS)))
    _check_options(kind, options)
    common = {"board": board} if board is not None else {}
    if kind == "chip":
        from ..chip.chipboard import ChipBoard
        chip: EmulatedBoard = ChipBoard(flash=flash, eink=eink, **common, **options)
        return chip
    from ..vboard.vboard import VirtualBoard
    if options.pop("populate", False):
        if flash is None:
            raise CommandError("populate needs a flash directory (a temporary one is always up to date)")
        from ..vboard.flash import populate
        defn = board if isinstance(board, str) else None
        populate(flash, board=defn, compiled=options.get("compiled", True))
    vb: EmulatedBoard = VirtualBoard(flash_dir=flash, speed=eink, **common, **options)
    return vb


@overload
def start_board(kind: Literal["vboard"] = ..., **kw: Any) -> "VirtualBoard": ...


@overload
def start_board(kind: Literal["chip"], **kw: Any) -> "ChipBoard": ...


@overload
def start_board(kind: str, **kw: Any) -> EmulatedBoard: ...


def start_board(kind: str = "vboard", **kw: Any) -> Any:
    """make_board(kind, **kw), powered on (stopped again if that fails)."""
    b = make_board(kind, **kw)
    try:
        b.start()
    except BaseException:
        b.stop()
        raise
    return b


_OWN = {
    "vboard": ("populate", "heapsize", "compiled", "lock", "crash_restarts", "main_py",
               "micropython", "link"),
    "chip": ("realtime", "firmware", "bootrom", "download", "out", "drop"),
}


def _check_options(kind, options):
    for name in options:
        if name in _OWN[kind]:
            continue
        other = [k for k, own in _OWN.items() if name in own]
        if other:
            raise CommandError("%s is an option of %s, not of %s"
                               % (name, _short(other[0]), _short(kind)))
        raise CommandError("unknown board option %r" % name)


def _short(kind):
    return {"vboard": "the virtual board", "chip": "the emulated Pico"}[kind]
