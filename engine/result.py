"""How a hand ended (R9-R11): the one piece of the showdown that lives on.

Kept apart from engine/showdown.py on purpose: a result is kept for the
rest of the game (``match.last_hand``), and an object keeps its class's
whole module alive. Here that is this small class, so a device can drop
the showdown's code between hands (docs/engine.md, "Memory").
"""


if 0:  # for type checkers only (engine/views.pyi): mpy-cross compiles none of it
    from typing import Optional, Sequence
    from .views import ResultKind, ResultView


class Result:
    """How a hand ended (R9-R11)."""

    def __init__(self, kind: "ResultKind", knocker: "Optional[int]", winner: "Optional[int]",
                 points: int, deadwood: "Sequence[int]", melds: "Sequence[list[list[str]]]",
                 layoffs: "Sequence[str]", hands: "Sequence[list[str]]") -> None:
        self.kind = kind          # "knock", "gin", "undercut" or "draw"
        self.knocker = knocker    # None for a draw
        self.winner = winner      # None for a draw
        self.points = points      # points the winner scores (0 for a draw;
        # R15's doubling included: the hand's multiplier is Hand.multiplier)
        self.deadwood = deadwood  # (p0, p1), the defender's after lay-offs
        self.melds = melds        # (p0, p1), lists of card-string lists
        self.layoffs = layoffs    # cards the defender laid off
        self.hands = hands        # (p0, p1) final hands, sorted card strings

    def as_dict(self, observer: "Optional[int]" = None, multiplier: int = 1) -> "ResultView":
        """Plain dict; for a draw, an observer sees only their own hand.
        ``multiplier``: the hand's (R15), 1 or 2, shown with the points."""
        hands: "list[Optional[list[str]]]" = [list(self.hands[0]), list(self.hands[1])]
        dw: "list[Optional[int]]" = [self.deadwood[0], self.deadwood[1]]
        melds: "list[Optional[list[list[str]]]]" = [list(self.melds[0]), list(self.melds[1])]
        if self.kind == "draw" and observer is not None:
            o = 1 - observer
            hands[o] = None   # a draw shows no cards: keep the other hand hidden
            dw[o] = None
            melds[o] = None
        return {"kind": self.kind, "knocker": self.knocker, "winner": self.winner,
                "points": self.points, "multiplier": multiplier,
                "deadwood": dw, "melds": melds,
                "layoffs": list(self.layoffs), "hands": hands}

    def __repr__(self) -> str:
        return "Result(%s, knocker=%r, winner=%r, points=%r, deadwood=%r)" % (
            self.kind, self.knocker, self.winner, self.points, self.deadwood)
