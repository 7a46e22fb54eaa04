"""How the firmware is laid out and compiled for a board's flash: shared by
`okgin flash` (host/flash.py) and the virtual board (host/vboard/flash.py),
so the board in CI runs exactly what a Pico gets."""

# mpy-cross options for every module. -O3 drops line numbers and asserts
# from the bytecode: about 2 KB less code on the 64-bit virtual board's heap
# (docs/memory.md). A traceback on the device then names the functions, not
# the lines; the firmware has no asserts.
MPY_FLAGS = ("-O3",)
