"""Front ends of ``okgin sim``: a Tk window, a terminal UI and a headless
script runner, all driving one virtual board through :class:`Session`.

Nothing here talks to pins or the panel emulation directly: presses go
through the virtual board's button API (the same pins the firmware polls)
and everything else through the board's serial port, like a real Pico.
"""
