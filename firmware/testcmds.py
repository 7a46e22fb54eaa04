"""Test-mode serial commands (docs/protocol.md): press, screen, newgame,
record, mem, bottimes, entropy, reset. Loaded for each of them and dropped after it
(protocol.py), so test mode plays in the heap a real game has; mem and
bottimes are testmem.py's."""

try:
    from binascii import hexlify
except ImportError:
    from ubinascii import hexlify  # type: ignore[no-redef]

from buttons import NAMES as BUTTON_NAMES   # loaded with hal: no new module


def dispatch(proto, cmd, w):
    """One command; "drain" when the app is to handle and redraw what a
    press queued (protocol.py does that once this module is dropped, so a
    test's game presses its buttons in the heap a real game has)."""
    # a small function a command, named as the command (names the
    # protocol has interned already): a module's code is loaded a
    # function at a time, and in the coach's Korean game at 156K the
    # whole chain as one function (556 bytes of bytecode) found no hole
    return globals()[cmd](proto, proto.app, w)


def press(proto, app, w):
    if len(w) not in (3, 4) or w[1] not in ("0", "1") \
            or w[2] not in BUTTON_NAMES \
            or (len(w) == 4 and w[3] != "long"):
        return proto.send(
            "ERR usage: press 0|1 left|right|ok|draw|take|knock [long]")
    pw = app.power
    if pw.sleeping:
        return proto.send("ERR the table is asleep: a button wakes it")
    if not pw.woken(app):
        return proto.send("ERR the table is waking up: sync first")
    # queued through the button driver like a real press; protocol.py
    # then has everything queued handled and redrawn
    app.buttons.inject(int(w[1]), w[2], "long" if len(w) == 4 else "short")
    return "drain"


def newgame(proto, app, w):
    opts = {}
    for a in w[1:]:
        k, sep, v = a.partition("=")
        if not sep or not k or not v:
            return proto.send("ERR expected name=value, got %s" % a[:40])
        opts[k] = v
    import newgame   # not the menu's pages and drawing (newgame.py)
    got = newgame.newgame_from(app, opts)
    if isinstance(got, str):
        if app.mode != "menu":
            app.drop_menu()   # as during play: not loaded
        return proto.send("ERR " + got)
    app.new_game(got)   # a ValueError here is an ERR too (protocol.py)
    return proto.send("OK")


def record(proto, app, w):
    if len(w) != 1:
        return proto.send("ERR record takes no arguments")
    m = app.match
    if m is None:
        return proto.send("OK lines=0")
    # line by line, never the whole text (a long game's record is KBs)
    n = 0
    for _ln in m.record_lines():
        n += 1
    proto.send("OK lines=%d" % n)
    for ln in m.record_lines():
        proto.send(ln)


def mem(proto, app, w):
    # mem and bottimes: the heap's figures in their own module, loaded
    # for these only: the presses that play a test's game keep a small one
    import sys
    import testmem
    try:
        return testmem.dispatch(proto, w[0], w)
    finally:
        sys.modules.pop("testmem", None)


bottimes = mem


def entropy(proto, app, w):
    # deal keys as a game from the menu draws them (hal.random_bytes,
    # issue 40), for the shuffle's fairness check (okgin faults, row
    # "shuffle")
    if len(w) != 2 or not w[1].isdigit() or not 1 <= int(w[1]) <= 1000:
        return proto.send("ERR usage: entropy 1..1000")
    n = int(w[1])
    from binascii import hexlify
    proto.send("OK lines=%d" % n)
    for _ in range(n):
        proto.send(hexlify(app.hw.random_bytes(16)).decode())


def reset(proto, app, w):
    if len(w) != 1:
        return proto.send("ERR reset takes no arguments")
    proto.send("OK")
    app.hw.reset()


def screen(proto, app, w):
    """The panel's framebuffer as rows of 1-bit pixels, MSB first, at the
    panel's size: at scale 2 (display.py) each pixel twice across and each
    row twice, as the driver sends them to the ink. The driver's fb is
    MONO_VLSB, so it is converted 8 rows at a time through a small
    MONO_HLSB band (296 bytes, made on first use)."""
    if len(w) != 2 or w[1] not in ("0", "1"):
        return proto.send("ERR usage: screen 0|1")
    pn = app.panels[int(w[1])]
    w = pn.w
    h = pn.h
    sc = getattr(pn.d, "scale", 1)
    if proto.band is None:
        import framebuf
        proto.band_buf = bytearray((w + 7) // 8 * 8)
        proto.band = framebuf.FrameBuffer(proto.band_buf, w, 8, framebuf.MONO_HLSB)
    out = proto.out
    out.write("OK %dx%d " % (w * sc, h * sc))
    stride = (w + 7) // 8
    wide = (w * sc + 7) // 8
    row = bytearray(2 * stride)
    for y in range(0, h, 8):
        proto.band.fill(0)
        proto.band.blit(pn.fb, 0, -y)
        # the last band of a panel whose height is not a multiple of 8
        # (the 4.2" panel's 300 rows): only its rows
        n = min(8, h - y) * stride
        band = proto.band_buf if n == len(proto.band_buf) else memoryview(proto.band_buf)[:n]
        if sc == 1:
            out.write(hexlify(band).decode())
            continue
        for r in range(0, n, stride):
            for i in range(stride):
                b = band[r + i]
                v = 0
                for k in range(8):
                    if b & (0x80 >> k):
                        v |= 0xC000 >> 2 * k
                row[2 * i] = v >> 8
                row[2 * i + 1] = v & 0xFF
            line = hexlify(memoryview(row)[:wide]).decode()
            out.write(line)
            out.write(line)
    proto.send("")
