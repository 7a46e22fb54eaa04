# A tiny firmware for the virtual board's own tests: a line protocol on the
# console that pokes the vmachine pins, the real drivers and the flash.
import sys
import select
import vmachine
from vmachine import Pin

BUTTONS = (2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 26, 27)
hw = None


def pins_cmd():
    ps = [Pin(g, Pin.IN, Pin.PULL_UP) for g in BUTTONS]
    return " ".join("%d=%d" % (g, p.value()) for g, p in zip(BUTTONS, ps))


def hardware():
    global hw
    if hw is None:
        import boarddef
        import hal
        hw = hal.Hardware(boarddef.load("board.json"))
    return hw


def draw(words):
    # draw P full|partial x y w h: a black rectangle, then show
    h = hardware()
    d = h.displays[int(words[1])]
    x, y, w, hh = [int(v) for v in words[3:7]]
    d.fb.fill_rect(x, y, w, hh, 1)
    d.show(full=words[2] == "full")
    busy_now = d.busy()
    d.wait()
    return "busy_after_show=%d" % busy_now


def handle(words):
    c = words[0]
    if c == "echo":
        return " ".join(words[1:])
    if c == "pins":
        return pins_cmd()
    if c == "write":
        with open(words[1], "w") as f:
            f.write(words[2])
        return "written"
    if c == "read":
        try:
            with open(words[1]) as f:
                return f.read()
        except OSError:
            return "-"
    if c == "reset":
        print("OK resetting")
        vmachine.reset()
    if c == "exit":
        sys.exit(int(words[1]))
    if c == "led":
        Pin(int(words[1]), Pin.OUT, value=int(words[2]))
        return "led"
    if c == "draw":
        return draw(words)
    if c == "timeout":
        h = hardware()
        d = h.displays[int(words[1])]
        d.busy_timeout_ms = 300
        try:
            d.fb.fill(1)
            d.show(full=True)
            d.wait()
        except OSError as e:
            return "%s %s" % (type(e).__name__, e)
        return "no timeout"
    if c == "buttons":
        # poll the real debouncer for N ms, report the events
        import time
        h = hardware()
        evs = []
        t0 = time.ticks_ms()
        want = int(words[2]) if len(words) > 2 else 999
        while time.ticks_diff(time.ticks_ms(), t0) < int(words[1]) and len(evs) < want:
            h.buttons.poll()
            e = h.buttons.get()
            while e:
                evs.append("%d:%s:%s" % e)
                e = h.buttons.get()
            time.sleep_ms(5)
        return " ".join(evs) or "none"
    if c == "spam":
        # refresh forever (until Ctrl-C): pin and SPI traffic all the time
        d = hardware().displays[0]
        i = 0
        print("OK spamming")
        while True:
            d.fb.fill(i & 1)
            d.show(full=False)
            d.wait()
            i += 1
    if c == "alloc":
        try:
            b = bytearray(int(words[1]))
            return "allocated %d" % len(b)
        except MemoryError:
            return "MemoryError"
    if c == "api":
        out = []
        for f in (lambda: Pin(30), lambda: vmachine.SPI(0, sck=Pin(5)), lambda: vmachine.SPI(2)):
            try:
                f()
                out.append("ok")
            except ValueError as e:
                out.append(str(e))
        out.append(str(len(vmachine.unique_id())))
        out.append(str(vmachine.freq()))
        return "|".join(out)
    return "ERR unknown"


print("READY tiny")
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
while True:
    if not poll.poll(1000):
        continue
    line = sys.stdin.readline().strip()
    if not line:
        continue
    print("OK", handle(line.split()))
