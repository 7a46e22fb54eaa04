"""Game records: round trip, appending, truncation and bad input."""
import pytest

from engine import Rules, Hand, Match, IllegalAction
from engine.prng import Prng
from engine_helpers import deal


def played_match(seed=3, n=120, **opts):
    m = Match(Rules(**opts), seed=seed)
    rng = Prng(seed)
    for _ in range(n):
        if m.winner is not None:
            break
        acts = m.legal_actions()
        m.play(acts[rng.below(len(acts))])
    return m


def test_match_record_is_readable_text_with_headers_and_actions():
    m = played_match(n=5, gin_bonus=20, discard_taken=True)
    lines = m.to_record().splitlines()
    assert lines[0] == "okgin-record 1"
    assert lines[1] == ("rules gin_bonus=20 undercut_bonus=10 target=100 "
                        "discard_taken=yes ace_gin_only=no max_turns=none "
                        "spades_double=no spade_boxes_double=yes box_bonus=0 gin_extra_boxes=0 "
                        "undercut_extra_boxes=0 game_bonus=0 shutout_double=no hollywood=no")
    assert lines[2] == "match seed=3 dealer=%d" % m.first_dealer
    assert len(lines) == 8 and lines[3].startswith("1 ") and lines[-1].endswith(" ;")


def test_match_record_round_trip_keeps_rules_and_state():
    m = played_match(n=300, target=60, ace_gin_only=True, max_turns=50)
    g = Match.from_record(m.to_record())
    assert g.rules == m.rules and g.to_record() == m.to_record()
    assert (g.scores, g.hand_no, g.dealer, g.winner) == (m.scores, m.hand_no, m.dealer, m.winner)
    assert g.hand.hands == m.hand.hands and g.hand.stock == m.hand.stock


def test_explicit_deal_record_round_trip():
    h = deal("Ac 3c 5c 7c 9c Jd Kd 2h 4h 6h", "2c 4c 6c 8c Tc Qd Ad 3h 5h 7h", "Ks", stock="8d")
    h.play("pass"); h.play("PASS"); h.play("draw"); h.play("discard 8d")
    text = h.to_record()
    assert "hand dealer=1 p0=Ac,3c,5c,7c,9c,Jd,Kd,2h,4h,6h" in text
    g = Hand.from_record(text)
    assert g.to_record() == text and g.hands == h.hands and g.stock == h.stock


def test_a_torn_last_line_is_detected_and_recoverable():
    m = played_match(n=30)
    text = m.to_record()
    torn = text[:-3]                      # the ' ;' and newline never made it
    with pytest.raises(ValueError, match=r"line 33: truncated"):
        Match.from_record(torn)
    g = Match.from_record(torn, recover=True)
    prev = Match.from_record("\n".join(text.splitlines()[:-1]) + "\n")
    assert g.to_record() == prev.to_record()


@pytest.mark.parametrize("mutate,msg", [
    (lambda ls: ["okgin-record 9"] + ls[1:], "line 1: expected"),
    (lambda ls: ls[:1] + ["rules gin_bonus=lots"] + ls[2:], "line 2: .*gin_bonus must be a number"),
    (lambda ls: ls[:1] + ["rules colour=red"] + ls[2:], "line 2: unknown rules option"),
    (lambda ls: ls[:2] + ["match seed=x dealer=0"] + ls[3:], "line 3: seed must be a number"),
    (lambda ls: ls[:2] + ["match seed=1 dealer=3"] + ls[3:], "line 3: dealer must be 0 or 1"),
    (lambda ls: ls[:4] + ls[5:], "line 5: action number 3, expected 2"),
    (lambda ls: ls[:3] + ["1 0 fly ;"] + ls[4:], "line 4: .*unknown action"),
    (lambda ls: ls[:3] + ["1 0 discard Zz ;"] + ls[4:], "line 4: .*not a card"),
    (lambda ls: ls[:3] + ["1 9 pass ;"] + ls[4:], "line 4: .*turn"),
    (lambda ls: ls[:3] + ["1 x pass ;"] + ls[4:], "line 4: expected '<number>"),
    (lambda ls: ls[:5] + ["3 1 pass"] + ls[5:], "line 6: action line .* does not end"),
    (lambda ls: ls[:2], "line 3: record ends"),
])
def test_bad_records_name_the_line_and_problem(mutate, msg):
    m = Match(Rules(), seed=5, dealer=0)
    for a in ("pass", "pass", "draw"):
        m.play(a)
    lines = m.to_record().splitlines()
    bad = "\n".join(mutate(lines)) + "\n"
    with pytest.raises(ValueError, match=msg):
        Match.from_record(bad)


def test_illegal_action_in_a_record_is_a_value_error_naming_the_line():
    m = Match(Rules(), seed=5, dealer=0)
    m.play("pass")
    text = m.to_record() + "2 0 draw ;\n"      # the dealer may only take or pass
    with pytest.raises(ValueError, match="line 5: .*first turn"):
        Match.from_record(text)
    with pytest.raises(ValueError):
        Match.from_record(12)


def test_record_line_is_what_to_append():
    m = Match(Rules(), seed=8)
    text = "\n".join(m.header()) + "\n"
    with pytest.raises(ValueError):
        m.record_line()
    for a in ("pass", "pass", "draw"):
        m.play(a)
        text += m.record_line() + "\n"
    assert text == m.to_record()


def test_game_over_records_refuse_more_actions():
    m = played_match(seed=2, n=100000, target=10)
    assert m.winner is not None
    text = m.to_record()
    n = len(text.splitlines()) - 2
    with pytest.raises(ValueError, match="after the end of the game"):
        Match.from_record(text + "%d 0 draw ;\n" % n)
    with pytest.raises(IllegalAction):
        m.play("draw")
