# Button logic (buttons.py) with fake pins driven in time. Plain asserts so
# test_micropython.py runs this file under the micropython binary as well.
import buttons
import fakes

TIMING = {"debounce_ms": 20, "long_press_ms": 600, "repeat_delay_ms": 400,
          "repeat_ms": 150, "busy_timeout_ms": 10000, "partials_before_full": 8}


class Rig:
    def __init__(self, timing=TIMING, held=()):
        self.clock = fakes.Clock()
        self.pins = []
        for p in range(2):
            d = {}
            for name in buttons.NAMES:
                d[name] = fakes.Pin(0 if (p, name) in held else 1)
            self.pins.append(d)
        self.b = buttons.Buttons(self.pins, timing, clock=self.clock)

    def run(self, ms, step=5):
        # Poll every `step` ms, like the app's main loop.
        end = self.clock.t + ms
        while self.clock.t < end:
            self.clock.advance(step)
            self.b.poll()

    def press(self, p, name):
        self.pins[p][name].set(0)

    def release(self, p, name):
        self.pins[p][name].set(1)

    def tap(self, p, name, hold=100):
        self.press(p, name)
        self.run(hold)
        self.release(p, name)
        self.run(40)

    def events(self):
        out = []
        while True:
            e = self.b.get()
            if e is None:
                return out
            out.append(e)


def test_ok_short_press_fires_on_release():
    r = Rig()
    r.press(0, "ok")
    r.run(200)
    assert r.events() == []  # nothing while held: it may become a long press
    r.release(0, "ok")
    r.run(30)
    assert r.events() == [(0, "ok", "short")]


def test_long_press_fires_once_while_held_and_not_on_release():
    r = Rig()
    r.press(1, "knock")
    r.run(590)
    assert r.events() == []
    r.run(20)
    assert r.events() == [(1, "knock", "long")]
    r.run(2000)
    r.release(1, "knock")
    r.run(50)
    assert r.events() == []


def test_contact_bounce_gives_one_press():
    r = Rig()
    for level in (0, 1, 0, 1, 0):  # 1 ms apart, inside debounce_ms
        r.pins[0]["draw"].set(level)
        r.clock.advance(1)
        r.b.poll()
    r.run(100)
    for level in (1, 0, 1, 0, 1):
        r.pins[0]["draw"].set(level)
        r.clock.advance(1)
        r.b.poll()
    r.run(100)
    assert r.events() == [(0, "draw", "short")]


def test_press_seen_in_a_single_poll_is_not_lost():
    r = Rig()
    r.press(0, "take")
    r.clock.advance(5)
    r.b.poll()
    r.release(0, "take")
    r.run(50)
    assert r.events() == [(0, "take", "short")]


def test_left_right_fire_on_press_then_repeat():
    r = Rig()
    r.press(0, "right")
    r.run(5)
    assert r.events() == [(0, "right", "short")]  # at once, before release
    r.run(390)
    assert r.events() == []
    r.run(10)
    assert r.events() == [(0, "right", "repeat")]
    r.run(150)
    assert r.events() == [(0, "right", "repeat")]
    r.run(150)
    assert r.events() == [(0, "right", "repeat")]
    r.release(0, "right")
    r.run(500)
    assert r.events() == []  # no long, no short on release


def test_repeats_do_not_pile_up_while_the_app_is_busy():
    r = Rig()
    r.press(1, "left")
    r.run(2000)  # nobody calls get(): a slow refresh
    assert r.events() == [(1, "left", "short"), (1, "left", "repeat")]


def test_presses_during_a_refresh_are_queued_in_order():
    r = Rig()
    # The app is inside ssd1680.wait(idle=buttons.poll): polls, never gets.
    r.tap(0, "right")
    r.tap(1, "draw")
    r.tap(0, "right")
    r.tap(0, "ok")
    r.press(1, "knock")
    r.run(700)
    r.release(1, "knock")
    r.run(30)
    assert r.events() == [(0, "right", "short"), (1, "draw", "short"),
                          (0, "right", "short"), (0, "ok", "short"),
                          (1, "knock", "long")]


def test_stalled_polling_gives_one_repeat_not_a_burst():
    r = Rig()
    r.press(0, "left")
    r.run(5)
    r.events()
    r.clock.advance(3000)  # no poll for 3 s
    r.b.poll()
    assert r.events() == [(0, "left", "repeat")]
    r.run(100)
    assert r.events() == []


def test_button_held_at_start_up_is_ignored_until_released():
    r = Rig(held=((0, "ok"), (1, "right")))
    r.run(3000)
    r.release(0, "ok")
    r.release(1, "right")
    r.run(50)
    assert r.events() == []
    r.tap(0, "ok")
    r.tap(1, "right")
    assert r.events() == [(0, "ok", "short"), (1, "right", "short")]


def test_timing_comes_from_the_board_definition():
    t = dict(TIMING)
    t["long_press_ms"] = 1000
    r = Rig(timing=t)
    r.press(0, "ok")
    r.run(900)
    assert r.events() == []
    r.run(120)
    assert r.events() == [(0, "ok", "long")]


def test_inject_queues_an_event_like_a_press():
    r = Rig()
    r.tap(0, "draw")
    r.b.inject(1, "knock", "long")
    r.b.inject(0, "left")
    assert r.events() == [(0, "draw", "short"), (1, "knock", "long"), (0, "left", "short")]


def test_inject_rejects_bad_input_and_queues_nothing():
    r = Rig()
    for args in ((2, "ok", "short"), (0, "pass", "short"), (0, "ok", "double"),
                 (True, "ok", "short"), ("0", "ok", "short")):
        try:
            r.b.inject(*args)
            raise AssertionError("accepted %r" % (args,))
        except ValueError:
            pass
    assert r.events() == []


def test_queue_is_bounded_and_counts_what_it_drops():
    r = Rig()
    for i in range(buttons.Buttons.queue_size + 5):
        r.tap(i % 2, "take", hold=30)
    assert r.b.pending() == buttons.Buttons.queue_size
    assert r.b.dropped == 5
    try:
        r.b.inject(0, "ok")
        raise AssertionError("inject into a full queue")
    except ValueError:
        pass
    assert len(r.events()) == buttons.Buttons.queue_size


def test_pressed_reports_the_debounced_state():
    r = Rig()
    assert not r.b.pressed(0, "take")
    r.press(0, "take")
    r.run(10)
    assert r.b.pressed(0, "take")


def test_a_release_inside_the_debounce_time_is_settling_until_it_is_taken():
    # A quick tap: the release comes 5 ms after the press was taken. It is
    # taken once the debounce time has passed, and until then the buttons
    # say a change is settling (the app's sync waits for it: docs/protocol.md)
    r = Rig()
    r.press(0, "ok")
    r.clock.advance(5)
    r.b.poll()
    assert not r.b.settling and r.events() == []
    r.release(0, "ok")
    r.clock.advance(5)
    r.b.poll()
    assert r.b.settling and r.events() == []
    r.clock.advance(15)
    r.b.poll()
    assert not r.b.settling and r.events() == [(0, "ok", "short")]


def test_a_bounce_back_to_the_held_level_settles_with_no_event():
    r = Rig()
    r.press(1, "draw")
    r.clock.advance(5)
    r.b.poll()
    r.release(1, "draw")     # a contact bounce: open for 2 ms...
    r.clock.advance(2)
    r.b.poll()
    assert r.b.settling
    r.press(1, "draw")       # ...and closed again
    r.clock.advance(2)
    r.b.poll()
    assert not r.b.settling and r.events() == []
