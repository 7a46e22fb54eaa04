"""A game to the target score: hands, scores, dealer rotation (R4, R12, R13)."""
from engine.hand import (Hand, Rules, IllegalAction, RECORD_MAGIC, record_line,
                         record_lines, parse_rules_line, parse_kv, replay_line,
                         _int_field)
from engine.prng import Prng


class Match:
    """m = Match(rules, seed=7): the first dealer and every hand's deal come
    from the seeded PRNG; dealer=0|1 overrides the first dealer only."""

    def __init__(self, rules=None, seed=0, dealer=None):
        if rules is None:
            rules = Rules()
        if dealer is not None and dealer not in (0, 1):
            raise ValueError("dealer must be 0 or 1, got %r" % (dealer,))
        self.rules = rules
        self.seed = seed
        self._rng = Prng(seed)
        first = self._rng.below(2)  # R4: first dealer at random (drawn even
        # when given, so the hand seeds do not depend on the override)
        self.dealer = first if dealer is None else dealer
        self.first_dealer = self.dealer
        self.scores = [0, 0]
        self.winner = None
        self.hand_no = 1
        self.last_hand = None      # the previous hand, for its showdown screen
        self._actions = bytearray()  # every action: code | player << 7
        self.hand = self._deal()

    def _deal(self):
        return Hand.deal(self.rules, self.dealer, self._rng.next())

    @property
    def target(self):
        return self.rules.target

    def is_over(self):
        return self.winner is not None

    def legal_actions(self):
        return [] if self.winner is not None else self.hand.legal_actions()

    def _after(self):
        h = self.hand
        if not h.is_over():
            return
        r = h.result
        if r.winner is not None:
            self.scores[r.winner] += r.points
            if self.scores[r.winner] >= self.rules.target:  # R13
                self.winner = r.winner
                self.last_hand = h
                return
            self.dealer = r.winner   # R12: who scored deals
        # R9/R12: after a draw the same dealer deals again
        self.last_hand = h
        self.hand_no += 1
        self.hand = self._deal()

    def apply(self, code):
        """Fast path: a legal action code of the current hand, unchecked."""
        p = self.hand._to_move
        self.hand.apply(code)
        self._actions.append(code | (p << 7))
        self._after()

    def play(self, action, player=None):
        """Play an R14 action in the current hand; deals the next hand when
        this one ends. IllegalAction once the game is won."""
        if self.winner is not None:
            raise IllegalAction("the game is over: player %d won %d to %d"
                                % (self.winner, self.scores[self.winner], self.scores[1 - self.winner]))
        h = self.hand
        p = h._to_move
        s = h.play(action, player)
        self._actions.append(h._log[-1][1] | (p << 7))
        self._after()
        return s

    def observation(self, p):
        o = self.hand.observation(p)
        if self.winner is not None:
            o["legal"] = []
        o["scores"] = list(self.scores)
        o["target"] = self.rules.target
        o["hand_no"] = self.hand_no
        o["game_winner"] = self.winner
        lh = self.last_hand
        o["last_result"] = lh.result.as_dict(p) if lh is not None else None
        return o

    # ---- game record ----
    def header(self):
        return [RECORD_MAGIC, "rules " + self.rules.to_text(),
                "match seed=%d dealer=%d" % (self.seed, self.first_dealer)]

    def to_record(self):
        """Game record: header lines then one numbered line per action."""
        lines = self.header()
        i = 1
        for a in self._actions:
            lines.append(record_line(i, a >> 7, a & 127))
            i += 1
        return "\n".join(lines) + "\n"

    def record_line(self):
        """The record line of the last action: append it (with a newline) to
        the saved record instead of rewriting the whole file."""
        n = len(self._actions)
        if not n:
            raise ValueError("no action played yet")
        a = self._actions[-1]
        return record_line(n, a >> 7, a & 127)

    @classmethod
    def from_record(cls, text, recover=False):
        """Rebuild a match from to_record() text (ValueError naming the line
        on bad input; recover=True drops a torn last action line)."""
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
            m._actions.append(h._log[-1][1] | (h._log[-1][0] << 7))
            m._after()
            n += 1
        return m
