"""Property tests over random deals and random play (hypothesis, modest counts)."""
from hypothesis import given, settings, strategies as st, HealthCheck

from okgin.engine import Rules, Hand, Match, deadwood, best_melds
from okgin.engine.cards import card_str
from okgin.engine.cards import action_str
from okgin.engine.prng import Prng
from tests.support.hands import brute_deadwood

RANKS = "A23456789TJQK"
FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


# hands dense in melds are the interesting ones: draw from a few ranks/suits
dense_cards = st.lists(st.integers(0, 51).map(card_str), min_size=0, max_size=11, unique=True)
clustered = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 6)).map(lambda t: RANKS[t[1] + 3] + "cdhs"[t[0]]),
    min_size=0, max_size=11, unique=True)


@FAST
@given(st.one_of(dense_cards, clustered))
def test_deadwood_equals_brute_force(cs):
    assert deadwood(cs) == brute_deadwood(cs)
    melds = best_melds(cs)
    used = [c for m in melds for c in m]
    assert len(used) == len(set(used)) and set(used) <= set(cs)
    assert all(brute_deadwood(m) == 0 and len(m) >= 3 for m in melds)
    rest = [c for c in cs if c not in used]
    assert sum(min(RANKS.index(c[0]) + 1, 10) for c in rest) == deadwood(cs)


def random_hand(seed, rules=None, take_bias=False):
    """Play a hand with a seeded random policy through the safe path."""
    h = Hand.deal(rules or Rules(max_turns=80), dealer=seed & 1, seed=seed)
    rng = Prng(seed ^ 0x5A5A)
    while not h.is_over():
        acts = h.legal_actions()
        knocks = [a for a in acts if a.startswith("knock")]
        if knocks and rng.below(2):
            a = knocks[rng.below(len(knocks))]
        else:
            a = acts[rng.below(len(acts))]
        h.play(a)
        check_invariants(h)
    return h


def check_invariants(h):
    hs = h.hands
    every = hs[0] + hs[1] + h.stock + h.discard_pile
    assert len(every) == 52 and len(set(every)) == 52   # R1: all accounted for
    if not h.is_over():
        n = [len(x) for x in hs]
        assert sorted(n) in ([10, 10], [10, 11])
        # R9: a hand goes on only while a draw leaves at least two
        assert h.stock_count > 2 or (h.stock_count == 2 and h.phase == "discard")


@FAST
@given(st.integers(0, 2 ** 30 - 1))
def test_random_play_keeps_cards_and_scores_sane(seed):
    h = random_hand(seed)
    r = h.result
    assert r.points >= 0
    if r.kind == "draw":
        assert r.winner is None and r.points == 0
    else:
        k, d = r.knocker, 1 - r.knocker
        assert r.deadwood[k] <= h.knock_limit
        assert deadwood(r.hands[k]) <= r.deadwood[k]
        # lay-offs only reduce the defender's deadwood
        assert r.deadwood[d] <= deadwood(r.hands[d])
        if r.kind == "gin":
            assert r.layoffs == [] and r.winner == k
        # melds are made of each player's own cards (and lay-offs only of
        # the defender's), each card once
        for p in (0, 1):
            used = [c for m in r.melds[p] for c in m]
            assert len(used) == len(set(used)) and set(used) <= set(r.hands[p])
        assert set(r.layoffs) <= set(r.hands[d])


@FAST
@given(st.integers(0, 2 ** 30 - 1))
def test_record_replays_to_the_same_state(seed):
    h = random_hand(seed)
    text = h.to_record()
    g = Hand.from_record(text)
    assert g.to_record() == text
    assert (g.hands, g.stock, g.discard_pile, g.history()) == (h.hands, h.stock, h.discard_pile, h.history())
    assert g.result.as_dict() == h.result.as_dict()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2 ** 30 - 1), st.integers(1, 400))
def test_match_record_replays_at_every_cut(seed, steps):
    m = Match(Rules(target=40, max_turns=60), seed=seed)
    rng = Prng(seed)
    text = "\n".join(m.header()) + "\n"
    for _ in range(steps):
        if m.winner is not None:
            break
        acts = m.legal_actions()
        m.play(acts[rng.below(len(acts))])
        text += m.record_line() + "\n"     # appending, as the device does
        assert m.scores[0] >= 0 and m.scores[1] >= 0
    assert text == m.to_record()
    g = Match.from_record(text)
    assert (g.scores, g.hand_no, g.dealer, g.winner) == (m.scores, m.hand_no, m.dealer, m.winner)
    assert g.observation(0) == m.observation(0) and g.observation(1) == m.observation(1)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 30 - 1), st.integers(0, 60))
def test_fast_and_safe_paths_agree(seed, steps):
    a = Hand.deal(Rules(), dealer=1, seed=seed)
    b = Hand.deal(Rules(), dealer=1, seed=seed)
    rng = Prng(seed)
    for _ in range(steps):
        if a.is_over():
            break
        codes = a.legal_codes()
        assert [action_str(c) for c in codes] == b.legal_actions()
        c = codes[rng.below(len(codes))]
        a.apply(c)
        b.play(action_str(c))
    assert a.to_record() == b.to_record()
