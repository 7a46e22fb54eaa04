"""What the commands share: the serial transport to a board (transport),
one program per port and flash directory (locks), an action as button
presses (presses), the firmware's files for a board's flash
(firmware_files) and where okgin's own files are, in a checkout or an
installed wheel (paths). No command lives here."""
