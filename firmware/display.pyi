# Types of display.py for mypy, with the driver contract as a Protocol
# (display.py explains it; MicroPython has no typing module, so the Protocol
# exists only here). tests/test_typecheck.py checks every driver in DRIVERS
# against it.
from typing import Callable, Optional, Protocol

import framebuf

DRIVERS: dict[str, str]


class EPDTimeout(OSError): ...


class Display(Protocol):
    BUSY_ACTIVE: int
    width: int       # logical: the panel's pixels / scale
    height: int
    scale: int
    rotation: int
    busy_timeout_ms: int
    fb: framebuf.FrameBuffer
    idle: Optional[Callable[[], object]]

    def show(self, full: bool = False) -> None: ...
    def busy(self) -> bool: ...
    def wait(self, idle: Optional[Callable[[], object]] = None) -> None: ...
    def sleep(self) -> None: ...
