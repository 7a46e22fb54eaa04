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
    app.notice[p] = (t("coach.title"), [_move(a["action"], top)] + [coach(c) for c in a["why"]])


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
    res = rv.result
    if res is None:
        lines = [t("coach.review_none")]
    else:
        # a take or a draw names no card: the reason's subject is the top card
        why = res["why"]
        top = why[0][1][0] if why and why[0][1] else ""
        lines = [t("coach.review_move", res["move"], _move(res["played"], top, "coach.did.")),
                 t("coach.review_better", _move(res["better"], top), res["cost"])]
        lines += [coach(c) for c in why]
    app.notice[p] = (t("coach.review_title", n), lines)
    app.dirty[p] = True
    return bool(app.reviews)
