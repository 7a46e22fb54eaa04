"""Game records: round trip, appending, truncation and bad input."""
import pytest

from okgin.engine import Rules, Hand, Match, IllegalAction
from okgin.engine.prng import Prng
from tests.support.hands import deal


def played_match(seed=3, n=120, **opts):
    m = Match(Rules(**opts), seed=seed)
    rng = Prng(seed)
    for _ in range(n):
        if m.winner is not None:
            break
        acts = m.legal_actions()
        m.play(acts[rng.below(len(acts))])
    return m


def bodies(text):
    """The record's lines without their checks."""
    return [ln.rsplit(" ;", 1)[0] for ln in text.splitlines()]


def reseal(lines):
    """A record whose every line carries a right check: for testing what
    the reader makes of content that is wrong but not damaged."""
    from okgin.engine.record import magic_key, seal
    out = [lines[0]]
    key = magic_key()
    for i, body in enumerate(lines[1:]):
        body = body.rsplit(" ;", 1)[0]
        line, c = seal(body, key)
        out.append(line)
        if i < 2:
            key = c
    return "\n".join(out) + "\n"


def test_match_record_is_readable_text_with_headers_seats_and_actions():
    m = played_match(n=5, gin_bonus=20, discard_taken=True)
    lines = bodies(m.to_record())
    assert lines[0] == "okgin-record 2"
    assert lines[1] == ("rules gin_bonus=20 undercut_bonus=10 target=100 "
                        "discard_taken=yes ace_gin_only=no max_turns=none "
                        "spades_double=no spade_boxes_double=yes box_bonus=0 gin_extra_boxes=0 "
                        "undercut_extra_boxes=0 game_bonus=0 shutout_double=no hollywood=no")
    assert lines[2] == "match seed=3 dealer=%d players=human,human" % m.first_dealer
    assert len(lines) == 8 and lines[3].startswith("1 ")
    # every line after the first ends with " ;" and 8 hex digits of check
    for ln in m.to_record().splitlines()[1:]:
        assert ln[-10:-8] == " ;" and int(ln[-8:], 16) >= 0


def test_the_record_says_who_plays_each_seat():
    m = Match(Rules(), seed=4, players=("human", "hard"))
    m.play(m.legal_actions()[0])
    g = Match.from_record(m.to_record())
    assert g.players == ("human", "hard")
    assert "players=human,hard" in g.to_record()
    with pytest.raises(ValueError, match="players"):
        Match(Rules(), seed=4, players=("human",))


def test_a_version_1_record_still_loads():
    text = ("okgin-record 1\n"
            "rules gin_bonus=25 undercut_bonus=10 target=100 discard_taken=no "
            "ace_gin_only=no max_turns=none\n"
            "match seed=7 dealer=1\n1 0 pass ;\n2 1 pass ;\n3 0 draw ;\n")
    g = Match.from_record(text)
    assert g.players == ("human", "human") and g.seed == 7
    assert len(g.hand.history()) == 3
    assert g.to_record().startswith("okgin-record 2\n")   # written as version 2


@pytest.mark.parametrize("change", [
    lambda ls: ls[:2] + [ls[2].replace("seed=3", "seed=4")] + ls[3:],        # another deal
    lambda ls: ls[:1] + [ls[1].replace("gin_bonus=25", "gin_bonus=95")] + ls[2:],
    lambda ls: ls[:1] + [ls[1].replace("target=100", "target=400")] + ls[2:],
    lambda ls: ls[:5] + [ls[5].replace(" 0 ", " 1 ", 1)] + ls[6:],          # another player
    lambda ls: ls[:6] + [ls[6][:-1] + ("0" if ls[6][-1] != "0" else "1")] + ls[7:],
])
def test_a_changed_line_is_found_by_its_check_never_read_as_another_game(change):
    m = played_match(n=12)
    lines = m.to_record().splitlines()
    bad = "\n".join(change(lines)) + "\n"
    assert bad != m.to_record()
    with pytest.raises(ValueError, match="damaged"):
        Match.from_record(bad)


def test_an_action_line_from_another_game_does_not_fit():
    a = played_match(seed=3, n=10)
    b = played_match(seed=4, n=10)
    la = a.to_record().splitlines()
    lb = b.to_record().splitlines()
    # b's third action line after a's first two: even where the action
    # text is the same, it was checked with b's header
    spliced = "\n".join(la[:5] + lb[5:6] + la[6:]) + "\n"
    with pytest.raises(ValueError, match="line 6: damaged"):
        Match.from_record(spliced)


def test_reading_line_by_line_stops_at_the_damage_with_the_game_before_it():
    from okgin.engine.record_read import Reader
    m = played_match(n=40)
    lines = m.to_record().splitlines()
    lines[20] = lines[20].replace("discard", "discarb")
    r = Reader("match", Match, Rules)
    for i, ln in enumerate(lines):
        try:
            r.feed(i + 1, ln)
        except ValueError as e:
            assert str(e).startswith("line 21: damaged")
            break
    good = Match.from_record("\n".join(lines[:20]) + "\n")
    assert r.game.to_record() == good.to_record()


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
    torn = text[:-3]                      # the end of the check and newline never made it
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
    (lambda ls: ls[:2], "line 3: record ends"),
    (lambda ls: ls[:2] + ["match seed=+1 dealer=0"] + ls[3:], "line 3: seed must be a number"),
    (lambda ls: ls[:2] + ["match seed=1_0 dealer=0"] + ls[3:], "line 3: seed must be a number"),
    (lambda ls: ls[:2] + ["match seed=1 dealer=0 players=human"] + ls[3:], "line 3: players"),
])
def test_bad_records_name_the_line_and_problem(mutate, msg):
    m = Match(Rules(), seed=5, dealer=0)
    for a in ("pass", "pass", "draw"):
        m.play(a)
    lines = bodies(m.to_record())
    bad = reseal(mutate(lines))
    with pytest.raises(ValueError, match=msg):
        Match.from_record(bad)


def test_a_line_without_its_check_is_refused():
    m = Match(Rules(), seed=5, dealer=0)
    for a in ("pass", "pass", "draw"):
        m.play(a)
    lines = m.to_record().splitlines()
    bad = "\n".join(lines[:5] + ["3 1 pass"] + lines[5:]) + "\n"
    with pytest.raises(ValueError, match="line 6: damaged"):
        Match.from_record(bad)


def test_illegal_action_in_a_record_is_a_value_error_naming_the_line():
    m = Match(Rules(), seed=5, dealer=0)
    m.play("pass")
    lines = bodies(m.to_record())
    text = reseal(lines + ["2 0 draw"])      # the dealer may only take or pass
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
        Match.from_record(reseal(bodies(text) + ["%d 0 draw" % n]))
    with pytest.raises(IllegalAction):
        m.play("draw")
