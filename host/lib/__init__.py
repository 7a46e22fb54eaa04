"""The leaves every part of the host stands on, importing nothing of okgin
above them: the serial client of the firmware's protocol (transport), one
program per port and flash directory (locks), an action as button presses
(presses), what is on a board's flash: the firmware's files and the
player's (firmware_files), the .uf2 format (uf2image), the languages'
files (lang), the host's one error type (errors), and where okgin's own
files are, in a checkout or an installed wheel (paths). The table under
test built from them is okgin.table."""
