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
