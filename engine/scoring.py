"""Scoring a match (R11-R13 and the house scoring R15-R17): a won hand's
points, boxes and statistics into the games, and the score pad at a game's
end. Loaded when a hand ends (as the showdown is) and when a pad is shown
or counted: a device can drop it between hands (firmware/app.py).
"""


def boxes_of(m, hand):
    """The boxes the winner of an ended hand of match m earns (R16): one,
    plus the extra boxes of a gin or an undercut, all doubled in a
    spade-doubled hand when its boxes double too (R15). 0 for a draw."""
    r = hand.result
    if r.winner is None:
        return 0
    rules = m.rules
    b = 1
    if r.kind == "gin":
        b += rules.gin_extra_boxes
    elif r.kind == "undercut":
        b += rules.undercut_extra_boxes
    if rules.spade_boxes_double:
        b *= hand.multiplier
    return b


def score_hand(m, hand):
    """The ended hand won by r.winner: the match's statistics (m.tally),
    then its points and boxes into the open games (R13, R16, R17). True
    when that ends the match (m.winner is then set)."""
    r = hand.result
    w = r.winner
    t = m.tally
    t[w] += 1
    if r.kind == "gin":
        t[2 + w] += 1
    elif r.kind == "undercut":
        t[4 + w] += 1
    if r.points > t[6 + w]:
        t[6 + w] = r.points
    boxes = boxes_of(m, hand)
    target = m.rules.target
    opened = False
    for g in m.games:
        if g.winner is None and (g.hands[w] or not opened):
            # R17: every open game w has won a hand in, and the first open
            # game w has not
            if not g.hands[w]:
                opened = True
            g.points[w] += r.points
            g.hands[w] += 1
            g.boxes[w] += boxes
            if g.points[w] >= target:
                g.winner = w             # R13
    won = [0, 0]
    for g in m.games:
        if g.winner is None:
            return False
        won[g.winner] += 1
    # every game won: the match goes to who won most of them (R17)
    m.winner = 0 if won[0] > won[1] else 1
    return True


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
