"""Play one full hand through the safe path, as the device does, and print
its result: the probe for the smallest MicroPython heap the engine needs.

    micropython -X heapsize=32K tests/mp/one_hand.py <dir holding engine/> [seed [noobs]]

With noobs, no observation is built between actions (the engine alone);
a fourth argument "live" also prints the most heap in use after any action.

The policy knocks as soon as it can, draws from the stock and discards the
card that leaves the least deadwood (ties: seeded random), so hands end in a
showdown (the costliest end) for most seeds.
Prints "ok <kind> <points> <actions>" and exits 0.
"""
import sys

if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

import gc  # noqa: E402

from engine import Rules, Hand  # noqa: E402
from engine.cards import card_str  # noqa: E402
from engine.melds import discard_deadwoods  # noqa: E402
from engine.prng import Prng  # noqa: E402


def play_one(seed, redraw=True, live=None):
    """Play the hand; if live is a list, live[0] gets the largest heap in
    use (gc.mem_alloc after a collection) seen after any action."""
    h = Hand.deal(Rules(max_turns=40), dealer=seed & 1, seed=seed)
    rng = Prng(seed)
    n = 0
    while not h.is_over():
        acts = h.legal_actions()
        pick = None
        if "pass" in acts:
            pick = "pass"
        elif "draw" in acts:
            pick = "draw"
        else:
            for a in acts:
                if a[0] == "k":
                    pick = a
                    break
            if pick is None:
                # the discard leaving the least deadwood (one engine call
                # for all eleven, so the probe itself allocates little)
                best = 999
                for c, v in discard_deadwoods(h._hands[h.to_move]):
                    v = v * 4 + rng.below(4)
                    if v < best and "discard " + card_str(c) in acts:
                        best = v
                        pick = "discard " + card_str(c)
        acts = None
        h.play(pick)
        if redraw:  # a screen redraw after every action, as the firmware does
            h.observation(h.to_move if h.to_move is not None else 0)   # made, then garbage
        n += 1
        if live is not None:
            gc.collect()
            if gc.mem_alloc() > live[0]:
                live[0] = gc.mem_alloc()
    r = h.result
    return r.kind, r.points, n


def main(argv):
    seed = int(argv[2]) if len(argv) > 2 else 1
    redraw = not (len(argv) > 3 and argv[3] == "noobs")
    live = [0] if len(argv) > 4 and argv[4] == "live" else None
    gc.collect()
    kind, points, n = play_one(seed, redraw, live)
    if live is not None:
        print("ok", kind, points, n, "maxlive", live[0])
    else:
        print("ok", kind, points, n)


if __name__ == "__main__":
    main(sys.argv)
