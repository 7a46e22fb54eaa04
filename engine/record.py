"""Game records (docs/rules.md "Game record"): text that replays a hand or
a match on both runtimes. This module writes them; engine/record_read.py
reads them. Both are kept apart from hand.py so a device playing a hand does
not hold this code in RAM until it saves, and a device that only saves (every
action of a game) and sets rules (``Rules.from_options``, here too) never
loads the reader, which it needs only to restore a game at boot or to check
an explicit deal.
"""
from engine.cards import card_str, strs
from engine.hand import action_str, _OPTIONS

RECORD_MAGIC = "okgin-record 1"
END_MARK = " ;"   # written last on every action line: a torn write lacks it


def rules_to_text(rules):
    """'gin_bonus=25 ... max_turns=none' (the body of the 'rules' line)."""
    out = []
    for k in _OPTIONS:
        v = getattr(rules, k)
        if v is True:
            v = "yes"
        elif v is False:
            v = "no"
        elif v is None:
            v = "none"
        out.append("%s=%s" % (k, v))
    return " ".join(out)


def rules_repr(rules):
    out = []
    for k in _OPTIONS:
        out.append("%s=%r" % (k, getattr(rules, k)))
    return "Rules(%s)" % ", ".join(out)


def rules_from_options(cls, opts):
    kw = {}
    for k in opts:
        v = opts[k]
        if k not in _OPTIONS:
            raise ValueError("unknown rules option %r (known: %s)" % (k, ", ".join(_OPTIONS)))
        if isinstance(v, str):
            t = v.strip().lower()
            if k in ("discard_taken", "ace_gin_only"):
                if t in ("yes", "true", "1", "on"):
                    v = True
                elif t in ("no", "false", "0", "off"):
                    v = False
                else:
                    raise ValueError("rules option %s must be yes or no, got %r" % (k, v))
            elif k == "max_turns" and t in ("none", "off", ""):
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
    lines = [RECORD_MAGIC, "rules " + rules_to_text(hand.rules), deal_line(hand)]
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
    return [RECORD_MAGIC, "rules " + rules_to_text(m.rules),
            "match seed=%d dealer=%d" % (m.seed, m.first_dealer)]


def record_line(i, p, code):
    return "%d %d %s%s" % (i, p, action_str(code), END_MARK)
