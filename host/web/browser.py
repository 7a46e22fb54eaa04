"""A real browser for the page's tests and bench: Debian's chromium driven
by chromium-driver through selenium, headless, with a fresh profile each
time, no network of its own (no component updates, no sync, no QUIC) and
the sandbox off (it refuses to start as root otherwise); and how to drive
the okgin page in it (its window.okgin: ready, settled(), the panels'
canvases, the saved game)."""
import base64
import os
import shutil
import tempfile
import time

from okgin.engine import deadwood
from ..lib.errors import CommandError

DEBOUNCE_S = 3 * 0.020   # board.json timing.debounce_ms, three times over

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")


def find():
    """(chromium, chromedriver) paths, or CommandError saying what to install."""
    chromium = (os.environ.get("OKGIN_CHROMIUM") or shutil.which("chromium")
                or shutil.which("chromium-browser") or shutil.which("google-chrome"))
    driver = os.environ.get("OKGIN_CHROMEDRIVER") or shutil.which("chromedriver")
    if not chromium or not driver:
        raise CommandError("needs chromium and chromedriver (Debian: apt-get install chromium "
                           "chromium-driver), or OKGIN_CHROMIUM / OKGIN_CHROMEDRIVER")
    return chromium, driver


class Browser:
    """One headless chromium; ``.driver`` is the selenium WebDriver. Use
    as a context manager, or call close()."""

    def __init__(self):
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            raise CommandError("needs selenium (pip install selenium; part of okgin's dev extras)") from None
        chromium, driver = find()
        self.profile = tempfile.mkdtemp(prefix="okgin-chromium-")
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium
        for f in FLAGS:
            opts.add_argument(f)
        opts.add_argument("--user-data-dir=" + self.profile)
        # the console's messages, to fail a page that logs errors
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # an explicit driver: selenium's own manager would try to download one
        self.driver = webdriver.Chrome(options=opts, service=Service(executable_path=driver))

    def console_errors(self):
        """Console messages of level SEVERE since the last call."""
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ---------------------------------------------------------------- the page
# Driving the okgin page (host/web/page/okgin.js exposes window.okgin):
# shared by the tests (tests/web) and okgin bench web.

def open_page(driver, url, timeout=30):
    driver.get(url)
    wait_ready(driver, timeout)


def wait_ready(driver, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = driver.execute_script(
            "return window.okgin ? [okgin.ready, okgin.errors] : [false, []]")
        if got[1]:
            raise CommandError("the page failed: %s" % got[1])
        if got[0]:
            return
        time.sleep(0.05)
    raise CommandError("the page was not ready within %d s" % timeout)


def settle(driver, timeout=30):
    """Until every press is handled and every panel has finished its
    refresh (okgin.settled: the firmware's idle() and no animation)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if driver.execute_script("return okgin.settled()"):
            return
        time.sleep(0.02)
    raise CommandError("the page did not settle within %d s" % timeout)


def press(driver, p, button, how, wait=True):
    """Press and release a button of player p: by its key ("key", the
    README's key map) or by clicking it on the page ("click"); then, as a
    person would before the next press, wait until it is handled and the
    buttons' debounce time has passed (a press within 20 ms of the last
    release is contact bounce to the firmware, on the device too; the
    virtual board's press() waits the same 3 x 20 ms)."""
    if how == "key":
        from ..simui.keymaps import KEYMAP
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(driver).send_keys(KEYMAP[p][button][0]).perform()
    else:
        from selenium.webdriver.common.by import By
        driver.find_element(
            By.CSS_SELECTOR, "#player%d button[data-button=%s]" % (p + 1, button)).click()
    if wait:
        settle(driver)
        time.sleep(DEBOUNCE_S)


_PIXELS = """
const c = document.querySelectorAll('#table canvas')[arguments[0]];
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
let s = '';
for (let i = 0; i < d.length; i += 8192) s += String.fromCharCode.apply(null, d.subarray(i, i + 8192));
return [c.width, c.height, btoa(s)];
"""


def canvas(driver, p):
    """Player p's canvas as an RGB image (exactly its pixels)."""
    from PIL import Image
    w, h, b64 = driver.execute_script(_PIXELS, p)
    return Image.frombytes("RGBA", (w, h), base64.b64decode(b64)).convert("RGB")


def stored(driver, name):
    """A file the firmware saved, as the page keeps it in localStorage."""
    return driver.execute_script("return localStorage.getItem(arguments[0])", "okgin:" + name)


def _best(cards):
    return min(deadwood([x for x in cards if x != c]) for c in cards)


def choose(obs):
    """A plain greedy player, deterministic: knock as low as it can, take
    the pile's card when it lowers the deadwood, discard what keeps the
    least deadwood."""
    legal = obs["legal"]
    hand = obs["hand"]

    def after(a):
        return (deadwood([c for c in hand if c != a.split()[1]]), a)
    knocks = [a for a in legal if a.startswith("knock")]
    if knocks:
        return min(knocks, key=after)
    if obs["phase"] in ("upcard", "draw"):
        top = obs["discard_top"]
        if top and "take" in legal and _best(hand + [top]) < deadwood(hand):
            return "take"
        return "draw" if "draw" in legal else "pass"
    return min((a for a in legal if a.startswith("discard")), key=after)
