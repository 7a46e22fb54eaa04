# The refresh policy (panel.py) with a fake display: which updates are full.
import panel


class Display:
    width = 296
    height = 128

    def __init__(self):
        self.fb = bytearray(296 * 128 // 8)
        self.shows = []
        self.busy_now = False

    def show(self, full=False):
        self.shows.append("full" if full else "partial")

    def busy(self):
        return self.busy_now


def _update(pn, full_ok=True):
    pn.fb[len(pn.shows_seen)] ^= 1      # a new picture each time
    pn.shows_seen.append(0)
    pn.drawn = True
    return pn.push(full_ok)


def _rig(limit=3):
    d = Display()
    pn = panel.Panel(d, limit)
    pn.shows_seen = []
    _update(pn)                          # the first update: full
    return d, pn


def test_the_full_refresh_comes_after_n_partials():
    d, pn = _rig()
    for _ in range(4):
        _update(pn)
    assert d.shows == ["full", "partial", "partial", "partial", "full"]


def test_a_reply_puts_off_the_full_refresh_until_it_is_on_the_ink():
    d, pn = _rig()
    for _ in range(2):
        _update(pn)
    assert not pn.clean()                # not due: nothing to clean
    _update(pn)
    assert _update(pn, full_ok=False)    # due, but a reply waits behind it
    assert _update(pn, full_ok=False)    # the reply
    assert d.shows[-2:] == ["partial", "partial"]
    assert pn.clean()                    # now, the same picture
    assert d.shows[-1] == "full" and pn.partials == 0
    assert not pn.clean()


def test_put_off_at_most_n_more_partials():
    d, pn = _rig()
    for _ in range(9):
        _update(pn, full_ok=False)
    assert d.shows[1:] == ["partial"] * 6 + ["full", "partial", "partial"]


def test_a_new_deal_is_full_even_for_a_reply():
    d, pn = _rig()
    pn.need_full = True
    _update(pn, full_ok=False)
    assert d.shows[-1] == "full"


def test_nothing_is_cleaned_while_the_panel_refreshes():
    d, pn = _rig()
    for _ in range(4):
        _update(pn, full_ok=False)
    pn.started = True
    d.busy_now = True
    assert not pn.clean()
    d.busy_now = False
    assert pn.clean()
