"""An engine action as the buttons a player presses on the device.

The host's players that drive a board through its buttons, with the CPython
engine as the oracle (``okgin bench board``, ``okgin bench memory``, the
firmware tests), all need the same two things: which buttons make an
action (docs/firmware.md, "Screens", the button list), and where each
player's cursor is, which the firmware keeps and never reports. The cursor
follows engine/arrange.py, the card order the firmware's turn screen uses,
so a press lands on the card the oracle expects or the test fails.
"""
from okgin.engine.arrange import order as arranged


class Presses:
    """Both players' cursors, as the firmware moves them. ``shortest``:
    walk the short way round the hand (left or right) as a person would;
    otherwise always right, one cursor move per press, as the benches time
    them."""

    def __init__(self, shortest=False):
        self.shortest = shortest
        self.cursor = [0, 0]

    def for_action(self, p, action, hand):
        """The buttons, in order, that make ``action`` for player ``p``
        holding ``hand`` (card texts, before the action). Moves the cursor
        model onto the card discarded or knocked with."""
        if action == "take":
            return ["take"]
        if action in ("draw", "pass"):
            return ["draw"]          # one button: draw from the stock, or pass the upcard
        verb, card = action.split()
        order = arranged(hand)
        n = len(order)
        want = order.index(card)
        steps = (want - self.cursor[p]) % n
        if self.shortest and steps > n // 2:
            moves = ["left"] * (n - steps)
        else:
            moves = ["right"] * steps
        self.cursor[p] = want
        if verb == "discard":
            return moves + ["ok"]
        return moves + ["knock", "knock"]   # the second press confirms

    def played(self, p, before, after):
        """After an action that did not end the hand: ``before`` and
        ``after`` are p's cards around it. The firmware puts the cursor on a
        card just drawn or taken."""
        new = [c for c in after if c not in before]
        if new:
            self.cursor[p] = arranged(after).index(new[0])

    def reset(self):
        """Both cursors back at the left: a new hand, or a board that
        booted (the cursor is not saved)."""
        self.cursor = [0, 0]
