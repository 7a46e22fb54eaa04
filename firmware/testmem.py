"""Test mode's heap and timing commands (docs/protocol.md): ``mem [block]``
and ``bottimes``. testcmds.py loads this module for them and drops it
after, so the commands that play a test's game stay small."""
import gc


def dispatch(proto, cmd, w):
    app = proto.app
    if cmd == "mem":
        if len(w) > 2 or (len(w) == 2 and w[1] != "block"):
            return proto.send("ERR usage: mem [block]")
        gc.collect()
        a = gc.mem_alloc()
        if a > app.peak:
            app.peak = a
        line = "OK alloc=%d free=%d peak=%d" % (a, gc.mem_free(), app.peak)
        if len(w) == 2:
            line += " block=%d" % largest_block()
        return proto.send(line)
    if cmd == "bottimes":
        if len(w) != 1:
            return proto.send("ERR bottimes takes no arguments")
        # the computer's decisions since the last bottimes (botturn.py:
        # from asking it to move to the move applied; the newest 128),
        # then starts afresh; the first one since test mode was switched
        # on starts the recording
        t = app.bot_us or ()
        app.bot_us = []
        return proto.send("OK n=%d us=%s" % (len(t), ",".join(str(x) for x in t)))


def largest_block():
    """The largest allocation the heap can make now (bytes): its largest
    free run, found by allocating (a heap that fragments shows it here
    before it shows in the free total)."""
    gc.collect()
    lo = 0
    hi = gc.mem_free()
    while hi - lo > 16:
        mid = (lo + hi) // 2
        try:
            bytearray(mid)     # made and dropped at once: only whether it fits
            lo = mid
        except MemoryError:
            hi = mid
    gc.collect()
    return lo
