"""``openspiel``: OpenSpiel's own simple gin rummy bot (C++,
``pyspiel.make_simple_gin_rummy_bot``), a yardstick we did not write, run
as it ships in the ``open_spiel`` package from PyPI.

It is the classic simple player of the EAAI challenge (Neller's
``SimpleGinRummyPlayer``): take the upcard when it lies in a best meld or
lets it knock, knock as soon as it may, otherwise throw the highest card of
the deadwood of a least-deadwood arrangement. Unlike our ``simple``
yardstick it keeps no near-melds (pairs, run draws); at our table the two
are even all the same (docs/bots.md).

The bot decides from an OpenSpiel state, reading only its own observation
tensor (its hand, the knock card, the upcard, the discard pile, the stock
size). This player keeps such a state in step with the engine's hand:
``okgin tourney`` calls ``sync(hand)`` before each of its decisions, and
the state is built from the same deal (the hand's record without its
moves) and the moves played so far, stock draws as the chance outcomes they
are in OpenSpiel. Seat 0 there is our non-dealer (R6: it speaks first).
Our engine referees: the showdown (R10, R11) and the end of a hand (R9) are
ours, so only the bot's draw, discard and knock choices count.
"""
from typing import Any

from okgin.engine import Hand, deadwood
from okgin.engine.cards import RANK_VALUE, RANKS, parse_card
from ..lib.errors import CommandError

try:
    import pyspiel
except ImportError:     # the tourney names the package in its error
    pyspiel = None


def _os_card(text):
    """OpenSpiel's card number (suits s, c, d, h; ranks ace low) of a card text."""
    return RANKS.index(text[0]) + 13 * "scdh".index(text[1])


def _text(code):
    return RANKS[code % 13] + "scdh"[code // 13]


NEEDS = ("the openspiel player needs OpenSpiel, which okgin does not install: pip install open_spiel "
         "(wheels for Linux x86-64 and macOS arm64, Python 3.11 or newer)")


class OpenSpielSimple:
    """``choose(observation) -> action`` like ``engine.bot``, after ``sync(hand)``."""

    name = "openspiel"

    def __init__(self, seed=None):
        if pyspiel is None:
            raise CommandError(NEEDS)
        self._game = pyspiel.load_game("gin_rummy", {"oklahoma": True})
        self._gr = pyspiel.gin_rummy
        self._hand = None       # the engine's hand the state follows
        self._state: Any = None
        self._done = 0          # moves of that hand applied to the state
        self._stock = []        # the hand's stock, top first, as dealt
        self._drawn = 0         # stock cards drawn so far
        self._seat = {}         # engine player -> OpenSpiel player
        self._bots: list = []
        self.overruled = 0      # its choices R7 does not allow here (_instead)

    def __repr__(self):
        return "OpenSpielSimple()"

    def sync(self, hand):
        """Bring the OpenSpiel state up to ``hand`` (the engine's, as the
        tournament plays it): a new hand starts a new state."""
        if hand is not self._hand:
            self._start(hand)
        history = hand.history()
        for entry in history[self._done:]:
            self._apply(entry)
        self._done = len(history)
        if hand.stock != self._stock[self._drawn:]:
            raise ValueError("the openspiel yardstick lost step with the hand's stock")

    def _start(self, hand):
        # the deal itself: the hand's record without its moves (a seeded
        # deal or explicit cards alike)
        header = hand.to_record().splitlines()[:3]
        deal = Hand.from_record("\n".join(header) + "\n")
        nd = 1 - hand.dealer
        state = self._game.new_initial_state()
        for card in deal.hands[nd] + deal.hands[hand.dealer] + [deal.upcard]:
            state.apply_action(_os_card(card))    # OpenSpiel deals 10, 10, the upcard
        self._hand = hand
        self._state = state
        self._done = 0
        self._stock = deal.stock
        self._drawn = 0
        self._seat = {nd: 0, hand.dealer: 1}
        self._bots = [pyspiel.make_simple_gin_rummy_bot(self._game.get_parameters(), p)
                      for p in (0, 1)]

    def _apply(self, entry):
        gr = self._gr
        words = entry.split()
        act = words[1]
        s = self._state
        if act == "take":
            s.apply_action(gr.DRAW_UPCARD_ACTION)
        elif act == "pass":
            s.apply_action(gr.PASS_ACTION)
        elif act == "draw":
            s.apply_action(gr.DRAW_STOCK_ACTION)
            s.apply_action(_os_card(self._stock[self._drawn]))   # the chance outcome
            self._drawn += 1
        elif act == "discard":
            s.apply_action(_os_card(words[2]))
        elif act == "knock":
            s.apply_action(gr.KNOCK_ACTION)
            s.apply_action(_os_card(words[2]))

    def choose(self, obs):
        legal = obs["legal"]
        if len(legal) == 1:
            return legal[0]
        s = self._state
        if s is None or self._seat.get(obs["player"]) != s.current_player():
            raise ValueError("the openspiel yardstick follows the table: call sync(hand) "
                             "before each of its decisions (okgin tourney does)")
        gr = self._gr
        bot = self._bots[s.current_player()]
        a = bot.step(s)
        if a == gr.DRAW_UPCARD_ACTION:
            action = "take"
        elif a == gr.DRAW_STOCK_ACTION:
            action = "draw"
        elif a == gr.PASS_ACTION:
            action = "pass"
        elif a == gr.KNOCK_ACTION:
            # it names its knock card on the next step (the state's knock phase)
            after = s.clone()
            after.apply_action(a)
            action = "knock " + _text(bot.step(after))
        else:
            action = "discard " + _text(a)
        if action not in legal:
            action = self._instead(obs, action)
        return action

    def _instead(self, obs, action):
        # OpenSpiel's game lets a player knock by throwing back the upcard it
        # just took; R7 does not (the bot takes it "to knock" in the upcard
        # turn). Then, as the same simple player: knock with the least
        # deadwood if it may, else throw the highest-value deadwood card
        # (R3) among the legal discards.
        legal = obs["legal"]
        card = action.split()[-1]
        if card not in obs["hand"] or obs["phase"] != "discard":
            raise ValueError("OpenSpiel's bot chose %r, not legal here (%s): the state "
                             "lost step with the hand" % (action, ", ".join(legal)))
        self.overruled += 1
        # the bot planned its knock's melds: it must forget the plan
        self._bots[self._state.current_player()].restart()
        hand = obs["hand"]
        ranked = []
        for a in legal:
            c = a.split()[1]
            rest = [x for x in hand if x != c]
            ranked.append((not a.startswith("knock"), deadwood(rest),
                           -RANK_VALUE[parse_card(c) % 13], a))
        return min(ranked)[3]
