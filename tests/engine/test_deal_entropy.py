"""Issue 40, 1: a deal no player can compute. Until round four every deal
was Prng(seed) with a 30-bit seed, and a player who searched all 2**30
seeds against their own first screen (10 cards, the upcard, who deals)
found the game's seed, the other hand and the whole stock. Here the same
search over a reduced space (2**13 seeds around the true one: fast)
shows the method, and a game dealt from fresh entropy (Match(entropy=...),
what a table's menu starts) is out of its reach: its deals come from
128-bit keys that no seed of the game determines."""
import os

import pytest

from okgin.engine import Match, Rules
from tests.support.deals import WINDOW, first_screen, search
from okgin.engine.keyed import shuffle_key
from okgin.engine.record_read import key_from_hex

def test_a_seed_search_recovers_a_seeded_deal_from_a_players_first_screen():
    seed = int.from_bytes(os.urandom(4), "big") & 0x3FFFFFFF
    lo = max(0, seed - WINDOW // 2)
    m = Match(Rules(), seed=seed)
    found = search(first_screen(m), lo, lo + WINDOW)
    assert found == [seed]
    # ... and with it the other hand and the whole stock
    again = Match(Rules(), seed=found[0])
    assert again.hand.observation(1)["hand"] == m.hand.observation(1)["hand"]
    assert bytes(again.hand._stock) == bytes(m.hand._stock)


def test_a_fresh_deal_has_no_seed_a_search_finds():
    seed = int.from_bytes(os.urandom(4), "big") & 0x3FFFFFFF
    lo = max(0, seed - WINDOW // 2)
    m = Match(Rules(), seed=seed, entropy=os.urandom)
    assert m.fresh
    rec = m.to_record()
    assert rec.startswith("okgin-record 3\n")
    key = rec.split(" deal=")[1].split()[0]
    assert len(key_from_hex(key)) * 8 >= 64
    # the same search, around the record's own seed: nothing shows that screen
    assert search(first_screen(m), lo, lo + WINDOW) == []
    # and the record alone still replays the deal
    assert bytes(Match.from_record(rec).hand._stock) == bytes(m.hand._stock)


def test_keys_sharing_their_first_30_bits_deal_apart():
    base = bytearray(os.urandom(16))
    decks = set()
    for i in range(8):
        k = bytearray(base)
        k[-1] ^= i            # only bits past the first 30 differ
        d = bytearray(range(52))
        shuffle_key(d, bytes(k))
        assert sorted(d) == list(range(52))
        decks.add(bytes(d))
    assert len(decks) == 8


def test_every_hand_gets_its_own_fresh_key_and_the_record_replays_them():
    import random
    rng = random.Random(4)
    m = Match(Rules(), seed=1, entropy=os.urandom)
    lines = list(m.record_lines())
    while m.hand_no < 4 and m.winner is None:
        m.play(rng.choice(m.legal_actions()))
        lines.append(m.record_line())        # what a table appends per action
    keys = [k for _, k in m._deals]
    assert len(keys) == m.hand_no and len(set(keys)) == len(keys)
    text = "\n".join(lines) + "\n"
    assert text == m.to_record()
    back = Match.from_record(text)
    assert back.fresh and [k for _, k in back._deals] == keys
    assert bytes(back.hand._stock) == bytes(m.hand._stock)
    # read back, the game deals its next hands from entropy given again
    back.entropy = os.urandom
    while back.hand_no < 5 and back.winner is None:
        back.play(rng.choice(back.legal_actions()))
    assert back.winner is not None or len(back._deals) == 5


def test_a_fresh_game_read_back_without_entropy_says_what_is_missing():
    import random
    rng = random.Random(2)
    m = Match(Rules(), seed=1, entropy=os.urandom)
    back = Match.from_record(m.to_record())
    while back.hand_no == 1:
        try:
            back.play(rng.choice(back.legal_actions()))
        except ValueError as e:
            assert "no deal" in str(e) and "no entropy" in str(e)
            return
    pytest.fail("a hand was dealt with no key and no entropy")


def _sealed(rec, i, body):
    """The record with line i's body replaced and every check redone (a
    record someone edited with the engine at hand)."""
    from okgin.engine.record import seal, magic_key
    lines = rec.splitlines()
    bodies = [ln.rsplit(" ;", 1)[0] for ln in lines[1:]]
    bodies[i - 1] = body
    k = magic_key(lines[0])
    out = [lines[0]]
    for j, b in enumerate(bodies):
        ln, c = seal(b, k)
        out.append(ln)
        if j < 2:
            k = c
    return "\n".join(out) + "\n"


def test_bad_deal_keys_are_clear_one_line_errors():
    m = Match(Rules(), seed=1, entropy=os.urandom)
    m.play(m.legal_actions()[0])
    rec = m.to_record()
    head = rec.splitlines()[2].rsplit(" ;", 1)[0]
    cases = {
        head.split(" deal=")[0]: "line 3: missing deal=",
        head[:-2] + "zz": "line 3: bad deal=",
        head[:-3]: "line 3: bad deal=",
        head.split(" deal=")[0] + " deal=" + "00" * 7: "line 3: bad deal=",
        rec.splitlines()[3].rsplit(" ;", 1)[0] + " deal=" + "ab" * 16:
            "line 4: deal= on an action that does not end a hand",
    }
    for body, msg in cases.items():
        i = 2 if body.startswith("match") else 3
        with pytest.raises(ValueError) as e:
            Match.from_record(_sealed(rec, i, body))
        assert str(e.value).startswith(msg), str(e.value)
        assert "\n" not in str(e.value)


def test_older_records_read_as_before():
    m = Match(Rules(), seed=77)
    m.play(m.legal_actions()[0])
    rec = m.to_record()
    assert rec.startswith("okgin-record 2\n") and " deal=" not in rec
    back = Match.from_record(rec)
    assert not back.fresh and bytes(back.hand._stock) == bytes(Match(Rules(), seed=77).hand._stock)


def test_key_hex_round_trip_and_refusals():
    k = os.urandom(16)
    assert key_from_hex(k.hex()) == k
    for bad in ("", "0" * 15, "0" * 17, "0" * 66, "0A" * 8, "g0" * 8):
        with pytest.raises(ValueError):
            key_from_hex(bad)
    for bad in (b"", b"1234567", bytes(33), "0123456789abcdef"):
        with pytest.raises(ValueError):
            shuffle_key(bytearray(52), bad)


def test_the_keyed_shuffle_is_uniform_enough():
    """Every card at every position about equally often over 5,200 keys
    (chi-square, 51 degrees of freedom; p < 1e-6 would be a bias)."""
    n = 5200
    counts = [[0] * 52 for _ in range(52)]
    for i in range(n):
        d = bytearray(range(52))
        shuffle_key(d, i.to_bytes(16, "big"))
        for pos in range(52):
            counts[pos][d[pos]] += 1
    e = n / 52
    worst = max(sum((c - e) ** 2 / e for c in row) for row in counts)
    assert worst < 120, worst     # 51 d.o.f.: p(x > 120) ~ 1e-7
