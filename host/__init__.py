"""okgin host tool: simulator, virtual board, flashing and hardware-in-loop tests.

The host talks to boards (real or virtual) only through a serial transport.
"""
