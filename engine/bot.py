"""Computer players (issue 5): ``bot(level, seed=None).choose(observation)``.

Levels, weakest first: ``random`` (any legal move), ``easy``, ``normal``,
``hard``; plus ``greedy`` (always the move that leaves the least deadwood,
knocks as soon as it may) as a yardstick for tournaments.

A bot decides from the observation dict only (``Hand.observation(p)`` or
``Match.observation(p)``): its own hand, the discard pile, the public history
and what the opponent is known to hold. It never sees the opponent's hidden
cards or the stock, so what it "knows" about them is inferred or sampled.

Same code on CPython and MicroPython: cards are small ints, the search is in
``engine.bot_core``, and the only randomness is ``bot_core.Prng`` seeded by
the caller, so a seed replays the same decisions on both runtimes.
"""
from engine.bot_core import (VAL, Prng, card_int, card_str, solve, with_card,
                             without_card, last_melded, last_dropped, meld_groups)

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
_POT_WEIGHT_NORMAL = 2
_POT_WEIGHT_HARD = 3
_DANGER_WEIGHT_NORMAL = 8
_DANGER_WEIGHT_HARD = 10
_EASY_SLIP = 35        # percent of easy discards that are a random dead card
_CANDIDATES = const(5)  # discards whose draw potential is computed in full
_SAMPLES = const(16)    # opponent hands sampled for a knock decision (hard)
_TAKE_MARGIN = 1        # points a take must beat the stock by (it shows a card)


def bot(level, seed=None):
    """A computer player of ``level`` (one of ``LEVELS``); same seed, same play."""
    if not isinstance(level, str) or level.lower() not in LEVELS:
        raise ValueError("unknown bot level %r (choose one of %s)"
                         % (level, ", ".join(LEVELS)))
    return Bot(level.lower(), seed)


class View:
    """What one observation tells a bot, as ints (built once per decision)."""

    def __init__(self, obs):
        self.me = obs["player"]
        self.phase = obs["phase"]
        self.legal = obs["legal"]
        self.hand = sorted([card_int(c) for c in obs["hand"]])
        top = obs.get("discard_top")
        self.top = card_int(top) if top else -1
        self.stock = obs.get("stock_count", 31)
        self.limit = obs.get("knock_limit", 10)
        self.opp_count = obs.get("opponent_count", 10)
        seen = bytearray(52)
        for c in self.hand:
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
        self.my_discards = bytearray(52)
        cold = bytearray(52)       # cards the opponent showed no use for
        self.opp_draws = 0
        self.turns = 0
        up = obs.get("upcard")
        pile = [card_int(up)] if up else []
        me = str(self.me)
        for entry in obs.get("history", ()):
            parts = entry.split()
            if len(parts) < 2:
                continue
            mine = parts[0] == me
            act = parts[1]
            if act == "take":
                if pile:
                    pile.pop()
            elif act == "discard" or act == "knock":
                c = card_int(parts[2])
                pile.append(c)
                if mine:
                    self.my_discards[c] = 1
                else:
                    cold[c] = 1
                    self.turns += 1
            elif act == "draw" or act == "pass":
                if not mine:
                    if pile:
                        cold[pile[-1]] = 1
                    if act == "draw":
                        self.opp_draws += 1
        self.cold = cold
        unseen = []
        for c in range(52):
            if seen[c] == _UNSEEN:
                unseen.append(c)
        self.unseen = unseen
        self.hidden = self.opp_count - len(known)
        if self.hidden < 0:
            self.hidden = 0
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
        v = View(obs)
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
        hand = v.hand
        now = solve(hand)
        after = with_card(hand, top)
        # R7: the taken card may not be discarded this turn.
        best = solve(after, 1, top)
        melded_top = False
        if best < now:
            k = after.index(top)
            melded_top = (last_melded() >> k) & 1
        level = self.level
        if level == "greedy":
            return best < now
        if level == "easy":
            # Sees only a meld made right now.
            return best < now and melded_top
        # normal / hard: compare with what a stock card is worth on average.
        weight = _POT_WEIGHT_HARD if level == "hard" else _POT_WEIGHT_NORMAL
        infer = level == "hard"
        take_score = self._best_discard_score(v, after, top, weight, infer)[0]
        draw_score = now - (1 + weight) * self._potential(v, hand, now)
        if melded_top:
            # A meld in hand is worth more than its deadwood today: it can
            # not be spoilt, and it frees the next draws for the rest.
            take_score -= 2
        return take_score + _TAKE_MARGIN < draw_score

    # ----- discarding and knocking ---------------------------------------
    def _discard(self, v):
        hand = v.hand
        level = self.level
        legal = v.legal
        knock_cards = []
        for a in legal:
            if a.startswith("knock"):
                knock_cards.append(_action_card(a))
        if level == "greedy" or level == "easy":
            return self._discard_simple(v, knock_cards)
        weight = _POT_WEIGHT_HARD if level == "hard" else _POT_WEIGHT_NORMAL
        infer = level == "hard"
        if knock_cards:
            kc, kdw = self._lowest(hand, knock_cards)
            if kdw == 0:
                return "knock " + card_str(kc)   # gin (R8, R11)
            if level == "normal" or self._knock_pays(v, kc, kdw):
                return "knock " + card_str(kc)
        score, card = self._best_discard_score(v, hand, -1, weight, infer)
        if card < 0:
            return legal[0]
        return "discard " + card_str(card)

    def _discard_simple(self, v, knock_cards):
        hand = v.hand
        if knock_cards:
            kc, kdw = self._lowest(hand, knock_cards)
            return "knock " + card_str(kc)
        cards = [_action_card(a) for a in v.legal if a.startswith("discard")]
        if self.level == "easy" and self.rng.below(100) < _EASY_SLIP:
            # A careless discard: any card outside the melds of the hand.
            solve(hand)
            used = last_melded()
            loose = [c for c in cards if not (used >> hand.index(c)) & 1]
            if loose:
                return "discard " + card_str(loose[self.rng.below(len(loose))])
        c, dw = self._lowest(hand, cards)
        return "discard " + card_str(c)

    def _lowest(self, hand, cards):
        """The card among ``cards`` whose discard leaves the least deadwood;
        ties go to the higher card (less to lose if the hand ends)."""
        best_c = -1
        best = 1000
        for c in cards:
            dw = solve(without_card(hand, c))
            if dw < best or (dw == best and (VAL[c] > VAL[best_c] or
                                             (VAL[c] == VAL[best_c] and c > best_c))):
                best = dw
                best_c = c
        return best_c, best

    def _best_discard_score(self, v, cards11, keep, weight, infer):
        """(score, card): the discard from ``cards11`` (not ``keep``) that
        leaves the best hand: least deadwood, most chances to improve on the
        next draws, least help to the opponent. Lower score is better."""
        cand = []
        seen_c = -1
        for c in cards11:
            if c == keep or c == seen_c:
                continue
            seen_c = c
            rest = without_card(cards11, c)
            cand.append((solve(rest), -VAL[c], c, rest))
        cand.sort()
        best = 1000.0
        best_c = -1
        limit = cand[0][0] + 12 if cand else 0
        for i in range(len(cand)):
            dw, negv, c, rest = cand[i]
            if i >= _CANDIDATES or dw > limit:
                break
            score = dw - weight * self._potential(v, rest, dw)
            score += self._danger_weight() * self._danger(v, c, infer)
            if score < best:
                best = score
                best_c = c
        return best, best_c

    def _danger_weight(self):
        return _DANGER_WEIGHT_HARD if self.level == "hard" else _DANGER_WEIGHT_NORMAL

    def _potential(self, v, hand10, dw):
        """Expected deadwood saved by one random stock card (each unseen card
        is equally likely to be next: the stock is a random part of them)."""
        unseen = v.unseen
        n = len(unseen)
        if n == 0 or dw == 0:
            return 0.0
        # Which unseen cards could touch a meld: same rank as a kept card, or
        # same suit within two ranks. Others can only replace the highest
        # loose card, which needs no search.
        smask = [0, 0, 0, 0]
        rank_held = [0] * 13
        for c in hand10:
            smask[c // 13] |= 1 << (c % 13)
            rank_held[c % 13] = 1
        solve(hand10)
        used = last_melded()
        high_loose = 0
        for k in range(len(hand10)):
            if not (used >> k) & 1 and VAL[hand10[k]] > high_loose:
                high_loose = VAL[hand10[k]]
        total = 0
        for u in unseen:
            r = u % 13
            if rank_held[r] or _near(smask[u // 13], r):
                gain = dw - solve(with_card(hand10, u), 1)
            else:
                gain = high_loose - VAL[u]
            if gain > 0:
                total += gain
        return total / n

    def _danger(self, v, c, infer):
        """Chance the opponent makes a meld with ``c`` if it is thrown
        (two partners for a set or a run, from public information)."""
        r = c % 13
        base = c - r
        p = v.p_opp_holds
        others = []
        for s in range(4):
            o = s * 13 + r
            if o != c:
                others.append(p(o, infer))
        d = others[0] * others[1] + others[0] * others[2] + others[1] * others[2]
        q = [0.0] * 5   # ranks r-2 .. r+2 of this suit
        for k in (-2, -1, 1, 2):
            if 0 <= r + k <= 12:
                q[k + 2] = p(base + r + k, infer)
        d += q[0] * q[1] + q[1] * q[3] + q[3] * q[4]
        return d

    # ----- knocking (hard) -----------------------------------------------
    def _knock_pays(self, v, kc, kdw):
        """Knock now with ``kdw`` deadwood, or play on for a lower count?

        Samples the opponent's hand from the unseen cards, letting them keep
        the best ten of what they have looked at (they have been choosing
        too), lays their loose cards off on our melds (R10), and scores the
        showdown (R11). Knock unless an undercut is likely.
        """
        kept = without_card(v.hand, kc)
        solve(kept)
        melds = meld_groups(kept, last_melded())
        unseen = list(v.unseen)
        n = len(unseen)
        hidden = v.hidden
        extra = v.opp_draws if v.opp_draws < 3 else 3
        if hidden + extra > n:
            extra = n - hidden if n > hidden else 0
        if hidden > n:
            hidden = n
        rng = self.rng
        undercuts = 0
        points = 0
        for _ in range(_SAMPLES):
            # Partial shuffle: the first hidden+extra unseen cards.
            for i in range(hidden + extra):
                j = i + rng.below(n - i)
                unseen[i], unseen[j] = unseen[j], unseen[i]
            opp = sorted(v.opp_known + unseen[:hidden + extra])
            d = solve(opp, extra)
            d -= _layoff_value(opp, last_melded() | last_dropped(), melds)
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
        return undercuts * 4 < _SAMPLES


def _near(suitmask, r):
    # Any card of this suit held within two ranks of r.
    lo = r - 2 if r >= 2 else 0
    window = ((1 << (r + 3)) - 1) ^ ((1 << lo) - 1)
    return suitmask & window


def _layoff_value(cards, kept_mask, melds):
    """Deadwood the defender removes by laying loose cards (positions not in
    ``kept_mask``) off on the knocker's ``melds`` (R10), one after another."""
    loose = []
    for k in range(len(cards)):
        if not (kept_mask >> k) & 1:
            loose.append(cards[k])
    if not loose:
        return 0
    saved = 0
    changed = True
    ends = []
    for m in melds:
        if m[0] % 13 == m[1] % 13:
            if len(m) == 3:                          # a set of 4 takes nothing
                ends.append((0, m[0] % 13, 0))
        else:
            ends.append((1, m[0], m[-1]))            # run: lowest, highest
    while changed and loose:
        changed = False
        for c in loose:
            for i in range(len(ends)):
                kind, a, b = ends[i]
                if kind == 0:
                    ok = c % 13 == a
                    if ok:
                        ends[i] = (2, -9, -9)        # now a set of 4: full
                elif kind == 2:
                    ok = False
                elif c == a - 1 and a % 13:
                    ok = True
                    ends[i] = (1, c, b)
                elif c == b + 1 and c % 13:
                    ok = True
                    ends[i] = (1, a, c)
                else:
                    ok = False
                if ok:
                    saved += VAL[c]
                    loose.remove(c)
                    changed = True
                    break
            if changed:
                break
    return saved
