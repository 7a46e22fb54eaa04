# The plain dicts the engine hands out, for type checkers only: a player's
# view of the game (Hand.observation / Match.observation) and of a finished
# hand (Result.as_dict). At run time they are ordinary dicts: MicroPython has
# no typing module, so this file has no .py twin and the engine's modules
# import it under `if _TYPE_CHECKING:` (a const False that mpy-cross folds
# away: no byte of it reaches the device). docs/engine.md "Public API" says
# what each key means.
from typing import Literal, Optional, Protocol, TypedDict

Phase = Literal["upcard", "draw", "discard", "over"]
ResultKind = Literal["knock", "gin", "undercut", "draw"]


class ResultView(TypedDict):
    """How a hand ended (R9-R11), from one player's side. For a draw the
    other player's hand, deadwood and melds are None (a draw shows no
    cards); after a knock both are shown."""
    kind: ResultKind
    knocker: Optional[int]              # None for a draw
    winner: Optional[int]               # None for a draw
    points: int                         # what the winner scores (0: a draw), R15 included
    multiplier: int                     # the hand's: 2 when a spade upcard doubles it (R15)
    deadwood: list[Optional[int]]       # [p0, p1], the defender's after lay-offs
    melds: list[Optional[list[list[str]]]]
    layoffs: list[str]                  # cards the defender laid off
    hands: list[Optional[list[str]]]    # [p0, p1], sorted card texts


class Observation(TypedDict):
    """What player `player` may know of a hand (nothing hidden: a test swaps
    the opponent's unseen cards and the stock and gets the same dict)."""
    player: int
    hand: list[str]                 # sorted card texts
    discard: list[str]              # the discard pile, bottom to top
    discard_top: Optional[str]      # None once the pile is empty
    upcard: str
    stock_count: int
    knock_limit: int                # R5: the upcard's value (0: gin only)
    dealer: int
    to_move: Optional[int]          # None once the hand is over
    phase: Phase
    legal: list[str]                # this player's legal actions (R14 text)
    opponent_known: list[str]       # taken from the pile and still held
    opponent_count: int
    history: list[str]              # "<player> <action>"; a stock draw hides its card
    deadwood: int                   # this player's minimum deadwood now
    multiplier: int                 # 2 when a spade upcard doubles the hand (R15), else 1
    result: Optional[ResultView]    # None until the hand is over


class GameView(TypedDict):
    """One game of a match: the only one, or one of Hollywood's three (R17)."""
    scores: list[int]               # [p0, p1]
    winner: Optional[int]           # None until someone reaches the target


class MatchObservation(Observation):
    """Observation of the current hand plus the game's state."""
    scores: list[int]               # [p0, p1]: the first game's
    games: list[GameView]           # every game (three in Hollywood, R17)
    target: int
    hand_no: int                    # 1 for the first hand
    game_winner: Optional[int]      # None until the match is won
    last_result: Optional[ResultView]   # the finished hand's, once there is one


class Bonuses(Protocol):
    """The rules a showdown scores by (engine.Rules has them)."""
    @property
    def gin_bonus(self) -> int: ...
    @property
    def undercut_bonus(self) -> int: ...


class ShownHand(Protocol):
    """What the showdown (engine/showdown.py) reads of a finished Hand: the
    players' cards as suit masks, the rules, the knock limit and the
    multiplier. A Protocol, so that the showdown needs no import of
    engine/hand.py (which imports it when a hand ends)."""
    @property
    def _hands(self) -> list[list[int]]: ...
    @property
    def rules(self) -> Bonuses: ...
    @property
    def knock_limit(self) -> int: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def hands(self) -> list[list[str]]: ...
