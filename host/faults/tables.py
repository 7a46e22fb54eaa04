"""The tables the campaign drives: the virtual board (CampaignTable) and
the emulated Pico (CampaignChipTable), okgin.table's tables with the
campaign's own knobs: the damage rows' huge files, the serial row's long
lines, a flash filled to the brim. A row gets the table class and makes
its own tables with it."""
import os

from ..lib.errors import CommandError
from ..table.table import ChipTable, Table


class CampaignTable(Table):
    """The virtual board, as okgin.table.table.Table, for the campaign."""

    huge_sizes = (100 * 1024, 300 * 1024, 1024 * 1024)   # the damage row's huge files
    long_line = 1024 * 1024     # the serial row's over-long lines

    def fill(self, name, head, unit, leave):
        """With the power off: ``name`` becomes ``head`` then ``unit`` again
        and again, ``leave`` bytes short of filling the flash (a host
        directory here: ``leave`` is taken as the junk's size instead);
        then power on. Returns the file's size."""
        self.cut()
        with open(self.path(name), "wb") as f:
            f.write(head)
            f.write(unit * (leave // len(unit)))
        size = os.path.getsize(self.path(name))
        self.on()
        return size


class CampaignChipTable(ChipTable):
    """The emulated Pico for the campaign: the rows that run on it look at
    test mode's own game (``record``, the same store code and files) and
    read the real game's file only where they must (each look at its flash
    is a trip to its REPL)."""

    # a file goes onto the chip as hex through its raw REPL
    huge_sizes = (16 * 1024, 32 * 1024, 64 * 1024)
    # it took in under 1 MB in 3,000 s on a loaded machine (a byte per
    # read, docs/reliability.md): 64 KB lines there
    long_line = 64 * 1024

    def fill(self, name, head, unit, leave):
        """Through the chip's REPL: ``name`` becomes ``head`` then ``unit``
        again and again until the filesystem has about ``leave`` bytes
        free (written on the chip: nothing large goes over the port); the
        old files of the game go first. Returns the file's size."""
        code = ("import os, binascii\n"
                "for _n in ('game.okg', 'game.bad', 'game.tmp', 'game.fix', 'x.tmp'):\n"
                " try:\n  os.remove(_n)\n except OSError:\n  pass\n"
                "_v = os.statvfs('/')\n"
                "_room = _v[0] * _v[3] - %d - %d\n"
                "_u = binascii.unhexlify(%r) * 64\n"
                "with open('x.tmp', 'wb') as f:\n"
                " f.write(binascii.unhexlify(%r))\n"
                " try:\n"
                "  while _room >= len(_u):\n"
                "   f.write(_u)\n"
                "   _room -= len(_u)\n"
                " except OSError as e:\n"
                "  print('FULL', e)\n"
                "os.rename('x.tmp', %r)\n"
                "print('SIZE', os.stat(%r)[6])\n"
                % (leave, len(head), unit.hex(), head.hex(), name, name))
        out = self.at_repl(lambda r: r.run(code, what="the emulated Pico")).decode()
        for line in out.splitlines():
            if line.startswith("SIZE "):
                return int(line.split()[1])
        raise CommandError("the emulated Pico did not fill %s: %r" % (name, out[-200:]))
