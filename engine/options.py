"""The rules options: one table that everything else reads.

``Rules`` (its defaults, its checks and their error texts), the game
record's ``rules`` line, the serial ``newgame`` command and the device's
menu all come from ``OPTIONS`` below; docs/rules.md ("Options") explains
each with an example. Adding an option: docs/engine.md.

Only the table and the check live here (a device loads them whenever it
makes rules); the texts are in record.py and explain.py, the presets
in the device's menu (firmware/menu.py). Loaded only while rules are
made, written or read; ``Rules()`` drops it again, so during play the
device keeps a Rules' attributes, not this table (docs/engine.md,
"Memory").
"""

# One row per option, a flat tuple (one heap object per row):
#   name      keyword of Rules(), attribute of a Rules, word in records;
#             the device's menu shows it with spaces ("Gin bonus")
#   default   the seeds' rules (R1-R14); its type is the option's: True or
#             False for yes/no, an int for a number, None for "a number,
#             or none"
#   lo, hi    the allowed numbers (None for yes/no)
#   rule      the rule it changes (docs/rules.md)
#   menu...   the values the device's menu cycles through, the default
#             first (none: not in the menu)
OPTIONS = (
    ("gin_bonus", 25, 0, 10000, "R11", 25, 20),
    ("undercut_bonus", 10, 0, 10000, "R11", 10, 20, 0),
    ("target", 100, 1, 10000, "R13", 100, 150, 200, 50),
    ("discard_taken", False, None, None, "R7", False, True),
    ("ace_gin_only", False, None, None, "R5", False, True),
    ("max_turns", None, 1, 100000, "R9"),
)
MENU = 5   # row[MENU:] are the menu's values


def set_rules(rules, given):
    """Rules.__init__: every option as an attribute, the given values
    checked, the others their default. ValueError naming a bad option (its
    text comes from engine/explain.py, loaded only then)."""
    n = 0
    for row in OPTIONS:
        name = row[0]
        v = row[1]
        if name in given:
            n += 1
            v = given[name]
            lo = row[2]
            if lo is None:
                ok = v is True or v is False
            else:
                # a row with a lo has a hi (the table's form, above)
                ok = ((type(v) is int and lo <= v <= row[3])  # type: ignore[operator]
                      or (v is None and row[1] is None))
            if not ok:
                from engine.explain import rules_problem
                raise ValueError(rules_problem(row, v))
        setattr(rules, name, v)
    if n != len(given):
        from engine.explain import unknown_option
        raise ValueError(unknown_option(given))
