"""The menu: new games, the rules (presets and one switch per option) and
the statistics screen (loaded only while needed: app.py drops this module
when a game starts, to keep the heap small during play).

Pages (app.menu_page): "" the main menu, "rules" the switches, "stats" and
"reset" the statistics (firmware/stats.py)."""
# the rules options' table (engine/options.py): the menu offers each option
# that has menu values there, under its name; read one line at a time
# (option_row), never all of it as values at once (heap)
from engine.options import OPTIONS, option_row
import i18n
from i18n import t
import screens
import store
import text
from screens import LINE, TOP, header, banner, footer


def preset_of(rs):
    """The index of the preset the menu's options ``rs`` are, or None."""
    from newgame import PRESETS, preset_settings
    for i in range(len(PRESETS)):
        if preset_settings(i) == rs:
            return i
    return None


def _value_label(v):
    if v is True:
        return t("value.yes")
    if v is False:
        return t("value.no")
    return str(v)


def _label(name):
    # "gin_bonus" -> the catalogue's opt.gin_bonus, and its short form for
    # a narrow panel (opt.gin_bonus_short)
    return (t("opt." + name), t("opt." + name + "_short"))


def menu_items(app):
    # the presets and the rule switches are a new game's (newgame.py,
    # dropped with the menu: App.drop_menu)
    from newgame import PRESETS, rule_settings
    items = []
    acts = []
    if app.menu_page == "rules":
        items.append((t("menu.back"), ""))
        acts.append(("back", None))
        rs = rule_settings(app)
        for line in OPTIONS:
            row = option_row(line)
            if row[5]:
                items.append((_label(row[0]), _value_label(rs.get(row[0], row[1]))))
                acts.append(("opt", row))
        return items, acts
    if app.match is not None and app.match.winner is None:
        items.append((t("menu.resume"), ""))
        acts.append(("resume", None))
    items.append((t("menu.new_2p"), ""))
    acts.append(("new", "human"))
    for lv in app.levels:
        items.append(((t("menu.new_vs"), t("menu.new_vs_short")), t("level." + lv)))
        acts.append(("new", lv))
    i = preset_of(rule_settings(app))
    items.append((t("menu.rules"), t("menu.custom") if i is None else
                  (t("preset." + PRESETS[i][0]), t("preset." + PRESETS[i][0] + "_short"))))
    acts.append(("preset", i))
    items.append((t("menu.switches"), ""))
    acts.append(("page", "rules"))
    items.append((t("menu.stats"), ""))
    acts.append(("page", "stats"))
    # docs/reliability.md: no test mode and no Ctrl-C over USB during a game
    items.append(((t("menu.lock"), t("menu.lock_short")),
                  _value_label(app.settings.get("owner_lock") is True)))
    acts.append(("lock", None))
    # sleep after this long without a press (power.py)
    import power
    items.append(((t("menu.auto_off"), t("menu.auto_off_short")),
                  power.auto_off_label(power.auto_off_minutes(app.settings))))
    acts.append(("auto_off", None))
    # the coach's review of each hand, on each human's own panel (coachview.py)
    items.append(((t("menu.review"), t("menu.review_short")),
                  _value_label(app.settings.get("coach_review") is True)))
    acts.append(("review", None))
    # last, so a player who cannot read the menu's language finds it with one
    # LEFT; each language in its own name; OK: the next one, at once on both panels
    items.append(((t("menu.language"), t("menu.language_short")), i18n.name(i18n.code)))
    acts.append(("lang", None))
    return items, acts


def menu_button(app, button, kind):
    """A button on the menu: None, or what the app does next ("resume", or
    a new game's game_args())."""
    from newgame import PRESETS, game_args, preset_settings, rule_settings
    if app.menu_page in ("stats", "reset"):
        import statsview
        return statsview.button(app, button, kind)
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
        elif act == "lock" or act == "review":
            k = "owner_lock" if act == "lock" else "coach_review"
            app.settings[k] = app.settings.get(k) is not True
            store.save_settings(app.settings)
        elif act == "lang":
            codes = i18n.codes()
            k = codes.index(i18n.code) if i18n.code in codes else -1
            app.set_lang(codes[(k + 1) % len(codes)])
        elif act == "auto_off":   # the next choice: never, 5, 15, 60 min
            import power
            c = power.AUTO_OFF
            app.settings["auto_off"] = c[(c.index(power.auto_off_minutes(app.settings)) + 1) % len(c)]
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
        "head": t("menu.switches_title") if app.menu_page == "rules" else
        (t("menu.title"), t("menu.title_short")),
        "testmode": app.testmode,
        "items": items,
        "sel": app.menu_sel % len(items),
        "msg": app.menu_msg,
        # the footer takes the first form that fits (screens.footer)
        "hint": (t("menu.hint_page"), t("menu.hint_page_short")) if app.menu_page else t("menu.hint"),
    }


def show(fb, app):
    """Draw the menu's current page."""
    if app.menu_page in ("stats", "reset"):
        import statsview
        statsview.draw(fb, statsview.view(app))
    else:
        draw(fb, view_menu(app))


def _forms(x):
    return x if isinstance(x, tuple) else (x,)


def fit_item(label, value, w):
    """An item's label and value (each a text, or its forms longest first)
    on a row of ``w`` px: the longest value that leaves the shortest label
    room, then the longest label that fits beside it (8 px apart)."""
    labels = _forms(label)
    values = _forms(value)
    shortest = text.width(labels[-1])
    v = values[-1]
    for x in values:
        if not x or text.width(x) + 8 + shortest <= w:
            v = x
            break
    room = w - (text.width(v) + 8 if v else 0)
    return text.first_fit(room, labels), v, room


def draw(fb, v):
    """Menu: title, items (label, value) with a selection, hint; a message
    (menu_msg) above the footer takes the last row. The panel's size is
    read now (screens.W, screens.H): 5 rows on the 2.9", 7 on the 4.2"."""
    w = screens.W
    foot_y = screens.H - LINE
    fb.fill(0)
    header(fb, v["head"], v["testmode"])
    banner(fb, v["testmode"])
    items = v["items"]
    sel = v["sel"]
    msg = text.wrap(v["msg"], w - 7) if v["msg"] else []
    # scroll so the selection is visible: the rows of 16 px between head
    # and footer, fewer under a message (a saved game that could not be
    # read: up to two lines)
    if len(msg) > 2:
        text.no_room(" ".join(msg[2:]), 3, foot_y)
        msg = msg[:2]
    rows = (foot_y - TOP - LINE * len(msg)) // LINE
    top = 0
    if sel >= rows:
        top = sel - rows + 1
    # items with the same label forms (the computer's levels) take the
    # same form: the one that fits beside each of their values
    same = {}
    for label, value in items:
        if isinstance(label, tuple):
            room = fit_item(label, value, w - 15)[2]
            same[label] = min(same.get(label, room), room)
    y = TOP
    for i in range(top, min(len(items), top + rows)):
        label, value, room = fit_item(items[i][0], items[i][1], w - 15)
        if items[i][0] in same:
            label = text.first_fit(same[items[i][0]], items[i][0])
        c = 0 if i == sel else 1
        if i == sel:
            fb.fill_rect(0, y, w, LINE, 1)
        if value:
            vw = text.width(value)
            text.right(fb, value, w - 11, y, vw, c)
        text.draw(fb, label, 4, y, room, c)
        y += LINE
    if len(items) > rows:
        # more above / below: an arrow at the right end of the first / last row
        if top > 0:
            text.draw(fb, "\u25b2", w - 9, TOP, 8, 0 if top == sel else 1)
        if top + rows < len(items):
            last = top + rows - 1
            text.draw(fb, "\u25bc", w - 9, TOP + (rows - 1) * LINE, 8, 0 if last == sel else 1)
    y = foot_y - LINE * len(msg)
    for part in msg:
        text.draw(fb, part, 3, y, w - 6, 1, True)
        y += LINE
    footer(fb, v["hint"])
