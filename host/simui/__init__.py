"""Front ends of ``okgin sim``: a Tk window, a terminal UI and a headless
script runner, all driving one board through okgin.table.session's
:class:`Session` (opened by its ``open_session``), with workers.py's
threads beside them so that no UI waits on the board.

Nothing here talks to pins or the panel emulation directly: presses go
through the board's button API (the same pins the firmware polls) and
everything else through the board's serial port, like a real Pico.
"""
