"""Boot: board definition -> hardware -> app, serving the serial protocol.

Runs from the flash root (firmware modules flat, engine/ package,
board.json). A board definition that does not validate is reported on the
serial port (``ERR board.json: ...``) and the firmware stops at the REPL
instead of crash-looping.
"""
import gc
import sys


def _boarddef():
    import boarddef
    return boarddef


def main():
    # Collect after every 4 KB allocated, not only when the heap is full:
    # garbage is freed while it is still small, so what lives on (modules,
    # the match) packs into the low holes instead of being spread between
    # dead objects over the whole heap. Measured (docs/memory.md): the
    # smallest heap that plays a hand went 144K -> 136K (two players) and
    # 152K -> 148K (vs hard). A collection costs a few ms; a cursor move
    # allocates ~18 KB on the unix port.
    gc.threshold(4096)
    boarddef = _boarddef()
    try:
        board = boarddef.load("board.json")
    except (boarddef.BoardError, OSError, ValueError) as e:
        sys.stdout.write("ERR board.json: %s\n" % e)
        return
    # The validator is only needed once: drop it (about 11 KB of heap on the
    # unix port) before the engine and the app are loaded.
    del sys.modules["boarddef"]
    boarddef = None
    gc.collect()
    import hal
    gc.collect()
    try:
        hw = hal.Hardware(board)
    except ValueError as e:   # a panel its driver cannot drive (size, rotation)
        sys.stdout.write("ERR board.json: %s\n" % e)
        return
    gc.collect()
    import app as _app
    import protocol
    a = _app.App(hw, board)
    # this frame lives as long as the game: let the board definition go
    # (App and hal keep only what they need, docs/memory.md)
    board = None
    gc.collect()
    # buttons keep being polled while a driver waits on BUSY (wake-up)
    for d in hw.displays:
        d.idle = hw.buttons.poll
    a.run(protocol.Protocol(a))


main()
