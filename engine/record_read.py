"""Reading game records (docs/rules.md "Game record") and checking explicit
deals: everything that parses a record or deal a person or a file
gave us. Loaded only for that (engine/record.py writes records).

Records are read one line at a time (``Reader``), so a device restores a
game of any length in the memory one line needs, and a damaged line stops
the reading there with the game as it was after the line before.
"""
from .cards import parse_card, to_ints, IllegalAction
from .record import RECORD_MAGIC, RECORD_MAGIC_V1, RECORD_MAGIC_V3, magic_key, seal

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any


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


class Reader:
    """Rebuilds a record line by line: ``feed(ln, text)`` for each line,
    then ``game`` is the Hand or Match so far. A line that is damaged (its
    check), malformed or illegal raises ValueError naming it and changes
    nothing, so ``game`` is then the state after the last good line.
    ``kind``: "match" or "hand" (what the third line must be); ``cls``:
    the Match or Hand class and ``rules`` the Rules class (the engine's
    modules that define them import this one, never the reverse)."""

    def __init__(self, kind, cls, rules):
        self.kind = kind
        self.cls = cls
        self.rules_cls = rules
        self.n = 0              # meaningful lines taken
        self.version = 0
        self.rules = None
        self.game: "Any" = None      # the Hand or Match once its line is read
        self.key = 0            # the check chain (version 2)
        self.over = False       # a won match takes no more actions

    def feed(self, ln, t, last=False):
        """One line (``ln``: its number, for messages). ``last=True`` when
        it is known to be the record's last (only the message differs)."""
        t = t.strip()
        if not t or t[0] == "#":
            return
        n = self.n
        if n == 0:
            if t == RECORD_MAGIC:
                self.version = 2
                self.key = magic_key()
            elif t == RECORD_MAGIC_V3 and self.kind == "match":
                self.version = 3
                self.key = magic_key(t)
            elif t == RECORD_MAGIC_V1:
                self.version = 1
            else:
                raise ValueError("line %d: expected %r, got %r" % (ln, RECORD_MAGIC, t[:40]))
            self.n = 1
            return
        if self.over:
            raise ValueError("line %d: action after the end of the game: %r" % (ln, t[:60]))
        if self.version >= 2:
            body = self._unseal(ln, t, n < 3, last)
        else:
            body = t
            if t[0].isdigit():
                if not t.endswith(";"):
                    if last:
                        raise ValueError("line %d: truncated action line %r (no ' ;' at the end): "
                                         "the record was cut short" % (ln, t))
                    raise ValueError("line %d: action line %r does not end with ' ;'" % (ln, t))
                body = t[:-1]
        if n == 1:
            self.rules = parse_rules_line(ln, body, self.rules_cls)
        elif n == 2:
            if self.kind == "hand":
                self.game = parse_hand_line(ln, body, self.rules, self.cls)
            else:
                self.game = parse_match_line(ln, body, self.rules, self.cls, self.version)
                if self.version >= 2:
                    # the actions appended to this record chain to its own
                    # header, which may name fewer options than this engine
                    # writes (a record from before an option existed)
                    self.game._key = self.key
        else:
            if self.version == 3:
                body = self._deal_of(ln, body)
            replay_line(self.game, ln, body, n - 2)
            if self.version == 3 and self.game._next is not None:
                self.game._next = None
                raise ValueError("line %d: deal= on an action that does not end a hand" % ln)
            if self.kind == "match" and self.game.winner is not None:
                self.over = True
        self.n = n + 1

    def _deal_of(self, ln, body):
        # "N P action deal=<key>": the key of the hand this action deals
        i = body.find(" deal=")
        if i < 0:
            return body
        self.game._next = _deal_key(ln, body[i + 6:])
        return body[:i]

    def _unseal(self, ln, t, header, last):
        # "<body> ;xxxxxxxx": each header line's check covers the one before,
        # every action line is checked with the header's last check
        i = len(t) - 10
        body = t[:i]
        line, c = seal(body, self.key)
        if i < 1 or line != t:
            if last and not (i > 0 and t[i:i + 2] == " ;" and _hex8(t[i + 2:])):
                # its check is not all there: the write stopped in this line
                raise ValueError("line %d: truncated line %r (its check is incomplete): "
                                 "the record was cut short" % (ln, t[:60]))
            raise ValueError("line %d: damaged line %r (its check does not match)"
                             % (ln, t[:60]))
        if header:
            self.key = c
        return body

    def finish(self, ln):
        """The game once the record has ended (ValueError if the header is
        not complete)."""
        if self.game is None:
            if self.kind == "hand":
                raise ValueError("line %d: record ends before the 'hand' deal line" % ln)
            raise ValueError("line %d: record ends before the 'match' line" % ln)
        return self.game


def _hex8(s):
    return len(s) == 8 and all(ch in "0123456789abcdef" for ch in s)


def read_text(text, kind, cls, rules, recover=False):
    """A record given as one string. recover=True drops a damaged or torn
    last line (the state after the one before)."""
    if not isinstance(text, str):
        raise ValueError("a record is text")
    r = Reader(kind, cls, rules)
    end = len(text)
    while end and text[end - 1] in " \t\r\n":
        end -= 1
    i = 0
    ln = 0
    while i < end:
        j = text.find("\n", i)
        if j < 0 or j > end:
            j = end
        ln += 1
        last = j >= end
        try:
            r.feed(ln, text[i:j], last)
        except ValueError:
            if not (recover and last):
                raise
        i = j + 1
    return r.finish(ln + 1)


def hand_from_record(cls, rules, text, recover=False):
    return read_text(text, "hand", cls, rules, recover)


def match_from_record(cls, rules, text, recover=False):
    return read_text(text, "match", cls, rules, recover)


def key_from_hex(s):
    """A record's deal key (ValueError unless 16 to 64 lowercase hex
    digits, an even number)."""
    if not 16 <= len(s) <= 64 or len(s) & 1:
        raise ValueError("a deal key is 16 to 64 hex digits, got %d" % len(s))
    for ch in s:
        if ch not in "0123456789abcdef":
            raise ValueError("a deal key is lowercase hex digits, got %r" % ch)
    from binascii import unhexlify
    return unhexlify(s)


def _deal_key(ln, s):
    try:
        return key_from_hex(s)
    except ValueError as e:
        raise ValueError("line %d: bad deal=: %s" % (ln, e))


def parse_match_line(ln, line, rules, cls, version=2):
    words = line.split()
    if not words or words[0] != "match":
        raise ValueError("line %d: expected the 'match seed=N dealer=D' line, got %r" % (ln, line))
    kv = parse_kv(ln, words[1:])
    seed = _int_field(ln, kv, "seed")
    dealer = _int_field(ln, kv, "dealer")
    if dealer not in (0, 1):
        raise ValueError("line %d: dealer must be 0 or 1" % ln)
    players = kv.get("players")
    deal = None
    if version == 3:    # a game dealt from fresh entropy: its first key
        if "deal" not in kv:
            raise ValueError("line %d: missing deal= (a version 3 record)" % ln)
        deal = _deal_key(ln, kv["deal"])
    try:
        return cls(rules, seed=seed, dealer=dealer,
                   players=None if players is None else players.split(","), deal=deal)
    except ValueError as e:
        raise ValueError("line %d: %s" % (ln, e))


def parse_kv(ln, words):
    kv = {}
    for w in words:
        if "=" not in w:
            raise ValueError("line %d: expected name=value, got %r" % (ln, w))
        k, v = w.split("=", 1)
        kv[k] = v
    return kv


def parse_rules_line(ln, line, rules):
    words = line.split()
    if not words or words[0] != "rules":
        raise ValueError("line %d: expected the 'rules ...' line, got %r" % (ln, line))
    import sys
    pkg = __name__[:__name__.rfind(".")]   # "engine" on the device, "okgin.engine" on the host
    held = (pkg + ".rulestext" in sys.modules, pkg + ".options" in sys.modules)
    try:
        return rules.from_options(parse_kv(ln, words[1:]))
    except ValueError as e:
        msg = str(e)
        if msg.startswith("line "):
            raise
        raise ValueError("line %d: %s" % (ln, msg))
    finally:
        # the options' table and texts were needed for this line only: a
        # device replays the rest of the game without them (heap). The
        # package through sys.modules: importing it would be a circle.
        for i, n in ((0, "rulestext"), (1, "options")):
            if not held[i]:
                sys.modules.pop(pkg + "." + n, None)
                try:
                    delattr(sys.modules[pkg], n)
                except (AttributeError, KeyError):   # KeyError: MicroPython
                    pass


def _number(t):
    """A whole number written as digits only (int() would also take '+1',
    '1_0' or ' 1')."""
    if not t or not t.isdigit() or len(t) > 10:
        raise ValueError(t)
    return int(t)


def _int_field(ln, kv, name):
    if name not in kv:
        raise ValueError("line %d: missing %s=" % (ln, name))
    try:
        return _number(kv[name])
    except ValueError:
        raise ValueError("line %d: %s must be a number, got %r" % (ln, name, kv[name]))


def parse_hand_line(ln, line, rules, cls):
    words = line.split()
    if not words or words[0] != "hand":
        raise ValueError("line %d: expected the 'hand ...' deal line, got %r" % (ln, line))
    kv = parse_kv(ln, words[1:])
    dealer = _int_field(ln, kv, "dealer")
    if dealer not in (0, 1):
        raise ValueError("line %d: dealer must be 0 or 1" % ln)
    try:
        if "seed" in kv:
            return cls.deal(rules, dealer, _int_field(ln, kv, "seed"))
        for k in ("p0", "p1", "upcard", "stock"):
            if k not in kv:
                raise ValueError("missing %s=" % k)
        h = cls.from_cards(rules, dealer, (kv["p0"].split(","), kv["p1"].split(",")),
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
    words = line.split()
    if len(words) < 3:
        raise ValueError("line %d: expected '<number> <player> <action> ;', got %r" % (ln, line))
    try:
        no = _number(words[0])
        p = _number(words[1])
    except ValueError:
        raise ValueError("line %d: expected '<number> <player> <action> ;', got %r" % (ln, line))
    if no != expect_no:
        raise ValueError("line %d: action number %d, expected %d (a line is missing?)" % (ln, no, expect_no))
    try:
        hand.play(" ".join(words[2:]), player=p)
    except IllegalAction as e:
        raise ValueError("line %d: %r: %s" % (ln, line, e))
