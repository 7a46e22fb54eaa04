"""One list of the player's files on a board (okgin.lib.firmware_files):
the names the firmware writes, which okgin flash never deletes and a
fresh start forgets only in part (the statistics stay)."""
import importlib.util
import os

from okgin.lib import firmware_files as ff
from okgin.table.session import clear_saved_state

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _firmware_module(name):
    spec = importlib.util.spec_from_file_location("okgin_test_" + name,
                                                  os.path.join(ROOT, "firmware", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_list_is_the_files_the_firmware_writes():
    store = _firmware_module("store")
    written = set()
    for test_mode in (False, True):
        store.sandbox(test_mode)
        written |= {store.GAME, store.TMP, store.BAD, store.FIX}
        written |= {store.CUR}   # the real game's cursors (test mode keeps none)
        # firmware/stats.py saves through STATS.tmp and sets a damaged one aside as .bad
        written |= {store.STATS, store.STATS + ".tmp", store.STATS + ".bad"}
    # firmware/store.py saves the settings through SETTINGS.tmp, sets a damaged one aside
    written |= {store.SETTINGS, store.SETTINGS + ".tmp", store.SETTINGS + ".bad"}
    store.sandbox(False)
    assert set(ff.PLAYER_FILES) == written
    assert len(ff.PLAYER_FILES) == len(written)
    # none of them is ever a firmware file
    assert not set(ff.PLAYER_FILES) & {dev for dev, _, _ in ff.firmware_files(ROOT)}


def test_a_fresh_start_forgets_the_game_and_settings_and_keeps_the_statistics(tmp_path):
    for name in ff.PLAYER_FILES + ("main.py", "notes.txt"):
        (tmp_path / name).write_text("x")
    removed = clear_saved_state(str(tmp_path))
    assert sorted(removed) == sorted(ff.FRESH_START)
    left = sorted(os.listdir(tmp_path))
    assert "stats.json" in left and "teststats.json" in left and "main.py" in left
    assert "notes.txt" in left and "game.okg" not in left and "settings.json" not in left


def test_okgin_flash_and_the_chip_keep_to_the_same_lists():
    from okgin.table import flashing as flash
    assert flash.KEEP == ff.PLAYER_FILES
    # the chip's --fresh and the virtual board's are one function over the
    # flash's files (okgin.table.files), whichever kind they are
    import inspect
    from okgin.table import session
    assert "forget_saved_state(ReplFiles(" in inspect.getsource(session._on_the_chip)
    assert "forget_saved_state(DirFiles(" in inspect.getsource(session.clear_saved_state)
