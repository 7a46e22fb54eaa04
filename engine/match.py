"""A game to the target score: hands, scores, dealer rotation (R4, R12,
R13), and the score pad's boxes and games (R16, R17)."""
from .cards import IllegalAction
from .hand import Hand, Rules
from .prng import Prng

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Callable, Iterator, Optional, Sequence
    from .views import GameView, MatchObservation


def _name_ok(x: object) -> bool:
    return isinstance(x, str) and 0 < len(x) <= 12 and x.isalpha() and x == x.lower()


TALLY = ("wins", "gins", "undercuts", "best")   # Match.tally's order


class Game:
    """One game's column of the score pad: Hollywood (R17) keeps three."""

    def __init__(self) -> None:
        self.points = [0, 0]   # the hands' points (R11, R15): the running score
        self.hands = [0, 0]    # hands won that scored in this game
        self.boxes = [0, 0]    # boxes earned by those hands (R16)
        self.winner: "Optional[int]" = None   # who reached the target first (R13)


class Match:
    """m = Match(rules, seed=7): the first dealer and every hand's deal come
    from the seeded PRNG; dealer=0|1 overrides the first dealer only.
    ``players``: who plays each seat, "human" or a computer level (the
    record carries it; the engine does not play for anyone).

    A table's real game deals from fresh entropy instead: ``entropy`` is a
    function like os.urandom (the firmware passes its own, the engine
    knows no hardware) and every hand is dealt from ``entropy(16)``, a key
    of 128 bits (engine/keyed.py) that no seed of the game predicts; the
    record keeps each key (version 3: ``deal=``), the seed then serves
    only the computer's choices and the first dealer. ``deal``: the first
    hand's key, as a record gives it (a match read back deals its later
    hands from the keys its record names, then from ``entropy`` once set)."""

    # fresh deals (class defaults: None for a seeded game): the entropy
    # function, (number of actions before the hand, its key) per hand, and
    # the next hand's key when a record gave it
    entropy: "Optional[Callable[[int], bytes]]" = None
    _deals: "Optional[list[tuple[int, bytes]]]" = None
    _next: "Optional[bytes]" = None

    def __init__(self, rules: "Optional[Rules]" = None, seed: int = 0,
                 dealer: "Optional[int]" = None,
                 players: "Optional[Sequence[str]]" = None,
                 entropy: "Optional[Callable[[int], bytes]]" = None,
                 deal: "Optional[bytes]" = None) -> None:
        if rules is None:
            rules = Rules()
        if dealer is not None and dealer not in (0, 1):
            raise ValueError("dealer must be 0 or 1, got %r" % (dealer,))
        if players is None:
            players = ("human", "human")
        else:
            players = tuple(players)
            if len(players) != 2 or not all(_name_ok(x) for x in players):
                raise ValueError("players must be two names such as human,hard; got %r"
                                 % (players,))
        self.rules = rules
        self.seed = seed
        self.players = players
        self._key = None           # the record's action-line key (record.py)
        self._rng = Prng(seed)
        first = self._rng.below(2)  # R4: first dealer at random (drawn even
        # when given, so the hand seeds do not depend on the override)
        self.dealer = first if dealer is None else dealer
        self.first_dealer = self.dealer
        # one game, or three at once (R17); scores are the first game's
        self.games = [Game()]
        if rules.hollywood:
            self.games = [self.games[0], Game(), Game()]
        self.scores = self.games[0].points
        self.winner: "Optional[int]" = None
        # the whole match's statistics, per player p at TALLY.index(name)
        # * 2 + p: hands won, gins, undercuts, the biggest hand's points
        # (one list: the device keeps it all game)
        self.tally = [0, 0, 0, 0, 0, 0, 0, 0]
        self.hand_no = 1
        self.last_hand: "Optional[Hand]" = None   # the previous hand, for its showdown screen
        self._actions = bytearray()  # every action: code | player << 7
        if entropy is not None or deal is not None:
            # a seeded game keeps the class's None: no more attributes
            # (its instance dict stays as it was, docs/memory.md)
            self.entropy = entropy
            self._deals = []
            self._next = deal
        self.hand = self._deal()

    @property
    def fresh(self) -> bool:
        """True when every hand is dealt from fresh entropy (no seed
        gives this game's deals)."""
        return self._deals is not None

    def _deal(self) -> Hand:
        if self._deals is None:
            return Hand.deal(self.rules, self.dealer, self._rng.next())
        # a fresh deal: engine/keyed.py, loaded for it and dropped after
        import sys
        from .keyed import deal
        try:
            return deal(Hand, self.rules, self.dealer, self)
        finally:
            pkg = __name__[:__name__.rfind(".")]   # "engine" on the device, "okgin.engine" on the host
            sys.modules.pop(pkg + ".keyed", None)
            try:
                delattr(sys.modules[pkg], "keyed")
            except (AttributeError, KeyError):
                pass

    @property
    def target(self) -> int:
        return self.rules.target

    def is_over(self) -> bool:
        return self.winner is not None

    def legal_actions(self) -> list[str]:
        return [] if self.winner is not None else self.hand.legal_actions()

    def _after(self) -> None:
        r = self.hand.result      # set exactly when the hand is over
        if r is None:
            return
        h = self.hand
        if r.winner is not None:
            # R11-R13, R15-R17: the hand's points, boxes and statistics into
            # the games (engine/scoring.py: loaded as the hand ends, with the
            # showdown, and droppable with it)
            from .scoring import score_hand
            if score_hand(self, h):
                self.last_hand = h
                return
            self.dealer = r.winner   # R12: who scored deals
        # R9/R12: after a draw the same dealer deals again
        self.last_hand = h
        self.hand_no += 1
        self.hand = self._deal()

    def score_pad(self) -> "list[dict]":
        """The score pad (R16): per game, each player's points, boxes, box
        points, game bonus, shutout factor and total (engine/scoring.py)."""
        from .scoring import score_pad
        return score_pad(self)

    def apply(self, code: int) -> None:
        """Fast path: a legal action code of the current hand, unchecked."""
        p = self.hand._to_move
        self.hand.apply(code)
        self._actions.append(code | (p << 7))
        self._after()

    def play(self, action: str, player: "Optional[int]" = None) -> str:
        """Play an R14 action in the current hand; deals the next hand when
        this one ends. IllegalAction once the game is won."""
        if self.winner is not None:
            e = IllegalAction("the game is over: player %d won %d to %d"
                              % (self.winner, self.scores[self.winner], self.scores[1 - self.winner]))
            e.reason = ("game_over", ())
            raise e
        h = self.hand
        s = h.play(action, player)
        self._actions.append(h._log[-2])
        self._after()
        return s

    def observation(self, p: int, recent: "Optional[int]" = None) -> "MatchObservation":
        """The hand's observation for player p (``recent``: see
        Hand.observation) plus the game's scores, target and last result."""
        o: "MatchObservation" = self.hand.observation(p, recent)  # type: ignore[assignment]
        if self.winner is not None:
            o["legal"] = []
        sc = list(self.scores)
        o["scores"] = sc
        # each game's scores and winner (three in Hollywood, R17); a
        # game's hands and boxes are in match.games (the screens' score pad)
        games: "list[GameView]" = [{"scores": sc, "winner": self.games[0].winner}]
        for g in self.games[1:]:
            games.append({"scores": list(g.points), "winner": g.winner})
        o["games"] = games
        o["target"] = self.rules.target
        o["hand_no"] = self.hand_no
        o["game_winner"] = self.winner
        lh = self.last_hand
        lr = lh.result if lh is not None else None
        o["last_result"] = lr.as_dict(p, lh.multiplier) if lr is not None and lh is not None else None
        return o

    # ---- game record (engine/record.py, loaded only when used) ----
    def header(self) -> str:
        """The record's header lines (start of a saved record)."""
        from .record import match_header
        head, self._key = match_header(self)
        return head

    def record_lines(self) -> "Iterator[str]":
        """The record one line at a time (no newlines): what to write or
        send without building the whole text (a device's heap). Its header
        is the one later record_line() calls chain to."""
        from .record import record_lines
        head = self.header()
        return record_lines(head, self._key, self._actions, 1, self._deals)

    def to_record(self) -> str:
        """Game record: header lines then one numbered line per action."""
        from .record import joined
        return joined(self.record_lines())

    def record_line(self) -> str:
        """The record line of the last action: append it (with a newline) to
        the saved record instead of rewriting the whole file."""
        from .record import record_line
        n = len(self._actions)
        if not n:
            raise ValueError("no action played yet")
        if self._key is None:
            self.header()
        a = self._actions[-1]
        d = self._deals
        k = d[-1][1] if d and d[-1][0] == n else None   # the action dealt a hand
        return record_line(n, a >> 7, a & 127, self._key, k)

    @classmethod
    def from_record(cls, text: str, recover: bool = False) -> "Match":
        """Rebuild a match from to_record() text (ValueError naming the line
        on bad input; recover=True drops a torn last action line)."""
        from .record_read import match_from_record
        return match_from_record(cls, Rules, text, recover)
