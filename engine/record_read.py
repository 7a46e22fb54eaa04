"""Reading game records (docs/rules.md "Game record") and checking explicit
deals: everything that parses a record or deal a person or a file
gave us. Loaded only for that (engine/record.py writes records).
"""
from engine.cards import parse_card, to_ints
from engine.hand import Hand, Rules, IllegalAction
from engine.record import RECORD_MAGIC, END_MARK


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
    deck = list(h1 if dealer == 0 else h0)    # the non-dealer's 10 first
    deck.extend(h0 if dealer == 0 else h1)
    deck.append(up)
    deck.extend(st)
    for c in range(52):                       # then the cards not named
        if c not in named:
            deck.append(c)
    return deck


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
        replay_line(m, ln, line, n)   # Match.play: logs it, deals the next hand
        n += 1
    return m


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
    """Check and apply one action line 'N P action ;' to ``hand`` (a Hand,
    or a Match: its play() also deals the next hand)."""
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
