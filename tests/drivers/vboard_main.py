# main.py for test_vboard_driver.py: the real drivers (hal, the panels'
# driver, buttons) built by hal.Hardware on the virtual board's vmachine
# pins, driving the emulation of the controller board.json names. Steps are paced by the test over the console: it sends
# a line, this script does one step and prints what it drew.
import sys
from binascii import hexlify

import boarddef
import hal
from display import EPDTimeout

hw = hal.Hardware(boarddef.load("board.json"))
d = hw.displays


def dump(tag):
    # In slices: one 9.5 KB hex string does not fit the board's heap.
    for p in range(2):
        sys.stdout.write("FB %s %d " % (tag, p))
        buf = memoryview(d[p].buf)
        for i in range(0, len(buf), 256):
            sys.stdout.write(hexlify(buf[i:i + 256]))
        sys.stdout.write("\n")
    print("STEP %s" % tag)


def next_step():
    return sys.stdin.readline().strip()


print("HELLO")
next_step()
# 1: first update of each panel (full), different content per panel.
for p in range(2):
    fb = d[p].fb
    fb.fill(0)
    fb.rect(0, 0, 296, 128, 1)
    fb.text("PLAYER %d" % p, 8, 8, 1)
    fb.fill_rect(200 - 60 * p, 40, 50, 50, 1)
    fb.line(0, 127, 295, 0, 1)
    # the panel's far corner (beyond 296x128 on the 4.2" panel)
    fb.fill_rect(d[p].width - 9, d[p].height - 5, 9, 5, 1)
    d[p].show(full=True)
for p in range(2):
    d[p].wait()
dump("full")

next_step()
# 2: partial updates: something erased, something drawn.
for p in range(2):
    fb = d[p].fb
    fb.fill_rect(200 - 60 * p, 40, 50, 50, 0)
    fb.fill_rect(10 + 100 * p, 80, 30, 30, 1)
    fb.text("7h", 250, 110, 1)
    fb.fill_rect(d[p].width - 9, d[p].height - 5, 4, 5, 0)
    d[p].show()
    d[p].wait()
dump("partial")

next_step()
# 3: deep sleep, then a partial straight after waking.
for p in range(2):
    d[p].sleep()
for p in range(2):
    fb = d[p].fb
    fb.fill_rect(10 + 100 * p, 80, 30, 30, 0)
    fb.text("Ks", 100, 60, 1)
    d[p].show()
for p in range(2):
    d[p].wait()
dump("wake")

next_step()
# 4: buttons through the real pins, and the LEDs.
hw.leds[1].value(1)
print("LISTENING")
got = 0
while got < 3:
    hw.buttons.poll()
    ev = hw.buttons.get()
    if ev is not None:
        print("EV %d %s %s" % ev)
        got += 1
    else:
        import time
        time.sleep_ms(2)

next_step()
# 5: BUSY stuck high on panel 0 (fault injected by the test).
d[0].fb.fill(0)
d[0].fb.text("TIMEOUT", 8, 8, 1)
try:
    d[0].show()
    d[0].wait()
    print("NO TIMEOUT")
except EPDTimeout as e:
    print("TIMEOUT %s" % (isinstance(e, OSError),))

next_step()
# 6: the fault is gone: the next show recovers (reset, full refresh).
d[0].show()
d[0].wait()
dump("recovered")
