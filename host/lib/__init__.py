"""What the commands share: the serial transport to a board (transport),
one program per port and flash directory (locks), an action as button
presses (presses) and the firmware's files for a board's flash
(firmware_files). No command lives here."""
