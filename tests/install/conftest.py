"""The wheel as a user installs it (tests/install/test_wheel.py says the
walk): built once, installed once into a fresh venv, run in a clean
environment from a folder outside the checkout, with a stand-in internet
on 127.0.0.1 for the RP2040 images."""
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@pytest.fixture(scope="package")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # sdist, then the wheel from it: a clean tree (a wheel built from the
    # checkout would reuse a stale build/ folder), and the sdist is checked too
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), ROOT],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "WARNING" not in r.stdout + r.stderr, (r.stdout + r.stderr)[-3000:]
    (path,) = out.glob("okgin-*.whl")
    return path


def _source_images():
    """The two RP2040 images to serve (OKGIN_RP2_DIR, which CI sets, or
    this machine's cache), or None."""
    from okgin.chip import images
    try:
        return images.find_images(download=False)
    except images.ImageError:
        if os.environ.get("OKGIN_RP2_DIR"):
            raise
        return None


@pytest.fixture(scope="package")
def mirror(tmp_path_factory):
    """The internet, as far as okgin's downloads go: an HTTP server on
    127.0.0.1 holding MicroPython's and the bootrom's files under their
    official names (the URLs' last parts); None without the images here."""
    from okgin.chip import images
    found = _source_images()
    if found is None:
        yield None
        return
    fw, rom = found
    site = tmp_path_factory.mktemp("internet")
    shutil.copyfile(fw, site / images.FIRMWARE_URL.rsplit("/", 1)[-1])
    shutil.copyfile(rom, site / images.BOOTROM_URL.rsplit("/", 1)[-1])   # the raw ROM is accepted too
    requests = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, fmt, *args):
            requests.append(self.path)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    yield url, requests, fw
    httpd.shutdown()


@pytest.fixture(scope="package")
def installed(wheel, mirror, tmp_path_factory):
    """(run, cwd): run(*args) runs that venv's okgin in a folder of its own,
    in a clean environment (run.env)."""
    base = tmp_path_factory.mktemp("venv")
    venv = base / "venv"
    home = tmp_path_factory.mktemp("home")
    env = {"PATH": str(venv / "bin") + os.pathsep + SYSTEM_PATH, "HOME": str(home)}
    if mirror:
        env["OKGIN_RP2_MIRROR"] = mirror[0]
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(venv)],
                   check=True, timeout=300)
    r = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                        "--disable-pip-version-check", str(wheel)],
                       capture_output=True, text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    cwd = tmp_path_factory.mktemp("elsewhere")

    def run(*args, timeout=300, **kw):
        return subprocess.run([str(venv / "bin" / args[0])] + list(args[1:]), cwd=str(cwd), env=env,
                              capture_output=True, text=True, timeout=timeout, **kw)
    run.venv, run.env, run.home = venv, env, home
    return run, cwd


@pytest.fixture
def need_mirror(mirror):
    """The mirror, or the test is skipped (never where OKGIN_RP2_DIR is set)."""
    if mirror is None:
        pytest.skip("the RP2040 images are not on this machine to serve (set OKGIN_RP2_DIR)")
    return mirror
