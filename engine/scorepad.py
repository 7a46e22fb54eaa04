"""The score pad at the end of a game (R16): each player's points, boxes,
game bonus and shutout, as a person totals them on paper. Loaded only when
a game's totals are shown or counted (a device needs it once per game).
"""


def column(rules, g, p):
    """Player p's column of game g (an engine.match.Game): (points, boxes,
    box points, game bonus, shutout factor, total). The game bonus and the
    shutout apply once the game is won."""
    pts = g.points[p]
    boxes = g.boxes[p]
    box_pts = boxes * rules.box_bonus
    bonus = 0
    factor = 1
    if g.winner == p:
        bonus = rules.game_bonus
        if rules.shutout_double and not g.hands[1 - p]:
            factor = 2               # the loser won no hand in this game
    return (pts, boxes, box_pts, bonus, factor, (pts + box_pts + bonus) * factor)


def score_pad(m):
    """Per game of match m, a dict: ``points``, ``boxes``, ``box_points``,
    ``game_bonus``, ``shutout`` (1, or 2 for a doubled shutout) and
    ``total``, each a pair (player 0, player 1), and ``winner``. A whole
    match's net for player p is the sum over its games of
    total[p] - total[1 - p]."""
    out = []
    for g in m.games:
        a = column(m.rules, g, 0)
        b = column(m.rules, g, 1)
        out.append({"points": [a[0], b[0]], "boxes": [a[1], b[1]],
                    "box_points": [a[2], b[2]], "game_bonus": [a[3], b[3]],
                    "shutout": [a[4], b[4]], "total": [a[5], b[5]],
                    "winner": g.winner})
    return out
