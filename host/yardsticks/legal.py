"""What every yardstick checks before it decides (the package's face,
__init__.py, only names and makes the players: a player importing from it
would be an import circle)."""


def forced(legal):
    """``legal`` itself, after checking it offers a move (the engine's
    players raise the same error)."""
    if not legal:
        raise ValueError("no legal action in this observation: not this player's turn")
    return legal
