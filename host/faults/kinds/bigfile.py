"""Row "bigfile": a saved game followed by a huge damaged part, up to a
nearly full filesystem on the emulated Pico (the issue's 630-947 KB of junk
lines after 16 good actions lost the game there: its repair copied the
whole file and littlefs ran out of room). Survived: the good part resumes
exactly, the whole damaged file is kept as game.bad, the table is never
stuck on an error screen (issue 29, item 1)."""
from ..judge import judge_damage
from ..registry import Kind
from ..play import engine_bases
from ..tally import Row

UNITS = (b"12 0 discard 7h ;00000000\n", b"\x00" * 26, b"junk junk junk junk junk\n",
         bytes(range(256)))
# free room left on the chip's filesystem, bytes: down to a single 4 KB block
LEAVE_CHIP = (4096, 8192, 16384, 65536, 262144)
# game.okg is read back (through the chip's REPL, into its heap) up to this size
READ_MAX = 64 * 1024
# the junk's size on the virtual board (a host directory: no room to run out of)
SIZE_VBOARD = (1 << 20, 3 << 20, 8 << 20)


def run(table, n, rng, work, log):
    r = Row("bigfile")
    t = table(work, "bigfile")
    t.on()
    sizes = []
    try:
        bases = [b for b, _ in engine_bases(rng)]
        for i in range(n):
            base = bases[i % len(bases)]
            # the good part: the header and some of the actions
            lines = base.split(b"\n")[:-1]
            k = rng.randint(3, len(lines))
            good = b"".join(x + b"\n" for x in lines[:k])
            unit = UNITS[i % len(UNITS)]
            leave = rng.choice(LEAVE_CHIP if not t.cheap_files else SIZE_VBOARD)
            size = t.fill("game.okg", good, unit, leave)
            junk = (unit * ((size - len(good)) // len(unit) + 1))[:size - len(good)]
            damaged = good + junk
            sizes.append(size)
            t.sync()
            st = t.status()
            what = "%d good lines + %d KB of %r..." % (k, len(junk) // 1024, unit[:12])
            # game.okg read back only if it was repaired: the damaged file
            # whole would not fit the chip's heap (before the fix it stayed)
            look = t.session(digest=("game.okg", "game.bad"))
            okg = look["game.okg"]
            if st["screen"] == "error":
                r.bad("stuck", "%s: the error screen at boot" % what)
            elif okg is not None and okg[1] > READ_MAX:
                r.bad("lost", "%s: game.okg left as a %d KB file, the good part not resumed"
                      % (what, okg[1] // 1024))
            else:
                if okg is not None:
                    look.update(t.session(read=("game.okg",)))
                verdict, why = judge_damage(st, look["game.okg"], look["game.bad"], base,
                                             damaged, good)
                if verdict == "ok":
                    r.ok()
                else:
                    r.bad(verdict, "%s: %s" % (what, why))
            log("bigfile", r)
        r.info.append("damaged records of %d-%d KB%s" % (
            min(sizes) // 1024, max(sizes) // 1024,
            "" if t.cheap_files else ", the filesystem left with 4-256 KB free"))
    finally:
        t.stop()
    return r


KIND = Kind(
    name="bigfile", order=12,
    goal="a saved game with a huge damaged part, up to a nearly full filesystem: the good "
         "part resumed, the whole damaged file kept as game.bad, never stuck",
    sizes={"quick": 2, "long": 30, "chip_quick": 1, "chip_long": 100},
    run=run)
