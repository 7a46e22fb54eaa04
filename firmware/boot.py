# okgin: runs at every power-up before main.py (MicroPython runs boot.py,
# then main.py; on the rp2 port an exception here skips main.py and leaves
# the board at its REPL). Two jobs, in this order:
# 1. Ctrl-C is a plain byte from its first instruction: a Ctrl-C here
#    would stop the boot at the REPL, where the saved game can be read
#    while the owner's lock is on (docs/reliability.md). main.py decides
#    whether the lock holds; until then nothing can interrupt.
# 2. An update `okgin flash` started and a power cut interrupted is
#    finished (docs/flashing.md). `okgin flash` runs this same part over the
#    REPL before and during each update. The journal (.staging/switch)
#    names the files; it goes only once no staged file it names is left,
#    so a power cut at any point is finished at the next boot.
# Kept as source on the flash (MicroPython runs only boot.py and main.py
# as files); written by `okgin flash` and the virtual board's populate.
import sys
while True:
    try:
        # the virtual board (unix port) stands in for the Pico's USB stack
        _k = __import__("vmachine" if sys.platform in ("linux", "darwin") else "micropython")
        _k.kbd_intr(-1)
        if _k:              # a Ctrl-C that came before the line above is raised here
            break
    except KeyboardInterrupt:
        pass
    except Exception:       # a port without kbd_intr: nothing to lock
        break
# -- okgin: finish an interrupted update --
import os  # noqa: E402 - after the lock, on purpose


def _okgin_switch():
    def ex(p):
        try:
            os.stat(p)
            return True
        except OSError:
            return False
    j = '.staging/switch'
    # littlefs settles a rename a power cut interrupted at its first write
    # (or remove) after power-up; until then it can hide another file of
    # that folder, the journal included (issue 29). This remove settles it.
    try:
        os.remove('.staging/.settle')
    except OSError:
        pass
    try:
        with open(j) as f:
            paths = f.read().split()
    except OSError:
        return 0
    left = paths
    for _ in range(4):
        for p in left:
            d = p.rsplit('/', 1)[0] if '/' in p else ''
            if d and not ex(d):
                os.mkdir(d)
            try:
                os.rename('.staging/' + p, p)
            except OSError as e:
                if e.args[0] == 2:
                    continue        # ENOENT: moved already
                os.remove(p)        # a filesystem whose rename does not replace
                os.rename('.staging/' + p, p)
        left = [p for p in paths if ex('.staging/' + p)]
        if not left:
            os.remove(j)            # every staged file is in place
            return len(paths)
    raise OSError('staged files left: %s' % ' '.join(left))


try:
    _okgin_switch()
except Exception as e:
    print('okgin boot:', e)
