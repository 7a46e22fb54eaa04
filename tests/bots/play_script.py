"""Bots against each other on one runtime; runs under CPython (imported by
the tests) and under the micropython binary (as a script), so both runtimes
can be checked for legal moves and compared for identical decisions.

    micropython play_script.py HANDS SEED   -> one line per hand, then a summary
"""
import sys

try:
    from okgin.engine import Hand, Rules, bot   # CPython: the installed package
except ImportError:
    from engine import Hand, Rules, bot         # micropython: the engine on its path

PAIRS = (("random", "easy"), ("easy", "normal"), ("normal", "hard"),
         ("hard", "greedy"), ("greedy", "random"), ("hard", "hard"))


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
        seats = (bot(a, s), bot(b, s + 7))
        actions = []
        while not h.is_over():
            p = h.to_move
            obs = h.observation(p)
            act = seats[p].choose(obs)
            if act not in obs["legal"]:
                raise AssertionError("hand %d: %s chose %r, not in %r" % (s, seats[p], act, obs["legal"]))
            h.play(act)
            actions.append(act)
            decisions += 1
        r = h.observation(0)["result"]
        out("%s-%s %s %s %s | %s" % (a, b, r["kind"], r["winner"], r["points"], ",".join(actions)))
    return decisions


if __name__ == "__main__":
    n = int(sys.argv[1])
    sd = int(sys.argv[2])
    d = play(n, sd, print)
    print("DONE hands=%d decisions=%d" % (n, d))
