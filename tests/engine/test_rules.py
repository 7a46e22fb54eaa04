"""One or more named tests per rule of docs/rules.md (R1-R14)."""
import pytest

from okgin.engine import Rules, Hand, Match, IllegalAction, deadwood, best_melds
from tests.support.hands import deal, knock_after_draw, snapshot, brute_deadwood

RANKS = "A23456789TJQK"

# Player 0 (non-dealer) holds no meld; player 1 neither. Used where only
# the flow of play matters.
P0 = "Ac 3c 5c 7c 9c Jd Kd 2h 4h 6h"
P1 = "2c 4c 6c 8c Tc Qd Ad 3h 5h 7h"


def all_cards(h):
    """Every card of a hand's state, wherever it is."""
    hs = h.hands
    return hs[0] + hs[1] + h.stock + h.discard_pile


# ---- R1 deck, R2 values, R3 melds ----

def test_R1_a_deal_uses_one_52_card_deck():
    h = Hand.deal(Rules(), dealer=0, seed=1)
    got = all_cards(h)
    assert len(got) == 52 and len(set(got)) == 52


@pytest.mark.parametrize("card,value", [("A" + "h", 1)] + [
    (r + "s", v) for r, v in zip("23456789TJQK", (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), strict=True)])
def test_R2_card_values(card, value):
    assert deadwood([card]) == value


@pytest.mark.parametrize("hand,expected", [
    ("Ah 2h 3h", 0),          # ace low: A-2-3 is a run
    ("Qh Kh Ah", 21),         # Q-K-A is not
    ("Kh Ah 2h", 13),         # K-A-2 is not
    ("Jc Qc Kc", 0),
])
def test_R2_ace_is_always_low(hand, expected):
    assert deadwood(hand.split()) == expected


@pytest.mark.parametrize("hand,expected", [
    ("", 0),
    ("7h 7d 7c 5h 6h", 11),                 # a set, and 5 + 6 loose
    ("7h 7d 7c", 0),                        # set of 3
    ("7h 7d 7c 7s", 0),                     # set of 4
    ("7h 7d", 14),                          # two are not a set
    ("4s 5s 6s 7s 8s 9s", 0),               # long run
    ("4s 5s 7s", 16),                       # not consecutive
    ("4s 5h 6s", 15),                       # runs are one suit
    ("5h 6h 7h 7d 7c", 11),                 # 7h to the set (5h 6h left, 11), not the run (14)
    ("5h 6h 7h 7d 7c 7s", 0),               # run 5-7h and set 7d 7c 7s
    ("5h 6h 7h 8h 7d 7c", 14),              # run 5-8h leaves 7d 7c (14); set of 7s leaves 19
    ("As 2s 3s 4s Ah Ad", 0),               # As to the set of aces, 2-3-4s stays a run
    ("Tc Jc Qc Kc Td Th", 0),               # Tc to the set of tens, J-Q-Kc a run
    ("2c 3c 4c 2d 3d 4d 2h 3h 4h 2s 3s", 0),  # 11 cards, all melded
])
def test_R3_minimum_deadwood_examples(hand, expected):
    cs = hand.split()
    assert deadwood(cs) == expected == brute_deadwood(cs)


def test_R3_best_melds_achieve_the_minimum_and_use_each_card_once():
    hand = "5h 6h 7h 8h 7d 7c 7s Kd Ks 2c".split()
    melds = best_melds(hand)
    used = [c for m in melds for c in m]
    assert len(used) == len(set(used))
    rest = [c for c in hand if c not in used]
    assert deadwood(rest) == sum(min(RANKS.index(c[0]) + 1, 10) for c in rest) == deadwood(hand)
    for m in melds:
        assert deadwood(m) == 0 and len(m) >= 3


def test_R3_deadwood_rejects_bad_input_clearly():
    with pytest.raises(ValueError, match="given twice"):
        deadwood(["7h", "7H"])
    with pytest.raises(ValueError, match="not a card"):
        deadwood(["7x"])
    with pytest.raises(ValueError, match="0..11"):
        deadwood("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc".split())


# ---- R4 deal ----

def test_R4_deal_ten_each_upcard_starts_the_pile_31_in_stock():
    h = Hand.deal(Rules(), dealer=1, seed=5)
    assert [len(x) for x in h.hands] == [10, 10]
    assert h.discard_pile == [h.discard_top] and h.stock_count == 31
    assert h.to_move == 0 and h.phase == "upcard"


def test_R4_same_seed_same_deal_and_seeds_differ():
    a = Hand.deal(Rules(), dealer=0, seed=42)
    b = Hand.deal(Rules(), dealer=0, seed=42)
    c = Hand.deal(Rules(), dealer=0, seed=43)
    assert (a.hands, a.stock, a.discard_top) == (b.hands, b.stock, b.discard_top)
    assert a.hands != c.hands


@pytest.mark.parametrize("seed", ["7", 1.5, None])
def test_R4_a_seed_must_be_an_int(seed):
    with pytest.raises(ValueError, match="seed is an int"):
        Hand.deal(Rules(), dealer=0, seed=seed)
    with pytest.raises(ValueError, match="seed is an int"):
        Match(Rules(), seed=seed)


def test_R4_first_dealer_of_a_match_is_drawn_from_the_seed():
    dealers = {Match(Rules(), seed=s).dealer for s in range(20)}
    assert dealers == {0, 1}
    assert Match(Rules(), seed=3).dealer == Match(Rules(), seed=3).dealer
    assert Match(Rules(), seed=3, dealer=1).dealer == 1


def test_R4_from_cards_fills_the_rest_of_the_stock_in_card_order():
    h = deal(P0, P1, "Ks", stock="Qc Js")
    st = h.stock
    assert st[:2] == ["Qc", "Js"] and len(st) == 31
    assert sorted(all_cards(h)) == sorted(set(all_cards(h)))


@pytest.mark.parametrize("p0,p1,up,msg", [
    (P0, P1, "Ac", "given twice"),
    (P0 + " Ks", P1, "Qs", "10 cards"),
    (P0, P1, "Zz", "not a card"),
])
def test_R4_from_cards_rejects_bad_deals(p0, p1, up, msg):
    with pytest.raises(ValueError, match=msg):
        deal(p0, p1, up)


# ---- R5 knock limit ----

@pytest.mark.parametrize("rank", list(RANKS))
def test_R5_knock_limit_from_every_rank(rank):
    up = rank + "s"
    expected = min(RANKS.index(rank) + 1, 10)
    assert deal(P0, P1, up).knock_limit == expected
    # the ace option changes only the ace
    opt = deal(P0, P1, up, ace_gin_only=True).knock_limit
    assert opt == (0 if rank == "A" else expected)


def test_R5_limit_stays_after_the_upcard_is_taken():
    h = deal(P0, P1, "4s")
    h.play("take")
    h.play("discard Kd")
    assert h.knock_limit == 4 and h.discard_top == "Kd"


def test_R5_ace_option_means_only_gin_ends_the_hand():
    # player 0 could knock with 1 deadwood after an ace upcard, but not with the option
    p0 = "Ac 2c 3c 4d 5d 6d 7s 8s 9s Ad"
    p1 = "5c 7c 9c Jc Kc 2h 4h 6h 8h Th"
    h = deal(p0, p1, "As", stock="Qh")
    h.play("pass"); h.play("pass"); h.play("draw")
    assert "knock Qh" in h.legal_actions()
    h2 = deal(p0, p1, "As", stock="Qh", ace_gin_only=True)
    h2.play("pass"); h2.play("pass"); h2.play("draw")
    assert not [a for a in h2.legal_actions() if a.startswith("knock")]
    with pytest.raises(IllegalAction, match="only gin"):
        h2.play("knock Qh")


# ---- R6 first turn ----

def test_R6_non_dealer_then_dealer_may_take_the_upcard():
    h = deal(P0, P1, "Ks")
    assert h.to_move == 0 and h.legal_actions() == ["take", "pass"]
    h.play("pass")
    assert h.to_move == 1 and h.legal_actions() == ["take", "pass"]
    h.play("take")
    assert h.phase == "discard" and "Ks" in h.hands[1]
    h.play("discard Qd")
    assert h.to_move == 0 and h.phase == "draw"
    assert h.legal_actions() == ["draw", "take"] and h.discard_top == "Qd"


def test_R6_non_dealer_takes_then_dealer_takes_a_normal_turn():
    h = deal(P0, P1, "Ks")
    h.play("take")
    h.play("discard Kd")
    assert h.to_move == 1 and h.phase == "draw" and h.legal_actions() == ["draw", "take"]


def test_R6_both_pass_non_dealer_draws_from_stock_and_upcard_stays():
    h = deal(P0, P1, "Ks", stock="8d")
    h.play("pass")
    h.play("pass")
    assert h.to_move == 0 and h.phase == "draw" and h.legal_actions() == ["draw"]
    with pytest.raises(IllegalAction, match="both players passed"):
        h.play("take")
    h.play("draw")
    assert "8d" in h.hands[0] and h.discard_top == "Ks" and h.stock_count == 30
    h.play("discard 8d")
    assert h.to_move == 1 and h.legal_actions() == ["draw", "take"]


def test_R6_taking_the_upcard_on_the_first_turn_allows_a_knock():
    # decision (docs/rules.md): the first-turn taker may knock (R8)
    p0 = "Ac 2c 3c 4d 5d 6d 7s 8s 9s Kh"
    h = deal(p0, "5c 7c 9c Jc Kc 2h 4h 6h 8h Th", "3h")
    h.play("take")
    assert "knock Kh" in h.legal_actions()
    h.play("knock Kh")
    assert h.is_over() and h.result.kind in ("knock", "undercut")


def test_R6_pass_only_on_the_first_turn():
    h = deal(P0, P1, "Ks")
    h.play("take"); h.play("discard Kd")
    with pytest.raises(IllegalAction, match="first turn"):
        h.play("pass")


# ---- R7 normal turn ----

def test_R7_draw_or_take_then_discard():
    h = deal(P0, P1, "Ks", stock="8d 9d")
    h.play("pass"); h.play("pass"); h.play("draw"); h.play("discard 8d")
    h.play("take")
    assert "8d" in h.hands[1] and h.discard_top == "Ks"
    with pytest.raises(IllegalAction, match="discard or knock"):
        h.play("draw")
    h.play("discard 7h")
    assert h.to_move == 0 and h.discard_top == "7h"


def test_R7_card_taken_may_not_be_discarded_the_same_turn():
    h = deal(P0, P1, "Ks")
    h.play("take")
    assert "discard Ks" not in h.legal_actions()
    before = snapshot(h)
    with pytest.raises(IllegalAction, match="R7"):
        h.play("discard Ks")
    assert snapshot(h) == before


def test_R7_option_allows_discarding_the_card_taken():
    h = deal(P0, P1, "Ks", discard_taken=True)
    h.play("take")
    assert "discard Ks" in h.legal_actions()
    h.play("discard Ks")
    assert h.discard_top == "Ks" and h.to_move == 1


def test_R7_discard_before_drawing_is_illegal():
    h = deal(P0, P1, "Ks")
    h.play("take"); h.play("discard Kd")
    with pytest.raises(IllegalAction, match="draw"):
        h.play("discard Qd")


# ---- R8 knocking ----

KNOCKER = "Ac 2c 3c 4d 5d 6d 7s 8s 9s Kh"   # 9 melded cards + Kh


@pytest.mark.parametrize("up,drawn,knock,legal", [
    ("Th", "2h", "Kh", True),    # 2 <= 10
    ("2h", "2d", "Kh", True),    # 2 <= 2
    ("2h", "3h", "Kh", False),   # 3 > 2
    ("5h", "Qh", "Kh", False),   # 10 > 5
    ("5h", "Qh", "Qh", False),   # keeps Kh: 10 > 5
    ("Jh", "Qh", "Kh", True),    # 10 <= 10
    ("Ah", "Ad", "Kh", True),    # 1 <= 1
    ("Ah", "2d", "Kh", False),   # 2 > 1
    ("3h", "Td", "9s", False),   # breaking a run
])
def test_R8_knocks_that_are_and_are_not_legal(up, drawn, knock, legal):
    p1 = "Qc Jd Js 2s 4s 6c 8c Tc 3d 9h"
    for c in (up, drawn):
        assert c not in KNOCKER.split() + p1.split()
    h = deal(KNOCKER, p1, up, stock=drawn)
    h.play("pass"); h.play("pass"); h.play("draw")
    assert (("knock " + knock) in h.legal_actions()) == legal
    if legal:
        h.play("knock " + knock)
        assert h.is_over() and h.result.knocker == 0
    else:
        before = snapshot(h)
        with pytest.raises(IllegalAction, match="knock limit|only gin"):
            h.play("knock " + knock)
        assert snapshot(h) == before


def test_R8_knock_options_list_every_card_that_works():
    # 11 cards: three melds of 3 + Kh + drawn 2h; limit 10: discarding Kh
    # (dw 2) or 2h (dw 10) both work, breaking a meld does not
    h = deal(KNOCKER, "Qc Jd Js 2s 4s 6c 8c Tc 3d 9h", "Th", stock="2h")
    h.play("pass"); h.play("pass"); h.play("draw")
    knocks = [a for a in h.legal_actions() if a.startswith("knock")]
    assert knocks == ["knock 2h", "knock Kh"]
    discards = [a for a in h.legal_actions() if a.startswith("discard")]
    assert len(discards) == 11


def test_R8_knocking_is_never_required():
    h = deal(KNOCKER, "Qc Jd Js 2s 4s 6c 8c Tc 3d 9h", "Th", stock="2h")
    h.play("pass"); h.play("pass"); h.play("draw")
    h.play("discard Kh")
    assert not h.is_over() and h.to_move == 1


def test_R8_zero_deadwood_is_gin():
    h = knock_after_draw(KNOCKER, "Qc Jd Js 2s 4s 6c 8c Tc 3d 9h", "Th", "Td", "Kh")
    # Td was drawn: the knocker keeps A23c 456d 789s + Td? no: Td is deadwood
    assert h.result.kind == "knock"
    h = knock_after_draw(KNOCKER, "Qc Jd Js 2s 4s 6c 8c Tc 3d 9h", "Th", "Ts", "Kh")
    assert h.result.kind == "gin" and h.result.deadwood[0] == 0


# ---- R9 draw hand ----

def test_R9_hand_is_a_draw_when_two_stock_cards_remain():
    h = deal(P0, P1, "Ks")
    h.play("pass"); h.play("pass")
    held = h.hands
    while not h.is_over():
        p = h.to_move
        h.play("draw")
        c = [x for x in h.hands[p] if x not in held[p]][0]
        h.play("discard " + c)
        if not h.is_over():
            assert h.stock_count > 2
    assert h.stock_count == 2
    r = h.result
    assert (r.kind, r.winner, r.knocker, r.points) == ("draw", None, None, 0)
    assert h.to_move is None and h.legal_actions() == [] and h.phase == "over"
    with pytest.raises(IllegalAction, match="over"):
        h.play("draw")


def test_R9_a_knock_is_still_allowed_with_two_stock_cards_left():
    # player 0 draws the card leaving 2 in the stock, and can still knock
    h = deal(KNOCKER, "Qc Jd Js 2s 4s 6c 8c Tc 3d 9h", "Th")
    h.play("pass"); h.play("pass")
    held = h.hands
    while h.stock_count > 3:
        p = h.to_move
        h.play("draw")
        c = [x for x in h.hands[p] if x not in held[p]][0]
        h.play("discard " + c)
    # 29 draws from 31 cards: odd draws are player 0's, so player 0 draws
    # the card that leaves two
    assert h.stock_count == 3 and h.to_move == 0
    h.play("draw")
    assert h.stock_count == 2 and not h.is_over()
    assert "knock Kh" in h.legal_actions()
    h.play("knock Kh")
    assert h.result.kind in ("knock", "gin", "undercut") and h.result.knocker == 0


def test_R9_max_turns_option_ends_the_hand_as_a_draw():
    h = deal(P0, P1, "Ks", max_turns=4)
    h.play("pass"); h.play("pass")
    held = h.hands
    n = 0
    while not h.is_over():
        p = h.to_move
        h.play("draw")
        c = [x for x in h.hands[p] if x not in held[p]][0]
        h.play("discard " + c)
        n += 1
    assert n == 4 and h.result.kind == "draw" and h.stock_count == 27


# ---- R10 showdown and R11 scoring ----

# knocker (player 0): runs 5-6-7h, A-2-3c, set 9c 9d 9s, deadwood 3s (limit 3)
K10 = "5h 6h 7h 9c 9d 9s Ac 2c 3c Kd"


def test_R10_layoffs_chain_onto_both_ends_of_a_run():
    # defender holds 4h (below 5-6-7h) and 8h then 9h above: all laid off;
    # 9h goes on the run after 8h, not on the set of nines
    d = "4h 8h 9h Qs Qd Qc Kc Ks 2s 2d"
    h = knock_after_draw(K10, d, "3d", "3s", "Kd")
    r = h.result
    assert r.kind == "knock" and r.deadwood == (3, 24)
    assert sorted(r.layoffs) == ["4h", "8h", "9h"]
    assert r.points == 21 and r.winner == 0


def test_R10_fourth_card_of_a_set_is_laid_off():
    d = "9h Jh Qs Qd Qc Kc Ks 2s 2d 4d"
    h = knock_after_draw(K10, d, "3d", "3s", "Kd")
    r = h.result
    assert r.layoffs == ["9h"] and r.deadwood == (3, 10 + 10 + 10 + 2 + 2 + 4)


def test_R10_no_layoffs_against_gin():
    d = "4h 8h 9h Qs Qd Qc Kc Ks 2s 2d"
    # knocker draws 4c: A-2-3-4c, no deadwood -> gin
    h = knock_after_draw(K10, d.replace("4h", "4s"), "3d", "4c", "Kd")
    r = h.result
    assert r.kind == "gin" and r.layoffs == []
    assert r.deadwood == (0, 4 + 8 + 9 + 10 + 10 + 2 + 2)
    assert r.points == 45 + 25


def test_R10_defender_melds_before_laying_off_when_better():
    # defender's 8h 9h Th form a run of their own; laying them off is equal,
    # either way the deadwood is what is left
    d = "8h 9h Th Qs Qd Qc Kc Ks 2s 2d"
    h = knock_after_draw(K10, d, "3d", "3s", "Kd")
    assert h.result.deadwood == (3, 24)


def test_R10_knocker_arranges_melds_to_deny_layoffs():
    # melding 5-6-7-8h (deadwood 4) lets the defender lay off 3h 4h 9h
    # (D 56: knocker scores 52); melding 6-7-8h with 5h as deadwood
    # (deadwood 9, within the limit 10) denies 3h 4h: D 63, knocker scores 54
    k = "5h 6h 7h 8h Kc Kd Ks Ac Ad Qh"
    d = "3h 4h 9h Qc Qd Js Jd 2s 6c 8c"
    h = knock_after_draw(k, d, "Ts", "2d", "Qh")
    r = h.result
    assert r.deadwood == (9, 63) and r.layoffs == ["9h"] and r.points == 54
    assert ["6h", "7h", "8h"] in r.melds[0]


@pytest.mark.parametrize("defender,kind,winner,points,dd", [
    # K = 3 in every case (K10 after drawing 3s)
    ("Qs Qd Qc Kc Ks Kh Jd Js Jc 4s", "knock", 0, 1, 4),     # D 4 > K 3: knocker scores 1
    ("Qs Qd Qc Kc Ks Kh Jd Js Jc 3h", "undercut", 1, 10, 3),  # equal: undercut, 10
    ("Qs Qd Qc Kc Ks Kh Jd Js Jc 2s", "undercut", 1, 11, 2),  # lower: 10 + (3 - 2)
])
def test_R11_knock_and_undercut_scores(defender, kind, winner, points, dd):
    h = knock_after_draw(K10, defender, "3d", "3s", "Kd")
    r = h.result
    assert (r.kind, r.winner, r.points, r.deadwood) == (kind, winner, points, (3, dd))


def test_R11_undercut_bonus_option():
    h = knock_after_draw(K10, "Qs Qd Qc Kc Ks Kh Jd Js Jc 2s", "3d", "3s", "Kd",
                         undercut_bonus=25)
    assert h.result.points == 26


@pytest.mark.parametrize("bonus", [25, 20])
def test_R11_gin_scores_defender_deadwood_plus_bonus(bonus):
    d = "Qs Qd Qc Kc Ks Kh Jd Js Jc 2s"  # D = 2
    h = knock_after_draw(K10, d, "3d", "4c", "Kd", gin_bonus=bonus)
    r = h.result
    assert (r.kind, r.winner, r.points) == ("gin", 0, 2 + bonus)


def test_R11_gin_against_zero_deadwood_still_scores_only_the_bonus():
    d = "Qs Qd Qc Kc Ks Kh Jd Js Jc Jh"   # defender's 10 cards all melded
    h = knock_after_draw(K10, d, "3d", "4c", "Kd")
    r = h.result
    assert (r.kind, r.winner, r.points, r.deadwood) == ("gin", 0, 25, (0, 0))


# ---- R12 next dealer, R13 game ----

def _finish_hand(m, policy):
    n = m.hand_no
    while m.hand_no == n and m.winner is None:
        m.play(policy(m))


def _first_legal(m):
    acts = m.hand.legal_actions()
    knocks = [a for a in acts if a.startswith("knock")]
    if knocks:
        return knocks[0]
    for a in ("pass", "draw"):   # never take: two players trading the same
        if a in acts:            # discard back and forth would never end
            return a
    return acts[0]


def test_R12_who_scored_deals_next_and_draws_keep_the_dealer():
    seen_score = seen_draw = False
    for seed in range(40):
        m = Match(Rules(), seed=seed)
        dealer = m.dealer
        _finish_hand(m, _first_legal)
        r = m.last_hand.result
        if r.winner is None:
            assert m.dealer == dealer and m.scores == [0, 0]
            seen_draw = True
        elif m.winner is None:
            assert m.dealer == r.winner and m.scores[r.winner] == r.points
            seen_score = True
        if seen_score and seen_draw:
            break
    assert seen_score and seen_draw


@pytest.mark.parametrize("target", [100, 30])
def test_R13_game_ends_when_a_score_reaches_the_target(target):
    from okgin.engine.prng import Prng
    rng = Prng(9)
    m = Match(Rules(target=target), seed=11)
    while m.winner is None:
        acts = m.hand.legal_actions()
        knocks = [a for a in acts if a.startswith("knock")]
        m.play(knocks[0] if knocks else acts[rng.below(len(acts))])
    w = m.winner
    assert m.hand_no > 1   # the game went on over several hands
    assert m.scores[w] >= target and m.scores[1 - w] < target
    o = m.observation(0)
    assert o["game_winner"] == w and o["scores"] == m.scores and o["target"] == target
    assert o["legal"] == [] and m.legal_actions() == []
    with pytest.raises(IllegalAction, match="game is over"):
        m.play("draw")


def test_R13_match_play_deals_the_next_hand():
    m = Match(Rules(), seed=4)
    _finish_hand(m, _first_legal)
    assert m.hand_no == 2 and not m.hand.is_over() and m.hand.stock_count == 31
    assert m.observation(0)["last_result"] is not None


# ---- R14 notation ----

@pytest.mark.parametrize("typed,canonical", [
    ("TAKE", "take"), ("  Take ", "take"), ("pass", "pass"),
])
def test_R14_input_is_case_insensitive(typed, canonical):
    h = deal(P0, P1, "Ks")
    assert h.play(typed) == canonical


def test_R14_cards_and_actions_output_in_exact_form():
    h = deal(P0, P1, "Ks")
    h.play("TAKE")
    assert h.play("DISCARD kD") == "discard Kd"
    assert h.history() == ["0 take Ks", "0 discard Kd"]
    assert all(a == "draw" or a == "take" for a in h.legal_actions())
    h.play("draw")
    hist = h.history()
    assert hist[-1] == "1 draw"   # a stock draw never shows the card


@pytest.mark.parametrize("bad,msg", [
    ("", "empty action"),
    ("jump", "unknown action"),
    ("discard", "needs one card"),
    ("discard 7x", "not a card"),
    ("take 7h", "takes no card"),
    ("draw", "first turn"),
    ("knock Ac", "first turn"),
    (None, "an action is text"),
])
def test_R14_bad_input_raises_illegal_action_and_changes_nothing(bad, msg):
    h = deal(P0, P1, "Ks")
    before = snapshot(h)
    with pytest.raises(IllegalAction, match=msg):
        h.play(bad)
    assert snapshot(h) == before
    assert issubclass(IllegalAction, ValueError)


def test_R14_discarding_a_card_not_held_is_refused():
    h = deal(P0, P1, "Ks")
    h.play("take")
    with pytest.raises(IllegalAction, match="do not hold Qs"):
        h.play("discard Qs")


def test_R14_wrong_player_is_refused():
    h = deal(P0, P1, "Ks")
    with pytest.raises(IllegalAction, match="player 0's turn"):
        h.play("take", player=1)


# ---- options ----

@pytest.mark.parametrize("kw,msg", [
    ({"gin_bonus": -1}, "gin_bonus"),
    ({"undercut_bonus": "10"}, "undercut_bonus"),
    ({"target": 0}, "target"),
    ({"discard_taken": "yes"}, "discard_taken"),
    ({"ace_gin_only": 2}, "ace_gin_only"),
    ({"max_turns": 0}, "max_turns"),
])
def test_rules_options_reject_bad_values_naming_the_option(kw, msg):
    with pytest.raises(ValueError, match=msg):
        Rules(**kw)


def test_rules_defaults_are_the_spec_and_options_parse_from_text():
    r = Rules()
    assert (r.gin_bonus, r.undercut_bonus, r.target, r.discard_taken, r.ace_gin_only,
            r.max_turns) == (25, 10, 100, False, False, None)
    t = Rules.from_options({"gin_bonus": "20", "discard_taken": "yes", "max_turns": "none",
                            "target": "150"})
    assert t == Rules(gin_bonus=20, discard_taken=True, target=150) and t != r
    with pytest.raises(ValueError, match="unknown rules option 'colour'"):
        Rules.from_options({"colour": "red"})
    with pytest.raises(ValueError, match="ace_gin_only must be yes or no"):
        Rules.from_options({"ace_gin_only": "maybe"})
