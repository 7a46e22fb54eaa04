"""SSD1683 e-paper controller emulation (host side, CPython): the 4.2"
400x300 panel of hardware/board.json, the default table (firmware/ssd1683.py
drives it).

The SSD1683 is the SSD1680's sibling: the same command set, decoded by the
same code (host/vboard/ssd1680.py, faithful on purpose: bytes while BUSY is
high or RST low are ignored, bytes in deep sleep are refused until a HW
reset, display mode 1 makes the ink equal to BW RAM, mode 2 drives only the
pixels where BW RAM differs from RED RAM, 0x21 A's RED option "bypass as 0"
makes RED RAM read as zeros), with what differs on the SSD1683 datasheet:

- RAM is 400 sources (RAM X 0..49, bytes of 8 pixels, bit 7 = the byte's
  lowest source) by 300 gates (RAM Y 0..299): MUX, windows and counters
  reach 299 gates and 50 bytes (the same register widths: X 6 bits, Y 9);
- the panel is landscape by nature: logical (x, y) is source x, gate y at
  rotation 0 and source 399-x, gate 299-y at rotation 180;
- refresh times of a 4.2" panel on its OTP waveforms: full 3.0 s (full
  refreshes of such modules take 2-4 s; this panel's OTP full waveform
  was not found timed, to be measured on a real one), partial 0.4 s
  (GxEPD2 measured 358 ms on a GDEY042T81); BUSY stays high that long;
- display update control 1's second byte (0x21 B) is recorded, not
  modelled (on the SSD1683 it selects the source output range of a
  cascaded pair; a single chip drives S0..S399 with 0x00).

The auto-write patterns (0x46/0x47) use the SSD1680's step table clipped
to this RAM; the driver does not use them.
"""
import time

from .ssd1680 import SSD1680

RAM_XBYTES = 50          # 400 sources
RAM_GATES = 300
T_FULL = 3.0
T_PARTIAL = 0.4


class SSD1683(SSD1680):
    """One SSD1683 plus its 4.2" panel (see SSD1680 for the interface)."""

    MODEL = "SSD1683"
    RAM_XBYTES = RAM_XBYTES
    RAM_GATES = RAM_GATES
    T_FULL = T_FULL
    T_PARTIAL = T_PARTIAL

    def __init__(self, sources=400, gates=300, rotation=0, speed=0.0,
                 clock=time.monotonic, seed=0x1683, name="panel"):
        super().__init__(sources=sources, gates=gates, rotation=rotation, speed=speed,
                         clock=clock, seed=seed, name=name)
