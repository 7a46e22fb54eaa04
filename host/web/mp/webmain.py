# webmain: the web page's main.py. Boots the firmware's App on the page's
# board (webhal) as firmware/main.py boots it on the Pico, then leaves the
# main loop to the page: the browser calls tick() from its event loop (an
# endless loop would freeze the tab), and each tick is one App.step(), the
# turn the device takes in App.run(). Nothing here plays, draws or saves:
# the firmware does, through its own modules.
import gc
import json
import sys

app = None
hw = None


def saved_files():
    """The files the firmware keeps on its flash between boots (store.py):
    the page keeps them in the browser's storage."""
    import store
    return json.dumps([store.GAME, store.SETTINGS, store.STATS])


def boot(full_ms, partial_ms, speed=1.0, seed=None, random_seed=None, out="/tmp"):
    """Board definition -> board -> app, then the saved game or the menu
    (App.start). ``seed``: the first new game's deal (a given deal for
    tests and shared links); ``random_seed``: the page's crypto random
    number, which seeds the deals after that; ``out``: where the panel
    images go (a folder of the in-memory filesystem)."""
    global app, hw
    import boarddef
    board = boarddef.load("board.json")
    del sys.modules["boarddef"]
    random_bits = None
    if random_seed is not None:
        import random
        random.seed(random_seed)
        random_bits = random.getrandbits
    import webhal
    hw = webhal.Hardware(board, full_ms, partial_ms, speed=speed, out=out,
                         seed=seed, random_bits=random_bits)
    import app as _app
    app = _app.App(hw, board)
    board = None
    gc.collect()
    app.start()
    return tick_state(False)


def tick():
    """One turn of the firmware's main loop; what the page must show."""
    return tick_state(app.step())


def tick_state(busy):
    import i18n
    return json.dumps({"busy": busy, "events": hw.take(), "vs": app.vs,
                       "mode": app.kind(), "lang": i18n.code})


def languages():
    """The table's languages, each in its own name, the one in use, and
    whether the players chose it (settings.json): on a first visit the
    page picks the browser's language instead."""
    import i18n
    return json.dumps({"lang": i18n.code, "chosen": "lang" in app.settings,
                       "langs": [[c, i18n.name(c)] for c in i18n.codes()]})


def set_lang(code):
    """The page's own switch: as the device menu's Language does (kept in
    settings.json, both panels redrawn at once)."""
    app.set_lang(code)
    return tick_state(True)


def button(p, name, down):
    hw.button(p, name, bool(down))


def settled():
    """No button held, every press handled, every panel refreshed, the
    computer not about to move (the protocol's `sync`, for tests and
    benches)."""
    if not app.idle() or hw.busy():   # idle() polls the buttons first
        return False
    b = hw.buttons
    for p in range(len(hw.pins)):
        for name, pin in hw.pins[p].items():
            if pin.level == 0 or pin.latched or b.pressed(p, name):
                return False   # a press whose event comes on release
    return True
