"""How a player's hand is laid out: melds first, in the engine's best
arrangement (R3), then the deadwood set apart by rank. The firmware's turn
screen draws the cards in this order and its cursor walks them so; the
host's button presses (okgin.lib.presses) follow the same order, so a press
lands on the card the oracle expects. Loaded on demand on the device (the
firmware drops it with the drawing code before a knock or a computer move)."""
from .cards import masks_of, meld_strs, to_ints
from .melds import best_arrangement

if 0:  # for type checkers only: mpy-cross compiles none of it
    from typing import List, Sequence, Tuple


def _rank_first(c: str) -> int:
    return "A23456789TJQK".find(c[0].upper()) * 4 + "cdhs".find(c[1].lower())


def arrange(cards: "Sequence[str]") -> "List[Tuple[List[str], bool]]":
    """[(cards, is_meld)]: each meld, then the deadwood by rank."""
    if not cards:
        return []
    groups = []  # type: List[Tuple[List[str], bool]]
    used = []  # type: List[str]
    for m in meld_strs(best_arrangement(masks_of(to_ints(cards)))[1]):
        groups.append((m, True))
        used.extend(m)
    # deadwood by rank, so pairs and near-runs stand next to each other
    dead = sorted([c for c in cards if c not in used], key=_rank_first)
    if dead:
        groups.append((dead, False))
    return groups


def order(cards: "Sequence[str]") -> "List[str]":
    """The cards left to right as the cursor walks them."""
    out = []  # type: List[str]
    for g, _is_meld in arrange(cards):
        out.extend(g)
    return out
