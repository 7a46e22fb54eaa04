"""`okgin web` on the command line: the static site it builds (relative
URLs only, every file the service worker needs), what it refuses, and
serving it."""
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

from tests.support.web import ROOT


def okgin(*args, **kw):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.Popen([sys.executable, "-m", "okgin.cli", "web", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_the_site_has_only_relative_urls_and_lists_every_file_offline(site):
    """Served from any folder: no URL in the page starts at a host or at the
    root; the service worker caches every file of the build."""
    for name in ("index.html", "okgin.js", "okgin.css", "sw.js", "site.json"):
        with open(os.path.join(site, name)) as f:
            text = f.read()
        assert not re.search(r"https?://", text), name
        assert not re.search(r"""(src|href)=["']/|fetch\(["']/|register\(["']/""", text), name
    with open(os.path.join(site, "sw.js")) as f:
        cached = json.loads(re.search(r"const FILES = (\[.*\]);", f.read()).group(1))
    files = []
    for dirpath, _dirs, names in os.walk(site):
        files += [os.path.relpath(os.path.join(dirpath, n), site).replace(os.sep, "/") for n in names]
    # all but the Pico's download (okgin.uf2: not needed to play offline)
    assert sorted(cached) == sorted(["./"] + [f for f in files if f not in ("sw.js", "okgin.uf2")])


def test_build_refuses_a_folder_that_is_not_a_site(tmp_path):
    """Bad input loses nothing: a folder with other files is left alone."""
    target = tmp_path / "notes"
    target.mkdir()
    (target / "todo.txt").write_text("keep me")
    p = okgin("--build", str(target))
    out, err = p.communicate(timeout=120)
    assert p.returncode == 1
    assert err.startswith("okgin: ") and "not an okgin site" in err and "Traceback" not in err
    assert (target / "todo.txt").read_text() == "keep me"


def test_a_failed_build_leaves_the_folder_as_it_was(site, tmp_path, monkeypatch):
    """A build that fails half-way (here mpy-cross, after some files) leaves
    no half-written folder: an earlier site stays whole, a new folder is not
    made, and the next build goes through."""
    import shutil

    import pytest

    from okgin import web
    from okgin.lib.errors import CommandError
    old = tmp_path / "old"
    shutil.copytree(site, old)
    before = sorted(p.name for p in old.iterdir())
    real = web._firmware

    def failing(dst, *board):
        real(dst, *board)
        raise CommandError("mpy-cross failed on app.py")
    monkeypatch.setattr(web, "_firmware", failing)
    for out in (old, tmp_path / "new"):
        with pytest.raises(CommandError):
            web.build(str(out))
    assert sorted(p.name for p in old.iterdir()) == before
    assert not (tmp_path / "new").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["old"]       # nothing left beside it
    monkeypatch.setattr(web, "_firmware", real)
    assert web.build(str(tmp_path / "new")) == str(tmp_path / "new")
    assert (tmp_path / "new" / "site.json").exists()


def test_the_site_plays_the_default_table_or_the_board_asked_for(site, tmp_path):
    """The page's panels are the default table's, 400x300 with the 4.2"
    panel's times; okgin web --board board-2in9.json builds the 2.9"
    table's (296x128, its times, its board.json on the page's flash); a
    board that is not there or not valid is one line, exit 1."""
    def built(folder):
        with open(os.path.join(folder, "site.json")) as f:
            info = json.load(f)
        with open(os.path.join(folder, "fw", "board.json"), "rb") as f:
            return info["panel"], info["full_ms"], info["partial_ms"], f.read()

    def committed(name):
        with open(os.path.join(ROOT, "hardware", name), "rb") as f:
            return f.read()
    assert built(site) == ([400, 300], 3000, 400, committed("board.json"))
    from okgin.web import build         # (as okgin web --board: the same build, without the .uf2)
    build(str(tmp_path / "small"), uf2=None, board="board-2in9.json")
    assert built(tmp_path / "small") == ([296, 128], 2500, 400, committed("board-2in9.json"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x"}')
    for board, says in (("no-such-board.json", "not found"), (str(bad), "board definition")):
        p = okgin("--build", str(tmp_path / "never"), "--board", board)
        out, err = p.communicate(timeout=120)
        assert p.returncode == 1 and err.startswith("okgin: ") and says in err, err
        assert len(err.strip().splitlines()) == 1 and not (tmp_path / "never").exists()


def test_serve_says_where_and_a_taken_port_is_a_clear_error(site):
    """okgin web serves the page and prints its address; a port in use is
    one line, exit 1."""
    p = okgin("--port", "0")
    try:
        line = p.stdout.readline()
        url = re.search(r"http://[\d.]+:\d+/", line).group(0)
        with urllib.request.urlopen(url, timeout=10) as r:
            assert b'src="okgin.js"' in r.read()
        with urllib.request.urlopen(url + "mp/micropython.wasm", timeout=10) as r:
            assert r.headers["Content-Type"] == "application/wasm"   # streaming compile
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        q = okgin("--port", str(port))
        out, err = q.communicate(timeout=120)
        assert q.returncode == 1 and err.startswith("okgin: cannot serve on") and "Traceback" not in err
    finally:
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=30)
    assert p.returncode == 0
