"""The rules of Dutch: cards, house rules, round scoring and games.

Pure Python with no user interface, storage or network, so every rule can be
tested on its own. Worked example 1 of the rules:

>>> import dutch_core as dc
>>> round_input = dc.RoundInput.build(
...     {"A": "AH 2C", "B": "10", "C": "7", "D": "25"}, caller="A", call_type="dutch"
... )
>>> result = dc.score_round(round_input, dc.PRESETS["classic"])
>>> result.outcome, result.penalty_cards_due, result.as_dict()
(<Outcome.LOWEST: 'lowest'>, 0, {'A': 3, 'B': 10, 'C': 7, 'D': 25})
"""

from dutch_core.cards import Card, Colour, Rank, Suit, format_cards, parse_cards
from dutch_core.deck import check_deck
from dutch_core.errors import (
    CardError,
    DeckError,
    DutchError,
    GameError,
    HandError,
    PenaltyError,
    RoundError,
    RulesError,
)
from dutch_core.game import (
    Game,
    GameStatus,
    Standing,
    dealer_seat,
    end_reached,
    lowest_totals,
    rank_players,
    replay_totals,
    totals_after,
)
from dutch_core.hand import MAX_TOTAL, Hand, Penalty
from dutch_core.round_input import MAX_PLAYERS, MIN_PLAYERS, CallType, RoundInput, call_type_of
from dutch_core.rules import (
    PRESET_LABELS,
    PRESETS,
    EndCondition,
    EndKind,
    HouseRules,
    PenaltyMode,
)
from dutch_core.scoring import (
    Outcome,
    PlayerScore,
    RoundResult,
    caller_outcome,
    penalty_cards_due,
    score_round,
)
from dutch_core.seasons import NamedSeason, Season, SeasonKind, season_before, season_of

__all__ = [
    "MAX_PLAYERS",
    "MAX_TOTAL",
    "MIN_PLAYERS",
    "PRESETS",
    "PRESET_LABELS",
    "CallType",
    "Card",
    "CardError",
    "Colour",
    "DeckError",
    "DutchError",
    "EndCondition",
    "EndKind",
    "Game",
    "GameError",
    "GameStatus",
    "Hand",
    "HandError",
    "HouseRules",
    "NamedSeason",
    "Outcome",
    "Penalty",
    "PenaltyError",
    "PenaltyMode",
    "PlayerScore",
    "Rank",
    "RoundError",
    "RoundInput",
    "RoundResult",
    "RulesError",
    "Season",
    "SeasonKind",
    "Standing",
    "Suit",
    "call_type_of",
    "caller_outcome",
    "check_deck",
    "dealer_seat",
    "end_reached",
    "format_cards",
    "lowest_totals",
    "parse_cards",
    "penalty_cards_due",
    "rank_players",
    "replay_totals",
    "score_round",
    "season_before",
    "season_of",
    "totals_after",
]
