"""A new game's arguments (``game_args``): the serial ``newgame``
command's checks (``newgame_from``), the presets (docs/rules.md
"Presets") and the rule switches kept in settings.json. The menu
(menu.py) imports it to start a game; the serial newgame loads only this
(~115 lines), not the menu's pages and drawing (docs/memory.md, "A
newgame without the menu"). Dropped with the menu when a game starts
(App.drop_menu)."""
from engine import Rules
# the rules options' table (engine/options.py): read one line at a time
# (option_row), never all of it as values at once (heap)
from engine.options import OPTIONS, option_row
import i18n


# Presets (docs/rules.md "Presets"): the word the serial newgame command
# takes (preset=oklahoma; the menu shows the catalogue's preset.<word>),
# and the options that differ from the defaults, written as in a record's
# rules line; every other option of the menu takes its default.
PRESETS = (
    ("seeds", ""),
    ("oklahoma",
     "target=150 spades_double=yes box_bonus=25 game_bonus=100 shutout_double=yes"),
    ("hollywood",
     "hollywood=yes box_bonus=25 game_bonus=100 shutout_double=yes"),
)


def preset_settings(i):
    """The menu's options as preset i sets them: those that differ from
    the defaults (as rule_settings gives them)."""
    from engine.options import value
    out = {}
    for w in PRESETS[i][1].split():
        k, v = w.split("=")
        out[k] = value(v)
    return out


def rule_settings(app):
    """The menu's options from settings.json that differ from the defaults
    (a small dict: the rest are Rules' defaults), each a value the menu
    offers (anything else, e.g. a hand-edited file: the default)."""
    r = app.settings.get("rules")
    if not isinstance(r, dict):
        r = {}
    out = {}
    for line in OPTIONS:
        row = option_row(line)
        values = row[5]
        v = r.get(row[0], row[1])
        # 1 == True in Python: a yes/no option must hold a bool
        if values and v != row[1] and v in values and type(v) is type(row[1]):
            out[row[0]] = v
    return out


def newgame_from(app, opts):
    """Serial ``newgame``: validate everything before touching the game.
    An error text, or game_args() for app.new_game."""
    if "seed" not in opts:
        return "seed=N required"
    seed = opts.pop("seed")
    # digits only (int() also takes "+1" and "1_0"), and no more than the
    # deal's 30 bits (engine/prng.py: 2**30 would deal like 0)
    if not seed.isdigit() or len(seed) > 10 or int(seed) > 0x3FFFFFFF:
        return "seed must be a whole number 0..1073741823"
    seed = int(seed)
    vs = opts.pop("vs", "human")
    if vs != "human" and vs not in app.levels:
        return "vs must be one of human%s" % "".join("|" + x for x in app.levels)
    dealer = opts.pop("dealer", None)
    if dealer is not None:
        if dealer not in ("0", "1"):
            return "dealer must be 0 or 1"
        dealer = int(dealer)
    rules = rule_settings(app)
    preset = opts.pop("preset", None)
    if preset is not None:
        names = []
        for i in range(len(PRESETS)):
            names.append(PRESETS[i][0])
        if preset not in names:
            return "preset must be one of " + "|".join(names)
        rules = preset_settings(names.index(preset))
    lang = opts.pop("lang", None)
    if lang is not None and lang not in i18n.codes():
        return "lang must be one of " + "|".join(i18n.codes())
    for k in opts:
        rules[k] = opts[k]
    try:
        rules = Rules.from_options(rules)   # names the bad option
    except ValueError as e:
        return str(e)
    if lang is not None:
        app.set_lang(lang)   # everything checked: nothing changes on an error
    return game_args(app, vs, seed, dealer, rules)


def game_args(app, vs, seed=None, dealer=None, rules=None):
    """What app.new_game needs to start a game: (vs, seed, dealer, Rules,
    fresh). A game from the menu (no ``seed``) deals every hand from fresh
    entropy (hal.random_bytes, docs/reliability.md "Deals"): no seed a
    player could search gives its deals; a given seed (the serial
    ``newgame``: tests, okgin sim --seed) deals from it. The game itself is made by the app after this module has returned and
    been dropped, so the match does not land between the menu's code and
    its garbage (heap fragmentation, docs/memory.md)."""
    fresh = False
    if seed is None:
        # (the web page's board holds a given deal, a ?seed= link, in
        # ``seed``: that one game is dealt from it; a table's never)
        fresh = getattr(app.hw, "seed", None) is None
        # the computer's choices and the first dealer (the deals: above)
        seed = app.hw.entropy() & 0x3FFFFFFF   # entropy from hal
    if rules is None:
        rules = Rules(**rule_settings(app))   # each a value the menu offers
    return (vs, seed, dealer, rules, fresh)
