"""Statistics of a group's history, as pandas tables.

Every function takes the history frame (one row per player per round; see
:mod:`dutch_core.stats.frame`) and returns a new DataFrame. The code is
vectorised: players and games are coded as small integers once, then counted,
summed and sorted with numpy (see :mod:`dutch_core.stats._groups`), so
analysing a history costs less than loading it. Every function accepts an
empty frame and then returns an empty table with the same columns.
"""

from dutch_core.stats.calling import (
    ADVICE_MIN_CALLS,
    ADVICE_RATE,
    call_advice,
    call_analysis,
    call_chances,
    call_curves,
    caller_profiles,
    calls_by_player,
    reference_chances,
)
from dutch_core.stats.calls import call_success_by_hand_total, dutch_calls
from dutch_core.stats.frame import (
    HISTORY_COLUMNS,
    HISTORY_DTYPES,
    conform_history,
    empty_history,
    filter_history,
    only_players,
)
from dutch_core.stats.players import (
    game_list,
    game_results,
    head_to_head,
    latest_game,
    player_summary,
)
from dutch_core.stats.ratings import (
    PROVISIONAL_GAMES,
    games_to_settle,
    player_ratings,
    rating_history,
    win_chances,
)
from dutch_core.stats.records import (
    best_games,
    comebacks,
    player_records,
    records,
    win_streaks,
)
from dutch_core.stats.seasons import season_table
from dutch_core.stats.trends import (
    call_success_trend,
    cumulative_totals,
    round_score_trend,
    thin_events,
    win_rate_trend,
)

__all__ = [
    "ADVICE_MIN_CALLS",
    "ADVICE_RATE",
    "HISTORY_COLUMNS",
    "HISTORY_DTYPES",
    "PROVISIONAL_GAMES",
    "best_games",
    "call_advice",
    "call_analysis",
    "call_chances",
    "call_curves",
    "call_success_by_hand_total",
    "call_success_trend",
    "caller_profiles",
    "calls_by_player",
    "comebacks",
    "conform_history",
    "cumulative_totals",
    "dutch_calls",
    "empty_history",
    "filter_history",
    "game_list",
    "game_results",
    "games_to_settle",
    "head_to_head",
    "latest_game",
    "only_players",
    "player_ratings",
    "player_records",
    "player_summary",
    "rating_history",
    "records",
    "reference_chances",
    "round_score_trend",
    "season_table",
    "thin_events",
    "win_chances",
    "win_rate_trend",
    "win_streaks",
]
