"""The showdown (R10, R11), resolved automatically and optimally.

The knocker's every arrangement within the knock limit
is tried (not only the one of least deadwood: leaving a card out of a run
can deny lay-offs); for each, the defender's best reply is searched exactly
over the lay-off choices, which are few (chains at the ends of runs, the
fourth card of a set).
"""
from .cards import RANK_VALUE, strs, meld_strs, run_cards, set_cards
from .melds import min_deadwood, best_arrangement
from .result import Result

if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Any, Sequence
    from .views import ResultKind, ShownHand
    # a knocker's meld: (0, suit, lo, hi) for a run, (1, rank, suit bits, 0) for a set
    Meld = tuple[int, int, int, int]


def draw_result(hand: "ShownHand") -> Result:
    """R9: nobody scores; each player's own best arrangement is recorded."""
    dws: "list[int]" = []
    melds: "list[list[list[str]]]" = []
    for p in (0, 1):
        v, ms = best_arrangement(hand._hands[p])
        dws.append(v)
        melds.append(meld_strs(ms))
    return Result("draw", None, None, 0, tuple(dws), tuple(melds), [], tuple(hand.hands))


def _karr(m: "list[int]", dw: int, limit: int, melds: "list[Meld]", ctx: "list[Any]") -> None:
    s = 0
    while s < 4 and not m[s]:
        s += 1
    if s == 4:
        _score(dw, melds, ctx)
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
            _karr(m, dw, limit, melds, ctx)
            melds.pop()
            hi += 1
            if hi > 12 or not (ms >> hi) & 1:
                break
            run |= 1 << hi
        m[s] = ms
    om = 0      # the later suits holding rank r
    for t in range(s + 1, 4):
        if (m[t] >> r) & 1:
            om |= 1 << t
    if om & (om - 1):
        # every subset of at least two of them joins suit s in a set, in
        # increasing order of the suit bits (the order ties are broken in)
        for sb in range(3, 16):
            if sb & om != sb or not sb & (sb - 1):
                continue
            bits = sb | (1 << s)
            saved = [m[0], m[1], m[2], m[3]]
            for t in range(4):
                if (bits >> t) & 1:
                    m[t] &= ~bit
            melds.append((1, r, bits, 0))
            _karr(m, dw, limit, melds, ctx)
            melds.pop()
            m[0], m[1], m[2], m[3] = saved
    v = RANK_VALUE[r]
    if dw + v <= limit:
        m[s] = ms & ~bit
        _karr(m, dw + v, limit, melds, ctx)
        m[s] = ms


def _layoff_options(dm: "Sequence[int]", meld: "Meld") -> "list[list[int]]":
    # R10: the choices of cards the defender may lay off on one meld
    if meld[0] == 1:
        r, bits = meld[1], meld[2]
        opts: "list[list[int]]" = [[]]
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


def _lay(dm: "list[int]", opts: "list[list[list[int]]]", i: int, laid: "list[int]",
         best: "list[Any]") -> None:
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


def defender_best(dm: "Sequence[int]", kmelds: "Sequence[Meld]", gin: bool) -> "tuple[int, list[int]]":
    """(deadwood, laid-off cards) of the defender's best reply (R10): lay
    off onto the knocker's melds (never against gin), then meld the rest."""
    dm = [dm[0], dm[1], dm[2], dm[3]]
    if gin:
        return min_deadwood(dm[0], dm[1], dm[2], dm[3]), []
    opts: "list[list[list[int]]]" = []
    for meld in kmelds:
        o = _layoff_options(dm, meld)
        if len(o) > 1:
            opts.append(o)
    best: "list[Any]" = [999, []]
    _lay(dm, opts, 0, [], best)
    return best[0], best[1]


def _score(kd: int, melds: "list[Meld]", ctx: "list[Any]") -> None:
    # one knocker arrangement (deadwood kd, melds): score it against the
    # defender's best reply and keep it if strictly better, so ties go to the
    # first found and both runtimes agree. Scored as found rather than
    # collected: the arrangements of a hand near gin can be many (device heap).
    dd, laid = defender_best(ctx[0], melds, kd == 0)
    rules = ctx[1]
    if kd == 0:                     # R11 gin: no lay-offs, no undercut
        kp, dp = dd + rules.gin_bonus, 0
    elif kd < dd:
        kp, dp = dd - kd, 0
    else:                           # undercut, equal deadwood included
        kp, dp = 0, rules.undercut_bonus + kd - dd
    if ctx[2] is None or kp - dp > ctx[3]:
        ctx[2] = (kd, list(melds), dd, laid, kp, dp)
        ctx[3] = kp - dp


def knock_result(hand: "ShownHand", k: int) -> Result:
    """R10/R11 after player k knocked: the knocker's arrangement (any with
    deadwood within the limit) that scores best against the defender's best
    reply; ties go to the first found, so both runtimes agree."""
    d = 1 - k
    km = hand._hands[k]
    dm = hand._hands[d]
    # a meld is (0, suit, lo, hi) or (1, rank, suit bits, 0)
    ctx: "list[Any]" = [dm, hand.rules, None, 0]   # defender, rules, best so far, its value
    _karr([km[0], km[1], km[2], km[3]], 0, hand.knock_limit, [], ctx)
    best = ctx[2]
    kd, melds, dd, laid, kp, dp = best
    rest = [dm[0], dm[1], dm[2], dm[3]]
    for c in laid:
        rest[c // 13] &= ~(1 << (c % 13))
    kmelds: "list[list[int]]" = []
    for x in melds:
        if x[0] == 0:
            kmelds.append(run_cards(x[1], x[2], x[3]))
        else:
            kmelds.append(set_cards(x[1], x[2]))
    dw = [0, 0]
    dw[k] = kd
    dw[d] = dd
    ms: "list[list[list[str]]]" = [[], []]
    ms[k] = meld_strs(kmelds)
    ms[d] = meld_strs(best_arrangement(rest)[1])
    kind: "ResultKind"
    if kd == 0:
        kind, winner, pts = "gin", k, kp
    elif kp > 0:
        kind, winner, pts = "knock", k, kp
    else:
        kind, winner, pts = "undercut", d, dp
    # R15: a doubled hand's points (doubling them all picks the same
    # arrangement, so the search above is the plain R11 one)
    return Result(kind, k, winner, pts * hand.multiplier, tuple(dw), tuple(ms),
                  strs(laid), tuple(hand.hands))
