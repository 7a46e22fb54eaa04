"""What the commands share, and no command: the serial client of the
firmware's protocol (transport), the table under test, either board, and
its factory (boards), the simulator's session on a board (session), one
program per port and flash directory (locks), an action as button presses
(presses), what is on a board's flash: the firmware's files and the
player's (firmware_files), and where okgin's own files are, in a checkout
or an installed wheel (paths)."""
