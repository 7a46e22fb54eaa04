"""The score pad worked out from the hands' results by the tests' own
account (docs/rules.md R16, R17), not the engine's."""


def pad_from_hands(rules, hands):
    """The score pad's totals per game computed from the hands' results
    alone (winner, kind, points, multiplier), following docs/rules.md R16
    and R17 step by step: the test's own account, not the engine's."""
    n = 3 if rules.hollywood else 1
    points = [[0, 0] for _ in range(n)]
    won = [[0, 0] for _ in range(n)]
    boxes = [[0, 0] for _ in range(n)]
    winner = [None] * n
    for w, kind, pts, x in hands:
        if w is None:
            continue                      # a draw (R9)
        b = 1 + {"gin": rules.gin_extra_boxes,
                 "undercut": rules.undercut_extra_boxes}.get(kind, 0)
        if x == 2 and rules.spade_boxes_double:
            b *= 2
        opened = False
        for g in range(n):
            if winner[g] is not None:
                continue
            if not won[g][w]:
                if opened:
                    continue
                opened = True
            points[g][w] += pts
            won[g][w] += 1
            boxes[g][w] += b
            if points[g][w] >= rules.target:
                winner[g] = w
    totals = []
    for g in range(n):
        t = []
        for p in (0, 1):
            v = points[g][p] + boxes[g][p] * rules.box_bonus
            if winner[g] == p:
                v += rules.game_bonus
                if rules.shutout_double and not won[g][1 - p]:
                    v *= 2
            t.append(v)
        totals.append(t)
    return totals, winner
