"""Engine checks run by the real MicroPython binary (also fine on CPython).

    micropython tests/mp/run_engine.py <dir holding engine/> [hands]
    micropython tests/mp/run_engine.py <dir> deals <seed> ...   # print deals

Prints one line per failure and closes with "N passed, M failed"; the exit
status is 1 if anything failed. tests/engine/test_micropython.py runs it.
"""
import sys

if __name__ == "__main__":
    sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

from engine import Rules, Hand, Match, IllegalAction, deadwood, best_melds  # noqa: E402
from engine.prng import Prng  # noqa: E402
from engine.cards import card_str  # noqa: E402
from engine.melds import discard_deadwoods  # noqa: E402

passed = 0
failed = 0


def check(name, cond):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL", name)


def deal(p0, p1, up, stock="", dealer=1, **opts):
    return Hand.from_cards(Rules(**opts), dealer=dealer, hands=(p0.split(), p1.split()),
                           upcard=up, stock=stock.split())


def knock_after_draw(p0, p1, up, drawn, knock, **opts):
    h = deal(p0, p1, up, drawn, **opts)
    h.play("pass")
    h.play("pass")
    h.play("draw")
    h.play("knock " + knock)
    return h


def rules_cases():
    # R2, R3
    for cards, want in (("7h 7d 7c 5h 6h", 11), ("Qh Kh Ah", 21), ("Ah 2h 3h", 0),
                        ("5h 6h 7h 8h 7d 7c", 14), ("As 2s 3s 4s Ah Ad", 0),
                        ("2c 3c 4c 2d 3d 4d 2h 3h 4h 2s 3s", 0), ("", 0)):
        check("deadwood " + cards, deadwood(cards.split()) == want)
    bm = best_melds("7h 7d 7c 5h 6h".split())
    check("best_melds", bm == [["7c", "7d", "7h"]])
    # R5 every rank
    p0 = "Ac 3c 5c 7c 9c Jd Kd 2h 4h 6h"
    p1 = "2c 4c 6c 8c Tc Qd Ad 3h 5h 7h"
    for i, r in enumerate("A23456789TJQK"):
        check("R5 " + r, deal(p0, p1, r + "s").knock_limit == min(i + 1, 10))
    check("R5 ace option", deal(p0, p1, "As", ace_gin_only=True).knock_limit == 0)
    # R6 both pass
    h = deal(p0, p1, "Ks", "8d")
    h.play("pass")
    h.play("pass")
    check("R6 only draw", h.legal_actions() == ["draw"])
    h.play("draw")
    check("R6 upcard stays", h.discard_top == "Ks" and "8d" in h.hands[0])
    # R7
    h = deal(p0, p1, "Ks")
    h.play("take")
    try:
        h.play("discard Ks")
        check("R7 refuses", False)
    except IllegalAction as e:
        check("R7 message", "R7" in str(e) and h.phase == "discard")
    # R10/R11
    k10 = "5h 6h 7h 9c 9d 9s Ac 2c 3c Kd"
    r = knock_after_draw(k10, "4h 8h 9h Qs Qd Qc Kc Ks 2s 2d", "3d", "3s", "Kd").result
    check("R10 chains", r.deadwood == (3, 24) and sorted(r.layoffs) == ["4h", "8h", "9h"]
          and r.points == 21)
    r = knock_after_draw("5h 6h 7h 8h Kc Kd Ks Ac Ad Qh", "3h 4h 9h Qc Qd Js Jd 2s 6c 8c",
                         "Ts", "2d", "Qh").result
    check("R10 knocker denies", r.deadwood == (9, 63) and r.points == 54)
    r = knock_after_draw(k10, "Qs Qd Qc Kc Ks Kh Jd Js Jc 3h", "3d", "3s", "Kd").result
    check("R11 undercut equal", r.kind == "undercut" and r.winner == 1 and r.points == 10)
    r = knock_after_draw(k10, "Qs Qd Qc Kc Ks Kh Jd Js Jc 2s", "3d", "4c", "Kd", gin_bonus=20).result
    check("R11 gin", r.kind == "gin" and r.points == 22 and r.layoffs == [])
    # R14
    h = deal(p0, p1, "Ks")
    check("R14 case", h.play("TAKE") == "take" and h.play("Discard kD") == "discard Kd")
    for bad in ("", "fly", "discard 7x", "pass"):
        try:
            h.play(bad)
            check("R14 bad " + bad, False)
        except IllegalAction:
            check("R14 bad " + bad, h.to_move == 1 and h.phase == "draw")


def random_hands(n):
    rng = Prng(12345)
    kinds = {}
    for i in range(n):
        h = Hand.deal(Rules(max_turns=60), dealer=i & 1, seed=i * 7919)
        ok = True
        step = 0
        while not h.is_over():
            step += 1
            codes = h.legal_codes()
            knocks = [c for c in codes if 52 <= c < 104]
            if knocks and rng.below(2):
                h.apply(knocks[0])
            else:
                h.apply(codes[rng.below(len(codes))])
            if step % 8 and not h.is_over():
                continue
            hs = h.hands
            every = hs[0] + hs[1] + h.stock + h.discard_pile
            if len(every) != 52 or len(set(every)) != 52:
                ok = False
        r = h.result
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
        ok = ok and r.points >= 0
        if r.kind != "draw":
            ok = ok and r.deadwood[r.knocker] <= h.knock_limit
        check("random hand %d" % i, ok)
        if i % 25 == 0:
            g = Hand.from_record(h.to_record())
            check("record round trip %d" % i, g.to_record() == h.to_record()
                  and g.hands == h.hands)
    return kinds


# a hand record written before the options table (tests/engine/fixtures/
# hand_before_options.okg): six options on its rules line
OLD_HAND = 'okgin-record 1\nrules gin_bonus=25 undercut_bonus=10 target=100 discard_taken=yes ace_gin_only=yes max_turns=none\nhand dealer=0 p0=Ah,2h,3h,4h,9c,9d,9s,Kc,Qd,5s p1=2c,3c,4c,7d,8d,9h,Th,Js,Jd,6c upcard=As stock=Ac,5c,7c,8c,Tc,Jc,Qc,Ad,2d,3d,4d,5d,6d,Td,Kd,5h,6h,7h,8h,Jh,Qh,Kh,2s,3s,4s,6s,7s,8s,Ts,Qs,Ks\n1 1 pass ;\n2 0 take ;\n3 0 discard Kc ;\n4 1 draw ;\n5 1 discard Jd ;\n6 0 draw ;\n7 0 discard Qd ;\n8 1 draw ;\n9 1 discard Js ;\n10 0 draw ;\n11 0 discard 8c ;\n12 1 take ;\n13 1 discard Th ;\n14 0 draw ;\n15 0 discard Tc ;\n16 1 draw ;\n17 1 discard Jc ;\n18 0 draw ;\n19 0 discard Qc ;\n20 1 draw ;\n21 1 discard 9h ;\n22 0 take ;\n23 0 discard 5s ;\n24 1 draw ;\n25 1 discard 8d ;\n26 0 draw ;\n27 0 discard 5c ;\n28 1 take ;\n29 1 discard 7d ;\n30 0 draw ;\n31 0 discard 3d ;\n32 1 take ;\n33 1 knock 8c ;\n'


def rules_options():
    """The options' table (engine/options.py) on this runtime: defaults,
    checks naming the option, the record's rules line both ways, an old
    record, and the table dropped once the rules are made."""
    from engine.options import option_rows
    import engine.options   # noqa: F401  (held: Rules() keeps it loaded)
    r = Rules()
    for row in option_rows():
        check("default " + row[0], getattr(r, row[0]) == row[1])
        for v in row[5]:
            g = Rules(**{row[0]: v})
            m = Match(g, seed=5)
            m.play(m.legal_actions()[0])
            check("record %s=%r" % (row[0], v), Match.from_record(m.to_record()).rules == g)
        bad = 2 if row[2] is None else row[3] + 1
        try:
            Rules(**{row[0]: bad})
            check("refused " + row[0], False)
        except ValueError as e:
            check("refused " + row[0], ("rules option " + row[0]) in str(e))
    h = Hand.from_record(OLD_HAND)
    res = h.result
    check("old hand record", h.knock_limit == 0 and res.kind == "gin" and res.points == 30)
    del sys.modules["engine.options"]
    Rules(target=150)
    check("table dropped", "engine.options" not in sys.modules)


def match_record():
    m = Match(Rules(target=40, max_turns=30), seed=77)
    rng = Prng(1)
    lines = m.header()
    while m.winner is None:
        acts = m.legal_actions()
        knocks = [a for a in acts if a.startswith("knock")]
        m.play(knocks[0] if knocks else acts[rng.below(len(acts))])
        lines.append(m.record_line())
    text = "\n".join(lines) + "\n"
    check("match appended record", text == m.to_record())
    g = Match.from_record(text)
    check("match replay", g.scores == m.scores and g.winner == m.winner and g.hand_no == m.hand_no)
    try:
        Match.from_record(text[:-3])
        check("torn record detected", False)
    except ValueError as e:
        check("torn record detected", "truncated" in str(e))
    g = Match.from_record(text[:-3], recover=True)
    check("torn record recovered", len(g.to_record().split("\n")) == len(text.split("\n")) - 1)


def scoring(seeds):
    """House scoring on this runtime (R15-R17): whole seeded matches under
    each preset, their record replayed, printed for a CPython comparison."""
    presets = (Rules(max_turns=40),
               Rules(max_turns=40, target=150, spades_double=True, box_bonus=25,
                     game_bonus=100, shutout_double=True),
               Rules(max_turns=40, hollywood=True, box_bonus=25, game_bonus=100,
                     shutout_double=True, gin_extra_boxes=2, undercut_extra_boxes=1))
    for s in seeds:
        for i in range(len(presets)):
            m = Match(presets[i], seed=int(s))
            while m.winner is None:
                # knock when possible, else keep the least deadwood
                acts = m.legal_actions()
                pick = None
                if "pass" in acts:
                    pick = "pass"
                elif "draw" in acts:
                    pick = "draw"
                else:
                    h = m.hand
                    best = 999
                    for c, v in discard_deadwoods(h._hands[h.to_move]):
                        if v < best and ("discard " + card_str(c)) in acts:
                            best = v
                            pick = "discard " + card_str(c)
                    for a in acts:
                        if a[0] == "k":
                            pick = a
                m.play(pick)
            g = Match.from_record(m.to_record())
            pad = m.score_pad()
            same = g.score_pad() == pad and g.winner == m.winner
            totals = []
            for p in pad:
                totals.append("%d-%d" % (p["total"][0], p["total"][1]))
            print(s, i, m.winner, m.hand_no, " ".join(totals), "replayed" if same else "DIFFERS")


def _counter(k):
    """A stand-in for os.urandom that gives the same bytes on both
    runtimes: each call's bytes from the key and a count."""
    n = [0]

    def ent(c):
        n[0] += 1
        return bytes(((n[0] * 37 + i * 11 + k[i % len(k)]) & 255) for i in range(c))
    return ent


def main(argv):
    """argv as the command line's: [script, dir, hands], [script, dir,
    'deals', seeds...] or [script, dir, 'scoring', seeds...]."""
    if len(argv) > 2 and argv[2] == "deals":
        for s in argv[3:]:
            h = Hand.deal(Rules(), dealer=0, seed=int(s))
            m = Match(Rules(), seed=int(s))
            print(s, " ".join(h.hands[0]), "|", " ".join(h.hands[1]), "|", h.discard_top,
                  "|", " ".join(h.stock), "| dealer", m.dealer, " ".join(m.hand.hands[0]))
        return
    if len(argv) > 2 and argv[2] == "keys":
        # deals from wide keys (a table's fresh entropy): the deal, then a
        # version 3 record of a few hands read back
        from binascii import hexlify
        from engine.record_read import key_from_hex
        for s in argv[3:]:
            k = key_from_hex(s)
            from engine.keyed import shuffle_key
            d = bytearray(range(52))
            shuffle_key(d, k)
            h = Hand(Rules(), 0, d)
            m = Match(Rules(), seed=3, entropy=_counter(k), deal=k)
            i = 0
            while m.hand_no < 3 and m.winner is None:
                la = m.legal_actions()
                m.play(la[(i * 7) % len(la)])
                i += 1
            rec = m.to_record()
            back = Match.from_record(rec)
            print(s, " ".join(h.hands[0]), "|", " ".join(h.hands[1]), "|", h.discard_top,
                  "|", " ".join(h.stock), "|", hexlify(m._deals[-1][1]).decode(), len(rec),
                  "replayed" if back.to_record() == rec else "DIFFERS")
        return
    if len(argv) > 2 and argv[2] == "scoring":
        scoring(argv[3:])
        return
    n = int(argv[2]) if len(argv) > 2 else 300
    rules_cases()
    rules_options()
    kinds = random_hands(n)
    match_record()
    print("hands by kind:", sorted(kinds.items()))
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv)
