"""``okgin flash``: compile the engine and firmware to .mpy and copy them onto
a MicroPython board, crash-safely (docs/flashing.md). The command: its
arguments and signals; the flashing itself is host/table/flashing.py."""
from .lib import transport
from .table.flashing import ROOT, check_inputs, flash_board


def configure(parser):
    from .table import options as table_options
    parser.add_argument("--port", help="serial port or pyserial URL of the board "
                        "(default: the one plugged-in Pico, found by its USB IDs)")
    parser.add_argument("--source", default=ROOT, help="firmware tree to flash "
                        "(with engine/, firmware/, hardware/board.json; default: the firmware of this "
                        "okgin, its checkout or its installed package)")
    table_options.add(parser, "board", help={
        "board": "board definition to write (default: SOURCE/hardware/board.json, the 4.2in "
                 "table; board-2in9.json: the 2.9in one)"})
    parser.add_argument("--no-reset", action="store_true", help="leave the board at the REPL")
    parser.epilog = ("examples:\n  okgin flash\n  okgin flash --port /dev/ttyACM1\n"
                     "  okgin board &  okgin flash --port /dev/pts/5   (the virtual board)\n")


def _stop_on_signal(*_):
    raise KeyboardInterrupt


def run(args):
    import signal
    # SIGTERM (kill, a closing IDE) and SIGHUP (a closed terminal) stop the
    # flash as Ctrl-C does: the board is reset into its game, not left at
    # its REPL (SIGKILL cannot be caught: the next power cycle does it)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, _stop_on_signal)
    from .table import options as table_options
    args.board = table_options.resolve(args).board
    check_inputs(args.source, args.board)
    port = transport.find_board(args.port)
    flash_board(port, src_root=args.source, reset=not args.no_reset, board_json=args.board)
    return 0
