"""Game records (docs/rules.md "Game record"): text that replays a hand or
a match on both runtimes. This module writes them; engine/record_read.py
reads them. Both are kept apart from hand.py so a device playing a hand does
not hold this code in RAM until it saves, and a device that only saves (every
action of a game) never loads the reader, which it needs only to restore a
game at boot or to check an explicit deal. The rules line comes from
engine/rulestext.py, loaded only when a header is written.
"""
from engine.cards import card_str, strs
from engine.hand import action_str

RECORD_MAGIC = "okgin-record 1"
END_MARK = " ;"   # written last on every action line: a torn write lacks it


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
    from engine.rulestext import rules_line
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
    from engine.rulestext import rules_line
    return [RECORD_MAGIC, rules_line(m.rules),
            "match seed=%d dealer=%d" % (m.seed, m.first_dealer)]


def record_line(i, p, code):
    return "%d %d %s%s" % (i, p, action_str(code), END_MARK)
