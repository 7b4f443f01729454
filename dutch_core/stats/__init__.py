"""Statistics of a group's history, as pandas tables.

Every function takes the history frame (one row per player per round; see
:mod:`dutch_core.stats.frame`) and returns a new DataFrame. The code is
vectorised: players and games are coded as small integers once, then counted,
summed and sorted with numpy (see :mod:`dutch_core.stats._groups`), so
analysing a history costs less than loading it. Every function accepts an
empty frame and then returns an empty table with the same columns.
"""

from dutch_core.stats.calls import call_success_by_hand_total, dutch_calls
from dutch_core.stats.frame import (
    HISTORY_COLUMNS,
    HISTORY_DTYPES,
    conform_history,
    empty_history,
    filter_history,
    only_players,
)
from dutch_core.stats.players import game_list, game_results, head_to_head, player_summary
from dutch_core.stats.records import (
    best_games,
    comebacks,
    player_records,
    records,
    win_streaks,
)
from dutch_core.stats.trends import (
    call_success_trend,
    cumulative_totals,
    round_score_trend,
    win_rate_trend,
)

__all__ = [
    "HISTORY_COLUMNS",
    "HISTORY_DTYPES",
    "best_games",
    "call_success_by_hand_total",
    "call_success_trend",
    "comebacks",
    "conform_history",
    "cumulative_totals",
    "dutch_calls",
    "empty_history",
    "filter_history",
    "game_list",
    "game_results",
    "head_to_head",
    "only_players",
    "player_records",
    "player_summary",
    "records",
    "round_score_trend",
    "win_rate_trend",
    "win_streaks",
]
