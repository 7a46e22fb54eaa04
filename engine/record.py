"""Game records (docs/rules.md "Game record"): text that replays a hand or
a match on both runtimes. Kept apart from hand.py so a device playing a hand
does not hold this code in RAM until it saves or loads.
"""
from engine.cards import card_str, parse_card, to_ints
from engine.hand import Hand, Rules, IllegalAction, action_str, _OPTIONS

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
    return "Rules(%s)" % ", ".join("%s=%r" % (k, getattr(rules, k)) for k in _OPTIONS)


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


def deck_of(dealer, hands, upcard, stock):
    """The 52-card deal order of Hand.from_cards (R4): non-dealer's 10,
    dealer's 10, upcard, stock top first (cards not named, in card order)."""
    if dealer not in (0, 1):
        raise ValueError("dealer must be 0 or 1, got %r" % (dealer,))
    if len(hands) != 2:
        raise ValueError("hands must be a pair of 10-card lists")
    h0 = to_ints(hands[0])
    h1 = to_ints(hands[1])
    for p, h in ((0, h0), (1, h1)):
        if len(h) != 10:
            raise ValueError("player %d must have 10 cards, got %d" % (p, len(h)))
    up = parse_card(upcard)
    st = to_ints(stock or [])
    named = h0 + h1 + [up] + st
    to_ints(named)  # raises naming any card given twice
    rest = [c for c in range(52) if c not in named]
    hp = (h0, h1)
    return list(hp[1 - dealer]) + list(hp[dealer]) + [up] + st + rest


def _fmt_cards(cards):
    return ",".join(card_str(c) for c in cards)


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


def hand_from_record(text, recover=False):
    lines = record_lines(text, recover)
    rules = None
    hand = None
    n = 0
    for ln, line in lines:
        if n == 0:
            if line != RECORD_MAGIC:
                raise ValueError("line %d: expected %r, got %r" % (ln, RECORD_MAGIC, line))
        elif n == 1:
            rules = parse_rules_line(ln, line)
        elif n == 2:
            hand = parse_hand_line(ln, line, rules)
        else:
            replay_line(hand, ln, line, n - 2)
        n += 1
    if hand is None:
        raise ValueError("line %d: record ends before the 'hand' deal line"
                         % ((lines[-1][0] + 1) if lines else 1))
    return hand


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


def match_from_record(cls, text, recover=False):
    lines = record_lines(text, recover)
    if len(lines) < 3:
        raise ValueError("line %d: record ends before the 'match' line"
                         % ((lines[-1][0] + 1) if lines else 1))
    ln, line = lines[0]
    if line != RECORD_MAGIC:
        raise ValueError("line %d: expected %r, got %r" % (ln, RECORD_MAGIC, line))
    rules = parse_rules_line(lines[1][0], lines[1][1])
    ln, line = lines[2]
    words = line.split()
    if not words or words[0] != "match":
        raise ValueError("line %d: expected the 'match seed=N dealer=D' line, got %r" % (ln, line))
    kv = parse_kv(ln, words[1:])
    seed = _int_field(ln, kv, "seed")
    dealer = _int_field(ln, kv, "dealer")
    if dealer not in (0, 1):
        raise ValueError("line %d: dealer must be 0 or 1" % ln)
    m = cls(rules, seed=seed, dealer=dealer)
    n = 1
    for ln, line in lines[3:]:
        if m.winner is not None:
            raise ValueError("line %d: action after the end of the game: %r" % (ln, line))
        h = m.hand
        replay_line(h, ln, line, n)
        m._actions.append(h._log[-2])
        m._after()
        n += 1
    return m



def record_line(i, p, code):
    return "%d %d %s%s" % (i, p, action_str(code), END_MARK)


def record_lines(text, recover=False):
    """(line number, stripped text) of the meaningful lines. An action line
    must end with ' ;': a torn last line is an error, or dropped with
    recover=True."""
    if not isinstance(text, str):
        raise ValueError("a record is text")
    raw = text.split("\n")
    out = []
    last = len(raw)
    while last > 0 and not raw[last - 1].strip():
        last -= 1
    for i in range(last):
        t = raw[i].strip()
        if not t or t.startswith("#"):
            continue
        if t[0].isdigit() and not t.endswith(END_MARK.strip()):
            if i == last - 1:
                if recover:
                    continue
                raise ValueError("line %d: truncated action line %r (no ' ;' at the end): "
                                 "the record was cut short" % (i + 1, t))
            raise ValueError("line %d: action line %r does not end with ' ;'" % (i + 1, t))
        out.append((i + 1, t))
    return out


def parse_kv(ln, words):
    kv = {}
    for w in words:
        if "=" not in w:
            raise ValueError("line %d: expected name=value, got %r" % (ln, w))
        k, v = w.split("=", 1)
        kv[k] = v
    return kv


def parse_rules_line(ln, line):
    words = line.split()
    if not words or words[0] != "rules":
        raise ValueError("line %d: expected the 'rules ...' line, got %r" % (ln, line))
    try:
        return Rules.from_options(parse_kv(ln, words[1:]))
    except ValueError as e:
        msg = str(e)
        if msg.startswith("line "):
            raise
        raise ValueError("line %d: %s" % (ln, msg))


def _int_field(ln, kv, name):
    if name not in kv:
        raise ValueError("line %d: missing %s=" % (ln, name))
    try:
        return int(kv[name])
    except ValueError:
        raise ValueError("line %d: %s must be a number, got %r" % (ln, name, kv[name]))


def parse_hand_line(ln, line, rules):
    words = line.split()
    if not words or words[0] != "hand":
        raise ValueError("line %d: expected the 'hand ...' deal line, got %r" % (ln, line))
    kv = parse_kv(ln, words[1:])
    dealer = _int_field(ln, kv, "dealer")
    if dealer not in (0, 1):
        raise ValueError("line %d: dealer must be 0 or 1" % ln)
    try:
        if "seed" in kv:
            return Hand.deal(rules, dealer, _int_field(ln, kv, "seed"))
        for k in ("p0", "p1", "upcard", "stock"):
            if k not in kv:
                raise ValueError("missing %s=" % k)
        h = Hand.from_cards(rules, dealer, (kv["p0"].split(","), kv["p1"].split(",")),
                            kv["upcard"], [x for x in kv["stock"].split(",") if x])
        if h.stock_count != 31:
            raise ValueError("the deal does not name all 52 cards")
        return h
    except ValueError as e:
        msg = str(e)
        if msg.startswith("line "):
            raise
        raise ValueError("line %d: bad deal: %s" % (ln, msg))


def replay_line(hand, ln, line, expect_no):
    """Check and apply one action line 'N P action ;' to hand."""
    words = line[:-1].split()  # drop the ";" end mark
    if len(words) < 3:
        raise ValueError("line %d: expected '<number> <player> <action> ;', got %r" % (ln, line))
    try:
        no = int(words[0])
        p = int(words[1])
    except ValueError:
        raise ValueError("line %d: expected '<number> <player> <action> ;', got %r" % (ln, line))
    if no != expect_no:
        raise ValueError("line %d: action number %d, expected %d (a line is missing?)" % (ln, no, expect_no))
    try:
        hand.play(" ".join(words[2:]), player=p)
    except IllegalAction as e:
        raise ValueError("line %d: %r: %s" % (ln, line, e))
