"""Fixtures for the web page's tests: the site built once by `okgin web
--build`, a real chromium (one for the session), and a local server per
test (each on its own port: its own origin, so its own storage and
service worker)."""
import os

import pytest

from okgin.lib.errors import CommandError


def _missing(e):
    """npm, chromium, chromedriver or selenium missing: said and skipped
    on a developer's machine, a failure in CI (.ci/run installs them)."""
    if os.environ.get("CI"):
        raise e
    pytest.skip("the web page's tests need it: %s" % e)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    from okgin.web import build, wasm_dir
    try:
        wasm_dir()
    except CommandError as e:
        _missing(e)
    return build(str(tmp_path_factory.mktemp("web") / "site"))


@pytest.fixture(scope="session")
def browser():
    from okgin.web.browser import Browser
    try:
        b = Browser()
    except CommandError as e:
        _missing(e)
    yield b
    b.close()


class Server:
    def __init__(self, site):
        from okgin.web import serve_in_thread
        self.site = site
        self.httpd = serve_in_thread(site)
        self.url = "http://127.0.0.1:%d/" % self.httpd.server_address[1]

    def stop(self):
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


@pytest.fixture
def server(site):
    s = Server(site)
    yield s
    s.stop()


@pytest.fixture
def page(browser, server):
    """The browser, pointed at nothing yet, with this test's server; after
    the test, the page must have logged no JavaScript error."""
    browser.console_errors()   # what earlier tests left
    yield browser.driver
    errors = browser.driver.execute_script("return window.okgin ? okgin.errors : []")
    errors += [e for e in browser.console_errors() if not getattr(server, "offline_ok", None)
               or not server.offline_ok(e)]
    browser.driver.get("about:blank")
    assert not errors, "JavaScript errors on the page: %s" % errors
