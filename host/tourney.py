"""``okgin tourney``: computer players against each other.

Plays N seeded games (or single hands with ``--deals``), each twice with the
seats swapped so both players get the same cards once: what is left of the
difference is skill, not card luck. Players are the levels of
``engine.bot``, the laptop-side yardsticks of ``host/yardsticks``
(``neller``, ``simple``, ``openspiel``, ``pimc``, ``hard0``, ``peek``) and
``LEVEL@REV``, a level as git revision REV had it; ``--baseline REV`` plays A and ``A@REV`` against B on
the same deals and prints their paired difference (``compare``).

Statistics (95%, host/intervals.py): every interval is a bootstrap over
the seed pairs, each pair's two games (or hands) kept together, since they
share their cards and are not independent; fewer than ten pairs print "too
few games for an interval". Points per hand and the share of all points are
ratios over the pairs (pairs play different numbers of hands); games or
hands won are counted per pair (0, 1 or 2), and the pairs one player won
both ways are put to a sign test. ``--table`` plays the series docs/bots.md
reports and prints its table. ``--tune NAME=N`` changes one of the engine
levels' tuning constants (engine/bots.py) for the run, to be compared with
the level as committed (``--baseline HEAD``) on the same deals.
"""
import json
import math
import os
import sys
import time
import zlib

from . import intervals
from okgin.engine import bots
from .lib.errors import CommandError
from .yardsticks import YARDSTICKS

LEVELS = bots.LEVELS + ("expert",)
PLAYERS = LEVELS + YARDSTICKS
MAX_HANDS_PER_GAME = 300     # a game that has not ended by then is "unfinished"
MIN_PAIRS = 30               # fewer seed pairs than this: too few to conclude

# engine/bots.py's tuning constants that ``--tune`` may change (without the
# leading underscore); the levels' rules of the game (_UNDERCUT_BONUS) and
# card codes are not tuning
TUNABLE = ("SAMPLES", "UNDERCUT_MAX", "POT_WEIGHT_HARD", "DANGER_WEIGHT_HARD", "CANDIDATES",
           "CANDIDATE_SPAN", "TAKE_MARGIN", "TAKE_INFER", "FAR_LIMIT", "POT_WEIGHT_NORMAL",
           "NORMAL_SIMPLE_TAKE", "NORMAL_SLIP", "EASY_SLIP")

# The series of docs/bots.md: (A, B, games, deals), seeds from --seed (1).
# Sized to be played in about an hour on two shared cores; the sampling
# player takes about half a second a decision, so it plays single hands,
# just over the 30 seed pairs below which the verdict says "too few".
TABLE = (
    ("hard", "simple", 300, 0),
    ("hard", "simple", 0, 800),
    ("hard", "hard0", 200, 0),
    ("hard", "pimc", 0, 40),
    ("normal", "simple", 200, 0),
    ("easy", "simple", 100, 0),
    ("pimc", "simple", 0, 40),
    ("hard", "openspiel", 300, 0),
    ("simple", "openspiel", 300, 0),
)

EPILOG = """examples:
  okgin tourney hard simple                  100 games, each twice (seats swapped)
  okgin tourney hard hard0 --games 500 --jobs 2
  okgin tourney hard pimc --deals 150 --jobs 2      single hands: the sampler is slow
  okgin tourney easy greedy --seed 7 --max-turns 40 --target 50
  okgin tourney --table --jobs 2             every series of docs/bots.md, as its table
  okgin tourney hard simple --deals 500 --baseline HEAD~1
                                             hard now vs hard one commit ago, same deals:
                                             the paired difference, by knock limit
  okgin tourney hard hard@main --games 200   a level as a git revision had it
  okgin tourney hard simple --deals 300 --limits A-2 --baseline main
                                             the same, only deals of knock limit A or 2 (R5)
  okgin tourney hard neller --deals 1500 --tune SAMPLES=64 --baseline HEAD
                                             hard with 64 knock samples instead of 16,
                                             against hard as committed, same deals
  okgin tourney peek simple --deals 300 --paired hard
                                             what knowing the opponent's cards would add
  okgin tourney peek50 simple --deals 300 --paired hard
                                             ... and knowing each with probability 50%%

players: %s (engine levels), %s (yardsticks, laptop only;
openspiel needs OpenSpiel, not installed with okgin: pip install open_spiel),
peekN (peek told each unseen card with probability N%%, N from 0 to 100),
LEVEL@REV (an engine level as git revision REV of this repository had it)
""" % (", ".join(LEVELS), ", ".join(YARDSTICKS))


def configure(parser):
    parser.add_argument("a", metavar="PLAYER_A", nargs="?",
                        help="player A: %s" % ", ".join(PLAYERS))
    parser.add_argument("b", metavar="PLAYER_B", nargs="?", help="player B")
    parser.add_argument("--games", type=int, default=None,
                        help="seeded games, each played twice with seats swapped (default 100)")
    parser.add_argument("--deals", type=int, default=0,
                        help="play this many seeded single hands (each twice) instead of games")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--limits", metavar="LIST", default=None,
                        help="with --deals: only deals whose knock limit (R5) is in LIST, "
                             "e.g. A,2 or A-4 or 5-10 (the first such seeds from --seed)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (default 1; 0 = one per core)")
    parser.add_argument("--max-turns", type=int, default=80,
                        help="a hand longer than this many turns ends as a draw (default 80)")
    parser.add_argument("--target", type=int, default=None,
                        help="game target score (default: the rules' 100, R13)")
    parser.add_argument("--table", action="store_true",
                        help="play every series of docs/bots.md and print its table "
                             "(--games/--deals, when given, replace each series' size)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also play PLAYER_A as git revision REV had it (e.g. HEAD~1, main) "
                             "against PLAYER_B on the same deals and seats, and print the "
                             "paired difference, overall and by knock limit")
    parser.add_argument("--paired", metavar="PLAYER",
                        help="also play PLAYER against PLAYER_B on the same deals and seats, "
                             "and print PLAYER_A minus PLAYER (as --baseline does)")
    parser.add_argument("--tune", metavar="NAME=N", action="append", default=[],
                        help="run today's engine levels with one of engine/bots.py's tuning "
                             "constants changed (%s; repeatable); compare with --baseline "
                             "HEAD, the level as committed" % ", ".join(TUNABLE))
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="only the summary lines")
    parser.epilog = EPILOG


def _rules(max_turns, target):
    from okgin.engine import Rules
    kw = {"max_turns": max_turns}
    if target is not None:
        kw["target"] = target
    try:
        return Rules(**kw)
    except (TypeError, ValueError) as e:
        raise CommandError("bad rules option: %s" % e) from e


def make_player(name, seed, rules):
    """An engine level, a yardstick or ``LEVEL@COMMIT`` (a full commit id,
    from ``player_name``), seeded."""
    if "@" in name:
        from .yardsticks import revision
        level, commit = name.split("@", 1)
        return revision.player(level, commit, seed)
    if name in LEVELS:
        from okgin.engine import bot
        return bot(name, seed)
    from .yardsticks import player
    return player(name, seed, rules)


def player_name(name):
    """The name a series plays for the player argument ``name``: a level or
    a yardstick as is; ``LEVEL@REV`` (an engine level as git revision REV
    of this repository had it) as ``LEVEL@<full commit id>``, after loading
    that revision's players once, so a bad revision fails here, before any
    game."""
    if "@" not in name:
        from .yardsticks.peek import share_of
        if name not in PLAYERS and share_of(name) is None:
            raise CommandError("unknown player %r (choose from %s, LEVEL@REV, or peekN "
                               "with N from 0 to 100)" % (name, ", ".join(PLAYERS)))
        return name
    level, rev = name.split("@", 1)
    if level not in LEVELS:
        raise CommandError("only the engine's levels (%s) can be taken from a git revision, "
                           "not %r" % (", ".join(LEVELS), level))
    from .yardsticks import revision
    try:
        commit = revision.resolve(rev)
        revision.player(level, commit, 0)
    except ValueError as e:
        raise CommandError(str(e)) from e
    return "%s@%s" % (level, commit)


def _players(a, b, seed, swap, rules):
    # Player seeds derive from the deal seed and the seat, so a pair replays.
    first = make_player(a, seed * 2 + 1, rules)
    second = make_player(b, seed * 2 + 2, rules)
    return (second, first) if swap else (first, second)


class _Record:
    """What one game or hand leaves besides its score: decision time per
    seat (seconds, count), a digest of every action (two series played the
    same iff their digests match) and, per knock limit (R5: 0 when an ace
    means gin only, else 1..10), the hands played and A's net points."""

    def __init__(self):
        self.t = [0.0, 0.0]
        self.n = [0, 0]
        self.digest = 0
        self.limit_hands = [0] * 11
        self.limit_net = [0] * 11
        # per seat (0 = A): plain discards, and how many the other player took
        # from the pile at once (R7): the melds a player's discards feed
        self.discards = [0, 0]
        self.fed = [0, 0]
        self._top = -1     # seat whose discard lies on the pile, -1 for none

    def choose(self, player, seat, obs):
        t0 = time.perf_counter()
        act = player.choose(obs)
        self.t[seat] += time.perf_counter() - t0
        self.n[seat] += 1
        self.digest = zlib.crc32(act.encode(), self.digest)
        if act.startswith("discard "):
            self.discards[seat] += 1
            self._top = seat
        else:
            if act == "take" and self._top == 1 - seat:
                self.fed[self._top] += 1
            self._top = -1
        return act

    def hand_over(self, hand, a_seat):
        self._top = -1
        r = hand.result
        lim = hand.knock_limit
        self.limit_hands[lim] += 1
        if r.winner is not None:
            self.limit_net[lim] += r.points if r.winner == a_seat else -r.points


def _inform(player, hand, p):
    # what the table tells two yardsticks beyond the observation: peek sees
    # the opponent's cards (host/yardsticks/peek.py)
    if hasattr(player, "peek"):
        player.peek(hand.hands[1 - p])
    # OpenSpiel's bot decides from a state of its own game, kept in step with
    # this hand (host/yardsticks/openspiel.py); it reads only its own
    # observation there
    if hasattr(player, "sync"):
        player.sync(hand)


def play_game(a, b, seed, swap, max_turns=80, target=None):
    """One game to the target (R13). Returns (a_won, a_points, b_points,
    hands, finished, clock): A is ``a`` whichever seat it sits in."""
    from okgin.engine import Match
    rules = _rules(max_turns, target)
    m = Match(rules, seed=seed)
    seats = _players(a, b, seed, swap, rules)
    a_seat = 1 if swap else 0
    rec = _Record()
    hands = 1
    last_no = m.hand_no
    while m.winner is None:
        if m.hand_no != last_no:
            hands += 1
            last_no = m.hand_no
        if hands > MAX_HANDS_PER_GAME:
            break
        h = m.hand
        p = h.to_move
        assert p is not None    # the game goes on: someone is to move
        _inform(seats[p], h, p)
        m.play(rec.choose(seats[p], 0 if p == a_seat else 1, m.observation(p)))
        if h.is_over():
            rec.hand_over(h, a_seat)
    s = m.scores
    return (m.winner == a_seat, s[a_seat], s[1 - a_seat], hands, m.winner is not None, rec)


def play_deal(a, b, seed, swap, max_turns=80, target=None):
    """One hand (dealer from the seed). Returns (points for A, points for
    B, A won the hand, hand was a draw, clock)."""
    from okgin.engine import Hand
    rules = _rules(max_turns, target)
    h = Hand.deal(rules, dealer=seed % 2, seed=seed)
    seats = _players(a, b, seed, swap, rules)
    a_seat = 1 if swap else 0
    rec = _Record()
    while not h.is_over():
        p = h.to_move
        assert p is not None    # someone is to move until the hand is over
        _inform(seats[p], h, p)
        h.play(rec.choose(seats[p], 0 if p == a_seat else 1, h.observation(p)))
    rec.hand_over(h, a_seat)
    r = h.result
    assert r is not None        # the hand is over
    if r.winner is None:
        return 0, 0, False, True, rec
    pts = r.points
    a_won = r.winner == a_seat
    return (pts if a_won else 0), (0 if a_won else pts), a_won, False, rec


def _pair(task):
    kind, a, b, seed, max_turns, target = task
    fn = play_game if kind == "game" else play_deal
    return seed, fn(a, b, seed, False, max_turns, target), fn(a, b, seed, True, max_turns, target)


def tourney(a, b, games=100, seed=1, jobs=1, max_turns=80, target=None, deals=0,
            progress=None, limits=None, tuning=None, partial=False):
    """Play the series and return a dict of figures (used by the command
    and the tests). Pairs are seeds ``seed .. seed+N-1``, or with
    ``limits`` (knock limits, R5) the first N seeds from ``seed`` whose deal
    has one of them. ``tuning`` (``parse_tuning``) changes today's engine
    levels' constants for this series only. ``partial``: Ctrl-C ends the
    series early, with the figures of the seed pairs played (``stopped_of``:
    how many there were to play)."""
    return _series(a, b, games, seed, jobs, max_turns, target, deals, progress, limits,
                   tuning, partial)[0]


def parse_limits(text):
    """``"A,2"``, ``"A-4"``, ``"5-10"`` -> the set of knock limits (R5):
    1 for an ace, 2..10 (T, J, Q, K also 10). The tournaments play the
    standard rules, so the house rule's "ace means gin only" (limit 0)
    never comes up and is not offered."""
    names = {"a": 1, "t": 10, "j": 10, "q": 10, "k": 10}

    def one(x):
        x = x.strip().lower()
        v = names.get(x)
        if v is None and x.isdigit() and 1 <= int(x) <= 10:
            v = int(x)
        if v is None:
            raise CommandError("bad knock limit %r in --limits (A, 2..10, T, J, Q or K)" % x)
        return v
    out: "set[int]" = set()
    for part in text.split(","):
        lo, dash, hi = part.partition("-")
        a = one(lo)
        b = one(hi) if dash else a
        out.update(range(min(a, b), max(a, b) + 1))
    return out


def _seeds(seed, n, limits, max_turns, target):
    if not limits:
        return [seed + i for i in range(n)]
    from okgin.engine import Hand
    rules = _rules(max_turns, target)
    out: "list[int]" = []
    s = seed
    while len(out) < n:
        if Hand.deal(rules, dealer=s % 2, seed=s).knock_limit in limits:
            out.append(s)
        s += 1
    return out


def parse_tuning(items):
    """``["SAMPLES=64", ...]`` -> ``{"SAMPLES": 64}``, checked: a name of
    ``TUNABLE`` (a leading underscore or lower case is fine), a whole
    number, each name once."""
    out = {}
    for item in items:
        name, eq, value = item.partition("=")
        key = name.strip().lstrip("_").upper()
        if not eq or key not in TUNABLE:
            raise CommandError("bad --tune %r: give NAME=N with NAME one of %s"
                               % (item, ", ".join(TUNABLE)))
        try:
            n = int(value)
        except ValueError:
            raise CommandError("bad --tune %r: %r is not a whole number" % (item, value)) from None
        if key in out:
            raise CommandError("--tune %s given twice" % key)
        out[key] = n
    return out


def set_tuning(tuning):
    """Set today's engine/bots.py constants to ``tuning`` (``parse_tuning``);
    returns what they were, for ``set_tuning`` to put back. On CPython the
    levels read them as module globals at each decision (on a board
    mpy-cross folds them into the code, and nothing there tunes)."""
    was = {}
    for key, n in tuning.items():
        was[key] = getattr(bots, "_" + key)
        setattr(bots, "_" + key, n)
    return was


def _worker(tuning):
    """A worker leaves Ctrl-C to the series (which stops the pool), and
    tunes its own engine."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_tuning(tuning)


def _play(tasks, jobs, progress, tuning, partial=False):
    """The seed pairs' results, in the order they finish. With partial,
    Ctrl-C stops the series and returns the pairs played so far (if any)."""
    results = []
    n = len(tasks)
    try:
        if jobs > 1 and n > 1:
            import multiprocessing
            # a worker is a process of its own: it tunes its own engine
            with multiprocessing.Pool(jobs, _worker, (tuning,)) as pool:
                # small chunks: the progress line moves from the first pairs on
                for r in pool.imap_unordered(_pair, tasks, chunksize=max(1, min(4, n // (jobs * 8)))):
                    results.append(r)
                    if progress:
                        progress(len(results), n)
        else:
            for t in tasks:
                results.append(_pair(t))
                if progress:
                    progress(len(results), n)
    except KeyboardInterrupt:
        if not partial or not results:
            raise
    return results


def _series(a, b, games, seed, jobs, max_turns, target, deals, progress, limits=None,
            tuning=None, partial=False):
    """(figures, results): results are (seed, first, second) per seed pair,
    sorted by seed, as ``_pair`` returns them."""
    run_a = player_name(a)
    run_b = player_name(b)
    kind = "deal" if deals else "game"
    n = deals if deals else games
    if n <= 0:
        raise CommandError("--games/--deals must be at least 1")
    if max_turns is not None and max_turns < 2:
        raise CommandError("--max-turns must be at least 2")
    if target is not None and target < 1:
        raise CommandError("--target must be at least 1")
    _rules(max_turns, target)      # bad options fail here, before any work
    if limits and kind != "deal":
        raise CommandError("--limits chooses single deals: use it with --deals")
    tasks = [(kind, run_a, run_b, s, max_turns, target)
             for s in _seeds(seed, n, limits, max_turns, target)]
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if jobs < 0:
        raise CommandError("--jobs must be 0 or more")
    t0 = time.time()
    was = set_tuning(tuning or {})
    try:
        results = _play(tasks, jobs, progress, tuning or {}, partial)
    finally:
        set_tuning(was)
    results.sort(key=lambda r: r[0])
    out = {"a": a, "b": b, "kind": kind, "pairs": len(results), "seconds": time.time() - t0,
           "max_turns": max_turns, "target": target, "seed": seed}
    if len(results) < n:      # stopped (Ctrl-C): the figures of the pairs played
        out["stopped_of"] = n
        n = len(results)
    if limits:
        out["limits"] = sorted(limits)
        out["last_seed"] = results[-1][0]
    if tuning:
        out["tuned"] = dict(tuning)
    for key, name in (("a_commit", run_a), ("b_commit", run_b)):
        if "@" in name:
            out[key] = name.split("@", 1)[1]
    secs = [0.0, 0.0]
    decisions = [0, 0]
    net, a_pts, tot_pts, hands = _pair_points(kind, results)
    # games (or hands) A won in each seed pair: 0, 1 or 2
    won_key = 0 if kind == "game" else 2
    wins = [int(x1[won_key]) + int(x2[won_key]) for _, x1, x2 in results]
    won = sum(wins)
    win_ci = intervals.ratio(wins, [2] * len(wins))
    if kind == "game":
        unfinished = 0
        for _, g1, g2 in results:
            unfinished += (not g1[4]) + (not g2[4])
        out["games"] = 2 * n
        out["games_won"] = won
        out["win_rate"] = won / (2.0 * n)
        out["win_low"], out["win_high"] = win_ci or (None, None)
        out["unfinished"] = unfinished
    else:
        draws = 0
        for _, d1, d2 in results:
            draws += d1[3] + d2[3]
        out["hands_won"] = won
        out["hand_win_rate"] = won / (2.0 * n)
        out["hand_win_low"], out["hand_win_high"] = win_ci or (None, None)
        out["draws"] = draws
    # pairs A won both ways, pairs B did, split pairs; the sign test on them
    sweeps = [wins.count(2), wins.count(0), wins.count(1)]
    out["sweeps"] = sweeps
    out["sign_p"] = intervals.sign_test(sweeps[0], sweeps[1])
    discards = [0, 0]
    fed = [0, 0]
    for _, x1, x2 in results:
        for x in (x1, x2):
            for s in (0, 1):
                secs[s] += x[-1].t[s]
                decisions[s] += x[-1].n[s]
                discards[s] += x[-1].discards[s]
                fed[s] += x[-1].fed[s]
    out["hands"] = sum(hands)
    out["points_per_hand"] = sum(net) / float(sum(hands))
    out["points_low"], out["points_high"] = intervals.ratio(net, hands) or (None, None)
    total = sum(tot_pts)
    out["share"] = sum(a_pts) / float(total) if total else 0.5
    out["share_low"], out["share_high"] = ((total and intervals.ratio(a_pts, tot_pts))
                                           or (None, None))
    out["ms_per_decision"] = [1000.0 * secs[s] / decisions[s] if decisions[s] else 0.0
                              for s in (0, 1)]
    # how often each player's discard was taken at once by the other (R7)
    out["discards"] = discards
    out["discards_taken"] = fed
    out["verdict"] = verdict(out)
    return out, results


def _pair_points(kind, results):
    """Per seed pair: A's net points, A's points, both players' points and
    the hands played (lists in seed order)."""
    net, a_pts, tot_pts, hands = [], [], [], []
    for _, x1, x2 in results:
        if kind == "game":
            net.append(x1[1] - x1[2] + x2[1] - x2[2])
            a_pts.append(x1[1] + x2[1])
            tot_pts.append(x1[1] + x1[2] + x2[1] + x2[2])
            hands.append(x1[3] + x2[3])
        else:
            net.append(x1[0] - x1[1] + x2[0] - x2[1])
            a_pts.append(x1[0] + x2[0])
            tot_pts.append(x1[0] + x1[1] + x2[0] + x2[1])
            hands.append(2)
    return net, a_pts, tot_pts, hands


# ----- paired comparison: A against A of another revision, on the same deals ----

LIMIT_NAMES = ("gin", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10-K")


def compare(a, b, rev=None, games=100, seed=1, jobs=1, max_turns=80, target=None, deals=0,
            progress=None, limits=None, paired_with=None, tuning=None):
    """A against B, then ``A@rev`` (A as git revision ``rev`` had it), or
    the player ``paired_with``, against B on the same seeds and seats, and
    their paired difference: per seed pair, what A scored minus what the
    other scored on the same cards. Returns (figures of A, figures of the
    other, the difference). ``tuning`` changes A's series only."""
    if paired_with is None:
        if "@" in a or a not in LEVELS:
            raise CommandError("--baseline compares an engine level (%s) with itself at "
                               "another revision; %r is not one" % (", ".join(LEVELS), a))
        base_name = "%s@%s" % (a, rev)
    else:
        base_name = paired_with
    player_name(base_name)       # a bad revision or name fails before any game
    cur, res1 = _series(a, b, games, seed, jobs, max_turns, target, deals,
                        progress and (lambda d, n: progress(d, 2 * n)), limits, tuning)
    base, res2 = _series(base_name, b, games, seed, jobs, max_turns, target, deals,
                         progress and (lambda d, n: progress(n + d, 2 * n)), limits)
    return cur, base, paired(cur, res1, base, res2)


def paired(cur, res1, base, res2):
    """The paired difference of two series on the same seeds (``compare``)."""
    kind = cur["kind"]
    x, _, _, h = _pair_points(kind, res1)
    y, _, _, k = _pair_points(kind, res2)
    n = len(x)
    d = {"a": cur["a"], "baseline": base["a"], "commit": base.get("a_commit"),
         "b": cur["b"], "kind": kind, "pairs": n}
    d["points_per_hand"] = sum(x) / float(sum(h)) - sum(y) / float(sum(k))
    d["points_low"], d["points_high"] = intervals.ratio_difference(x, h, y, k) or (None, None)
    # a pair counts as played alike when every action of both its games is
    differ = better = worse = 0
    for (_, p1, p2), (_, q1, q2), xi, hi, yi, ki in zip(res1, res2, x, h, y, k, strict=True):
        if p1[-1].digest != q1[-1].digest or p2[-1].digest != q2[-1].digest:
            differ += 1
            # per hand, so games of different lengths compare fairly
            better += xi * ki > yi * hi
            worse += xi * ki < yi * hi
    d["differ"], d["better"], d["worse"] = differ, better, worse
    won_key = 0 if kind == "game" else 2
    wins = [(p1[won_key] + p2[won_key]) - (q1[won_key] + q2[won_key])
            for (_, p1, p2), (_, q1, q2) in zip(res1, res2, strict=True)]
    # as a share of the pair's two games: within -100% .. +100%
    d["won_diff"] = sum(wins) / (2.0 * n)
    d["won_low"], d["won_high"] = intervals.ratio(wins, [2] * n) or (None, None)
    rows = []
    for lim in range(11):
        xs = [p1[-1].limit_net[lim] + p2[-1].limit_net[lim] for _, p1, p2 in res1]
        hs = [p1[-1].limit_hands[lim] + p2[-1].limit_hands[lim] for _, p1, p2 in res1]
        ys = [q1[-1].limit_net[lim] + q2[-1].limit_net[lim] for _, q1, q2 in res2]
        ks = [q1[-1].limit_hands[lim] + q2[-1].limit_hands[lim] for _, q1, q2 in res2]
        if not sum(hs) or not sum(ks):
            continue
        # over the pairs that played hands of this limit (too few: no interval)
        have = [i for i in range(n) if hs[i] or ks[i]]
        ci = intervals.ratio_difference([xs[i] for i in have], [hs[i] for i in have],
                                        [ys[i] for i in have], [ks[i] for i in have])
        pph, base_pph = sum(xs) / float(sum(hs)), sum(ys) / float(sum(ks))
        rows.append({"limit": LIMIT_NAMES[lim], "hands": sum(hs), "baseline_hands": sum(ks),
                     "pairs": len(have), "points_per_hand": pph,
                     "baseline_points_per_hand": base_pph, "difference": pph - base_pph,
                     "low": ci and ci[0], "high": ci and ci[1]})
    d["by_limit"] = rows
    d["verdict"] = paired_verdict(d)
    return d


def paired_verdict(d):
    if not d["differ"]:
        return "both versions played every seed pair alike: no difference"
    if d["pairs"] < MIN_PAIRS or d["points_low"] is None:
        return "too few seed pairs to conclude (%d < %d)" % (d["pairs"], MIN_PAIRS)
    low, high = d["points_low"], d["points_high"]
    if low > 0:
        return "%s is stronger than %s against %s (95%%)" % (d["a"], d["baseline"], d["b"])
    if high < 0:
        return "%s is stronger than %s against %s (95%%)" % (d["baseline"], d["a"], d["b"])
    return ("no difference shown at 95% (a few pairs decide it: check a difference on "
            "other seeds before believing it)")


def paired_report(d):
    what = "games" if d["kind"] == "game" else "hands"
    commit = " (%s)" % d["commit"][:10] if d.get("commit") else ""
    lines = ["%s minus %s%s, both against %s on the same %d seed pairs and seats:"
             % (d["a"], d["baseline"], commit, d["b"], d["pairs"]),
             "  points per hand %+.2f %s"
             % (d["points_per_hand"], _ci(d["points_low"], d["points_high"], "%+.2f", what)),
             "  %s won %+.1f points of %% %s"
             % (what, 100 * d["won_diff"],
                _ci(d["won_low"], d["won_high"], "%+.1f", what, 100)),
             "  %d of %d seed pairs played differently: %s better on %d, worse on %d"
             % (d["differ"], d["pairs"], d["a"], d["better"], d["worse"]),
             "  by knock limit (R5), points per hand against %s:" % d["b"],
             "    %-5s %7s %9s %9s   %s" % ("limit", "hands", "A", "baseline",
                                           "difference (95% CI)")]
    for row in d["by_limit"]:
        hands = ("%d" % row["hands"] if row["hands"] == row["baseline_hands"]
                 else "%d/%d" % (row["hands"], row["baseline_hands"]))
        ci = _ci(row["low"], row["high"], "%+.2f", "seed pairs")
        lines.append("    %-5s %7s %+9.2f %+9.2f   %+.2f %s"
                     % (row["limit"], hands, row["points_per_hand"],
                        row["baseline_points_per_hand"], row["difference"], ci))
    lines.append("  " + d["verdict"])
    return "\n".join(lines)


def verdict(r):
    """One line: which player is stronger at 95%, or why the sample cannot
    tell."""
    if r["pairs"] < MIN_PAIRS or r["points_low"] is None:
        return "too few seed pairs to conclude (%d < %d)" % (r["pairs"], MIN_PAIRS)
    low, high = r["points_low"], r["points_high"]
    if low > 0:
        return "%s is stronger (95%%: the interval of points per hand is above 0)" % r["a"]
    if high < 0:
        return "%s is stronger (95%%: the interval of points per hand is below 0)" % r["b"]
    return "no difference shown at 95%% over %d seed pairs (the interval includes 0)" % r["pairs"]


def _pct(x):
    return "%.1f%%" % (100 * x)


def _ci(low, high, fmt, what, scale=1):
    """"(95% CI low .. high)", or why there is none: too few seed pairs for
    an interval (intervals.MIN_PAIRS)."""
    if low is None:
        return "(too few %s for an interval)" % what
    return "(95%% CI %s .. %s)" % (fmt % (scale * low), fmt % (scale * high))


def _ci_pct(low, high, what):
    if low is None:
        return "too few %s for an interval" % what
    return "95%% CI %s .. %s" % (_pct(low), _pct(high))


def report(r):
    lines = []
    if r["kind"] == "game":
        lines.append("%s vs %s: %d games (%d seeds, seats swapped), %d hands, %.1f s"
                     % (r["a"], r["b"], r["games"], r["pairs"], r["hands"], r["seconds"]))
    else:
        lines.append("%s vs %s: %d hands (%d seeds, seats swapped), %d draws, %.1f s"
                     % (r["a"], r["b"], r["hands"], r["pairs"], r["draws"], r["seconds"]))
    if r.get("tuned"):
        lines.append("  tuned: %s (engine/bots.py, this series only)"
                     % ", ".join("%s=%d" % kv for kv in sorted(r["tuned"].items())))
    if r["kind"] == "game":
        lines.append("  %s wins %s of games to the target (%d of %d; %s)"
                     % (r["a"], _pct(r["win_rate"]), r["games_won"], r["games"],
                        _ci_pct(r["win_low"], r["win_high"], "games")))
        if r["unfinished"]:
            lines.append("  %d games unfinished after %d hands (counted as losses for A)"
                         % (r["unfinished"], MAX_HANDS_PER_GAME))
    else:
        if r.get("limits"):
            lines.append("  only deals with a knock limit (R5) of %s: seeds %d .. %d"
                         % (", ".join(LIMIT_NAMES[x] for x in r["limits"]), r["seed"],
                            r["last_seed"]))
        lines.append("  %s wins %s of hands (draws count as losses; %s)"
                     % (r["a"], _pct(r["hand_win_rate"]),
                        _ci_pct(r["hand_win_low"], r["hand_win_high"], "hands")))
    what = "games" if r["kind"] == "game" else "hands"
    sw = r["sweeps"]
    lines.append("  seed pairs won both ways: %s %d, %s %d; split %d (sign test %s)"
                 % (r["a"], sw[0], r["b"], sw[1], sw[2], intervals.p_text(r["sign_p"])))
    lines.append("  %s nets %+.2f points per hand  %s"
                 % (r["a"], r["points_per_hand"],
                    _ci(r["points_low"], r["points_high"], "%+.2f", what)))
    lines.append("  %s scores %s of all points  (%s)"
                 % (r["a"], _pct(r["share"]), _ci_pct(r["share_low"], r["share_high"], what)))
    lines.append("  (intervals: bootstrap over the %d seed pairs, each pair's two %s together)"
                 % (r["pairs"], what))
    d, f = r["discards"], r["discards_taken"]
    if d[0] and d[1]:
        lines.append("  discards taken at once by the other player: %s's %s of %d, %s's %s of %d"
                     % (r["a"], _pct(f[0] / d[0]), d[0], r["b"], _pct(f[1] / d[1]), d[1]))
    lines.append("  decision time (CPython, this machine): %s %.2f ms, %s %.2f ms on average"
                 % (r["a"], r["ms_per_decision"][0], r["b"], r["ms_per_decision"][1]))
    lines.append("  " + r["verdict"])
    return "\n".join(lines)


def table_row(r):
    """One markdown row of docs/bots.md's table."""
    what = "games" if r["kind"] == "game" else "hands"
    pph = "%+.2f %s" % (r["points_per_hand"],
                        _ci(r["points_low"], r["points_high"], "%+.2f", what).replace("95% CI ", ""))
    share = "%.1f%%" % (100 * r["share"])
    if r["kind"] == "game":
        size = "%d games" % r["games"]
        games = "%s (%s)" % (_pct(r["win_rate"]),
                             _ci_pct(r["win_low"], r["win_high"], what).replace("95% CI ", ""))
    else:
        size = "%d hands" % r["hands"]
        games = "(hands only)"
    return "| %s vs %s | %s | %s | %s | %s |" % (r["a"], r["b"], size, pph, share, games)


TABLE_HEAD = ("| A vs B | played | A's points per hand (95% CI) | A's share of points "
              "| A wins games (95% CI) |\n|---|---|---|---|---|")


def _progress(args, label, unit="games"):
    """A redrawn status line on a terminal: games (each seed pair is two),
    the rate and the time left."""
    t0 = time.time()

    def progress(done, total):
        if args.quiet or not sys.stderr.isatty():
            return
        secs = time.time() - t0
        rate = 2 * done / secs if secs > 0 else 0.0
        left = (total - done) * secs / done if done else 0.0
        eta = ("%d min %02d s" % divmod(int(left + 0.5), 60)) if left >= 60 else ("%d s" % (left + 0.5))
        sys.stderr.write("\r%s%d/%d %s, %.1f/s, about %s left (Ctrl-C: stop and show the figures so far)\033[K"
                         % (label, 2 * done, 2 * total, unit, rate, eta))
        sys.stderr.flush()
    return progress


def run(args):
    if args.table:
        if args.a or args.b:
            raise CommandError("--table plays its own series; give no players")
        if args.baseline or args.paired or args.tune:
            raise CommandError("--baseline, --paired and --tune are for two players' series, "
                               "not the table")
        rows = []
        results = []
        for a, b, games, deals in TABLE:
            if args.games or args.deals:
                games, deals = (args.games or 0), args.deals
                if deals:
                    games = 0
            r = tourney(a, b, games=games, seed=args.seed, jobs=args.jobs,
                        max_turns=args.max_turns, target=args.target, deals=deals,
                        progress=_progress(args, "%s vs %s: " % (a, b)))
            if not args.quiet and sys.stderr.isatty():
                sys.stderr.write("\r\033[K")
            print(report(r))
            sys.stdout.flush()
            rows.append(table_row(r))
            results.append(r)
        print()
        print(TABLE_HEAD)
        print("\n".join(rows))
        _write_json(args.json, results)
        return 0
    if not args.a or not args.b:
        raise CommandError("name two players (e.g. okgin tourney hard simple), or --table")
    a = _arg_name(args.a)
    b = _arg_name(args.b)
    tuning = parse_tuning(args.tune) if args.tune else None
    if tuning and ("@" in a or a not in LEVELS):
        raise CommandError("--tune changes today's engine levels (%s); PLAYER_A %r is not one"
                           % (", ".join(LEVELS), a))
    if tuning and args.paired:
        raise CommandError("--tune changes today's engine for every player of the run: compare "
                           "with the level as committed, --baseline HEAD, not --paired")
    games = 100 if args.games is None else args.games
    limits = parse_limits(args.limits) if args.limits else None
    if args.baseline and args.paired:
        raise CommandError("give --baseline REV or --paired PLAYER, not both")
    if args.baseline or args.paired:
        cur, base, diff = compare(a, b, args.baseline, games=games, seed=args.seed,
                                  jobs=args.jobs, max_turns=args.max_turns, target=args.target,
                                  deals=args.deals,
                                  progress=_progress(args, "", "hands" if args.deals else "games"),
                                  limits=limits,
                                  paired_with=args.paired and _arg_name(args.paired),
                                  tuning=tuning)
        if not args.quiet and sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
        print(report(cur))
        print(report(base))
        print(paired_report(diff))
        _write_json(args.json, [cur, base, diff])
        return 0
    r = tourney(a, b, games=games, seed=args.seed,
                jobs=args.jobs, max_turns=args.max_turns, target=args.target, deals=args.deals,
                progress=_progress(args, "", "hands" if args.deals else "games"), limits=limits,
                tuning=tuning, partial=True)
    if not args.quiet and sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    if r.get("stopped_of"):
        print("stopped (Ctrl-C) after %d of %d seed pairs: the figures below are of those"
              % (r["pairs"], r["stopped_of"]))
    print(report(r))
    _write_json(args.json, [r])
    return 130 if r.get("stopped_of") else 0


def _arg_name(text):
    """A player argument as ``tourney`` takes it: the level in lower case,
    a revision after ``@`` as typed (git names are case-sensitive)."""
    level, at, rev = text.partition("@")
    return level.lower() + at + rev


def _finite(x):
    """``x`` with every infinite or NaN number as None (JSON has no
    Infinity: an interval that does not exist, e.g. from one seed pair)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _write_json(path, results):
    if not path:
        return
    try:
        with open(path, "w") as f:
            json.dump(_finite(results), f, indent=1, allow_nan=False)
    except OSError as e:
        raise CommandError("cannot write %s: %s" % (path, e.strerror or e)) from e
