"""okgin sim --lang ko: a whole game against the hard computer, played in
Korean on the virtual board through the simulator's headless script (its
buttons, as a player would press them), to the end: the engine replays the
same game here and predicts every press and the score it ends at."""
import os
import subprocess

from PIL import Image

from okgin.engine import Match, Rules, bot
from okgin.engine.bots import move_seed
from okgin.lib.presses import Presses
from tests.support.play import Player
from tests.support.sim import ROOT, env_with, okgin_cmd

SEED = 12


def whole_game_script(seed, vs="hard"):
    """The human's presses for a whole game against ``vs`` (the computer's
    moves are the firmware's: the same bot, seeded per move), with a sync
    after each action and a shot at each hand's end; the final scores."""
    m = Match(Rules(), seed=seed, players=("human", vs))
    human = Player(None, seed, rng_seed=5)
    keys = Presses(shortest=True)
    out = ["sync", "shot deal"]
    while m.winner is None:
        hand_no = m.hand_no
        p = m.hand.to_move
        obs = m.observation(p)
        if p == 1:
            m.play(bot(vs, move_seed(m.seed, len(obs["history"]))).choose(obs))
        else:
            act = human.choose(obs)
            out += ["press 0 %s" % b for b in keys.for_action(0, act, obs["hand"])]
            out.append("sync")
            m.play(act)
            if m.hand_no == hand_no and m.winner is None:
                keys.played(0, obs["hand"], m.observation(0)["hand"])
        if m.winner is not None:
            out += ["sync", "serial status", "shot hand-%d" % hand_no, "press 0 ok", "sync"]
        elif m.hand_no != hand_no:
            out += ["sync", "shot hand-%d" % hand_no, "press 0 ok", "sync"]
            keys.reset()
    out += ["serial status", "serial lang", "shot end"]
    return "\n".join(out) + "\n", m


def test_okgin_sim_lang_ko_plays_a_whole_game_in_korean(tmp_path):
    script, m = whole_game_script(SEED)
    path = tmp_path / "game.txt"
    path.write_text(script)
    shots = tmp_path / "shots"
    # on the 2.9" table (its 296x128 shots; a whole game: the cheaper panels)
    r = subprocess.run(okgin_cmd() + ["sim", "--headless", "--lang", "ko", "--vs", "hard",
                                      "--board", "board-2in9.json",
                                      "--seed", str(SEED), "--script", str(path),
                                      "--shots", str(shots)],
                       cwd=ROOT, env=env_with(), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    # the game ended where the engine says (its last showdown, then the
    # menu), and the table still speaks Korean
    status = [x for x in r.stdout.splitlines() if x.startswith("OK screen=")]
    assert status[0].startswith("OK screen=over ") and "scores=%d,%d" % tuple(m.scores) in status[0]
    assert status[1].startswith("OK screen=menu ")
    assert "OK lang=ko " in r.stdout
    hands = [f for f in os.listdir(shots) if f.startswith("hand-") and f.endswith("-p0.png")]
    assert len(hands) == m.hand_no
    assert Image.open(shots / "deal-p0.png").size == (296, 128)


def test_the_same_deal_in_english_and_korean_differs_only_in_its_words(tmp_path):
    """--lang changes the words, never the game: the same deal's panels in
    English and Korean differ, and their status lines are the same."""
    out = {}
    for code in ("en", "ko"):
        path = tmp_path / ("%s.txt" % code)
        path.write_text("sync\nshot deal\nserial status\n")
        r = subprocess.run(okgin_cmd() + ["sim", "--headless", "--lang", code, "--seed", "7",
                                          "--board", "board-2in9.json",     # the crop below is its
                                          "--script", str(path), "--shots",
                                          str(tmp_path / code)],
                           cwd=ROOT, env=env_with(), capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr[-2000:]
        status = [x for x in r.stdout.splitlines() if x.startswith("OK screen=")]
        img = Image.open(tmp_path / code / "deal-p0.png")
        out[code] = (status, img.tobytes(), img.crop((30, 18, 296, 66)).tobytes())
    assert out["en"][0] == out["ko"][0] and out["en"][0]
    assert out["en"][1] != out["ko"][1]
    assert out["en"][2] != out["ko"][2]          # the lines right of the pile
