"""The coach's steps (docs/bots.md "The coach"): holding DRAW asks for the
hard level's suggestion, and after a hand, with the menu's "Coach after a
hand" on, each human player's review is worked out one decision per
main-loop turn, so the buttons stay live. What the coach says, and how, is
coachview.py's (with engine.coach and engine.review); this module makes
the room for it and drops it all after. The app loads it for a coach's
moment (App.handle, App.step while a review is under way) and it leaves
the heap with the coach (drop); it calls only the app's public names."""
import gc
import sys

from heap import drop_computer, make_room, unload


def advise(app, p):
    """The hard level's suggestion for p's decision, as p's notice.
    The turn screens' views of the position (turn.base: observation,
    arrangement, texts) go first and are rebuilt when the notice
    closes: on the 64-bit virtual board that let a Korean game in
    which the coach is asked before every decision go from its second
    hand to its fourth at 160K."""
    app.bases = [None, None]
    app.onfb = [None, None]
    make_room()
    import coachview
    try:
        coachview.advise(app, p)
    finally:
        drop(app)


def review(app):
    """One decision of the reviews under way judged; when none is
    left, the coach's code leaves the heap. The screen under way is
    drawn already: its code goes while the coach thinks (a showdown's
    endview too), as before the computer's move."""
    sys.modules.pop("endview", None)
    sys.modules.pop("padview", None)
    make_room()
    import coachview
    # main.py's gc.threshold stays: unlike the computer's move, nobody
    # waits on a review step, and its garbage (up to ~24 KB a decision
    # on the unix port) would not fit beside the showdown
    try:
        more = coachview.review(app)
    except Exception:
        app.reviews = []
        drop(app)
        raise
    if not more:
        drop(app)


def drop(app):
    """The coach's code leaves the heap, this module's too."""
    sys.modules.pop("coachview", None)
    sys.modules.pop("coachstep", None)
    # a review replays the hand to its end, which imports the showdown's
    # code again (engine/hand.py): it goes too, as after the hand itself
    # (App.after_action), or the next hand is played with it on the heap
    unload("coach", "review", "showdown")
    m = app.match
    if app.vs == "human" or m is None or m.winner is not None:
        drop_computer()   # no computer, or the game is won: its code goes too
    gc.collect()
