"""The menu: new games, the rules (presets and one switch per option) and
the statistics screen (loaded only while needed: app.py drops this module
when a game starts, to keep the heap small during play).

Pages (app.menu_page): "" the main menu, "rules" the switches, "stats" and
"reset" the statistics (firmware/stats.py)."""
from engine import Rules
# the rules options' table (engine/options.py): the menu offers each option
# that has menu values there, under its name; read one line at a time
# (option_row), never all of it as values at once (heap)
from engine.options import OPTIONS, option_row
import store
from screens import W, H, bold, header, banner, footer


# Presets (docs/rules.md "Presets"): the name in the menu, the word the
# serial newgame command takes (preset=oklahoma), and the options that
# differ from the defaults, written as in a record's rules line; every
# other option of the menu takes its default.
PRESETS = (
    ("Seeds' rules", "seeds", ""),
    ("Oklahoma, spades x2, 150", "oklahoma",
     "target=150 spades_double=yes box_bonus=25 game_bonus=100 shutout_double=yes"),
    ("Hollywood", "hollywood",
     "hollywood=yes box_bonus=25 game_bonus=100 shutout_double=yes"),
)


def preset_settings(i):
    """The menu's options as preset i sets them: those that differ from
    the defaults (as rule_settings gives them)."""
    from engine.options import value
    out = {}
    for w in PRESETS[i][2].split():
        k, v = w.split("=")
        out[k] = value(v)
    return out


def preset_of(rs):
    """The index of the preset the menu's options ``rs`` are, or None."""
    for i in range(len(PRESETS)):
        if preset_settings(i) == rs:
            return i
    return None


def _value_label(v):
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


def _label(name):
    # "gin_bonus" -> "Gin bonus"
    return name[0].upper() + name[1:].replace("_", " ")


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
            names.append(PRESETS[i][1])
        if preset not in names:
            return "preset must be one of " + "|".join(names)
        rules = preset_settings(names.index(preset))
    for k in opts:
        rules[k] = opts[k]
    try:
        rules = Rules.from_options(rules)   # names the bad option
    except ValueError as e:
        return str(e)
    return game_args(app, vs, seed, dealer, rules)


def menu_items(app):
    items = []
    acts = []
    if app.menu_page == "rules":
        items.append(("Back", ""))
        acts.append(("back", None))
        rs = rule_settings(app)
        for line in OPTIONS:
            row = option_row(line)
            if row[5]:
                items.append((_label(row[0]), _value_label(rs.get(row[0], row[1]))))
                acts.append(("opt", row))
        return items, acts
    if app.match is not None and app.match.winner is None:
        items.append(("Resume game", ""))
        acts.append(("resume", None))
    items.append(("New game: 2 players", ""))
    acts.append(("new", "human"))
    for lv in app.levels:
        items.append(("New game vs computer", lv))
        acts.append(("new", lv))
    i = preset_of(rule_settings(app))
    items.append(("Rules", "Custom" if i is None else PRESETS[i][0]))
    acts.append(("preset", i))
    items.append(("Rule switches", ""))
    acts.append(("page", "rules"))
    items.append(("Statistics", ""))
    acts.append(("page", "stats"))
    # docs/reliability.md: no test mode and no Ctrl-C over USB during a game
    items.append(("Owner lock", _value_label(app.settings.get("owner_lock") is True)))
    acts.append(("lock", None))
    return items, acts


def menu_button(app, button, kind):
    """A button on the menu: None, or what the app does next ("resume", or
    a new game's game_args())."""
    if app.menu_page in ("stats", "reset"):
        import stats
        return stats.button(app, button, kind)
    items, acts = menu_items(app)
    n = len(items)
    app.menu_msg = ""
    if button == "left":
        app.menu_sel = (app.menu_sel - 1) % n
    elif button == "right":
        app.menu_sel = (app.menu_sel + 1) % n
    elif button == "ok" and kind == "long" and app.menu_page:
        app.menu_page = ""   # hold OK: back to the main menu
        app.menu_sel = 0
    elif button == "ok" and kind != "repeat":
        act, arg = acts[app.menu_sel % n]
        if act == "resume":
            return "resume"   # the app goes back to the game and drops this module
        elif act == "new":
            return game_args(app, arg)   # app.new_game, once this returns
        elif act == "page":
            app.menu_page = arg
            app.menu_sel = 0
        elif act == "back":
            app.menu_page = ""
            items, acts = menu_items(app)
            app.menu_sel = acts.index(("page", "rules"))   # on "Rule switches"
        elif act == "lock":
            app.settings["owner_lock"] = app.settings.get("owner_lock") is not True
            store.save_settings(app.settings)
        else:
            if act == "preset":   # the next preset (from Custom: the first)
                rs = preset_settings(0 if arg is None else (arg + 1) % len(PRESETS))
            else:
                rs = rule_settings(app)   # every value is one of the row's
                values = arg[5]
                v = values[(values.index(rs.get(arg[0], arg[1])) + 1) % len(values)]
                rs[arg[0]] = v
                if v == arg[1]:
                    del rs[arg[0]]   # the default: not kept
            app.settings["rules"] = rs
            store.save_settings(app.settings)
    app.touch()


def view_menu(app):
    items, _acts = menu_items(app)
    return {
        "head": "Rules: one switch each" if app.menu_page == "rules" else "okgin  Oklahoma Gin",
        "testmode": app.testmode,
        "items": items,
        "sel": app.menu_sel % len(items),
        "msg": app.menu_msg,
        "hint": ("</>:choose OK:change hold OK:back" if app.menu_page
                 else "</>:choose  OK:select/change"),
    }


def show(fb, app):
    """Draw the menu's current page."""
    if app.menu_page in ("stats", "reset"):
        import stats
        stats.draw(fb, stats.view(app))
    else:
        draw(fb, view_menu(app))


def game_args(app, vs, seed=None, dealer=None, rules=None):
    """What app.new_game needs to start a game: (vs, seed, dealer, Rules).
    The game itself is made by the app after this module has returned and
    been dropped, so the match does not land between the menu's code and
    its garbage (heap fragmentation, docs/memory.md)."""
    if seed is None:
        seed = app.hw.entropy() & 0x3FFFFFFF   # entropy from hal
    if rules is None:
        rules = Rules(**rule_settings(app))   # each a value the menu offers
    return (vs, seed, dealer, rules)


def draw(fb, v):
    """Menu: title, items (label, value) with a selection, hint."""
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    items = v["items"]
    sel = v["sel"]
    # scroll so the selection is visible: 9 rows of 10 px
    rows = 9
    top = 0
    if sel >= rows:
        top = sel - rows + 1
    y = 13
    for i in range(top, min(len(items), top + rows)):
        label, value = items[i]
        if i == sel:
            fb.fill_rect(0, y - 1, W, 10, 1)
        c = 0 if i == sel else 1
        value = value[:30]
        fb.text(label[:35 - len(value)], 4, y, c)
        if value:
            fb.text(value, W - 8 * len(value) - 4, y, c)
        y += 10
    if v["msg"]:
        bold(fb, v["msg"][:36], 2, H - 21)
    footer(fb, v["hint"])
