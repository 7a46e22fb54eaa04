# The display-driver seam.
#
# board.json names each panel's controller; DRIVERS maps that name to the
# firmware module that drives it. boarddef.py accepts exactly these names,
# hal.py imports the module and builds its Display; app.py only ever uses
# the contract below, so a new controller is one driver module and one
# entry here (docs/firmware.md "Adding a display controller").
#
# The contract, written once: display.pyi states it as a typing.Protocol
# that mypy checks every driver against (tests/test_typecheck.py;
# MicroPython has no typing module, so it is not in this file):
#   Display(spi, cs, dc, rst, busy, width, height, rotation, busy_timeout_ms,
#           scale=1)
#     takes made Pin/SPI objects and calls only spi.write() and pin.value();
#     width and height are the panel's own pixels (board.json), scale the
#     panel's "scale" (1, or 2 where the driver can: the SSD1683)
#   .width, .height  the LOGICAL landscape size the app draws in: the
#                    panel's size / scale (200x150 on the 4.2" at scale 2)
#   .scale           the factor: the driver sends each pixel of fb as a
#                    scale x scale block of the panel's (so text and card
#                    art show scale times as big, for a frame buffer
#                    scale**2 times smaller); .rotation, .busy_timeout_ms
#   .fb              framebuf.FrameBuffer (MONO_VLSB, 1 = black ink) of the
#                    logical size the app draws in; never drawn into while
#                    busy() is True
#   .idle            None or a callable run while the driver waits inside
#   .BUSY_ACTIVE     the BUSY pin's level while the controller works (hal
#                    pulls the pin that way, so a missing panel reads busy)
#   show(full=False) start an update from fb and return; a controller
#                    without partial refresh refreshes in full
#   busy()           True while an update runs
#   wait(idle=None)  block until the update ends, calling idle()
#   sleep()          deep sleep; the next show() wakes the controller
# The one timeout path: an update that keeps BUSY active for longer than
# busy_timeout_ms raises EPDTimeout from busy(), wait() or show(), and the
# next show() resets the controller and refreshes in full. The app catches
# it (recover.py) and has no deadline of its own.

DRIVERS = {"SSD1680": "ssd1680", "UC8151": "uc8151", "SSD1683": "ssd1683"}


class EPDTimeout(OSError):
    """BUSY stayed active for longer than busy_timeout_ms."""
