"""Keyboard maps, one per side of the keyboard, so two people can share a
laptop: player 1 (seat 0) on the left hand (QWE / ASD), player 2 (seat 1)
on the right hand (UIO / JKL, or the arrow keys). The maps never overlap.
Screens say P1/P2; scripts and the serial protocol number the seats 0/1.

Holding a key holds the button (the firmware turns a long hold into a long
press and into auto-repeat, as on the device). Shift+key is a long press,
for terminals that cannot report key releases.
"""

BUTTONS = ("left", "right", "ok", "draw", "take", "knock")

# player -> button -> keys (Tk keysyms, lowercase); the first key is the one
# printed on the on-screen button.
KEYMAP: "tuple[dict[str, tuple[str, ...]], ...]" = (
    {"left": ("a",), "right": ("d",), "ok": ("s",),
     "draw": ("q",), "take": ("w",), "knock": ("e",)},
    {"left": ("j", "Left"), "right": ("l", "Right"), "ok": ("k", "Down", "Return"),
     "draw": ("u",), "take": ("i",), "knock": ("o",)},
)

# Window/terminal commands (not board buttons).
TK_COMMANDS = {
    "F2": "console", "F3": "hide1", "F5": "power", "Control-q": "quit",
}
TUI_COMMANDS = {  # after Esc
    "q": "quit", "p": "power", "c": "console", "h": "hide1", "s": "serial",
}


def _build_index():
    idx = {}
    for player, buttons in enumerate(KEYMAP):
        for button, keys in buttons.items():
            for key in keys:
                if key in idx:  # the maps must never overlap
                    raise AssertionError("key %r mapped twice" % key)
                idx[key] = (player, button)
    return idx


KEY_INDEX = _build_index()


def lookup(keysym):
    """(player, button) for a Tk keysym or a typed character, else None.
    Letters match in either case (the caller decides what Shift means)."""
    hit = KEY_INDEX.get(keysym)
    if hit is None and len(keysym) == 1:
        hit = KEY_INDEX.get(keysym.lower())
    return hit


def key_label(player, button):
    """The key printed on an on-screen button, e.g. 'Q'."""
    key = KEYMAP[player][button][0]
    return key.upper() if len(key) == 1 else key


def table_markdown():
    """The key map as a Markdown table (docs/simulator.md is checked against it)."""
    rows = ["| button | player 1 (seat 0) | player 2 (seat 1) |", "|---|---|---|"]
    for b in BUTTONS:
        cells = []
        for p in (0, 1):
            cells.append(" / ".join(k.upper() if len(k) == 1 else k for k in KEYMAP[p][b]))
        rows.append("| %s | %s | %s |" % (b, cells[0], cells[1]))
    return "\n".join(rows)
