"""The bots' own deadwood search (engine/bots_core.py) agrees with the
engine's rules math (R3), including the "best ten of more" variant the
engine does not have, and lays off as R10 says."""
import itertools

from okgin.engine import deadwood
from okgin.engine.cards import card_str, masks_of
from okgin.engine.bots_core import Prng, best, card_int, layoff_value, LOOSE, RUNS, SET3


def _hands(count, seed):
    rng = Prng(seed)
    for k in range(count):
        deck = list(range(52))
        for i in range(51, 0, -1):
            j = rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hand = deck[:10 + k % 3]
        if k % 5 == 0:
            # rich in melds: a four of a kind whose ranks also run in a suit
            r = deck[0] % 13
            quad = [s * 13 + r for s in range(4)]
            run = [c for c in (quad[0] - 1, quad[0] + 1, quad[0] + 2) if c // 13 == 0 and c >= 0]
            rest = [c for c in deck if c not in quad and c not in run]
            hand = (quad + run + rest)[:10 + k % 3]
        yield sorted(hand)


def test_minimum_deadwood_matches_the_engine():
    for hand in _hands(600, 1):
        if len(hand) <= 11:
            assert best(masks_of(hand)) == deadwood([card_str(c) for c in hand]), hand


def test_best_ten_of_more_never_drops_the_kept_card_and_matches_brute_force():
    for k, hand in enumerate(_hands(300, 2)):
        free = len(hand) - 10
        if free == 0:
            continue
        keep = hand[k % len(hand)] if k % 2 else -1
        want = min(deadwood([card_str(c) for c in hand if c not in drop])
                   for drop in itertools.combinations(hand, free) if keep not in drop)
        assert best(masks_of(hand), free, keep) == want, (hand, free, keep)


def test_layoffs_extend_runs_one_after_another_and_complete_sets():
    knocker = [card_int(c) for c in "5h 6h 7h 9c 9d 9s Ac 2c 3c Kd".split()]
    assert best(masks_of(knocker)) == 10
    runs = list(RUNS)
    set3 = SET3[0]
    # 8h then 9h onto 5h-6h-7h, 4h below it; Qs stays
    loose = masks_of([card_int(c) for c in ("8h", "9h", "4h", "Qs")])
    assert layoff_value(loose, runs, set3) == 8 + 9 + 4
    # the fourth nine goes on the set of three nines
    assert layoff_value(masks_of([card_int("9h")]), runs, set3) == 9
    assert LOOSE == masks_of([card_int("Kd")])


def test_far_loose_cards_are_the_loose_cards_near_no_other():
    # hard's low-knock-limit discards (docs/bots.md): a loose card is "near"
    # another loose card of its rank, or of its suit within two ranks
    from okgin.engine.bots import _far_loose
    for hand in _hands(400, 5):
        if len(hand) != 11:
            continue
        m = masks_of(hand)
        far = _far_loose(m)
        best(m)
        loose = [s * 13 + r for s in range(4) for r in range(13) if (LOOSE[s] >> r) & 1]
        for c in hand:
            near = any(o != c and (o % 13 == c % 13 or
                                   (o // 13 == c // 13 and abs(o % 13 - c % 13) <= 2))
                       for o in loose)
            expect = c in loose and not near
            assert bool((far[c // 13] >> (c % 13)) & 1) == expect, (hand, card_str(c))
