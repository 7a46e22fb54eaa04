"""Game records (docs/rules.md "Game record"): text that replays a hand or
a match on both runtimes. This module writes them; engine/record_read.py
reads them. Both are kept apart from hand.py so a device playing a hand does
not hold this code in RAM until it saves, and a device that only saves (every
action of a game) never loads the reader, which it needs only to restore a
game at boot or to check an explicit deal. The rules line's words come from
engine/options.py, loaded only when a header is written.
"""
from engine.cards import card_str, strs
from engine.hand import action_str

RECORD_MAGIC = "okgin-record 1"
END_MARK = " ;"   # written last on every action line: a torn write lacks it


def _value_text(v):
    # an option's value as records and the serial port write it
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
    from engine.options import OPTIONS
    out = ["rules"]
    for row in OPTIONS:
        out.append("%s=%s" % (row[0], _value_text(getattr(rules, row[0]))))
    return " ".join(out)


def rules_repr(rules):
    """Rules(...) naming the options that differ from the defaults."""
    from engine.options import OPTIONS
    out = []
    for row in OPTIONS:
        v = getattr(rules, row[0])
        if v != row[1] or type(v) is not type(row[1]):
            out.append("%s=%r" % (row[0], v))
    return "Rules(%s)" % ", ".join(out)


def rules_from_options(cls, opts):
    """Rules from a dict of option names to values or their text (a
    record, the serial port): yes/no, true/false, on/off, 1/0, a number,
    none. Options not given take their default: a record written before an
    option existed reads as the game it was. ValueError naming the option."""
    from engine.options import OPTIONS
    kw = {}
    for k in opts:
        v = opts[k]
        row = None
        for r in OPTIONS:
            if r[0] == k:
                row = r
        if isinstance(v, str) and row is not None:   # (Rules() names an unknown one)
            t = v.strip().lower()
            if row[2] is None:   # yes/no
                if t in ("yes", "true", "1", "on"):
                    v = True
                elif t in ("no", "false", "0", "off"):
                    v = False
                else:
                    raise ValueError("rules option %s must be yes or no, got %r" % (k, v))
            elif row[1] is None and t in ("none", "off", ""):
                v = None
            else:
                try:
                    v = int(t)
                except ValueError:
                    raise ValueError("rules option %s must be a number, got %r" % (k, v))
        kw[k] = v
    return cls(**kw)


def _fmt_cards(cards):
    return ",".join(strs(cards))


def deal_line(hand):
    if hand.seed is not None:
        return "hand seed=%d dealer=%d" % (hand.seed, hand.dealer)
    d = hand._stock   # the whole deal order (R4)
    nd = 1 - hand.dealer
    hp = [None, None]
    hp[nd] = d[0:10]
    hp[hand.dealer] = d[10:20]
    return "hand dealer=%d p0=%s p1=%s upcard=%s stock=%s" % (
        hand.dealer, _fmt_cards(hp[0]), _fmt_cards(hp[1]), card_str(d[20]), _fmt_cards(d[21:]))


def hand_to_record(hand):
    lines = [RECORD_MAGIC, rules_line(hand.rules), deal_line(hand)]
    i = 1
    log = hand._log
    for j in range(0, len(log), 2):
        lines.append(record_line(i, log[j] >> 7, log[j] & 127))
        i += 1
    return "\n".join(lines) + "\n"


def match_to_record(m):
    lines = match_header(m)
    i = 1
    for a in m._actions:
        lines.append(record_line(i, a >> 7, a & 127))
        i += 1
    return "\n".join(lines) + "\n"


def match_header(m):
    return [RECORD_MAGIC, rules_line(m.rules),
            "match seed=%d dealer=%d" % (m.seed, m.first_dealer)]


def record_line(i, p, code):
    return "%d %d %s%s" % (i, p, action_str(code), END_MARK)
