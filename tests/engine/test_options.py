"""The rules options' one table (engine/options.py): Rules, its checks and
their messages, the record's rules line and its reader all follow it, and a
record written before an option existed still loads as the game it was."""
import os
import sys
import typing

import pytest

from okgin.engine import Rules, Match, Hand
from okgin.engine.options import option_rows
from okgin.engine.rulestext import value_text

OPTIONS = option_rows()

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def _kind(row):
    if row[2] is None:
        return bool
    return typing.Optional[int] if row[1] is None else int


def test_every_option_is_a_rules_attribute_with_the_tables_default_and_type():
    r = Rules()
    hints = typing.get_type_hints(Rules)
    assert list(hints) == [row[0] for row in OPTIONS]
    for row in OPTIONS:
        assert getattr(r, row[0]) == row[1] and type(getattr(r, row[0])) is type(row[1])
        assert hints[row[0]] == _kind(row), row[0]
        assert row[4].startswith("R") and int(row[4][1:]) >= 1   # the rule it changes
        for v in row[5]:                  # the menu offers only allowed values
            assert type(v) is type(row[1])
            Rules(**{row[0]: v})
        if row[5]:
            assert row[5][0] == row[1], "the menu starts at the default"


def _bad_values(row):
    if row[2] is None:
        return [0, 1, "yes", None]
    bad = [row[2] - 1, row[3] + 1, "10", 1.5, True]
    if row[1] is not None:
        bad.append(None)
    return bad


@pytest.mark.parametrize("row", OPTIONS, ids=[r[0] for r in OPTIONS])
def test_each_option_refuses_what_the_table_does_not_allow_naming_it(row):
    for v in _bad_values(row):
        with pytest.raises(ValueError, match="rules option %s must be" % row[0]):
            Rules(**{row[0]: v})
    with pytest.raises(ValueError, match="unknown rules option 'colour'.*%s" % row[0]):
        Rules(colour="red")


@pytest.mark.parametrize("row", OPTIONS, ids=[r[0] for r in OPTIONS])
def test_each_value_round_trips_through_the_record_and_from_options(row):
    values = list(row[5]) or [row[2], row[3], None]
    for v in values:
        r = Rules(**{row[0]: v})
        m = Match(r, seed=3)
        m.play(m.legal_actions()[0])
        text = m.to_record()
        assert ("%s=" % row[0]) in text.splitlines()[1]
        assert Match.from_record(text).rules == r
        assert eval(repr(r), {"Rules": Rules}) == r


def test_the_table_reads_back_as_values():
    assert OPTIONS[0] == ("gin_bonus", 25, 0, 10000, "R11", (25, 20))
    assert OPTIONS[3] == ("discard_taken", False, None, None, "R7", (False, True))
    assert OPTIONS[5] == ("max_turns", None, 1, 100000, "R9", ())
    assert len({row[0] for row in OPTIONS}) == len(OPTIONS)


def test_rules_drop_the_table_unless_someone_holds_it():
    """The table is loaded only while rules are made: a device keeps the
    Rules' attributes, not the table (docs/engine.md, Memory)."""
    sys.modules.pop("okgin.engine.options", None)
    Rules(target=150)
    assert "okgin.engine.options" not in sys.modules
    import okgin.engine.options  # noqa: F401  (a menu holding it)
    Rules(target=150)
    assert "okgin.engine.options" in sys.modules


def test_a_match_record_from_before_the_options_table_still_loads():
    """Written by the engine before the table (six options on the rules
    line): it replays to the same end (player 0 won 153-60 in 12 hands)."""
    with open(os.path.join(FIXTURES, "match_before_options.okg")) as f:
        text = f.read()
    assert text.splitlines()[1] == ("rules gin_bonus=20 undercut_bonus=20 target=150 "
                                    "discard_taken=no ace_gin_only=no max_turns=none")
    m = Match.from_record(text)
    assert (m.scores, m.winner, m.hand_no) == ([153, 60], 0, 12)
    assert m.rules == Rules(gin_bonus=20, undercut_bonus=20, target=150)
    # written again, it names every option of today's table
    again = m.to_record()
    # (without its check, docs/rules.md "Game record")
    body = again.splitlines()[1].rsplit(" ;", 1)[0]
    assert body.split()[1:] == [
        "%s=%s" % (row[0], value_text(getattr(m.rules, row[0]))) for row in OPTIONS]
    assert body.endswith(" spades_double=no spade_boxes_double=yes box_bonus=0 "
                         "gin_extra_boxes=0 undercut_extra_boxes=0 game_bonus=0 "
                         "shutout_double=no hollywood=no")
    assert Match.from_record(again).scores == [153, 60]
    # and a game cut in the middle resumes
    cut = "\n".join(text.splitlines()[:200]) + "\n"
    m2 = Match.from_record(cut)
    assert m2.winner is None and len(m2._actions) == 197


def test_a_sealed_record_naming_fewer_options_resumes_and_takes_new_actions():
    """A version-2 record (each line sealed, docs/rules.md "Game record")
    written before the house scoring options: its rules line names six.
    Resumed, the actions appended chain to its own header, so the file
    still reads whole afterwards (a device upgraded in the middle of a
    game)."""
    from okgin.engine.record import magic_key, seal
    m = Match(Rules(target=150), seed=11, dealer=0)
    for _ in range(6):
        m.play(m.legal_actions()[0])
    lines = [ln.rsplit(" ;", 1)[0] for ln in m.to_record().splitlines()]
    lines[1] = ("rules gin_bonus=25 undercut_bonus=10 target=150 discard_taken=no "
                "ace_gin_only=no max_turns=none")
    out = [lines[0]]
    key = magic_key()
    for i, body in enumerate(lines[1:]):
        line, c = seal(body, key)
        out.append(line)
        if i < 2:
            key = c
    old = "\n".join(out) + "\n"
    g = Match.from_record(old)
    assert g.rules == Rules(target=150) and len(g._actions) == 6
    g.play(g.legal_actions()[0])
    text = old + g.record_line() + "\n"
    again = Match.from_record(text)
    assert len(again._actions) == 7 and again.hand.history() == g.hand.history()


def test_a_hand_record_from_before_the_options_table_still_loads():
    with open(os.path.join(FIXTURES, "hand_before_options.okg")) as f:
        h = Hand.from_record(f.read())
    # ace upcard with ace_gin_only (R5): only gin ends it; player 1 went gin
    assert h.knock_limit == 0 and h.rules.ace_gin_only and h.rules.discard_taken
    r = h.result
    assert (r.kind, r.winner, r.points, r.deadwood) == ("gin", 1, 30, (5, 0))
