"""The menu and the rules options (loaded only while needed: app.py drops
this module when a game starts, to keep the heap small during play)."""
from engine import Rules
# the rules options' table: the menu offers each option that has menu
# values there (engine/options.py), under its name
from engine.options import OPTIONS, MENU
import store
from screens import W, H, bold, header, banner, footer

from app import LEVELS, _drop_menu   # computer levels: when the engine has a bot


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
    """The menu's options from settings.json: each a value the menu offers
    (anything else, e.g. a hand-edited file: the default)."""
    r = app.settings.get("rules")
    if not isinstance(r, dict):
        r = {}
    out = {}
    for row in OPTIONS:
        values = row[MENU:]
        if values:
            v = r.get(row[0], row[1])
            # 1 == True in Python: a yes/no option must hold a bool
            out[row[0]] = v if v in values and type(v) is type(row[1]) else row[1]
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
    if vs != "human" and vs not in LEVELS:
        return "vs must be one of human%s" % "".join("|" + x for x in LEVELS)
    dealer = opts.pop("dealer", None)
    if dealer is not None:
        if dealer not in ("0", "1"):
            return "dealer must be 0 or 1"
        dealer = int(dealer)
    rules = rule_settings(app)
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
    if app.match is not None and app.match.winner is None:
        items.append(("Resume game", ""))
        acts.append(("resume", None))
    items.append(("New game: 2 players", ""))
    acts.append(("new", "human"))
    for lv in LEVELS:
        items.append(("New game vs computer", lv))
        acts.append(("new", lv))
    rs = rule_settings(app)
    for row in OPTIONS:
        if row[MENU:]:
            items.append((_label(row[0]), _value_label(rs[row[0]])))
            acts.append(("opt", row))
    # docs/reliability.md: no test mode and no Ctrl-C over USB during a game
    items.append(("Owner lock", _value_label(app.settings.get("owner_lock") is True)))
    acts.append(("lock", None))
    return items, acts


def menu_button(app, button, kind):
    items, acts = menu_items(app)
    n = len(items)
    app.menu_msg = ""
    if button == "left":
        app.menu_sel = (app.menu_sel - 1) % n
    elif button == "right":
        app.menu_sel = (app.menu_sel + 1) % n
    elif button == "ok" and kind != "repeat":
        act, arg = acts[app.menu_sel % n]
        if act == "resume":
            app.mode = "game"
            app._hand_boundary()
            _drop_menu()   # not needed during play
        elif act == "new":
            return game_args(app, arg)   # app.new_game, once this returns
        elif act == "lock":
            app.settings["owner_lock"] = app.settings.get("owner_lock") is not True
            store.save_settings(app.settings)
        else:
            rs = rule_settings(app)   # every value is one of the row's
            values = arg[MENU:]
            rs[arg[0]] = values[(values.index(rs[arg[0]]) + 1) % len(values)]
            app.settings["rules"] = rs
            store.save_settings(app.settings)
    app._touch()


def view_menu(app):
    items, _acts = menu_items(app)
    return {
        "head": "okgin  Oklahoma Gin",
        "testmode": app.testmode,
        "items": items,
        "sel": app.menu_sel % len(items),
        "msg": app.menu_msg,
        "hint": "</>:choose  OK:select/change",
    }


def game_args(app, vs, seed=None, dealer=None, rules=None):
    """What app.new_game needs to start a game: (vs, seed, dealer, Rules).
    The game itself is made by the app after this module has returned and
    been dropped, so the match does not land between the menu's code and
    its garbage (heap fragmentation, docs/memory.md)."""
    if seed is None:
        seed = app.hw.entropy() & 0x3FFFFFFF   # entropy from hal
    if rules is None:
        rules = Rules(**rule_settings(app))   # every option, each a valid value
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
        fb.text(label[:24], 4, y, c)
        if value:
            fb.text(value[:11], W - 8 * len(value[:11]) - 4, y, c)
        y += 10
    if v["msg"]:
        bold(fb, v["msg"][:36], 2, H - 21)
    footer(fb, v["hint"])
