"""Bots against each other on one runtime; runs under CPython (imported by
the tests) and under the micropython binary (as a script), so both runtimes
can be checked for legal moves and compared for identical decisions.

    micropython play_script.py HANDS SEED   -> one line per hand, then a summary
    micropython play_script.py HANDS SEED coach
                                            -> the coach's advice at every decision
                                               of hard-vs-hard hands, its review after each
"""
import sys

try:
    from okgin.engine import Hand, Rules, bot   # CPython: the installed package
except ImportError:
    from engine import Hand, Rules, bot         # micropython: the engine on its path

PAIRS = (("random", "easy"), ("easy", "normal"), ("normal", "hard"),
         ("hard", "greedy"), ("greedy", "random"), ("hard", "hard"))


def _play_hand(h, seats, s):
    """Plays hand ``h`` (seed ``s``) to its end, ``seats[p]`` choosing for
    player p; every choice must be legal. Returns the actions."""
    actions = []
    while not h.is_over():
        p = h.to_move
        obs = h.observation(p)
        act = seats[p].choose(obs)
        if act not in obs["legal"]:
            raise AssertionError("hand %d: %s chose %r, not in %r" % (s, seats[p], act, obs["legal"]))
        h.play(act)
        actions.append(act)
    return actions


def play(hands, seed, out):
    """Plays ``hands`` seeded hands cycling through PAIRS; every choice must
    be in the observation's legal list. Writes one line per hand to ``out``
    (a callable): the pair, the result and every action, so two runtimes
    can be compared line by line. Returns the number of decisions."""
    decisions = 0
    rules = Rules(max_turns=200)
    for i in range(hands):
        a, b = PAIRS[i % len(PAIRS)]
        s = seed + i
        h = Hand.deal(rules, dealer=i % 2, seed=s)
        actions = _play_hand(h, (bot(a, s), bot(b, s + 7)), s)
        decisions += len(actions)
        r = h.observation(0)["result"]
        out("%s-%s %s %s %s | %s" % (a, b, r["kind"], r["winner"], r["points"], ",".join(actions)))
    return decisions


def coach(hands, seed, out):
    """Hands of hard against hard where player 0 now and then plays another
    legal move instead (so the reviews find something): the coach's advice at each decision and its review of each hand, one
    line each, so two runtimes can be compared line by line."""
    try:
        from okgin.engine.bots import move_seed
        from okgin.engine.coach import advice
        from okgin.engine.review import review
    except ImportError:
        from engine.bots import move_seed
        from engine.coach import advice
        from engine.review import review
    rules = Rules(max_turns=200)
    n = 0
    for i in range(hands):
        s = seed + i
        h = Hand.deal(rules, dealer=i % 2, seed=s)
        while not h.is_over():
            p = h.to_move
            obs = h.observation(p)
            a = advice(obs, move_seed(s, len(obs["history"])))
            out("%d %s %r" % (p, a["action"], a["why"]))
            act = a["action"]
            if p == 0 and len(obs["legal"]) > 2 and n % 5 == 0:
                act = obs["legal"][n % len(obs["legal"])]
            h.play(act)
            n += 1
        for p in (0, 1):
            r = review(h, p, s)
            # field by field: MicroPython's dicts keep no insertion order
            out("review %d %s" % (p, r and "%d %s %s %d %r" % (
                r["move"], r["played"], r["better"], r["cost"], r["why"])))
    return n


def expert(hands, seed, out):
    """Hands of the expert level against hard, every action on one line
    per hand, so two runtimes can be compared (the search is the part most
    likely to drift: hundreds of playouts a decision). Returns the number
    of decisions the expert searched and how many it overruled hard in."""
    rules = Rules(max_turns=200)
    searched = overruled = 0
    for i in range(hands):
        s = seed + i
        h = Hand.deal(rules, dealer=i % 2, seed=s)
        seats = (bot("expert", s), bot("hard", s + 7))
        if i % 2:
            seats = (seats[1], seats[0])
        actions = _play_hand(h, seats, s)
        r = h.observation(0)["result"]
        ex = seats[i % 2]
        searched += ex.searched
        overruled += ex.overruled
        out("%s %s %s | %s" % (r["kind"], r["winner"], r["points"], ",".join(actions)))
    return searched, overruled


if __name__ == "__main__":
    n = int(sys.argv[1])
    sd = int(sys.argv[2])
    if sys.argv[3:] == ["coach"]:
        d = coach(n, sd, print)
    elif sys.argv[3:] == ["expert"]:
        d = expert(n, sd, print)[0]
    else:
        d = play(n, sd, print)
    print("DONE hands=%d decisions=%d" % (n, d))
