"""The coach on a player's own panel (issue 26, docs/bots.md "The coach").

Hold DRAW on your turn: the hard level's move for this decision and its
reason (engine/coach.py advice). After each hand, when the menu's "Coach
after a hand" is on: your costliest decision of that hand by the hard
level's measure and what it would have played (engine/coach.py Review,
one decision per main-loop turn so the buttons stay live). Both are a
notice on that player's panel only, from that player's own observation;
the other panel never shows them. The app loads this module (and
engine.coach, with engine.review for a review) for them and drops them
after.
"""
from i18n import t, card, coach


def fits(title, lines):
    """True when a notice of ``title`` and ``lines`` fits the panel drawn
    now as screens.error draws it: the title in its bar (or, too wide for
    it, as the first line), each line wrapped at spaces to the notice's
    width, from the line under the bar to the footer (screens.NOTE_*).
    From text's figures, without importing screens: the review's last
    step makes its notice when the coach has dropped the drawing code."""
    import text
    w = text.NOTE_W
    n = 0 if text.width(title) <= text.FB_W - 6 else _count(title, w)   # in its bar, or a line
    for ln in lines:
        n += _count(ln, w)
    # screens: NOTE_Y = LINE = text.H, FOOT_Y = H - LINE
    return text.H + n * text.H <= text.FB_H - text.H


def _count(s, w):
    """The lines text.wrap(s, w) makes, counted from its words' widths (a
    glyph's width is its own, a space 8 px) without making the lines."""
    import text
    n = 0
    x = w
    for word in s.split(" "):
        ww = text.width(word)
        if x + 8 + ww > w:
            n += 1 + (ww - 1) // w     # a word longer than a line is cut
            x = ww % w if ww > w else ww
        else:
            x += 8 + ww
    return n


def _move(a, top, how="coach.do."):
    """An action in words: "discard 7h" -> the catalogue's coach.do.discard
    (advice: what to play), or with ``how`` "coach.did." what was played
    (the review: a past or neutral form, never an imperative after "you")."""
    w = a.split()
    return t(how + w[0], card(w[1] if len(w) > 1 else top))


def advise(app, p):
    """Hold DRAW: the suggestion for p's decision now, as p's notice; on
    the other player's turn a message instead."""
    m = app.match
    if m.hand.to_move != p:   # public: no observation for a message
        app.msg[p] = t("coach.your_turn")
        return
    # the coach's code first, into a heap just collected (app.coach), then
    # the observation: a module's pieces need holes of up to ~600 bytes,
    # which the observation's small pieces would take (docs/memory.md)
    from engine.bots import move_seed
    from engine.coach import advice
    obs = m.observation(p)
    # seeded as the computer's own decision would be there: a resumed
    # game gives the same suggestion
    a = advice(obs, move_seed(m.seed, len(obs["history"])))
    top = obs["discard_top"]
    obs = None
    app.confirm[p] = False
    app.notice[p] = advice_notice(a["action"], top, a["why"])


def advice_notice(action, top, why):
    """The coach's advice as a notice (title, lines): the move, then its
    reasons; on a panel they do not fit (fits), the reasons alone (each
    names its card, the first usually the move itself)."""
    reasons = [coach(c) for c in why]
    lines = [_move(action, top)] + reasons
    title = t("coach.title")
    if reasons and not fits(title, lines):
        lines = reasons
    return (title, lines)


def review(app):
    """After a hand: one decision of the review under way judged (about a
    hard decision's time); when that player's hand is done, their notice.
    Returns True while there is more to do."""
    r = app.reviews[0]
    p, n, rv, seed = r
    if not hasattr(rv, "step"):
        from engine.review import Review
        r[2] = rv = Review(rv, p, seed)
    if not rv.step():
        return True
    app.reviews.pop(0)
    # the review's own state goes before its notice is made (the notice's
    # forms are measured on the heap it leaves)
    res = rv.result
    r = rv = None
    app.notice[p] = review_notice(n, res)
    app.dirty[p] = True
    return bool(app.reviews)


def review_notice(n, res):
    """The review of hand ``n`` as a notice (title, lines): ``res`` is
    engine/review.py's result (None: no move cost a point). The panel drawn
    now decides the form (fits): the long one, else the short title, else
    the better move said by its first reason ("Better: Knock with 10h: 10
    deadwood, ..."; the reasons begin with the move they are for), which
    spares a narrow panel a line."""
    if res is None:
        return (t("coach.review_title", n), [t("coach.review_none")])
    # a take or a draw names no card: the reason's subject is the top card
    why = res["why"]
    top = why[0][1][0] if why and why[0][1] else ""
    better = _move(res["better"], top)
    move = t("coach.review_move", res["move"], _move(res["played"], top, "coach.did."))
    reasons = [coach(c) for c in why]
    lines = [move, t("coach.review_better", better, res["cost"])] + reasons
    title = t("coach.review_title", n)
    if fits(title, lines):
        return (title, lines)
    title = t("coach.review_title_short", n)
    if fits(title, lines) or not reasons:
        return (title, lines)
    return (title, [move, t("coach.review_better_short", reasons[0])] + reasons[1:])
