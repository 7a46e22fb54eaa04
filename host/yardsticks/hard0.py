"""The hard level before its rewrite (engine/bots.py at ceb3742), frozen
here as the yardstick "hard0" for "the new hard against the old".

Not shipped to the device and not to be improved: it is what the new hard
level is measured against. It shares the bots' search (engine/bots_core.py);
tests/bots/test_yardsticks.py pins its decisions, so a change there that
changes what this player does fails a test instead of silently moving the
yardstick.
"""
from okgin.engine.cards import card_str, masks_of
from okgin.engine.bots_core import (VAL, Prng, card_int, best, highest_loose, layoff_value,
                             LOOSE, RUNS, SET3)

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

LEVELS = ("random", "easy", "normal", "hard", "greedy")

# What a bot knows of each card (a bytearray of 52 per decision).
_UNSEEN = const(0)     # in the stock or the opponent's hidden cards
_MINE = const(1)
_PILE = const(2)       # in the discard pile (dead, except the top)
_OPP = const(3)        # taken by the opponent from the pile and still held

# Tuning (measured with ``okgin tourney``; see docs/bots.md).
_POT_WEIGHT_NORMAL = 1
_POT_WEIGHT_HARD = 3
_DANGER_WEIGHT_NORMAL = 0
_DANGER_WEIGHT_HARD = 6
_NORMAL_SIMPLE_TAKE = 1  # normal takes like greedy: whenever deadwood drops
_NORMAL_SLIP = 10       # percent of normal discards that are a random loose card
_EASY_SLIP = 35        # percent of easy discards that are a random dead card
_CANDIDATES = const(5)  # discards whose draw potential is computed in full
_SAMPLES = const(16)    # opponent hands sampled for a knock decision (hard)
_TAKE_MARGIN = 1        # points a take must beat the stock by (it shows a card)
_UNDERCUT_MAX = 25      # percent: hard knocks when an undercut is less likely


# Keys a decision reads (others are optional: a bare Hand observation has no
# scores, a hand-made one may lack the history).
_NEEDED = ("player", "phase", "hand")


def move_seed(game_seed, moves):
    """The seed of the computer's decision after ``moves`` moves of a hand,
    in a game seeded ``game_seed``. The device makes a fresh bot with it for
    each move, so a resumed game replays the same decisions, and a host that
    replays a game (the memory benchmark, the firmware tests) makes the
    same moves as the board."""
    return (game_seed * 31 + moves) & 0x3FFFFFFF


def bot(level, seed=None):
    """A computer player of ``level`` (one of ``LEVELS``); same seed, same play."""
    if not isinstance(level, str) or level.lower() not in LEVELS:
        raise ValueError("unknown bot level %r (choose one of %s)"
                         % (level, ", ".join(LEVELS)))
    return Bot(level.lower(), seed)


class View:
    """What one observation tells a bot, as ints (built once per decision)."""

    def __init__(self, obs):
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
        self.scores = obs.get("scores")
        self.target = obs.get("target", 100)

    def p_opp_holds(self, c, infer):
        """Chance the opponent holds card ``c``, from public information."""
        s = self.seen[c]
        if s == _OPP:
            return 1.0
        if s != _UNSEEN:
            return 0.0
        n = len(self.unseen)
        p = self.hidden / n if n else 0.0
        if infer and self._near_cold(c):
            p *= 0.5
        return p

    def _near_cold(self, c):
        # The opponent threw or declined a card of this rank, or a card of
        # this suit within two ranks: they are less likely to be building
        # a meld around ``c``.
        cold = self.cold
        r = c % 13
        base = c - r
        for s in range(4):
            if cold[s * 13 + r]:
                return True
        lo = r - 2 if r >= 2 else 0
        hi = r + 2 if r <= 10 else 12
        for k in range(lo, hi + 1):
            if cold[base + k]:
                return True
        return False


def _action_card(action):
    sp = action.find(" ")
    return card_int(action[sp + 1:]) if sp > 0 else -1


class Bot:
    def __init__(self, level, seed=None):
        self.level = level
        self.rng = Prng(0 if seed is None else seed)
        hard = level == "hard"
        self.weight = _POT_WEIGHT_HARD if hard else _POT_WEIGHT_NORMAL
        self.danger_weight = _DANGER_WEIGHT_HARD if hard else _DANGER_WEIGHT_NORMAL
        self.infer = hard     # reads the opponent's passes and discards

    def __repr__(self):
        return "bot(%r)" % self.level

    def choose(self, obs):
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
            raise ValueError("malformed observation: %s" % e) from e
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
    def _want_take(self, v):
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
        # hard (normal too with _NORMAL_SIMPLE_TAKE = 0): compare with what a
        # stock card is worth on average.
        take_score = self._best_discard(v, after, top)[0]
        # A stock card: on average it saves its meld gain plus any swap for
        # the highest loose card, and leaves a hand of similar promise.
        pot, pot_swaps = self._potential(v, hm, now)
        draw_score = now - pot_swaps - self.weight * pot
        if melded_top:
            # A meld in hand is worth more than its deadwood today: it can
            # not be spoilt, and it frees the next draws for the rest.
            take_score -= 2
        return take_score + _TAKE_MARGIN < draw_score

    # ----- discarding and knocking ---------------------------------------
    def _discard(self, v):
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

    def _slip(self, v):
        # A careless discard: any card outside the melds of the hand.
        best(v.hm)
        loose = [_action_card(a) for a in v.legal if a[0] == "d"]
        loose = [c for c in loose if (LOOSE[c // 13] >> (c % 13)) & 1]
        if loose:
            return "discard " + card_str(loose[self.rng.below(len(loose))])
        return None

    def _discard_simple(self, v):
        if self.level == "easy" and self.rng.below(100) < _EASY_SLIP:
            slip = self._slip(v)
            if slip:
                return slip
        cards = [_action_card(a) for a in v.legal if a[0] == "d"]
        c, dw = self._lowest(v.hm, cards)
        return "discard " + card_str(c)

    def _lowest(self, hm, cards):
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

    def _best_discard(self, v, hm11, keep):
        """(score, card): the discard from the eleven cards ``hm11`` (not
        ``keep``, R7) that leaves the best hand: least deadwood, most chances
        to improve on the next draws, least help to the opponent. Lower
        score is better."""
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
        top_score = 1000.0
        best_c = -1
        limit = cand[0][0] + 12 if cand else 0
        for i in range(len(cand)):
            dw, negv, c, rest = cand[i]
            if i >= _CANDIDATES or dw > limit:
                break
            score = dw - self.weight * self._potential(v, rest, dw)[0]
            score += self.danger_weight * self._danger(v, c)
            if score < top_score:
                top_score = score
                best_c = c
        return top_score, best_c

    def _potential(self, v, hm10, dw):
        """The deadwood one random stock card saves on average, as a pair:
        beyond swapping out the highest loose card, and with that swap
        counted in (one pass gives both). Each unseen card is equally likely
        to come next: the stock is a random part of them."""
        unseen = v.unseen
        n = len(unseen)
        if n == 0 or dw == 0:
            return 0.0, 0.0
        best(hm10)
        high_loose = highest_loose()
        ranks = hm10[0] | hm10[1] | hm10[2] | hm10[3]
        plus = list(hm10)
        total = 0
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
                    total += gain
            swaps += swap
        return total / n, (total + swaps) / n

    def _danger(self, v, c):
        """Chance the opponent makes a meld with ``c`` if it is thrown
        (two partners for a set or a run, from public information)."""
        r = c % 13
        infer = self.infer
        p = v.p_opp_holds
        o = [0.0, 0.0, 0.0]
        k = 0
        for s in range(4):
            x = s * 13 + r
            if x != c:
                o[k] = p(x, infer)
                k += 1
        d = o[0] * o[1] + o[0] * o[2] + o[1] * o[2]
        q0 = p(c - 2, infer) if r >= 2 else 0.0
        q1 = p(c - 1, infer) if r >= 1 else 0.0
        q3 = p(c + 1, infer) if r <= 11 else 0.0
        q4 = p(c + 2, infer) if r <= 10 else 0.0
        return d + q0 * q1 + q1 * q3 + q3 * q4

    # ----- knocking (hard) -----------------------------------------------
    def _knock_pays(self, v, kc, kdw):
        """Knock now with ``kdw`` deadwood, or play on for a lower count?

        Samples the opponent's hand from the unseen cards, letting them keep
        the best ten of what they have looked at (they have been choosing
        too), lays their loose cards off on our melds (R10), and scores the
        showdown (R11). Knock unless an undercut is likely.
        """
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
                points -= 10 + kdw - d
            else:
                points += d - kdw
        if v.scores is not None:
            me = v.me
            mine = v.scores[me]
            theirs = v.scores[1 - me]
            if mine + points / _SAMPLES >= v.target and undercuts * 4 <= _SAMPLES * 3:
                return True       # likely wins the game now (R13)
            if theirs + 10 >= v.target and undercuts:
                return False      # an undercut would hand them the game
        if v.stock <= 6:
            return points > 0     # little time left to improve (R9 draw)
        return undercuts * 100 < _UNDERCUT_MAX * _SAMPLES


# Ranks within two of r (same suit): the cards a run through r would need.
_WINDOW = tuple([((1 << (r + 3)) - 1) & 0x1FFF & ~((1 << (r - 2 if r >= 2 else 0)) - 1)
                 for r in range(13)])
