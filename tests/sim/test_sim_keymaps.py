"""The two key maps: no key plays for both players, and the documented
table is the one the code uses."""
import os

from okgin.simui import keymaps
from tests.support.sim import ROOT


def test_each_player_has_every_button_and_no_key_is_shared():
    seen = {}
    for p, m in enumerate(keymaps.KEYMAP):
        assert sorted(m) == sorted(keymaps.BUTTONS)
        for b, keys in m.items():
            for k in keys:
                assert k.lower() not in seen, (k, seen.get(k.lower()), (p, b))
                seen[k.lower()] = (p, b)
                assert keymaps.lookup(k) == (p, b)
                if len(k) == 1:  # Shift+letter is the same button (a long press)
                    assert keymaps.lookup(k.upper()) == (p, b)


def test_window_and_terminal_commands_do_not_shadow_buttons():
    for sym in keymaps.TK_COMMANDS:
        assert keymaps.lookup(sym) is None
    # in the terminal, commands come after Esc, so letters are free


def test_docs_show_the_key_map_the_code_uses():
    with open(os.path.join(ROOT, "docs", "simulator.md"), encoding="utf-8") as f:
        assert keymaps.table_markdown() in f.read()
