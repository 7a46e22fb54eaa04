"""The rules options: one table that everything else reads.

``Rules`` (its defaults, its checks and their error texts), the game
record's ``rules`` line, the serial ``newgame`` command and the device's
menu all come from ``OPTIONS`` below; docs/rules.md ("Options") explains
each with an example. Adding an option: docs/engine.md.

The table, the check and the table read as values live here (a device
loads them whenever it makes rules); the texts are in rulestext.py and
explain.py, the presets in the device's menu (firmware/menu.py). Loaded only while rules are
made, written or read; ``Rules()`` drops it again, so during play the
device keeps a Rules' attributes, not this table (docs/engine.md,
"Memory").
"""

# One line per option, the values written as records write them:
#   name      keyword of Rules(), attribute of a Rules, word in records;
#             the device's menu shows it with spaces ("Gin bonus")
#   default   the seeds' rules (R1-R14); its kind is the option's: yes/no,
#             a number, or none (a number, or none)
#   allowed   lo..hi for a number, yes/no
#   rule      the rule it changes (docs/rules.md)
#   menu      the values the device's menu cycles through, the default
#             first ("-": not in the menu)
# A string per option, not a tuple of values: on the device the table
# costs less while rules are made (docs/engine.md, "Memory"); option_rows()
# gives the values.
OPTIONS = (
    "gin_bonus            25    0..10000   R11  25 20",
    "undercut_bonus       10    0..10000   R11  10 20 0",
    "target               100   1..10000   R13  100 150 200 50",
    "discard_taken        no    yes/no     R7   no yes",
    "ace_gin_only         no    yes/no     R5   no yes",
    "max_turns            none  1..100000  R9   -",
    "spades_double        no    yes/no     R15  no yes",
    "spade_boxes_double   yes   yes/no     R15  yes no",
    "box_bonus            0     0..10000   R16  0 25 20",
    "gin_extra_boxes      0     0..10      R16  0 2 1",
    "undercut_extra_boxes 0     0..10      R16  0 1",
    "game_bonus           0     0..10000   R16  0 100",
    "shutout_double       no    yes/no     R16  no yes",
    "hollywood            no    yes/no     R17  no yes",
)


def value(text):
    """A value as the table writes it: yes, no, none or a number."""
    if text == "yes":
        return True
    if text == "no":
        return False
    if text == "none":
        return None
    return int(text)


def set_rules(rules, given):
    """Rules.__init__: each given value checked and kept where it differs
    from the default (the defaults are Rules' class attributes). ValueError
    naming a bad option (its text comes from engine/explain.py, loaded only
    then). One line of the table at a time: nothing is built from the whole
    table at once."""
    n = 0
    for line in OPTIONS:
        w = line.split(None, 3)
        name = w[0]
        if name in given:
            n += 1
            v = given[name]
            d = value(w[1])
            if w[2] == "yes/no":
                ok = v is True or v is False
            else:
                k = w[2].find(".")
                ok = (type(v) is int and int(w[2][:k]) <= v <= int(w[2][k + 2:])) \
                    or (v is None and d is None)
            if not ok:
                from .explain import rules_problem
                raise ValueError(rules_problem(option_row(line), v))
            if v != d or type(v) is not type(d):
                setattr(rules, name, v)
    if n != len(given):
        from .explain import unknown_option
        known = []
        for line in OPTIONS:
            known.append(line.split(None, 1)[0])
        raise ValueError(unknown_option(given, known))


def option_row(line):
    """One line of the table as values: (name, default,
    lo, hi, rule, menu values); lo and hi are None for a yes/no option."""
    w = line.split()
    lo = hi = None
    if w[2] != "yes/no":
        k = w[2].find(".")
        lo = int(w[2][:k])
        hi = int(w[2][k + 2:])
    menu = []
    if w[4] != "-":
        for t in w[4:]:
            menu.append(value(t))
    return (w[0], value(w[1]), lo, hi, w[3], tuple(menu))


def option_rows():
    """Every option of the table as option_row() values, in its order."""
    out = []
    for line in OPTIONS:
        out.append(option_row(line))
    return out
