"""The web page in a real browser (chromium through selenium): the firmware
on MicroPython's WebAssembly port plays what the virtual board plays,
pixel for pixel; saves in the browser and resumes after a reload; works
offline once loaded; hides what a player must not see; refreshes like
e-ink. Every test also fails on any JavaScript error (conftest.page)."""
import json
import os
import time

import pytest

from tests.support.web import (ROOT, assert_same_panels, canvas, choose, hand_script,
                        open_page, press, settle, stored, wait_ready)
from okgin.engine import Match, Rules, bot
from okgin.engine.bots import move_seed
from okgin.lib.presses import Presses
from okgin.simui import render

# A short first hand (10 actions, 17 presses with the greedy player):
# a pass of the upcard by both players (R6), draws from the stock, takes of
# the discard (R7), discards and a knock (R8), then the showdown (R10).
SEED = 305
QUIET_MS = 150   # the virtual board at speed 0: settled after this long without change


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The virtual board's panels for the same deal and the same presses
    (as `okgin sim` shows them): at boot, at the new game, after each
    action of the scripted hand, at the next hand and after a power cycle;
    and the game record on its flash."""
    return _reference(tmp_path_factory)


@pytest.fixture(scope="module")
def reference_ko(tmp_path_factory):
    """The same, the table speaking Korean (okgin sim --lang ko)."""
    return _reference(tmp_path_factory, "ko")


def _reference(tmp_path_factory, lang=None):
    from okgin.table.session import Session, load_timing, make_board, new_game_on_flash
    steps, _m = hand_script(SEED)
    flash = str(tmp_path_factory.mktemp("vboard") / "flash")
    s = Session(make_board(flash, speed=0.0),
                timing=load_timing(os.path.join(ROOT, "hardware", "board.json")))
    s.start()
    if lang:
        assert s.command("lang " + lang) == "OK lang=" + lang

    def shot():
        s.sync(quiet_ms=QUIET_MS)
        return [s.panel(0), s.panel(1)]
    try:
        shots = {"boot": shot()}
        # the page: OK on "New game: 2 players", deal SEED; the board: the
        # same new game put on its flash (as okgin sim --seed does), booted
        new_game_on_flash(flash, seed=SEED)
        s.power_cycle()
        assert s.wait_ready(30)
        shots["new game"] = shot()
        checks = []
        for step in steps:
            if step[0] == "press":
                s.press(step[1], step[2])
            else:
                checks.append(shot())
        s.press(0, "ok")
        shots["next hand"] = shot()
        with open(os.path.join(flash, "game.okg")) as f:
            record = f.read()
        s.power_cycle()
        assert s.wait_ready(30)
        shots["resumed"] = shot()
    finally:
        s.close()
    return steps, shots, checks, record


def test_a_two_player_hand_is_the_virtual_boards_pixel_for_pixel(page, server, reference):
    """The scripted hand by key and click events: after every action both
    canvases equal the virtual board's panels (R6-R10 screens, the showdown);
    the game record in the browser's storage is the one on the board's
    flash; a reload resumes the game as a power cycle does."""
    steps, shots, checks, record = reference
    open_page(page, server.url + "?speed=0&seed=%d" % SEED)
    settle(page)
    assert_same_panels(page, shots["boot"], "boot (the menu)")
    press(page, 0, "ok", "key")   # New game: 2 players
    settle(page)
    assert_same_panels(page, shots["new game"], "the new game")
    presses = 0
    check = iter(checks)
    for step in steps:
        if step[0] == "press":
            # player 1 on the keyboard, player 2 by keys and clicks in turn
            how = "key" if step[1] == 0 or presses % 2 else "click"
            press(page, step[1], step[2], how)
            presses += 1
        else:
            settle(page)
            assert_same_panels(page, next(check), "action %r" % step[1])
    press(page, 1, "ok", "click")   # leave the showdown: the next hand
    settle(page)
    assert_same_panels(page, shots["next hand"], "the showdown's OK")
    assert stored(page, "game.okg") == record
    page.refresh()
    wait_ready(page)
    settle(page)
    assert_same_panels(page, shots["resumed"], "a reload (the board: a power cycle)")


def test_the_page_speaks_korean_pixel_for_pixel_as_the_virtual_board(page, server, reference_ko):
    """?lang=ko (as a Korean browser on a first visit): the page's table
    speaks Korean, and every screen of the scripted hand is the virtual
    board's in Korean (okgin sim --lang ko), pixel for pixel; the page's
    switch shows the language in its own name and keeps the choice with
    the table's settings, as the device's menu does."""
    steps, shots, checks, _record = reference_ko
    open_page(page, server.url + "?speed=0&seed=%d&lang=ko" % SEED)
    settle(page)
    assert_same_panels(page, shots["boot"], "boot in Korean (the menu)")
    select = page.find_element("id", "lang")
    assert select.get_attribute("value") == "ko"
    names = page.execute_script(
        "return [...document.querySelectorAll('#lang option')].map(o => o.textContent)")
    assert names == ["English", "한국어", "Lietuvių", "Kiswahili"]
    assert json.loads(stored(page, "settings.json"))["lang"] == "ko"
    press(page, 0, "ok", "key")   # 새 게임: 2인
    settle(page)
    assert_same_panels(page, shots["new game"], "the new game in Korean")
    check = iter(checks)
    for step in steps:
        if step[0] == "press":
            press(page, step[1], step[2], "key")
        else:
            settle(page)
            assert_same_panels(page, next(check), "action %r in Korean" % step[1])
    # the page's own words are Korean too (the catalogue's page.* texts)
    assert page.find_element("css selector", "[data-key='page.one_screen']").text == "한 화면"
    assert page.find_element("css selector", "#player1 h2").text.startswith("플레이어 1")
    # the switch: Lithuanian at once, kept with the settings
    page.execute_script("const s = document.getElementById('lang'); s.value = 'lt';"
                        "s.dispatchEvent(new Event('change'))")
    settle(page)
    assert page.execute_script("return document.documentElement.lang") == "lt"
    assert page.find_element("css selector", "[data-key='page.one_screen']").text == "Vienas ekranas"
    assert json.loads(stored(page, "settings.json"))["lang"] == "lt"


def test_a_first_visit_follows_the_browsers_language(page, server):
    """A browser that prefers Lithuanian gets the table in Lithuanian on its
    first visit; a language the table does not speak leaves English."""
    added = page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
        "Object.defineProperty(navigator, 'languages', {get: () => ['lt-LT', 'lt', 'en']})"})
    try:
        open_page(page, server.url + "?speed=0")
        settle(page)
        assert page.find_element("id", "lang").get_attribute("value") == "lt"
        assert json.loads(stored(page, "settings.json"))["lang"] == "lt"
    finally:
        # the browser is the session's: the next tests get its own languages
        page.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                             {"identifier": added["identifier"]})


def test_a_game_against_the_computer_hides_its_panel_and_plays_the_engines_moves(page, server):
    """Against the computer only player 1's panel shows (a button shows
    the computer's); the computer's moves are the engine's (engine.bot
    seeded per move, as on the device), so the browser's saved record is
    the CPython oracle's, action for action, to the end of the hand."""
    open_page(page, server.url + "?speed=0&seed=%d" % SEED)
    settle(page)
    second = page.find_element("id", "player2")
    assert second.is_displayed()
    press(page, 0, "right", "click")   # New game vs computer: easy
    press(page, 0, "ok", "click")
    settle(page)
    assert not second.is_displayed()
    m = Match(Rules(), seed=SEED, players=("human", "easy"))   # the record says who plays
    keys = Presses(shortest=True)
    hand = 0
    while m.hand_no == 1:
        if m.hand.to_move == 1:
            obs = m.observation(1)
            m.play(bot("easy", move_seed(SEED, len(obs["history"]))).choose(obs))
            continue
        obs = m.observation(0)
        act = choose(obs)
        for b in keys.for_action(0, act, obs["hand"]):
            press(page, 0, b, "click" if hand % 2 else "key")
        m.play(act)
        hand += 1
        if m.hand_no == 1:
            keys.played(0, obs["hand"], m.observation(0)["hand"])
        while m.hand_no == 1 and m.hand.to_move == 1:   # the computer answers
            obs = m.observation(1)
            m.play(bot("easy", move_seed(SEED, len(obs["history"]))).choose(obs))
        settle(page)
        assert stored(page, "game.okg") == m.to_record(), "after %r" % act
    page.find_element("id", "show-computer").click()
    assert second.is_displayed()
    settle(page)
    # its panel was drawn all along, hidden: now the showdown (R10)
    colours = {c: n for n, c in canvas(page, 1).getcolors()}
    assert set(colours) == {render.INK, render.PAPER}


def test_pass_the_device_shows_a_panel_only_to_its_player(page, server):
    """Two people, one phone: during play each panel is covered until its
    player taps it, and covered again when the turn passes (the menu hides
    nothing)."""
    from selenium.webdriver.common.by import By
    open_page(page, server.url + "?speed=0&seed=%d" % SEED)
    page.find_element(By.CSS_SELECTOR, "input[value=pass]").click()
    covers = page.find_elements(By.CSS_SELECTOR, ".cover")
    assert [c.is_displayed() for c in covers] == [False, False]   # the menu
    press(page, 0, "ok", "click")
    assert [c.is_displayed() for c in covers] == [True, True]
    m = Match(Rules(), seed=SEED)
    p = m.hand.to_move
    assert "Player %d's turn" % (p + 1) in covers[p].text
    _tap(page, covers[p])
    assert [c.is_displayed() for c in covers] == [p != 0, p != 1]
    _tap(page, page.find_element(By.CSS_SELECTOR, "#player%d button[data-button=draw]" % (p + 1)))
    settle(page)   # the upcard passed: the other player's turn
    assert [c.is_displayed() for c in covers] == [True, True]
    assert "Player %d's turn" % (2 - p) in covers[1 - p].text
    _tap(page, covers[1 - p])
    assert [c.is_displayed() for c in covers] == [p == 0, p == 1]
    # the page's storage remembers the choice
    page.refresh()
    wait_ready(page)
    assert page.find_element(By.CSS_SELECTOR, "input[value=pass]").is_selected()


def _tap(driver, element):
    """A finger's tap (touch pointer events), as on a phone."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    finger = PointerInput("touch", "finger")
    a = ActionBuilder(driver, mouse=finger)
    a.pointer_action.move_to(element).pointer_down().pause(0.05).pointer_up()
    a.perform()


def test_works_offline_once_loaded(page, server):
    """After one visit the service worker has the whole site: with the
    server gone, a reload still boots and resumes the saved game."""
    open_page(page, server.url + "?speed=0&seed=%d" % SEED)
    press(page, 0, "ok", "key")
    first = Match(Rules(), seed=SEED).hand.to_move
    press(page, first, "draw", "key")   # the non-dealer passes the upcard (R6)
    before = [canvas(page, 0), canvas(page, 1)]
    record = stored(page, "game.okg")
    assert len(record.splitlines()) == 4          # the header and one action
    deadline = time.monotonic() + 20
    while not page.execute_script("return !!navigator.serviceWorker.controller"):
        assert time.monotonic() < deadline, "no service worker took over the page"
        time.sleep(0.05)
    server.stop()
    page.refresh()
    wait_ready(page)
    settle(page)
    assert [canvas(page, 0).tobytes(), canvas(page, 1).tobytes()] == [i.tobytes() for i in before]
    assert stored(page, "game.okg") == record


def test_refreshes_take_the_panels_time_with_the_e_ink_look(page, server):
    """At the panel's speed (the default) a full refresh flashes black and
    white over 3.0 s and a message is a 0.4 s partial whose changing
    pixels go grey (the virtual board's times for the default table's
    SSD1683 panels, the window's look)."""
    open_page(page, server.url + "?seed=%d" % SEED)
    settle(page)   # the boot's full refresh
    waiting = 1 - Match(Rules(), seed=SEED).hand.to_move   # the dealer (R6)
    page.execute_script(_SAMPLER, waiting)
    t0 = time.monotonic()
    press(page, 0, "ok", "key")   # a new game: full refresh (hand boundary)
    settle(page)
    full_s = time.monotonic() - t0
    looks = page.execute_script("return okginSamples.splice(0)")
    refreshes = page.execute_script("return okgin.refreshes.slice(-2)")
    assert [r[:3] for r in refreshes] == [[0, "full", 3000], [1, "full", 3000]]
    assert 2.9 < full_s < 7, full_s
    seen = [k for i, k in enumerate(looks) if i == 0 or looks[i - 1] != k]
    assert "ink" in seen and "paper" in seen[seen.index("ink"):], seen
    assert seen[-1] == "image"
    press(page, waiting, "take", "key")   # not their turn: a message, a partial refresh
    settle(page)
    looks = page.execute_script("return okginSamples.splice(0)")
    assert page.execute_script("return okgin.refreshes.slice(-1)[0]")[:3] == [waiting, "partial", 400]
    assert "grey" in looks and looks[-1] == "image", looks


# Samples a player's canvas on every animation frame: all ink, all paper,
# some grey (a partial refresh's changing pixels), or an image.
_SAMPLER = """
window.okginSamples = [];
const c = document.querySelectorAll('#table canvas')[arguments[0]], g = c.getContext('2d');
const ink = %r, paper = %r, mid = %r;
const same = (d, i, rgb) => d[i] === rgb[0] && d[i + 1] === rgb[1] && d[i + 2] === rgb[2];
function look() {
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let inks = 0, papers = 0, greys = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (same(d, i, ink)) inks++; else if (same(d, i, paper)) papers++; else if (same(d, i, mid)) greys++;
  }
  const n = d.length / 4;
  okginSamples.push(inks === n ? 'ink' : papers === n ? 'paper' : greys ? 'grey' : 'image');
  requestAnimationFrame(look);
}
requestAnimationFrame(look);
""" % (list(render.INK), list(render.PAPER), list(render.MID))


def test_a_javascript_error_is_caught(browser, server):
    """The check every test ends with works: an error thrown in the page
    shows up (and on the page, for a person)."""
    d = browser.driver
    open_page(d, server.url + "?speed=0")
    browser.console_errors()
    # an inline script of the page's own (a script that selenium runs is
    # another origin's: its errors reach the page only as "Script error.")
    d.execute_script("const s = document.createElement('script');"
                     "s.textContent = \"setTimeout(() => { throw new Error('deliberate') })\";"
                     "document.body.append(s)")
    time.sleep(0.2)
    assert any("deliberate" in e for e in d.execute_script("return okgin.errors"))
    assert any("deliberate" in e for e in browser.console_errors())
    assert "deliberate" in d.find_element("id", "status").text
    d.get("about:blank")


def test_the_site_works_from_a_sub_folder(browser, site, tmp_path):
    """Relative URLs only: the same build served from a folder deep in
    another site (a project page) boots and plays."""
    from okgin.web import serve_in_thread
    root = tmp_path / "www"
    os.makedirs(root / "games" / "cards")
    os.symlink(site, root / "games" / "cards" / "okgin")
    httpd = serve_in_thread(str(root))
    d = browser.driver
    try:
        browser.console_errors()
        open_page(d, "http://127.0.0.1:%d/games/cards/okgin/?speed=0&seed=%d"
                  % (httpd.server_address[1], SEED))
        press(d, 0, "ok", "key")
        assert stored(d, "game.okg") == Match(Rules(), seed=SEED).to_record()
        assert not browser.console_errors() and not d.execute_script("return okgin.errors")
    finally:
        d.get("about:blank")
        httpd.shutdown()
        httpd.server_close()


def test_opened_from_a_file_it_says_to_serve_it(browser, site):
    """Browsers run neither modules nor WebAssembly from file://: instead of
    'Loading...' for ever, the page says what to do."""
    d = browser.driver
    try:
        d.get("file://" + os.path.join(site, "index.html"))
        assert "through a web server" in d.find_element("id", "status").text
    finally:
        browser.console_errors()   # the browser's own refusal to load the module
        d.get("about:blank")


def test_the_coach_in_the_page_is_on_the_asking_players_panel_only(page, server):
    """Hold DRAW (Shift and the key: a long press) on your turn: the coach's
    notice on your panel, the computer's panel as it was (issue 26)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from okgin.simui.keymaps import KEYMAP
    open_page(page, server.url + "?speed=0&seed=%d" % SEED)
    settle(page)
    for _ in range(3):
        press(page, 0, "right", "click")     # New game vs computer: hard
    press(page, 0, "ok", "click")
    settle(page)                             # the computer has moved: player 1's turn

    def title_bar(img):
        w, h = img.size
        top = img.crop((0, 0, w * 2 // 3, h * 10 // 128))
        n = top.width * top.height
        ink = {c: k for k, c in top.getcolors(n)}.get(render.INK, 0)
        return ink > 0.9 * n
    mine, theirs = canvas(page, 0), canvas(page, 1)
    assert not title_bar(mine)
    ActionChains(page).key_down(Keys.SHIFT).send_keys(KEYMAP[0]["draw"][0]).key_up(Keys.SHIFT).perform()
    settle(page)
    assert title_bar(canvas(page, 0))
    assert canvas(page, 1).tobytes() == theirs.tobytes()
    # a notice, not the error screen: any button closes it, nothing else
    press(page, 0, "left", "click")
    assert canvas(page, 0).tobytes() == mine.tobytes()
