"""How a hand is laid out on the screen: melds first, in the engine's best
arrangement (R3), then the deadwood set apart. Pure Python over the engine,
so the host tests compute the same card order the cursor walks."""
from engine import best_melds


def _rank_first(c):
    return "A23456789TJQK".find(c[0].upper()) * 4 + "cdhs".find(c[1].lower())


def arrange(cards):
    """[(cards, is_meld)]: each meld, then the deadwood by rank."""
    if not cards:
        return []
    groups = []
    used = []
    for m in best_melds(list(cards)):
        groups.append((list(m), True))
        used.extend(m)
    # deadwood by rank, so pairs and near-runs stand next to each other
    dead = sorted([c for c in cards if c not in used], key=_rank_first)
    if dead:
        groups.append((dead, False))
    return groups


def order(cards):
    """The cards left to right as the cursor walks them."""
    out = []
    for g, _is_meld in arrange(cards):
        out.extend(g)
    return out
