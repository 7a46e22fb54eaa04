"""The rules options as text: an option's value in records and on the
serial port, the record's ``rules`` line, ``Rules.from_options`` and
``repr(rules)``.

Loaded only for those moments (a new game, a whole save, reading a record,
the menu): a device drops it again during play (firmware/app.py).
"""


def value_text(v):
    """An option's value as records and the serial port write it."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "none"
    return str(v)


def rules_line(rules):
    """'rules gin_bonus=25 ... hollywood=no': every option of the table
    (engine/options.py), so a record says exactly what was played; a
    reader defaults the options an older record does not name."""
    from .options import OPTIONS
    out = ["rules"]
    for line in OPTIONS:
        name = line.split(None, 1)[0]
        out.append("%s=%s" % (name, value_text(getattr(rules, name))))
    return " ".join(out)


def rules_repr(rules):
    """Rules(...) naming the options that differ from the defaults."""
    from .options import option_rows
    out = []
    for row in option_rows():
        v = getattr(rules, row[0])
        if v != row[1] or type(v) is not type(row[1]):
            out.append("%s=%r" % (row[0], v))
    return "Rules(%s)" % ", ".join(out)


def rules_from_options(cls, opts):
    """Rules from a dict of option names to values or their text (a
    record, the serial port): yes/no, true/false, on/off, 1/0, a number,
    none. Options not given take their default: a record written before an
    option existed reads as the game it was. ValueError naming the option."""
    from .options import OPTIONS
    kw = {}
    for k in opts:
        w = None
        for line in OPTIONS:
            if line.startswith(k + " "):
                w = line.split(None, 3)
        if w is None:
            # named before it becomes a keyword argument: MicroPython keeps
            # every keyword name it is given (interned, never freed), so a
            # client's made-up names would fill the heap (issue 29)
            from .explain import unknown_option
            known = []
            for line in OPTIONS:
                known.append(line.split(None, 1)[0])
            raise ValueError(unknown_option(opts, known))
        v = opts[k]
        if isinstance(v, str):
            t = v.strip().lower()
            if w[2] == "yes/no":
                if t in ("yes", "true", "1", "on"):
                    v = True
                elif t in ("no", "false", "0", "off"):
                    v = False
                else:
                    raise ValueError("rules option %s must be yes or no, got %r" % (k, v))
            elif w[1] == "none" and t in ("none", "off", ""):
                v = None
            else:
                try:
                    v = int(t)
                except ValueError:
                    raise ValueError("rules option %s must be a number, got %r" % (k, v))
        kw[k] = v
    return cls(**kw)
