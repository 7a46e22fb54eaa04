"""Rules math, apart from game state: melds, deadwood, lay-offs (R3, R10).

Why this is fast and exact: once the sets (R3) are chosen, only runs are
left, and runs never cross suits. In one suit, the best use of runs is to
meld every maximal stretch of 3 or more consecutive ranks, which is three
bit operations on the 13-bit suit mask. So the minimum deadwood is the
minimum, over the few possible choices of sets (a rank held in 3 or 4
suits: no set, the set, or for four of a kind each 3-card subset), of the
per-suit leftovers. A random 10-card hand usually has no such rank at all.
"""
from engine.cards import (_VLO, _VHI, RANK_VALUE, masks_of, to_ints, card_str,
                          cards_of)


def _suit_dw(m):
    # deadwood of one suit once sets are removed: all cards outside stretches
    # of >= 3 consecutive ranks
    t = m & (m >> 1) & (m >> 2)
    x = m & ~(t | (t << 1) | (t << 2))
    return _VLO[x & 127] + _VHI[x >> 7]


def _set_ranks(a, b, c, d):
    # ranks held in at least three suits
    return (a & b & (c | d)) | (c & d & (a | b))


def _dw_sets(a, b, c, d, s3):
    low = s3 & -s3
    rest = s3 ^ low
    nl = ~low
    if rest:
        best = _dw_sets(a, b, c, d, rest)
        v = _dw_sets(a & nl, b & nl, c & nl, d & nl, rest)
    else:
        best = _suit_dw(a) + _suit_dw(b) + _suit_dw(c) + _suit_dw(d)
        v = (_suit_dw(a & nl) + _suit_dw(b & nl) + _suit_dw(c & nl)
             + _suit_dw(d & nl))
    if v < best:
        best = v
    if a & b & c & d & low:
        # four of a kind: also each 3-card set, the fourth card kept free
        for keep in range(4):
            w = (a if keep == 0 else a & nl, b if keep == 1 else b & nl,
                 c if keep == 2 else c & nl, d if keep == 3 else d & nl)
            if rest:
                v = _dw_sets(w[0], w[1], w[2], w[3], rest)
            else:
                v = _suit_dw(w[0]) + _suit_dw(w[1]) + _suit_dw(w[2]) + _suit_dw(w[3])
            if v < best:
                best = v
    return best


def min_deadwood(a, b, c, d):
    """Minimum deadwood (R3) of the cards in suit masks a, b, c, d."""
    s3 = (a & b & (c | d)) | (c & d & (a | b))
    if s3:
        return _dw_sets(a, b, c, d, s3)
    return _suit_dw(a) + _suit_dw(b) + _suit_dw(c) + _suit_dw(d)


def _choices(a, b, c, d, s3, sets, out):
    # every choice of sets: appends (a, b, c, d, sets) with the set cards
    # removed from the masks; sets is a list of (rank, suit bits)
    if not s3:
        out.append((a, b, c, d, sets))
        return
    low = s3 & -s3
    rest = s3 ^ low
    nl = ~low
    r = 0
    while not (low >> r) & 1:
        r += 1
    _choices(a, b, c, d, rest, sets, out)
    bits = ((a & low) and 1) | ((b & low) and 2) | ((c & low) and 4) | ((d & low) and 8)
    _choices(a & nl, b & nl, c & nl, d & nl, rest, sets + [(r, bits)], out)
    if bits == 15:
        for keep in range(4):
            _choices(a if keep == 0 else a & nl, b if keep == 1 else b & nl,
                     c if keep == 2 else c & nl, d if keep == 3 else d & nl,
                     rest, sets + [(r, 15 ^ (1 << keep))], out)


def set_choices(m):
    out = []
    _choices(m[0], m[1], m[2], m[3], _set_ranks(m[0], m[1], m[2], m[3]), [], out)
    return out


def discard_deadwoods(m):
    """For suit masks m (usually 11 cards): list of (card, deadwood of the
    rest once that card is discarded), one entry per card held, in card
    order. One pass over the set choices instead of one search per card."""
    best = {}
    for a, b, c, d, _ in set_choices(m):
        w = (a, b, c, d)
        ds = (_suit_dw(a), _suit_dw(b), _suit_dw(c), _suit_dw(d))
        base = ds[0] + ds[1] + ds[2] + ds[3]
        for s in range(4):
            ms = w[s]
            r = 0
            x = ms
            while x:
                if x & 1:
                    v = base - ds[s] + _suit_dw(ms ^ (1 << r))
                    card = s * 13 + r
                    if v < best.get(card, 999):
                        best[card] = v
                x >>= 1
                r += 1
    return [(card, best[card]) for card in cards_of(m)]


def min_deadwood_after_discard(m):
    """Smallest deadwood reachable by discarding one card (R8): cheap lower
    bound first, since most hands in play are far from any knock."""
    out = 999
    for _, v in discard_deadwoods(m):
        if v < out:
            out = v
    return out


def _runs_of(s, m, out):
    # melds of one suit after sets: maximal stretches of >= 3 ranks
    t = m & (m >> 1) & (m >> 2)
    x = t | (t << 1) | (t << 2)
    r = 0
    while r < 13:
        if (x >> r) & 1:
            lo = r
            while r < 13 and (x >> r) & 1:
                r += 1
            out.append([s * 13 + k for k in range(lo, r)])
        else:
            r += 1


def arrangement_of(choice):
    """Melds (lists of card ints) of one set choice from set_choices()."""
    a, b, c, d, sets = choice
    melds = []
    for r, bits in sets:
        melds.append([s * 13 + r for s in range(4) if (bits >> s) & 1])
    w = (a, b, c, d)
    for s in range(4):
        _runs_of(s, w[s], melds)
    return melds


def best_arrangement(m):
    """(deadwood, melds as lists of card ints) with minimum deadwood."""
    best = None
    bestv = 999
    for ch in set_choices(m):
        v = _suit_dw(ch[0]) + _suit_dw(ch[1]) + _suit_dw(ch[2]) + _suit_dw(ch[3])
        if v < bestv:
            bestv = v
            best = ch
    return bestv, arrangement_of(best)


def _check_count(cards):
    if len(cards) > 11:
        raise ValueError("deadwood is defined here for 0..11 cards, got %d" % len(cards))


def deadwood(cards):
    """Minimum deadwood (R3) of 0..11 cards (strings like '7h' or ints)."""
    cs = to_ints(cards)
    _check_count(cs)
    m = masks_of(cs)
    return min_deadwood(m[0], m[1], m[2], m[3])


def best_melds(cards):
    """An arrangement achieving the minimum deadwood: a list of melds, each
    a list of cards (strings if strings were given, else ints); the cards in
    no meld are the deadwood."""
    cards = list(cards)
    cs = to_ints(cards)
    _check_count(cs)
    _, melds = best_arrangement(masks_of(cs))
    if cards and isinstance(cards[0], str):
        return [[card_str(c) for c in meld] for meld in melds]
    return melds


# ---- showdown (R10) ----

def _karr(m, dw, limit, melds, out):
    s = 0
    while s < 4 and not m[s]:
        s += 1
    if s == 4:
        out.append((dw, [x for x in melds]))
        return
    ms = m[s]
    r = 0
    while not (ms >> r) & 1:
        r += 1
    bit = 1 << r
    # the lowest undecided card: in a run starting here, in a set, or deadwood
    if r <= 10 and (ms >> r) & 7 == 7:
        run = bit | (bit << 1) | (bit << 2)
        hi = r + 2
        while True:
            m[s] = ms & ~run
            melds.append((0, s, r, hi))
            _karr(m, dw, limit, melds, out)
            melds.pop()
            hi += 1
            if hi > 12 or not (ms >> hi) & 1:
                break
            run |= 1 << hi
        m[s] = ms
    others = [t for t in range(s + 1, 4) if (m[t] >> r) & 1]
    n = len(others)
    if n >= 2:
        for sub in range(1, 1 << n):
            picked = [others[i] for i in range(n) if (sub >> i) & 1]
            if len(picked) < 2:
                continue
            bits = 1 << s
            for t in picked:
                bits |= 1 << t
            saved = [m[0], m[1], m[2], m[3]]
            for t in range(4):
                if (bits >> t) & 1:
                    m[t] &= ~bit
            melds.append((1, r, bits, 0))
            _karr(m, dw, limit, melds, out)
            melds.pop()
            m[0], m[1], m[2], m[3] = saved
    v = RANK_VALUE[r]
    if dw + v <= limit:
        m[s] = ms & ~bit
        _karr(m, dw + v, limit, melds, out)
        m[s] = ms


def knocker_arrangements(m, limit):
    """Every way to lay out melds from suit masks m with deadwood <= limit:
    list of (deadwood, melds); a meld is (0, suit, lo, hi) for a run or
    (1, rank, suit bits, 0) for a set."""
    out = []
    _karr([m[0], m[1], m[2], m[3]], 0, limit, [], out)
    return out


def meld_cards(meld):
    if meld[0] == 0:
        return [meld[1] * 13 + r for r in range(meld[2], meld[3] + 1)]
    return [s * 13 + meld[1] for s in range(4) if (meld[2] >> s) & 1]


def _layoff_options(dm, meld):
    # R10: the choices of cards the defender may lay off on one meld
    if meld[0] == 1:
        r, bits = meld[1], meld[2]
        opts = [[]]
        if bits != 15:
            for t in range(4):
                if not (bits >> t) & 1 and (dm[t] >> r) & 1:
                    opts.append([t * 13 + r])
        return opts
    s, lo, hi = meld[1], meld[2], meld[3]
    down = []
    r = lo - 1
    while r >= 0 and (dm[s] >> r) & 1:  # one after another: 4 then 3 below 5-6-7
        down.append(s * 13 + r)
        r -= 1
    up = []
    r = hi + 1
    while r <= 12 and (dm[s] >> r) & 1:  # 8 then 9 above 5-6-7
        up.append(s * 13 + r)
        r += 1
    return [down[:i] + up[:j] for i in range(len(down) + 1) for j in range(len(up) + 1)]


def _lay(dm, opts, i, laid, best):
    if i == len(opts):
        v = min_deadwood(dm[0], dm[1], dm[2], dm[3])
        if v < best[0]:
            best[0] = v
            best[1] = list(laid)
        return
    for cards in opts[i]:
        ok = True
        for c in cards:
            if not (dm[c // 13] >> (c % 13)) & 1:
                ok = False  # already laid off on another meld
        if not ok:
            continue
        for c in cards:
            dm[c // 13] &= ~(1 << (c % 13))
        laid.extend(cards)
        _lay(dm, opts, i + 1, laid, best)
        for c in cards:
            dm[c // 13] |= 1 << (c % 13)
            laid.pop()


def defender_best(dm, kmelds, gin):
    """(deadwood, laid-off cards) of the defender's best reply (R10): lay
    off onto the knocker's melds (never against gin), then meld the rest."""
    dm = [dm[0], dm[1], dm[2], dm[3]]
    if gin:
        return min_deadwood(dm[0], dm[1], dm[2], dm[3]), []
    opts = [o for o in (_layoff_options(dm, meld) for meld in kmelds) if len(o) > 1]
    best = [999, []]
    _lay(dm, opts, 0, [], best)
    return best[0], best[1]


def score(kd, dd, rules):
    """R11: (knocker's points, defender's points) for deadwoods kd, dd."""
    if kd == 0:
        return dd + rules.gin_bonus, 0
    if kd < dd:
        return dd - kd, 0
    return 0, rules.undercut_bonus + kd - dd


def showdown(km, dm, limit, rules):
    """Resolve R10 optimally. km, dm: suit masks of the knocker's and the
    defender's ten cards. Returns (kind, kd, dd, kmelds, dmelds, laid,
    kpoints, dpoints) with melds as lists of card ints."""
    best = None
    bestval = -9999
    for kd, melds in knocker_arrangements(km, limit):
        dd, laid = defender_best(dm, melds, kd == 0)
        kp, dp = score(kd, dd, rules)
        val = kp - dp
        if val > bestval:  # strict: first arrangement found wins ties
            bestval = val
            best = (kd, melds, dd, laid, kp, dp)
    kd, melds, dd, laid, kp, dp = best
    rest = [dm[0], dm[1], dm[2], dm[3]]
    for c in laid:
        rest[c // 13] &= ~(1 << (c % 13))
    _, dmelds = best_arrangement(rest)
    if kd == 0:
        kind = "gin"
    elif kp > 0:
        kind = "knock"
    else:
        kind = "undercut"
    return (kind, kd, dd, [meld_cards(x) for x in melds], dmelds, laid, kp, dp)
