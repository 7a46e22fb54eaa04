"""One hand of Oklahoma Gin: an explicit phase machine (R4-R11, R14).

Fast path: ``legal_codes()`` / ``apply(code)`` with int action codes, for bots
and playouts (trusted input). Safe path: ``legal_actions()`` / ``play(text)``
which parse and check, and raise ``IllegalAction`` leaving the state as it was.
"""
try:
    from micropython import const
except ImportError:  # CPython
    def const(x: int) -> int:
        return x

# the action's text form and its error live with the cards' (R14): record.py,
# record_read.py and explain.py take them from there, not from this module
from .cards import (RANK_VALUE, card_str, parse_card, cards_of, masks_of, strs,
                          IllegalAction, action_str)
from .melds import min_deadwood, discard_deadwoods
from .prng import Prng

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Optional, Sequence
    from .result import Result
    from .views import Observation, Phase

# Action codes of the fast path. 0..51 discard card c, 52..103 knock with c.
# (Underscored consts are folded into the code by mpy-cross and are no module
# globals: no dict entries or names in device RAM. engine/explain.py, loaded
# only on a mistake, has its own copies.)
_KNOCK = const(52)
_DRAW = const(104)
_TAKE = const(105)
_PASS = const(106)

# Phases (R6-R8).
_UPCARD = const(0)
_DRAW_PHASE = const(1)
_DISCARD = const(2)
_OVER = const(3)
PHASE_NAMES: "tuple[Phase, ...]" = ("upcard", "draw", "discard", "over")


_SIMPLE = {"take": _TAKE, "pass": _PASS, "draw": _DRAW}
_PLAYER = ("0 ", "1 ")


def parse_action(text: object) -> int:
    """Action code from R14 text, case-insensitive; IllegalAction if bad."""
    if isinstance(text, str):
        words = text.lower().split()
        if len(words) == 1 and words[0] in _SIMPLE:
            return _SIMPLE[words[0]]
        if len(words) == 2 and words[0] in ("discard", "knock"):
            try:
                c = parse_card(words[1])
            except ValueError as e:
                raise IllegalAction(str(e))
            return c if words[0] == "discard" else _KNOCK + c
    from .explain import why_unparsable
    raise IllegalAction(why_unparsable(text))


class Rules:
    """The rules options, one attribute each: ``Rules(target=150,
    gin_bonus=20)``; options not given take the seeds' rules. The
    options, their defaults, allowed values and the rule each changes are
    one table, engine/options.py (loaded only to make, write or read rules;
    docs/rules.md "Options"). ValueError naming the option on a bad one."""

    # The defaults, as class attributes: a Rules holds only the options that
    # differ from them (the seeds' rules: nothing), one small dict instead
    # of fourteen entries per Rules on the device's heap. They repeat the
    # table's defaults (engine/options.py), which tests/engine/
    # test_options.py checks, and give type checkers the attributes.
    gin_bonus: int = 25
    undercut_bonus: int = 10
    target: int = 100
    discard_taken: bool = False
    ace_gin_only: bool = False
    max_turns: "int | None" = None
    spades_double: bool = False
    spade_boxes_double: bool = True
    box_bonus: int = 0
    gin_extra_boxes: int = 0
    undercut_extra_boxes: int = 0
    game_bonus: int = 0
    shutout_double: bool = False
    hollywood: bool = False

    def __init__(self, **options: object) -> None:
        if not options:
            return    # the seeds' rules
        import sys
        pkg = __name__[:__name__.rfind(".")]   # "engine" on the device, "okgin.engine" on the host
        held = pkg + ".options" in sys.modules   # by a caller: it stays
        # not "from . import options": MicroPython asks the package's
        # __getattr__ (engine/__init__.py) for it before the submodule
        from .options import set_rules
        try:
            set_rules(self, options)
        finally:
            if not held:
                # needed only now: the values stay, the table goes (2.5 KB
                # of heap on the 64-bit port; docs/engine.md, "Memory")
                del sys.modules[pkg + ".options"]
                try:
                    # the package (loaded: it imports this module) through
                    # sys.modules: importing it here would be an import circle
                    delattr(sys.modules[pkg], "options")
                except (AttributeError, KeyError):   # KeyError: MicroPython
                    pass

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self.__dict__ == other.__dict__

    def __repr__(self) -> str:
        from .rulestext import rules_repr
        return rules_repr(self)

    @classmethod
    def from_options(cls, opts: "dict[str, str]") -> "Rules":
        """Rules from a dict of option names to text (as typed on the serial
        port or found in a record): yes/no/true/false/1/0, ints, none.
        ValueError naming the option on bad input."""
        from .rulestext import rules_from_options
        return rules_from_options(cls, opts)


class Hand:
    """One hand. Build with Hand.deal(), Hand.from_cards() or Hand.from_record()."""

    def __init__(self, rules: Rules, dealer: int, deck: "bytearray | Sequence[int]",
                 seed: "Optional[int]" = None) -> None:
        # deck: 52 card ints in deal order: non-dealer's 10, dealer's 10,
        # upcard, then the stock top first (R4)
        if dealer not in (0, 1):
            raise ValueError("dealer must be 0 or 1, got %r" % (dealer,))
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        if type(deck) is not bytearray:
            deck = bytearray(deck)  # 52 bytes, not a 52-pointer list (device heap)
        nd = 1 - dealer
        first = masks_of(deck[0:10])     # the non-dealer's (R4)
        second = masks_of(deck[10:20])
        self._hands = [first, second] if nd == 0 else [second, first]
        self.upcard = card_str(deck[20])   # R4, as text like discard_top
        self._discard = [deck[20]]
        self._stock = deck      # the deal order; the stock is deck[_si:]
        self._si = 21           # index of the stock's top card
        self._to_move = nd      # R6: the non-dealer speaks first
        self._phase = _UPCARD
        # public state as plain attributes (kept up to date by apply; cheaper
        # than properties on the device)
        self.to_move: "Optional[int]" = nd
        self.phase: "Phase" = "upcard"
        self.stock_count = 31
        self.discard_top: "Optional[str]" = card_str(deck[20])
        self._no_take = False   # both passed: the first draw is from the stock
        self._taken = -1        # card taken from the discard pile this turn (R7)
        self._known: "list[list[int]]" = [[], []]  # cards each took from the pile and still holds
        # per action two bytes: code | player << 7, and the card moved (255:
        # none); a bytearray, not tuples: a hand of 80 actions costs 160 bytes
        self._log = bytearray()
        self._turns = 0         # discards made, for max_turns
        self._kcache: "Optional[list[int]]" = None   # knock cards for the current discard phase
        # R5: the upcard's value; with ace_gin_only an ace means gin only
        r = deck[20] % 13
        self.knock_limit = 0 if r == 0 and rules.ace_gin_only else RANK_VALUE[r]
        # R15: a spade upcard doubles every point of the hand
        self.multiplier = 2 if rules.spades_double and deck[20] >= 39 else 1
        self.result: "Optional[Result]" = None

    # ---- construction ----
    @classmethod
    def deal(cls, rules: Rules, dealer: int = 0, seed: int = 0) -> "Hand":
        """A shuffled deal; the same seed gives the same deal on every runtime."""
        deck = bytearray(range(52))  # 1 byte per card: the stock lives all hand
        Prng(seed).shuffle(deck)
        return cls(rules, dealer, deck, seed=seed)

    @classmethod
    def from_cards(cls, rules: Rules, dealer: int, hands: "Sequence[Sequence[str | int]]",
                   upcard: "str | int", stock: "Optional[Sequence[str | int]]" = None) -> "Hand":
        """An explicit deal. hands: (player 0's 10 cards, player 1's 10 cards);
        stock top first; cards not named follow in card order."""
        from .record_read import deck_of
        return cls(rules, dealer, deck_of(dealer, hands, upcard, stock))

    # ---- public state ----
    @property
    def discard_pile(self) -> list[str]:
        return strs(self._discard)

    @property
    def hands(self) -> list[list[str]]:
        return [strs(cards_of(self._hands[0])), strs(cards_of(self._hands[1]))]

    @property
    def stock(self) -> list[str]:
        """The stock, top first (omniscient: for tests and tools)."""
        return strs(self._stock[self._si:])

    def is_over(self) -> bool:
        return self._phase == _OVER

    # ---- fast path ----
    def knock_cards(self) -> list[int]:
        """Cards the player to move may knock with (R8), in card order."""
        if self._kcache is not None:
            return self._kcache
        m = self._hands[self._to_move]
        lim = self.knock_limit
        out = []
        # dw(hand - c) >= dw(hand) - value(c) >= dw(hand) - 10: skip the
        # per-card pass for the many hands far from a knock
        if min_deadwood(m[0], m[1], m[2], m[3]) - 10 <= lim:
            allow_taken = self.rules.discard_taken
            for c, v in discard_deadwoods(m):
                if v <= lim and (allow_taken or c != self._taken):
                    out.append(c)
        self._kcache = out
        return out

    def legal_codes(self) -> list[int]:
        """Legal action codes for the player to move ([] once over)."""
        ph = self._phase
        if ph == _DISCARD:
            m = self._hands[self._to_move]
            out = cards_of(m)
            if self._taken >= 0 and not self.rules.discard_taken:
                out.remove(self._taken)  # R7
            for c in self.knock_cards():
                out.append(_KNOCK + c)
            return out
        if ph == _DRAW_PHASE:
            return [_DRAW] if self._no_take else [_DRAW, _TAKE]
        if ph == _UPCARD:
            return [_TAKE, _PASS]
        return []

    def apply(self, code: int) -> None:
        """Apply a legal action code without checking it (trusted callers)."""
        p = self._to_move
        log = self._log
        log.append(code | (p << 7))
        if code == _PASS:
            log.append(255)
            if p != self.dealer:
                self._to_move = self.dealer      # R6: the dealer may take it
            else:
                self._to_move = 1 - p            # both passed
                self._phase = _DRAW_PHASE
                self._no_take = True
        elif code >= _DRAW:                       # draw or take (R6, R7)
            if code == _TAKE:
                c = self._discard.pop()
                self._known[p].append(c)
                self._taken = c
                d = self._discard
                self.discard_top = card_str(d[-1]) if d else None
            else:
                c = self._stock[self._si]
                self._si += 1
                self.stock_count -= 1
                self._taken = -1
                self._no_take = False
            log.append(c)
            self._hands[p][c // 13] |= 1 << (c % 13)
            self._phase = _DISCARD
            self._kcache = None
        else:                                    # discard or knock (R7, R8)
            c = code if code < _KNOCK else code - _KNOCK
            log.append(c)
            self._hands[p][c // 13] &= ~(1 << (c % 13))
            kn = self._known[p]
            if c in kn:
                kn.remove(c)
            self._discard.append(c)
            self.discard_top = card_str(c)
            self._turns += 1
            self._taken = -1
            self._kcache = None
            mt = self.rules.max_turns
            if code >= _KNOCK:
                # the showdown's code is needed once per hand: imported here
                # (engine/__init__.py loads it first), so a device can drop
                # it during play and have it back at the knock
                from .showdown import knock_result
                self.result = knock_result(self, p)     # R10, R11
                self._phase = _OVER
            elif self.stock_count <= 2 or (mt is not None and self._turns >= mt):
                from .showdown import draw_result
                self.result = draw_result(self)         # R9, or the tournament bound
                self._phase = _OVER
            else:
                self._to_move = 1 - p
                self._phase = _DRAW_PHASE
        ph = self._phase
        self.phase = PHASE_NAMES[ph]
        self.to_move = None if ph == _OVER else self._to_move

    # ---- safe path ----
    def legal_actions(self) -> list[str]:
        """Legal actions of the player to move, as R14 strings."""
        out: "list[Any]" = self.legal_codes()
        for i in range(len(out)):   # in place: no second list, no comprehension
            out[i] = action_str(out[i])
        return out

    def play(self, action: str, player: "Optional[int]" = None) -> str:
        """Parse, check and apply an R14 action (case-insensitive). Returns
        the action in its exact R14 form. IllegalAction (a ValueError) with
        the reason on bad or illegal input; the state is then unchanged."""
        code = parse_action(action)
        if not ((player is None or player == self._to_move) and code in self.legal_codes()):
            # the reasons live in engine/explain.py, loaded only on a mistake
            from .explain import refuse
            refuse(self, code, player)
        self.apply(code)
        return action_str(code)

    # ---- what a player may know ----
    def history(self, recent: "Optional[int]" = None) -> list[str]:
        """Public moves as '<player> <action>'; a stock draw hides the card.
        ``recent=N``: only the last N moves (a device's screen needs no
        more: the whole list late in a hand is ~80 strings, 5 KB of heap on
        the 64-bit virtual board, and a growing list needs ever bigger
        contiguous blocks)."""
        log = self._log
        start = 0
        if recent is not None and len(log) > 2 * recent:
            start = len(log) - 2 * recent
        out = []
        for i in range(start, len(log), 2):
            p = log[i] >> 7
            code = log[i] & 127
            if code == _TAKE:
                out.append(_PLAYER[p] + "take " + card_str(log[i + 1]))
            else:
                out.append(_PLAYER[p] + action_str(code))
        return out

    def observation(self, p: int, recent: "Optional[int]" = None) -> "Observation":
        """Plain dict of what player p may know (docs/architecture.md);
        ``recent=N`` keeps only the last N moves of its history."""
        m = self._hands[p]
        over = self._phase == _OVER
        mine = (not over) and self._to_move == p
        o = 1 - p
        return {
            "player": p,
            "hand": strs(cards_of(m)),
            "discard": strs(self._discard),
            "discard_top": self.discard_top,
            "upcard": self.upcard,
            "stock_count": self.stock_count,
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": PHASE_NAMES[self._phase],
            "legal": self.legal_actions() if mine else [],
            "opponent_known": strs(sorted(self._known[o])),
            "opponent_count": len(cards_of(self._hands[o])),
            "history": self.history(recent),
            "deadwood": min_deadwood(m[0], m[1], m[2], m[3]),
            "result": (self.result.as_dict(p, self.multiplier)
                       if self.result is not None else None),
        }

    # ---- game record (engine/record.py, loaded only when used) ----
    def to_record(self) -> str:
        """Game record text: header lines, then one line per action."""
        from .record import hand_lines, joined
        return joined(hand_lines(self))

    def record_line(self) -> str:
        """The record line of the last action (append it to a saved record)."""
        from .record import record_line, hand_header
        if not self._log:
            raise ValueError("no action played yet")
        a = self._log[-2]
        return record_line(len(self._log) // 2, a >> 7, a & 127, hand_header(self)[1])

    @classmethod
    def from_record(cls, text: str, recover: bool = False) -> "Hand":
        """Rebuild a hand from to_record() text; ValueError naming the line on
        bad input. recover=True drops a torn last action line (docs/rules.md)."""
        from .record_read import hand_from_record
        return hand_from_record(cls, Rules, text, recover)
