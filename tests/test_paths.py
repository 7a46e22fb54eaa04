"""host/lib/paths.py in a checkout: every place it names is there (the
wheel's side is tests/install/test_wheel.py)."""
import os

from okgin.lib import paths

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_checkout_is_recognised_and_its_folders_named():
    assert paths.CHECKOUT == ROOT and not paths.INSTALLED and paths.ROOT == ROOT
    for p in (paths.ENGINE, paths.FIRMWARE, paths.HARDWARE, paths.HIL_SUITE, paths.PROBES):
        assert os.path.isdir(p), p
    assert paths.BOARD == os.path.join(ROOT, "hardware", "board.json")


def test_board_names_resolve_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert paths.resolve_board("hardware/board.json") == paths.BOARD
    (tmp_path / "mine.json").write_text("{}")
    assert paths.resolve_board("mine.json") == "mine.json"       # a file here wins
    assert paths.board_json(None) == paths.BOARD
    assert paths.board_json(str(tmp_path)) == str(tmp_path / "hardware" / "board.json")


def test_copy_source_is_a_tree_okgin_flash_takes(tmp_path):
    from okgin.lib.firmware_files import firmware_files
    paths.copy_source(str(tmp_path / "src"))
    assert os.path.isfile(paths.board_json(str(tmp_path / "src")))
    assert [d for d, _h, _c in firmware_files(str(tmp_path / "src"))] == \
        [d for d, _h, _c in firmware_files(paths.ROOT)]


def _packages():
    """pyproject's package list and its package -> folder map."""
    import tomllib
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        st = tomllib.load(f)["tool"]["setuptools"]
    return set(st["packages"]), st["package-dir"]


def test_every_python_folder_of_the_host_and_engine_is_in_the_wheel():
    """The wheel holds only the packages pyproject lists (okgin.faults was
    left out once: `okgin faults` was a traceback in every pip install).
    Every folder with Python code under host/ and engine/ is one of them."""
    listed, dirs = _packages()
    roots = {"okgin": "host", "okgin.engine": "engine"}
    assert all(dirs.get(p, "host") == d for p, d in roots.items())
    missing = []
    for pkg, top in roots.items():
        for here, subdirs, files in os.walk(os.path.join(ROOT, top)):
            subdirs[:] = [d for d in subdirs if d not in ("node_modules", "__pycache__")]
            if not any(f.endswith(".py") for f in files):
                continue
            rel = os.path.relpath(here, os.path.join(ROOT, top))
            name = pkg if rel == "." else pkg + "." + rel.replace(os.sep, ".")
            if name not in listed:
                missing.append("%s (%s)" % (name, os.path.relpath(here, ROOT)))
    assert not missing, "add to pyproject.toml [tool.setuptools] packages: " + ", ".join(missing)
