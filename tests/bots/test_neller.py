"""The ``neller`` yardstick (host/yardsticks/neller.py) makes the decisions of
Neller's SimpleGinRummyPlayer, the EAAI-21 challenge's baseline, one rule at
a time on hand-made positions: take the face-up card when it lies in any
meld; discard uniformly among the least-deadwood cards, never the card just
taken nor a repeated (drawn, discarded) pair; knock as soon as allowed."""
from collections import Counter

from okgin.engine import Hand, Rules, bot, deadwood, parse_card
from okgin.yardsticks import player
from okgin.yardsticks.neller import NellerPlayer, in_a_meld
from tests.support.positions import observation as _obs, twin_with_other_hidden_cards


def _discards(hand, taken=None):
    return ["discard " + c for c in sorted(hand) if c != taken]


def _ints(cards):
    return [parse_card(c) for c in cards]


def test_a_card_lies_in_a_meld_with_two_of_its_rank_or_a_run_of_three_through_it():
    hand = _ints(["7c", "7d", "8h", "9h", "Ts", "Js", "2d"])
    for card, yes in (("7h", True), ("Th", True), ("Qs", True), ("9s", True), ("Ks", False),
                      ("3d", False), ("As", False), ("6h", False)):
        assert in_a_meld(hand, parse_card(card)) is yes, card
    # a run through it from either side or the middle; the ace is low (R2)
    assert in_a_meld(_ints(["2s", "3s"]), parse_card("As"))
    assert not in_a_meld(_ints(["Qs", "Ks"]), parse_card("As"))


def test_neller_takes_the_face_up_card_whenever_it_lies_in_a_meld():
    # OpenSpiel's example: Js makes three jacks but breaks 9d-Qd, so the
    # deadwood does not drop: the simple player draws, Neller's player takes
    hand = ["Ac", "2c", "3c", "4c", "9d", "Td", "Jd", "Qd", "3h", "Jh"]
    obs = _obs(hand, "draw", ["draw", "take"], ("5c", "Js"),
               history=["1 pass", "0 pass", "1 draw", "1 discard Js"])
    assert player("neller", 1).choose(obs) == "take"
    assert player("simple", 1).choose(obs) == "draw"


def test_neller_draws_or_passes_when_the_card_is_only_near_a_meld():
    hand = ["7h", "9h", "Kc", "Qd", "Js", "4c", "4d", "9s", "2h", "3s"]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 5h"]
    assert player("neller", 1).choose(_obs(hand, "draw", ["draw", "take"], ("5c", "5h"),
                                           history=hist)) == "draw"
    assert player("neller", 1).choose(_obs(hand, "draw", ["draw", "take"], ("5c", "8h"),
                                           history=hist)) == "take"
    assert player("neller", 1).choose(_obs(hand, "upcard", ["take", "pass"], ("Kh",))) == "pass"
    assert player("neller", 1).choose(_obs(hand, "upcard", ["take", "pass"], ("4s",))) == "take"


def test_neller_discards_uniformly_among_the_cards_leaving_least_deadwood():
    # melds As-2s-3s and 5h-5c-5d; loose Kc Qd Js 4c 9d 7h: a king, a queen
    # and a jack each leave the least deadwood
    hand = ["As", "2s", "3s", "5h", "5c", "5d", "Kc", "Qd", "Js", "9d", "7h"]
    seen = Counter(player("neller", s).choose(_obs(hand, "discard", _discards(hand)))
                   for s in range(300))
    assert set(seen) == {"discard Kc", "discard Qd", "discard Js"}
    assert min(seen.values()) > 70


def test_neller_breaks_a_pair_where_the_simple_player_keeps_it():
    # loose: Kh Ks (a pair) and 9d alone: the least deadwood throws a king;
    # the simple player keeps the pair and throws the 9
    hand = ["As", "2s", "3s", "5h", "6h", "7h", "Kh", "Ks", "9d", "4c", "Ac"]
    assert {player("neller", s).choose(_obs(hand, "discard", _discards(hand)))
            for s in range(20)} == {"discard Kh", "discard Ks"}
    assert player("simple", 1).choose(_obs(hand, "discard", _discards(hand))) == "discard 9d"


def test_neller_never_throws_back_the_card_it_just_took():
    # Jd-Qd-Kd with Kh, and Kc taken: Kc, Kh, Jd and Qd each leave 10 (a
    # run or three kings stays), but the taken card stays this turn (R7,
    # and the Java player's own rule); the limit is 10, so it knocks
    hand = ["Jd", "Qd", "Kd", "Kh", "Kc", "2s", "3s", "4s", "6c", "6h", "6s"]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard Kc", "0 take Kc"]
    legal = _discards(hand, "Kc") + ["knock Jd", "knock Qd", "knock Kh"]
    seen = {player("neller", s).choose(_obs(hand, "discard", legal, history=hist))
            for s in range(40)}
    assert seen == {"knock Jd", "knock Qd", "knock Kh"}


def test_neller_knocks_as_soon_as_its_discard_leaves_the_limit():
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "Jc", "Qc", "Kc", "4d", "9d"]
    legal = _discards(hand) + ["knock 9d"]
    assert player("neller", 1).choose(_obs(hand, "discard", legal, limit=5)) == "knock 9d"
    legal = _discards(hand)
    assert player("neller", 1).choose(_obs(hand, "discard", legal, limit=3)) == "discard 9d"
    # gin: the one card outside the melds goes, with a knock
    hand = ["As", "2s", "3s", "5h", "5c", "5s", "8d", "9d", "Td", "Jd", "Kh"]
    legal = _discards(hand) + ["knock Kh"]
    assert player("neller", 1).choose(_obs(hand, "discard", legal, limit=1)) == "knock Kh"


def test_neller_never_repeats_a_drawn_and_discarded_pair_within_a_hand():
    # it takes 8h (8h-9h-Th) and throws Kc, its only highest loose card
    # (the 2 left is above the ace's limit: no knock)
    hand = ["9h", "Th", "Kc", "2s", "3s", "4s", "6c", "6h", "6d", "2d"]
    hist = ["1 pass", "0 pass", "1 draw", "1 discard 8h"]
    me = NellerPlayer(1)
    first = dict(_obs(hand, "draw", ["draw", "take"], ("5c", "8h"), history=hist), hand_no=1)
    assert me.choose(first) == "take"
    hist = hist + ["0 take 8h"]
    after = dict(_obs(hand + ["8h"], "discard", _discards(hand + ["8h"], "8h"), ("5c",),
                      history=hist, limit=1), hand_no=1)
    assert me.choose(after) == "discard Kc"
    # later in the same hand the same cards meet again (8h went round, Kc
    # came back): the pair (8h, Kc) is not made twice; the next best goes
    hist = hist + ["0 discard Kc", "1 take Kc", "1 discard 9c", "0 draw", "0 discard 8h",
                   "1 draw", "1 discard Kc", "0 take Kc", "0 discard 8h", "1 draw",
                   "1 discard 8h"]
    again = dict(_obs(hand, "draw", ["draw", "take"], ("5c", "8h"), history=hist), hand_no=1)
    assert me.choose(again) == "take"
    hist = hist + ["0 take 8h"]
    later = dict(_obs(hand + ["8h"], "discard", _discards(hand + ["8h"], "8h"), ("5c",),
                      history=hist, limit=1), hand_no=1)
    assert me.choose(later) == "discard 2d"
    # a player without that memory (it reads the take from the history),
    # or the next hand, throws the king
    assert NellerPlayer(1).choose(later) == "discard Kc"
    me.choose(dict(again, hand_no=2))
    assert me.choose(dict(later, hand_no=2)) == "discard Kc"


def test_neller_decides_from_the_observation_alone_and_plays_whole_hands():
    for seed, moves in ((3, 6), (8, 11), (21, 15)):
        h, twin, p = twin_with_other_hidden_cards(seed, moves)
        assert h.hands[1 - p] != twin.hands[1 - p]
        a = NellerPlayer(5).choose(h.observation(p))
        b = NellerPlayer(5).choose(twin.observation(p))
        assert a == b and a in h.observation(p)["legal"]
    rules = Rules()
    for seed in range(12):
        h = Hand.deal(rules, dealer=seed % 2, seed=seed)
        seats = (NellerPlayer(seed), bot("hard", seed))
        while not h.is_over():
            p = h.to_move
            obs = h.observation(p)
            act = seats[p].choose(obs)
            assert act in obs["legal"], act
            if p == 0 and act.startswith(("discard", "knock")):
                # always a least-deadwood discard, and a knock whenever allowed
                card = act.split()[1]
                rest = [c for c in obs["hand"] if c != card]
                low = min(deadwood([c for c in obs["hand"] if c != a.split()[1]])
                          for a in obs["legal"] if " " in a)
                assert deadwood(rest) == low
                assert act.startswith("knock") == ("knock " + card in obs["legal"])
            h.play(act)
