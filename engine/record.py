"""Game records (docs/rules.md "Game record"): text that replays a hand or
a match on both runtimes. This module writes them; engine/record_read.py
reads them. Both are kept apart from hand.py so a device playing a hand does
not hold this code in RAM until it saves, and a device that only saves (every
action of a game) never loads the reader, which it needs only to restore a
game at boot or to check an explicit deal. The rules line comes from
engine/rulestext.py, loaded only when a header is written.

Version 2 seals every line after the first with a CRC-32 (`` ;xxxxxxxx``):
the header lines are chained (each check covers the line before), and every
action line is checked against the header's last check, so a damaged byte
anywhere is found on its own line, a line from another game does not fit,
and what comes before the damage stays usable (docs/reliability.md).
"""
from binascii import crc32, hexlify   # CPython, and MicroPython's rp2 and unix ports
from .cards import card_str, strs, action_str

RECORD_MAGIC = "okgin-record 2"
# version 3: a table's game dealt from fresh entropy (engine/match.py): the
# match line and every action that dealt a hand name the deal's key
RECORD_MAGIC_V3 = "okgin-record 3"
RECORD_MAGIC_V1 = "okgin-record 1"   # still read (no checks, no seats)


def seal(body, key):
    """(the line with its check, the check) for ``body`` under ``key`` (the
    previous header line's check, or the header's for an action line)."""
    c = crc32(body.encode(), key) & 0xFFFFFFFF
    return "%s ;%08x" % (body, c), c


def magic_key(magic=RECORD_MAGIC):
    return crc32(magic.encode()) & 0xFFFFFFFF


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


def header_lines(obj, deal, magic=RECORD_MAGIC):
    """The sealed header of a record and the key its action lines are
    checked with: magic, rules, and the deal line ``deal``."""
    from .rulestext import rules_line
    k = magic_key(magic)
    rules, k = seal(rules_line(obj.rules), k)
    deal, k = seal(deal, k)
    return [magic, rules, deal], k


def record_lines(head, key, log, step, deals=None):
    """Every line of a record, one at a time (a device sends or writes a
    long record without holding it whole): the header, then one line per
    action of ``log`` (its codes every ``step`` bytes: a Hand's log has two
    bytes per action, a Match's one). ``deals``: a fresh match's (number
    of actions, key) per hand; an action that dealt a hand names its key."""
    for ln in head:
        yield ln
    i = 1
    d = 1           # deals[0] is the match line's
    for j in range(0, len(log), step):
        k = None
        if deals is not None and d < len(deals) and deals[d][0] == i:
            k = deals[d][1]
            d += 1
        yield record_line(i, log[j] >> 7, log[j] & 127, key, k)
        i += 1


def hand_lines(hand):
    head, key = hand_header(hand)
    return record_lines(head, key, hand._log, 2)


def joined(lines):
    return "\n".join(lines) + "\n"


def hand_header(hand):
    return header_lines(hand, deal_line(hand))


def match_header(m):
    line = "match seed=%d dealer=%d players=%s,%s" % (
        m.seed, m.first_dealer, m.players[0], m.players[1])
    if m._deals is None:
        return header_lines(m, line)
    return header_lines(m, "%s deal=%s" % (line, hexlify(m._deals[0][1]).decode()), RECORD_MAGIC_V3)


def record_line(i, p, code, key, deal=None):
    body = "%d %d %s" % (i, p, action_str(code))
    if deal is not None:
        body = "%s deal=%s" % (body, hexlify(deal).decode())
    return seal(body, key)[0]
