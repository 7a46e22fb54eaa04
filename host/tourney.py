"""``okgin tourney``: computer players against each other.

Plays N seeded games (or single hands with ``--deals``), each twice with the
seats swapped so both players get the same cards once: what is left of the
difference is skill, not card luck. Prints the win rate per game, the points
per hand, and 95% confidence intervals computed over the seed pairs.
"""
import math
import os
import sys
import time

from host.errors import CommandError

LEVELS = ("random", "easy", "normal", "hard", "greedy")
MAX_HANDS_PER_GAME = 300     # a game that has not ended by then is "unfinished"

EPILOG = """examples:
  okgin tourney hard greedy                  100 games, each twice (seats swapped)
  okgin tourney normal easy --games 400 --jobs 2
  okgin tourney hard random --deals 500      single hands: points per hand only
  okgin tourney easy greedy --seed 7 --max-turns 40 --target 50
"""


def configure(parser):
    parser.add_argument("a", metavar="PLAYER_A", help="level of player A: %s" % ", ".join(LEVELS))
    parser.add_argument("b", metavar="PLAYER_B", help="level of player B")
    parser.add_argument("--games", type=int, default=100,
                        help="seeded games, each played twice with seats swapped (default 100)")
    parser.add_argument("--deals", type=int, default=0,
                        help="play this many seeded single hands (each twice) instead of games")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (default 1; 0 = one per core)")
    parser.add_argument("--max-turns", type=int, default=80,
                        help="a hand longer than this many turns ends as a draw (default 80)")
    parser.add_argument("--target", type=int, default=None,
                        help="game target score (default: the rules' 100, R13)")
    parser.add_argument("--quiet", action="store_true", help="only the summary lines")
    parser.epilog = EPILOG


def _rules(max_turns, target):
    from engine import Rules
    kw = {"max_turns": max_turns}
    if target is not None:
        kw["target"] = target
    try:
        return Rules(**kw)
    except (TypeError, ValueError) as e:
        raise CommandError("bad rules option: %s" % e)


def _bots(a, b, seed, swap):
    from engine import bot
    # Bot seeds derive from the deal seed and the seat, so a pair replays.
    first = bot(a, seed * 2 + 1)
    second = bot(b, seed * 2 + 2)
    return (second, first) if swap else (first, second)


def _to_move(game):
    # Match keeps the hand being played as ``.hand``; its ``to_move`` is
    # public state (the observation carries it too, but costs a dict).
    h = getattr(game, "hand", None)
    if h is not None and hasattr(h, "to_move"):
        return h.to_move
    return game.observation(0)["to_move"]


def play_game(a, b, seed, swap, max_turns=80, target=None):
    """One game to the target (R13). Returns (a_won, a_points, b_points,
    hands, finished): A is ``a`` whichever seat it sits in."""
    from engine import Match
    rules = _rules(max_turns, target)
    m = Match(rules, seed=seed)
    seats = _bots(a, b, seed, swap)
    a_seat = 1 if swap else 0
    hands = 1
    last_no = None
    while m.winner is None:
        p = _to_move(m)
        obs = m.observation(p)
        no = obs.get("hand_no")
        if no != last_no:
            if last_no is not None:
                hands += 1
            last_no = no
        if hands > MAX_HANDS_PER_GAME:
            break
        m.play(seats[p].choose(obs))
    s = m.scores
    return (m.winner == a_seat, s[a_seat], s[1 - a_seat], hands, m.winner is not None)


def play_deal(a, b, seed, swap, max_turns=80, target=None):
    """One hand (dealer from the seed). Returns (net points for A, A won
    the hand, hand was a draw)."""
    from engine import Hand
    rules = _rules(max_turns, target)
    h = Hand.deal(rules, dealer=seed % 2, seed=seed)
    seats = _bots(a, b, seed, swap)
    a_seat = 1 if swap else 0
    while not h.is_over():
        p = h.to_move
        assert p is not None    # someone is to move until the hand is over
        h.play(seats[p].choose(h.observation(p)))
    # The result as the contract's dict (Hand.result may be an object).
    r = h.observation(0)["result"]
    assert r is not None        # the hand is over
    winner = r["winner"]
    pts = r["points"] or 0
    if winner is None:
        return 0, False, True
    return (pts if winner == a_seat else -pts), winner == a_seat, False


def _pair(task):
    kind, a, b, seed, max_turns, target = task
    fn = play_game if kind == "game" else play_deal
    return seed, fn(a, b, seed, False, max_turns, target), fn(a, b, seed, True, max_turns, target)


def mean_ci(xs):
    """Mean and 95% half-width (normal approximation) of a sample."""
    n = len(xs)
    if n == 0:
        return 0.0, float("nan")
    mu = sum(xs) / n
    if n < 2:
        return mu, float("inf")
    var = sum((x - mu) ** 2 for x in xs) / (n - 1)
    return mu, 1.96 * math.sqrt(var / n)


def ratio_ci(xs, hs):
    """Ratio sum(xs)/sum(hs) and its 95% half-width (delta method over the
    pairs: points per hand where pairs play different numbers of hands)."""
    n = len(xs)
    tot_h = float(sum(hs))
    if n == 0 or tot_h == 0:
        return 0.0, float("nan")
    r = sum(xs) / tot_h
    if n < 2:
        return r, float("inf")
    hbar = tot_h / n
    var = sum((x - r * h) ** 2 for x, h in zip(xs, hs)) / (n - 1)
    return r, 1.96 * math.sqrt(var / n) / hbar


def tourney(a, b, games=100, seed=1, jobs=1, max_turns=80, target=None, deals=0,
            progress=None):
    """Play the series and return a dict of figures (used by the command
    and the tests). Pairs are seeds ``seed .. seed+N-1``."""
    for lvl in (a, b):
        if lvl not in LEVELS:
            raise CommandError("unknown player %r (choose from %s)" % (lvl, ", ".join(LEVELS)))
    kind = "deal" if deals else "game"
    n = deals if deals else games
    if n <= 0:
        raise CommandError("--games/--deals must be at least 1")
    if max_turns is not None and max_turns < 2:
        raise CommandError("--max-turns must be at least 2")
    if target is not None and target < 1:
        raise CommandError("--target must be at least 1")
    _rules(max_turns, target)      # bad options fail here, before any work
    tasks = [(kind, a, b, seed + i, max_turns, target) for i in range(n)]
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if jobs < 0:
        raise CommandError("--jobs must be 0 or more")
    t0 = time.time()
    results = []
    if jobs > 1 and n > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            for r in pool.imap_unordered(_pair, tasks, chunksize=max(1, n // (jobs * 8))):
                results.append(r)
                if progress:
                    progress(len(results), n)
    else:
        for t in tasks:
            results.append(_pair(t))
            if progress:
                progress(len(results), n)
    results.sort()
    out = {"a": a, "b": b, "kind": kind, "pairs": n, "seconds": time.time() - t0}
    if kind == "game":
        wins, pts, hands, unfinished = [], [], [], 0
        for _, g1, g2 in results:
            wins.append((g1[0] + g2[0]) / 2.0)
            pts.append(g1[1] - g1[2] + g2[1] - g2[2])
            hands.append(g1[3] + g2[3])
            unfinished += (not g1[4]) + (not g2[4])
        out["win_rate"], out["win_ci"] = mean_ci(wins)
        out["points_per_hand"], out["points_ci"] = ratio_ci(pts, hands)
        out["hands"] = sum(hands)
        out["games"] = 2 * n
        out["unfinished"] = unfinished
    else:
        net, won, hands, draws = [], [], [], 0
        for _, d1, d2 in results:
            net.append(d1[0] + d2[0])
            won.append((d1[1] + d2[1]) / 2.0)
            hands.append(2)
            draws += d1[2] + d2[2]
        out["points_per_hand"], out["points_ci"] = ratio_ci(net, hands)
        out["hand_win_rate"], out["hand_win_ci"] = mean_ci(won)
        out["hands"] = 2 * n
        out["draws"] = draws
    return out


def report(r):
    lines = []
    if r["kind"] == "game":
        lines.append("%s vs %s: %d games (%d seeds, seats swapped), %d hands, %.1f s"
                     % (r["a"], r["b"], r["games"], r["pairs"], r["hands"], r["seconds"]))
        lines.append("  %s wins %.1f%% of games to the target  (95%% CI %.1f%% .. %.1f%%)"
                     % (r["a"], 100 * r["win_rate"], 100 * (r["win_rate"] - r["win_ci"]),
                        100 * (r["win_rate"] + r["win_ci"])))
        if r["unfinished"]:
            lines.append("  %d games unfinished after %d hands (counted as losses for A)"
                         % (r["unfinished"], MAX_HANDS_PER_GAME))
    else:
        lines.append("%s vs %s: %d hands (%d seeds, seats swapped), %d draws, %.1f s"
                     % (r["a"], r["b"], r["hands"], r["pairs"], r["draws"], r["seconds"]))
        lines.append("  %s wins %.1f%% of hands (draws count as losses) (95%% CI %.1f%% .. %.1f%%)"
                     % (r["a"], 100 * r["hand_win_rate"], 100 * (r["hand_win_rate"] - r["hand_win_ci"]),
                        100 * (r["hand_win_rate"] + r["hand_win_ci"])))
    lines.append("  %s nets %+.2f points per hand  (95%% CI %+.2f .. %+.2f)"
                 % (r["a"], r["points_per_hand"], r["points_per_hand"] - r["points_ci"],
                    r["points_per_hand"] + r["points_ci"]))
    return "\n".join(lines)


def run(args):
    a = args.a.lower()
    b = args.b.lower()

    def progress(done, total):
        if not args.quiet and sys.stderr.isatty():
            sys.stderr.write("\r%d/%d" % (done, total))
            sys.stderr.flush()

    r = tourney(a, b, games=args.games, seed=args.seed, jobs=args.jobs,
                max_turns=args.max_turns, target=args.target, deals=args.deals,
                progress=progress)
    if not args.quiet and sys.stderr.isatty():
        sys.stderr.write("\r")
    print(report(r))
    return 0
