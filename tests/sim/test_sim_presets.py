"""A Hollywood game (R17) with the preset's bonuses (R16), played to its end
in the simulator (`okgin sim --headless --script`): every action a button
press (the protocol's `press`) computed from the CPython engine replaying the same seed, the score
pad on the panel at the end, and the statistics the board then reports
(`serial stats`) equal to the score pad's totals worked out from the hands
(tests/firmware/test_scoring_and_stats.py's account, not the engine's)."""
import json
import os
import subprocess

from tests.support.sim import ROOT, env_with, okgin_cmd

from tests.support.play import Player
from tests.support.scorepad import pad_from_hands

from okgin.engine import Rules
from okgin.lib.presses import Presses


def test_a_hollywood_game_to_its_end_in_the_simulator(tmp_path):
    rules = Rules(hollywood=True, target=5, box_bonus=25, game_bonus=100, shutout_double=True)
    pl = Player(None, 53, dealer=0, rng_seed=3, rules=rules)
    keys = Presses(shortest=True)
    lines = ["serial testmode on",
             "serial newgame seed=53 dealer=0 preset=hollywood target=5"]
    hands = []
    m = pl.m
    while m.winner is None:
        p = m.hand._to_move
        o = m.observation(p)
        act = pl.choose(o)
        for b in keys.for_action(p, act, o["hand"]):
            # the protocol's press (test mode): the button driver's queue,
            # like a real press, without the pins' real-time debounce
            lines.append("serial press %d %s" % (p, b))
        hand_no = m.hand_no
        m.play(act)
        if m.hand_no != hand_no or m.winner is not None:
            lh = m.last_hand
            hands.append((lh.result.winner, lh.result.kind, lh.result.points, lh.multiplier))
            keys.reset()
            lines.append("serial press 0 ok")   # past the showdown (the last: to the pad)
        else:
            keys.played(p, o["hand"], m.observation(p)["hand"])
    lines += ["sync", "shot pad", "serial status", "serial stats"]
    script = tmp_path / "hollywood.txt"
    script.write_text("\n".join(lines) + "\n")
    (tmp_path / "flash").mkdir()
    r = subprocess.run(okgin_cmd() + ["sim", "--headless", "--script", str(script),
                                      "--shots", str(tmp_path / "out"),
                                      "--flash-dir", str(tmp_path / "flash")],
                       capture_output=True, text=True, env=env_with(), cwd=ROOT, timeout=240)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    out = r.stdout.split("\n")
    status = out[out.index("> status") + 1]
    assert "screen=scorepad" in status
    got = json.loads(out[out.index("> stats") + 2])
    want, winners = pad_from_hands(rules, hands)
    assert None not in winners and len(hands) >= 3
    assert got["games"] == 1 and got["last"][0] == [
        "human", m.winner, sum(t[0] for t in want), sum(t[1] for t in want), 3]
    assert os.path.exists(tmp_path / "out" / "pad-p0.png")
