"""Positions the players' tests share: an observation written by hand, and
two hands that differ only in the opponent's secret cards (a player that
decides from its observation alone must decide the same in both)."""
from okgin.engine import Hand, Rules, bot


def twin_with_other_hidden_cards(seed, moves):
    """Play ``moves`` actions of a seeded hand, then build a second hand whose
    only difference is which cards the opponent of the player to move holds
    in secret (swapped with cards deep in the stock), with the same public
    history. Returns (hand, twin, player to move)."""
    rules = Rules()
    h = Hand.deal(rules, dealer=seed % 2, seed=seed)
    hands0 = [list(x) for x in h.hands]
    stock0 = list(h.stock)
    upcard = h.observation(0)["upcard"]
    actions = []
    players = (bot("greedy", 1), bot("greedy", 2))
    for _ in range(moves):
        p = h.to_move
        a = players[p].choose(h.observation(p))
        h.play(a)
        actions.append(a)
    p = h.to_move
    o = 1 - p
    known = set(h.observation(p)["opponent_known"])
    secret = [c for c in hands0[o] if c in h.hands[o] and c not in known]
    drawn = len(stock0) - h.stock_count
    deep = stock0[drawn:][-len(secret):]
    assert secret and len(deep) == len(secret)
    swap = dict(zip(secret, deep, strict=True))
    swap.update(zip(deep, secret, strict=True))
    hands1 = [list(x) for x in hands0]
    hands1[o] = [swap.get(c, c) for c in hands0[o]]
    stock1 = [swap.get(c, c) for c in stock0]
    twin = Hand.from_cards(rules, h.dealer, hands1, upcard, stock1)
    for a in actions:
        twin.play(a)
    return h, twin, p


def observation(hand, phase, legal, discard=("2c",), known=(), history=(), stock=20, limit=10):
    """A hand-made observation of player 0 (docs/architecture.md)."""
    return {
        "player": 0, "hand": sorted(hand), "discard": list(discard),
        "discard_top": discard[-1] if discard else None, "upcard": discard[0] if discard else "2c",
        "stock_count": stock, "knock_limit": limit, "dealer": 1, "to_move": 0, "phase": phase,
        "legal": legal, "opponent_known": list(known), "opponent_count": 10,
        "history": list(history), "deadwood": 0, "result": None,
    }
