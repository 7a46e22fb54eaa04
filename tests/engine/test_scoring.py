"""House scoring options: spades double (R15), boxes, game bonus and
shutouts (R16), Hollywood (R17). Each worked example of docs/rules.md is
played here hand by hand with real deals, and its totals are the ones
computed by hand in the docs."""
import pytest

from okgin.engine import Rules, Hand, Match
from tests.support.hands import knock_after_draw

# The knocker's ten cards (melds 5-6-7h, 9c 9d 9s, A-2-3c and Kd): drawing
# the 3 of the stock and knocking with Kd leaves 3 deadwood; drawing 4c
# and knocking with Kd is gin.
KNOCKER = "5h 6h 7h 9c 9d 9s Ac 2c 3c Kd"
SETS = "Qs Qd Qc Kc Ks Kh"          # the defender's two sets
# loose defender cards by the deadwood they leave (no lay-off, no meld)
LOOSE = {28: "8d 8s 6d 6s", 20: "8d 8s 2d 2s", 12: "4d 4s 2d 2s",
         2: "Jd Js Jc 2s", 3: "Jd Js Jc 3h"}


def defender(dw):
    return SETS + " " + LOOSE[dw]


def test_R15_a_spade_upcard_doubles_the_hand_knock_gin_and_undercut():
    # docs/rules.md R15's example: upcard 3s, knock limit 3
    h = knock_after_draw(KNOCKER, defender(20), "3s", "3d", "Kd", spades_double=True)
    assert (h.multiplier, h.result.kind, h.result.points) == (2, "knock", 34)   # (20-3) x 2
    h = knock_after_draw(KNOCKER, defender(20), "3s", "4c", "Kd", spades_double=True)
    assert (h.result.kind, h.result.points) == ("gin", 90)                     # (20+25) x 2
    h = knock_after_draw(KNOCKER, defender(2), "3s", "3d", "Kd", spades_double=True)
    assert (h.result.kind, h.result.winner, h.result.points) == ("undercut", 1, 22)  # (10+1) x 2
    # not a spade, or the option off: R11 as it is
    assert knock_after_draw(KNOCKER, defender(20), "3d", "3s", "Kd",
                            spades_double=True).result.points == 17
    h = knock_after_draw(KNOCKER, defender(20), "3s", "3d", "Kd")
    assert (h.multiplier, h.result.points) == (1, 17)


def test_R15_the_multiplier_is_public_from_the_deal_to_the_showdown():
    h = knock_after_draw(KNOCKER, defender(20), "3s", "3d", "Kd", spades_double=True)
    o = h.observation(1)
    assert o["multiplier"] == 2 and o["result"]["multiplier"] == 2 and o["result"]["points"] == 34


class Scripted(Match):
    """A match whose hands are dealt from a script instead of the seed:
    each entry (kind, knocker's deadwood... ) makes a deal in which
    ``who`` wins by ``kind``; the test then plays it through Match.play."""

    def __init__(self, rules, script):
        self.script = list(script)
        Match.__init__(self, rules, seed=1, dealer=1)   # player 0 speaks first

    def _deal(self):
        if not self.script:
            return Hand.deal(self.rules, self.dealer, 0)
        who, kind, dw, spade = self.script[0]
        knocker = who if kind != "undercut" else 1 - who
        up, drawn = ("3s", "3d") if spade else ("3d", "3s")
        if kind == "gin":
            drawn = "4c"
        hands = [None, None]
        hands[knocker] = KNOCKER.split()
        hands[1 - knocker] = defender(dw).split()
        # the non-dealer speaks first; a dealer who knocks draws the
        # stock's second card, after the non-dealer drew and threw the first
        stock = [drawn] if knocker != self.dealer else ["Th", drawn]
        self.plan = ["pass", "pass", "draw"]
        if knocker == self.dealer:
            self.plan += ["discard Th", "draw"]
        self.plan.append("knock Kd")
        return Hand.from_cards(self.rules, self.dealer, hands, up, stock)

    def play_hand(self):
        self.script.pop(0)
        for a in self.plan:
            self.play(a)
        return self.last_hand.result


def play_all(rules, script):
    m = Scripted(rules, script)
    results = []
    while m.script and m.winner is None:
        r = m.play_hand()
        results.append((r.winner, r.kind, r.points))
    return m, results


CLASSIC = {"box_bonus": 25, "game_bonus": 100, "shutout_double": True,
           "gin_extra_boxes": 2, "undercut_extra_boxes": 1}


def test_R16_worked_example_boxes_game_bonus_and_kisses():
    # docs/rules.md R16: four hands, player 0 reaches 103
    m, res = play_all(Rules(**CLASSIC), [
        (0, "knock", 28, False),      # 28 - 3 = 25
        (1, "undercut", 2, False),    # 10 + (3 - 2) = 11, 1 + 1 boxes
        (0, "gin", 28, False),        # 28 + 25 = 53, 1 + 2 boxes
        (0, "knock", 28, False),      # 25: 103, the game
    ])
    assert res == [(0, "knock", 25), (1, "undercut", 11), (0, "gin", 53), (0, "knock", 25)]
    assert m.winner == 0 and m.scores == [103, 11]
    g = m.games[0]
    assert g.boxes == [5, 2] and g.hands == [3, 1]
    pad = m.score_pad()[0]
    assert pad["box_points"] == [125, 50] and pad["game_bonus"] == [100, 0]
    assert pad["shutout"] == [1, 1] and pad["total"] == [328, 61]
    assert pad["total"][0] - pad["total"][1] == 267
    # the match's statistics: hands won, gins, undercuts, biggest hand
    from okgin.engine.match import TALLY
    assert dict(zip(TALLY, zip(m.tally[0::2], m.tally[1::2], strict=True), strict=True)) == {
        "wins": (3, 1), "gins": (1, 0), "undercuts": (0, 1), "best": (53, 11)}


def test_R16_a_shutout_doubles_the_winners_total():
    m, _ = play_all(Rules(**CLASSIC), [
        (0, "knock", 28, False), (0, "undercut", 2, False), (0, "gin", 28, False),
        (0, "knock", 28, False)])
    # 25 + 11 + 53 + 25 = 114 points, boxes 1 + 2 + 3 + 1 = 7
    pad = m.score_pad()[0]
    assert m.scores == [114, 0] and pad["shutout"] == [2, 1]
    assert pad["total"] == [(114 + 7 * 25 + 100) * 2, 0] == [778, 0]


def test_R16_with_spades_double_a_doubled_hands_boxes_count_twice_or_once():
    script = [(0, "knock", 28, True), (0, "knock", 28, False), (0, "knock", 28, False)]
    m, res = play_all(Rules(box_bonus=25, spades_double=True), script)
    assert [r[2] for r in res] == [50, 25, 25] and m.winner == 0
    assert m.games[0].boxes == [4, 0]            # 2 + 1 + 1
    m, _ = play_all(Rules(box_bonus=25, spades_double=True, spade_boxes_double=False), script)
    assert m.games[0].boxes == [3, 0]
    assert m.score_pad()[0]["total"] == [100 + 75, 0]


def test_R16_off_by_default_the_pad_is_the_points():
    m, _ = play_all(Rules(), [(0, "gin", 28, False), (1, "knock", 28, False),
                              (0, "gin", 28, False)])
    pad = m.score_pad()[0]
    assert m.scores == [106, 25] and pad["total"] == [106, 25] and pad["box_points"] == [0, 0]


def test_R17_worked_example_three_games_at_once():
    # docs/rules.md R17: target 100, no bonuses
    steps = [
        ((0, "knock", 28, False), [[25, 0], [0, 0], [0, 0]]),
        ((1, "undercut", 2, False), [[25, 11], [0, 0], [0, 0]]),
        ((0, "gin", 28, False), [[78, 11], [53, 0], [0, 0]]),
        ((0, "knock", 28, False), [[103, 11], [78, 0], [25, 0]]),   # game 1 to player 0
        ((1, "gin", 28, False), [[103, 11], [78, 53], [25, 0]]),    # P2 opens game 2
        ((1, "knock", 28, False), [[103, 11], [78, 78], [25, 25]]),
        ((0, "knock", 28, False), [[103, 11], [103, 78], [50, 25]]),  # game 2 to player 0
        ((0, "gin", 28, False), [[103, 11], [103, 78], [103, 25]]),   # game 3: the match
    ]
    m = Scripted(Rules(hollywood=True), [s for s, _ in steps])
    for i, (_, want) in enumerate(steps):
        assert m.winner is None
        m.play_hand()
        assert [g.points for g in m.games] == want, "after hand %d" % (i + 1)
    assert [g.winner for g in m.games] == [0, 0, 0] and m.winner == 0
    assert m.observation(1)["games"][1] == {"scores": [103, 78], "winner": 0}
    assert (m.games[1].hands, m.games[1].boxes) == ([3, 2], [3, 2])
    assert m.scores == [103, 11]      # scores: the first game's
    o = m.observation(0)
    assert o["game_winner"] == 0 and o["legal"] == []


def test_R17_a_closed_game_is_skipped_and_the_match_goes_to_two_games_won():
    # docs/rules.md R17's second example: target 50, R16 bonuses per game
    rules = Rules(hollywood=True, target=50, box_bonus=25, game_bonus=100,
                  shutout_double=True)
    m, res = play_all(rules, [
        (0, "gin", 28, False),     # 53: game 1 to player 0 at once
        (1, "gin", 28, False),     # player 1 never scored in game 1, which is over: game 2
        (0, "gin", 28, False),     # player 0 has no open game it scored in: game 3
    ])
    assert [g.points for g in m.games] == [[53, 0], [0, 53], [53, 0]]
    assert [g.winner for g in m.games] == [0, 1, 0] and m.winner == 0
    pads = m.score_pad()
    # each a shutout: (53 + 1 box x 25 + 100) x 2 = 356
    assert [p["total"] for p in pads] == [[356, 0], [0, 356], [356, 0]]
    assert sum(p["total"][0] - p["total"][1] for p in pads) == 356


@pytest.mark.parametrize("rules", [Rules(), Rules(spades_double=True, target=150, **CLASSIC),
                                   Rules(hollywood=True, **CLASSIC)],
                         ids=["seeds", "oklahoma", "hollywood"])
def test_records_replay_the_house_scoring(rules):
    from okgin.engine import bot
    m = Match(rules, seed=12, dealer=0)
    n = 0
    while m.winner is None:
        o = m.observation(m.hand.to_move)
        m.play(bot("greedy", n).choose(o))
        n += 1
    again = Match.from_record(m.to_record())
    assert again.rules == rules
    assert [g.points for g in again.games] == [g.points for g in m.games]
    assert again.score_pad() == m.score_pad() and again.winner == m.winner
