"""Computer players (docs/bots.md): ``bot(level, seed=None).choose(observation)``.

Levels, weakest first: ``random`` (any legal move), ``easy``, ``normal``,
``hard``; plus ``greedy`` (always the move that leaves the least deadwood,
knocks as soon as it may) as a yardstick for tournaments.

A bot decides from the observation dict only (``Hand.observation(p)`` or
``Match.observation(p)``): its own hand, the discard pile, the public history
and what the opponent is known to hold. It never sees the opponent's hidden
cards or the stock, so what it "knows" about them is inferred or sampled.

Same code on CPython and MicroPython: cards are small ints, the search is in
``engine.bots_core``, the arithmetic is integer (no floats: a Pico's are
32-bit), and the only randomness is ``bots_core.Prng`` seeded by the caller,
so a seed replays the same decisions on both runtimes.

What a decision reads is in ``View`` (one per decision): besides the cards,
``limit`` (R5), ``mult`` (a per-hand points multiplier of house rules, 1
when the observation has none), ``scores`` and ``target`` (R13). docs/bots.md
says how each level thinks and how strong it is.
"""
from .cards import card_str, masks_of
from .bots_core import (VAL, Prng, card_int, best, highest_loose, layoff_value,
                             LOOSE, RUNS, SET3)

try:
    from micropython import const
except ImportError:  # CPython
    def const(x: int) -> int:
        return x

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Mapping, Optional, Union
    from .views import Observation

# the levels bot() plays: the table's (engine/levels.py; tests/bots/
# test_levels.py checks they are all here, each played below) and two
# yardsticks, random and greedy. Written out rather than imported: the
# computer's move is the device's tightest moment, and the import costs
# about 0.5 KB of heap there (an interned-name pool)
LEVELS = ("random", "easy", "normal", "hard", "greedy")

# What a bot knows of each card (a bytearray of 52 per decision).
_UNSEEN = const(0)     # in the stock or the opponent's hidden cards
_MINE = const(1)
_PILE = const(2)       # in the discard pile (dead, except the top)
_OPP = const(3)        # taken by the opponent from the pile and still held

# Tuning (measured with ``okgin tourney``; see docs/bots.md). Scores are
# ints in 1/64 of a point: no floats, so the 32-bit float of a Pico and the
# 64-bit one of CPython can never round a close call differently. const():
# no module global and no interned name on the device (every name a module
# brings is interned for good, docs/memory.md "Names"); the three that
# engine/coach.py imports stay plain.
_POT_WEIGHT_NORMAL = const(4)  # quarters: weight 1 on the meld promise (normal)
_NORMAL_SIMPLE_TAKE = const(1)  # normal takes like greedy: whenever deadwood drops
_NORMAL_SLIP = const(10)  # percent of normal discards that are a random loose card
_EASY_SLIP = const(35)  # percent of easy discards that are a random dead card
_SAMPLES = const(16)    # opponent hands sampled for a knock decision (hard)
SAMPLES = _SAMPLES      # the same, for engine/coach.py (a const is no module global on the device)
_UNDERCUT_MAX = const(25)  # percent: hard knocks when an undercut is less likely
_POT_WEIGHT_HARD = 12   # quarters: weight 3 on the meld promise (hard)
_DANGER_WEIGHT_HARD = 24  # quarters: 6 points per meld the discard likely completes
_CANDIDATES = const(5)  # discards judged in full: the lowest-deadwood ones ...
_CANDIDATE_SPAN = const(12)  # ... within this many points of the lowest
_TAKE_MARGIN = const(0)  # points a take must beat the stock by (1 measured worse, docs/bots.md)
_TAKE_INFER = const(205)  # /256: how sure a pickup means a meld (hard's card reading)
_UNDERCUT_BONUS = 10    # R11 (the observation does not carry the rules' value)
_FAR_LIMIT = const(4)   # knock limit (R5) up to which hard keeps near-melds (docs/bots.md)


# Keys a decision reads (others are optional: a bare Hand observation has no
# scores, a hand-made one may lack the history).
_NEEDED = ("player", "phase", "hand")


def move_seed(game_seed: int, moves: int) -> int:
    """The seed of the computer's decision after ``moves`` moves of a hand,
    in a game seeded ``game_seed``. The device makes a fresh bot with it for
    each move, so a resumed game replays the same decisions, and a host that
    replays a game (the memory benchmark, the firmware tests) makes the
    same moves as the board."""
    return (game_seed * 31 + moves) & 0x3FFFFFFF


def bot(level: str, seed: "Optional[int]" = None) -> "Bot":
    """A computer player of ``level`` (one of ``LEVELS``); same seed, same play."""
    if not isinstance(level, str) or level.lower() not in LEVELS:
        raise ValueError("unknown bot level %r (choose one of %s)"
                         % (level, ", ".join(LEVELS)))
    return Bot(level.lower(), seed)


class View:
    """What one observation tells a bot, as ints (built once per decision)."""

    def __init__(self, obs: "Mapping[str, Any]") -> None:
        # Built for every decision of the computer, when the device's heap
        # is tightest: few attributes (the instance's table stays small) and
        # cards in bytearrays rather than lists of ints (docs/memory.md).
        self.me = obs["player"]
        self.phase = obs["phase"]
        self.legal = obs["legal"]
        hand = [card_int(c) for c in obs["hand"]]   # order does not matter: masks
        self.hm = masks_of(hand)
        top = obs.get("discard_top")
        self.top = card_int(top) if top else -1
        self.stock = obs.get("stock_count", 31)
        # a hand's points are multiplied by this: 2 for a spade-doubled
        # hand (R15); 1 when the observation does not say
        self.mult = obs.get("multiplier", 1)
        seen = bytearray(52)
        for c in hand:
            seen[c] = _MINE
        for c in obs.get("discard", ()):
            seen[card_int(c)] = _PILE
        known = [card_int(c) for c in obs.get("opponent_known", ())]
        for c in known:
            seen[c] = _OPP
        self.seen = seen
        self.opp_known = known
        # Replay the public history: which cards each player threw or
        # declined (R6 pass, or a stock draw with a card on the pile), and
        # how many stock cards the opponent has looked at.
        mine_thrown = bytearray(52)
        cold = bytearray(52)       # cards the opponent showed no use for
        draws = 0
        pile = bytearray(53)       # the discard pile as a stack, pile[0] cards
        up = obs.get("upcard")
        if up:
            pile[0] = 1
            pile[1] = card_int(up)
        me = str(self.me)
        for entry in obs.get("history", ()):
            parts = entry.split()
            if len(parts) < 2:
                continue
            mine = parts[0] == me
            act = parts[1]
            n = pile[0]
            if act == "take":
                if n:
                    pile[0] = n - 1
            elif act == "discard" or act == "knock":
                c = card_int(parts[2])
                pile[0] = n + 1
                pile[n + 1] = c
                if mine:
                    mine_thrown[c] = 1
                else:
                    cold[c] = 1
            elif act == "draw" or act == "pass":
                if not mine:
                    if n:
                        cold[pile[n]] = 1
                    if act == "draw":
                        draws += 1
        self.my_discards = mine_thrown
        self.opp_draws = draws
        self.cold = cold
        unseen = bytearray(52)
        n = 0
        for c in range(52):
            if seen[c] == _UNSEEN:
                unseen[n] = c
                n += 1
        self.unseen = unseen[:n]
        hidden = obs.get("opponent_count", 10) - len(known)
        self.hidden = hidden if hidden > 0 else 0
        # the scores that decide a game (R13): in Hollywood (R17) the first
        # game still open, the one the next hand won or lost can close
        scores = obs.get("scores")
        games = obs.get("games")
        if games and len(games) > 1:
            for g in games:
                if g["winner"] is None:
                    scores = g["scores"]
                    break
        self.scores = scores
        self.target = obs.get("target", 100)
        self.limit = obs.get("knock_limit", 10)
        self.hold: "Optional[bytearray]" = None   # hard: the opponent model, built on demand

    def holds(self) -> bytearray:
        """The chance the opponent holds each card, in 1/256 (a bytearray
        of 52), from public information (hard's card reading):

        - a card it took from the pile and still holds: certain (255);
        - ours or in the pile: 0;
        - any other: its share of the unseen cards (``hidden / unseen``),
          halved near a card it threw or declined (same rank, or the same
          suit within two ranks: it shows no use for those);
        - then each pickup is read as a meld made or nearly made: the
          pairs of cards that would meld with the card it took are weighed
          by how likely it holds both, and each such partner's chance rises
          by its share of that weight (``_TAKE_INFER``: a pickup can also
          be a gamble on a draw).
        """
        if self.hold is not None:
            return self.hold
        seen = self.seen
        cold = self.cold
        hold = bytearray(52)
        n = len(self.unseen)
        base = (self.hidden * 256) // n if n else 0
        if base > 255:
            base = 255
        for c in self.unseen:
            hold[c] = base >> 1 if _near(cold, c) else base
        for c in self.opp_known:
            hold[c] = 255
        boost = bytearray(52)
        pairs = [0] * 12
        for t in self.opp_known:
            k = _meld_pairs(t, pairs)
            tot = 0
            for i in range(0, k, 2):
                tot += hold[pairs[i]] * hold[pairs[i + 1]]
            if not tot:
                continue
            for i in range(0, k, 2):
                a = pairs[i]
                b = pairs[i + 1]
                w = (hold[a] * hold[b] * 255) // tot
                for x in (a, b):
                    if seen[x] == _UNSEEN:
                        y = boost[x] + w
                        boost[x] = y if y < 255 else 255
        for c in self.unseen:
            b = boost[c]
            if b:
                # 1 - (1 - p) * (1 - infer * b), in 1/256
                keep = 256 - ((_TAKE_INFER * b) >> 8)
                hold[c] = 255 - (((255 - hold[c]) * keep) >> 8)
        self.hold = hold
        return hold


def _near(marks: bytearray, c: int) -> bool:
    """A card of ``c``'s rank, or of its suit within two ranks, is marked
    in the 52-byte ``marks``."""
    r = c % 13
    for s in range(4):
        if marks[s * 13 + r]:
            return True
    base = c - r
    lo = r - 2 if r >= 2 else 0
    hi = r + 2 if r <= 10 else 12
    for k in range(lo, hi + 1):
        if marks[base + k]:
            return True
    return False


def _far_loose(hm: "list[int]") -> "list[int]":
    """Suit masks of the loose cards of ``hm``'s best arrangement that no
    other loose card is near: none of the same rank, none of the same suit
    within two ranks."""
    best(hm)
    a = LOOSE[0]
    b = LOOSE[1]
    c = LOOSE[2]
    d = LOOSE[3]
    # ranks loose in two suits or more
    paired = (a & (b | c | d)) | (b & (c | d)) | (c & d)
    out = [0, 0, 0, 0]
    for s in range(4):
        x = LOOSE[s]
        m = 0
        r = 0
        while x >> r:
            bit = 1 << r
            if x & bit and not paired & bit and not x & _WINDOW[r] & ~bit:
                m |= bit
            r += 1
        out[s] = m
    return out


def _meld_pairs(c: int, out: "list[int]") -> int:
    """The pairs of cards that make a meld (R3) with ``c``: two others of
    its rank, or the run neighbours (c-2, c-1), (c-1, c+1), (c+1, c+2).
    Written flat into ``out`` (12 slots); returns how many slots."""
    r = c % 13
    k = 0
    o = [0, 0, 0]
    j = 0
    for s in range(4):
        x = s * 13 + r
        if x != c:
            o[j] = x
            j += 1
    for a, b in ((0, 1), (0, 2), (1, 2)):
        out[k] = o[a]
        out[k + 1] = o[b]
        k += 2
    if r >= 2:
        out[k] = c - 2
        out[k + 1] = c - 1
        k += 2
    if 1 <= r <= 11:
        out[k] = c - 1
        out[k + 1] = c + 1
        k += 2
    if r <= 10:
        out[k] = c + 1
        out[k + 1] = c + 2
        k += 2
    return k


def _action_card(action: str) -> int:
    sp = action.find(" ")
    return card_int(action[sp + 1:]) if sp > 0 else -1


class Bot:
    def __init__(self, level: str, seed: "Optional[int]" = None) -> None:
        self.level = level
        self.rng = Prng(0 if seed is None else seed)
        self.hard = level == "hard"

    def __repr__(self) -> str:
        return "bot(%r)" % self.level

    def choose(self, obs: "Union[Observation, Mapping[str, Any]]") -> str:
        """The action (R14 text) this player makes; always one of
        ``obs["legal"]``."""
        legal = obs.get("legal") if isinstance(obs, dict) else None
        if not legal:
            raise ValueError("no legal action in this observation: not this player's turn")
        if self.level == "random":
            return legal[self.rng.below(len(legal))]
        if len(legal) == 1:
            return legal[0]
        for key in _NEEDED:
            if key not in obs:
                raise ValueError("observation lacks %r (see docs/architecture.md)" % key)
        try:
            v = View(obs)
        except (ValueError, IndexError, TypeError, AttributeError) as e:
            raise ValueError("malformed observation: %s" % e)
        if v.phase == "upcard" or v.phase == "draw":
            take = self._want_take(v)
            if take and "take" in legal:
                return "take"
            for a in ("draw", "pass"):
                if a in legal:
                    return a
            return legal[0]
        if v.phase == "discard":
            action = self._discard(v)
            if action in legal:
                return action
        # Anything this bot does not know how to judge: a legal move.
        return legal[0]

    # ----- drawing: take the discard or go to the stock -----------------
    def _want_take(self, v: View) -> bool:
        top = v.top
        if top < 0 or v.my_discards[top]:
            # Never take back a card this player threw: two bots could
            # otherwise swap the same cards forever without touching the stock.
            return False
        hm = v.hm
        now = best(hm)
        ts = top // 13
        tbit = 1 << (top % 13)
        after = list(hm)
        after[ts] |= tbit
        # R7: the taken card may not be discarded this turn.
        dw_take = best(after, 1, top)
        melded_top = dw_take < now and not (LOOSE[ts] & tbit)
        level = self.level
        if level == "greedy" or (level == "normal" and _NORMAL_SIMPLE_TAKE):
            return dw_take < now
        if level == "easy":
            # Sees only a meld made right now.
            return melded_top
        # hard (normal too with _NORMAL_SIMPLE_TAKE = 0): compare the hand
        # after the take and its best discard with what a stock card is
        # worth on average: its meld gain plus any swap for the highest
        # loose card, in a hand of about today's promise.
        if dw_take <= v.limit:
            return True       # take, then knock at once (R8)
        take_score, draw_score = self._take_or_draw(v, now, after, melded_top)
        return take_score + _TAKE_MARGIN * 64 < draw_score

    def _take_or_draw(self, v: View, now: int, after: "list[int]",
                      melded_top: bool) -> "tuple[int, int]":
        """(take, draw): how good the hand is after taking the top card and
        the best discard, and after a stock card on average (its meld gain
        plus any swap for the highest loose card, in a hand of about
        today's promise); lower is better, in 1/64 of a point. ``now`` is
        today's deadwood, ``after`` the eleven cards with the top card."""
        take_score = self._best_discard(v, after, v.top)[0]
        melds, swaps, n = self._outlook(v, v.hm, now)
        wp = _POT_WEIGHT_HARD if self.hard else _POT_WEIGHT_NORMAL
        draw_score = now * 64 - ((melds + swaps) * 64) // n - (wp * 16 * melds) // n
        if melded_top:
            # A meld in hand is worth more than its deadwood today: it can
            # not be spoilt, and it frees the next draws for the rest.
            take_score -= 2 * 64
        return take_score, draw_score

    # ----- discarding and knocking ---------------------------------------
    def _discard(self, v: View) -> str:
        level = self.level
        legal = v.legal
        knock_cards = []
        for a in legal:
            if a[0] == "k":
                knock_cards.append(_action_card(a))
        if knock_cards:
            kc, kdw = self._lowest(v.hm, knock_cards)
            # greedy/easy/normal knock as soon as they may (R8); gin always.
            if kdw == 0 or level != "hard" or self._knock_pays(v, kc, kdw):
                return "knock " + card_str(kc)
        if level == "greedy" or level == "easy":
            return self._discard_simple(v)
        if level == "normal" and self.rng.below(100) < _NORMAL_SLIP:
            slip = self._slip(v)
            if slip:
                return slip
        card = self._best_discard(v, v.hm, -1)[1]
        if card < 0:
            return legal[0]
        return "discard " + card_str(card)

    def _slip(self, v: View) -> "Optional[str]":
        # A careless discard: any card outside the melds of the hand.
        best(v.hm)
        loose = [_action_card(a) for a in v.legal if a[0] == "d"]
        loose = [c for c in loose if (LOOSE[c // 13] >> (c % 13)) & 1]
        if loose:
            return "discard " + card_str(loose[self.rng.below(len(loose))])
        return None

    def _discard_simple(self, v: View) -> str:
        if self.level == "easy" and self.rng.below(100) < _EASY_SLIP:
            slip = self._slip(v)
            if slip:
                return slip
        cards = [_action_card(a) for a in v.legal if a[0] == "d"]
        c, dw = self._lowest(v.hm, cards)
        return "discard " + card_str(c)

    def _lowest(self, hm: "list[int]", cards: "list[int]") -> "tuple[int, int]":
        """The card among ``cards`` whose discard leaves the least deadwood;
        ties go to the higher card (less to lose if the hand ends)."""
        best_c = -1
        low = 1000
        rest = list(hm)
        for c in cards:
            s = c // 13
            bit = 1 << (c % 13)
            rest[s] ^= bit
            dw = best(rest)
            rest[s] ^= bit
            if dw < low or (dw == low and (VAL[c] > VAL[best_c] or
                                           (VAL[c] == VAL[best_c] and c > best_c))):
                low = dw
                best_c = c
        return best_c, low

    def _best_discard(self, v: View, hm11: "list[int]", keep: int) -> "tuple[int, int]":
        """(score, card): the discard from the eleven cards ``hm11`` (not
        ``keep``, R7) that leaves the best hand: least deadwood, most chances
        to improve on the next draws, least help to the opponent. Lower
        score is better; in 1/64 of a point."""
        cand = []
        for s in range(4):
            x = hm11[s]
            r = 0
            while x:
                if x & 1:
                    c = s * 13 + r
                    if c != keep:
                        rest = list(hm11)
                        rest[s] ^= 1 << r
                        cand.append((best(rest), -VAL[c], c, rest))
                x >>= 1
                r += 1
        cand.sort()
        hard = self.hard
        if hard and v.limit <= _FAR_LIMIT:
            # A low knock limit (R5) is a race to gin, where a loose card's
            # value matters less than the melds it may still make: throw a
            # card near no other loose card (a pair, or suited within two
            # ranks) while there is one.
            far = _far_loose(hm11)
            fc = [x for x in cand if (far[x[2] // 13] >> (x[2] % 13)) & 1]
            if fc:
                cand = fc
        top_score = 1 << 20
        best_c = -1
        limit = cand[0][0] + _CANDIDATE_SPAN if cand else 0
        for i in range(len(cand)):
            dw, negv, c, rest = cand[i]
            if i >= _CANDIDATES or dw > limit:
                break
            score = self._judge(v, rest, dw, c)
            if score < top_score:
                top_score = score
                best_c = c
        return top_score, best_c

    def _judge(self, v: View, rest: "list[int]", dw: int, c: int) -> int:
        """The score of throwing ``c`` and keeping the ten cards ``rest``
        (least deadwood ``dw``): deadwood minus the promise of the next
        draws, plus (hard) the chance the opponent melds ``c``; lower is
        better, in 1/64 of a point."""
        wp = _POT_WEIGHT_HARD if self.hard else _POT_WEIGHT_NORMAL
        melds, swaps, n = self._outlook(v, rest, dw)
        score = dw * 64 - (wp * 16 * melds) // n
        if self.hard:
            score += (_DANGER_WEIGHT_HARD * self._danger(v, c)) >> 12
        return score

    def _outlook(self, v: View, hm10: "list[int]", dw: int) -> "tuple[int, int, int]":
        """What the next stock card does for the ten cards ``hm10`` (least
        deadwood ``dw``), summed over the unseen cards (each is equally
        likely to come next): the deadwood saved by making or extending a
        meld beyond swapping out the highest loose card, the deadwood saved
        by that swap, and the number of unseen cards (divide by it for
        averages)."""
        unseen = v.unseen
        n = len(unseen)
        if n == 0 or dw == 0:
            return 0, 0, n or 1
        best(hm10)
        high_loose = highest_loose()
        ranks = hm10[0] | hm10[1] | hm10[2] | hm10[3]
        plus = list(hm10)
        melds = 0
        swaps = 0
        for u in unseen:
            r = u % 13
            s = u // 13
            swap = high_loose - VAL[u]
            if swap < 0:
                swap = 0
            # Only a card of a held rank, or of a held suit within two
            # ranks, can make a meld; any other can only be a swap.
            if (ranks >> r) & 1 or (hm10[s] & _WINDOW[r]):
                bit = 1 << r
                plus[s] |= bit
                gain = dw - best(plus, 1) - swap
                plus[s] ^= bit
                if gain > 0:
                    melds += gain
            swaps += swap
        return melds, swaps, n

    def _danger(self, v: View, c: int) -> int:
        """Chance the opponent makes a meld with ``c`` if it is thrown: the
        sum over the pairs of cards that meld with it of the chance the
        opponent holds both (``View.holds``); in 1/65536."""
        hold = v.holds()
        pairs = [0] * 12
        k = _meld_pairs(c, pairs)
        d = 0
        for i in range(0, k, 2):
            d += hold[pairs[i]] * hold[pairs[i + 1]]
        return d

    # ----- knocking (hard) -----------------------------------------------
    def _knock_pays(self, v: View, kc: int, kdw: int) -> bool:
        """Knock now with ``kdw`` deadwood, or play on for a lower count?

        Samples the opponent's hand from the unseen cards, letting them keep
        the best ten of what they have looked at (they have been choosing
        too), lays their loose cards off on our melds (R10), and scores the
        showdown (R11). Knock unless an undercut is likely.
        """
        undercuts, points = self._knock_samples(v, kc, kdw)
        if v.scores is not None:
            me = v.me
            mult = v.mult
            mine = v.scores[me] * _SAMPLES
            theirs = v.scores[1 - me]
            # a doubled hand doubles both sides (R15)
            if mine + points * mult >= v.target * _SAMPLES and undercuts * 4 <= _SAMPLES * 3:
                return True       # likely wins the game now (R13)
            if theirs + _UNDERCUT_BONUS * mult >= v.target and undercuts:
                return False      # an undercut would hand them the game
        if v.stock <= 6:
            return points > 0     # little time left to improve (R9 draw)
        return undercuts * 100 < _UNDERCUT_MAX * _SAMPLES

    def _knock_samples(self, v: View, kc: int, kdw: int) -> "tuple[int, int]":
        """(undercuts, points) over ``_SAMPLES`` sampled opponent hands for
        a knock with ``kc`` leaving ``kdw`` deadwood: how many undercut it,
        and the knock's points summed over the samples (R11, lay-offs R10;
        negative for an undercut)."""
        kept = list(v.hm)
        kept[kc // 13] ^= 1 << (kc % 13)
        best(kept)
        runs = list(RUNS)
        set3 = SET3[0]
        unseen = bytearray(v.unseen)   # shuffled in place below
        n = len(unseen)
        hidden = v.hidden
        extra = v.opp_draws if v.opp_draws < 3 else 3
        if hidden > n:
            hidden = n
        if hidden + extra > n:
            extra = n - hidden
        known = masks_of(v.opp_known)
        rng = self.rng
        undercuts = 0
        points = 0
        opp = [0, 0, 0, 0]
        for _ in range(_SAMPLES):
            for s in range(4):
                opp[s] = known[s]
            # Partial shuffle: the first hidden+extra unseen cards.
            for i in range(hidden + extra):
                j = i + rng.below(n - i)
                u = unseen[j]
                unseen[j] = unseen[i]
                unseen[i] = u
                opp[u // 13] |= 1 << (u % 13)
            d = best(opp, extra)
            d -= layoff_value(LOOSE, runs, set3)
            if d <= kdw:
                undercuts += 1
                points -= _UNDERCUT_BONUS + kdw - d
            else:
                points += d - kdw
        return undercuts, points


# Ranks within two of r (same suit): the cards a run through r would need.
_WINDOW = tuple([((1 << (r + 3)) - 1) & 0x1FFF & ~((1 << (r - 2 if r >= 2 else 0)) - 1)
                 for r in range(13)])
