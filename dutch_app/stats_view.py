"""The Stats page's view as plain data: the filters, every table and chart of one view
computed together (:func:`compute_bundle`), and trends thinned to a bounded size.

No Streamlit here: :mod:`dutch_app.ui.stats_cache` caches these bundles per group and
version, and the page only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

import pandas as pd

from dutch_app import charts
from dutch_app.charts import ChartSpec
from dutch_core import stats
from dutch_core.game import GameStatus

TREND_ROWS = 2000
"""The most rows a cached trend keeps (about; each player's latest event is always kept)."""
ROLLING_WINDOW = 10
"""How many of a player's latest rounds, games or calls a rolling average takes by default."""


class TrendWindows(NamedTuple):
    """How many of each player's latest rounds, games and calls the Trends tab's three
    rolling averages take: three windows, each chosen on its own."""

    rounds: int = ROLLING_WINDOW
    games: int = ROLLING_WINDOW
    calls: int = ROLLING_WINDOW

    @classmethod
    def of(cls, windows: TrendWindows | int) -> TrendWindows:
        """Windows as given, or one number for all three.

        >>> TrendWindows.of(5)
        TrendWindows(rounds=5, games=5, calls=5)
        """
        return windows if isinstance(windows, TrendWindows) else cls(windows, windows, windows)


@dataclass(frozen=True)
class StatsFilters:
    """What the person narrowed the view to; ``None`` leaves a side open / keeps every player."""

    date_from: date | None = None
    date_to: date | None = None
    player_ids: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Trend:
    """A trend table, thinned to every ``stride``-th event per player when it was long."""

    table: pd.DataFrame
    events: int
    stride: int

    @property
    def thinned(self) -> bool:
        """Whether some events were left out."""
        return self.stride > 1


@dataclass(frozen=True)
class StatsCharts:
    """The charts of one view, ready to draw (see :meth:`dutch_app.charts.ChartKind.spec`)."""

    win_rate: ChartSpec
    round_scores: ChartSpec
    call_outcomes: ChartSpec
    by_hand_total: ChartSpec
    head_to_head: ChartSpec
    round_trend: ChartSpec
    win_trend: ChartSpec
    call_trend: ChartSpec
    rating_trend: ChartSpec
    call_chances: dict[int, ChartSpec]
    """The call-chance chart for each number of players that some call had."""

    def all_specs(self) -> list[ChartSpec]:
        """Every chart spec of the view."""
        specs: list[ChartSpec] = []
        for value in vars(self).values():
            specs.extend(value.values() if isinstance(value, dict) else [value])
        return specs


@dataclass(frozen=True)
class StatsBundle:
    """Every statistics table of one view.

    ``players`` are the names the per-player tables show (the chosen players,
    or everyone in the view). Records are the group's records in the view's
    games, whoever holds them.
    """

    players: tuple[str, ...]
    games_played: int
    rounds_played: int
    games: pd.DataFrame
    summary: pd.DataFrame
    calls: pd.DataFrame
    by_hand_total: pd.DataFrame
    head_to_head: pd.DataFrame
    records: pd.DataFrame
    player_records: pd.DataFrame
    round_trend: Trend
    win_trend: Trend
    call_trend: Trend
    charts: StatsCharts
    ratings: pd.DataFrame
    """``player_ratings`` of the shown players, best first."""
    rating_trend: Trend
    call_chances: pd.DataFrame
    """The group's calls by hand total and player count, with the fit and the reference."""
    caller_profiles: pd.DataFrame
    calls_by_player: pd.DataFrame
    ended_games: pd.DataFrame
    """``game_results`` rows of the shown players' ended games (for best and worst games)."""

    @property
    def is_empty(self) -> bool:
        """True when the view holds no round at all."""
        return self.rounds_played == 0


def thin(table: pd.DataFrame, counter: str, limit: int = TREND_ROWS) -> Trend:
    """Keep every k-th event of each player (by ``counter``, 1-based) and each player's last.

    >>> table = pd.DataFrame({"player": ["Ann"] * 5, "n": [1, 2, 3, 4, 5]})
    >>> trend = thin(table, "n", limit=2)
    >>> trend.stride, trend.table["n"].tolist()
    (3, [3, 5])
    """
    kept, stride = stats.thin_events(table, counter, limit)
    return Trend(kept.reset_index(drop=True), len(table), stride)


def compute_bundle(
    frame: pd.DataFrame,
    player_ids: tuple[int, ...] | None,
    windows: TrendWindows | int = ROLLING_WINDOW,
) -> StatsBundle:
    """Every table and chart of the Stats page for a history frame (already filtered to the view).

    With ``player_ids``, the per-player tables keep only those players; the
    statistics themselves are still worked out over whole games. Trends
    average over each player's last ``windows`` rounds, games and calls.
    """
    windows = TrendWindows.of(windows)
    if player_ids is None:
        shown = tuple(sorted(frame["player"].unique().tolist(), key=str.casefold))
        own_rows = frame
    else:
        chosen = frame["player_id"].isin(list(player_ids)).to_numpy(dtype=bool)
        shown = tuple(sorted(frame.loc[chosen, "player"].unique().tolist(), key=str.casefold))
        own_rows = frame.loc[frame["player"].isin(shown).to_numpy(dtype=bool)]
    # The per-game results, streaks and comebacks feed several tables: work them out once.
    results = stats.game_results(frame)
    streaks = stats.win_streaks(frame, results=results)
    comeback_rows = stats.comebacks(frame, results=results)
    summary = stats.only_players(stats.player_summary(frame, results=results), shown)
    calls = stats.only_players(stats.dutch_calls(frame), shown)
    by_hand_total = stats.call_success_by_hand_total(own_rows)
    head_to_head = stats.only_players(stats.head_to_head(frame, results=results), shown)
    round_trend = thin(stats.round_score_trend(own_rows, windows.rounds), "player_round")
    win_trend = thin(
        stats.only_players(stats.win_rate_trend(frame, windows.games, results=results), shown),
        "game_number",
    )
    call_trend = thin(stats.call_success_trend(own_rows, windows.calls), "call_number")
    rating_history = stats.rating_history(frame, results=results)
    ratings = stats.only_players(
        stats.player_ratings(frame, results=results, history=rating_history), shown
    )
    rating_trend = thin(stats.only_players(rating_history, shown), "game_number")
    call_analysis = stats.call_analysis(frame, None if player_ids is None else shown)
    call_chances, curves = call_analysis["chances"], call_analysis["curves"]
    ended = results["game_status"].eq(GameStatus.ENDED.value).to_numpy(dtype=bool, na_value=False)
    ended_games = stats.only_players(results.loc[ended], shown)
    call_specs = {
        int(players): charts.CALL_CHANCES.spec(
            charts.call_chance_data(call_chances, curves, int(players))
        )
        for players in sorted(call_chances["players"].unique())
    }
    return StatsBundle(
        players=shown,
        games_played=int(frame["game_id"].nunique()),
        rounds_played=int(frame["round_id"].nunique()),
        games=stats.game_list(results),
        summary=summary,
        calls=calls,
        by_hand_total=by_hand_total,
        head_to_head=head_to_head,
        records=stats.records(frame, results=results, streaks=streaks, comeback_rows=comeback_rows),
        player_records=stats.player_records(summary, streaks, comeback_rows),
        round_trend=round_trend,
        win_trend=win_trend,
        call_trend=call_trend,
        charts=StatsCharts(
            win_rate=charts.WIN_RATE.spec(summary),
            round_scores=charts.ROUND_SCORES.spec(summary),
            call_outcomes=charts.CALL_OUTCOMES.spec(calls.loc[calls["calls"] > 0]),
            by_hand_total=charts.CALL_SUCCESS_BY_HAND_TOTAL.spec(by_hand_total),
            head_to_head=charts.HEAD_TO_HEAD.spec(head_to_head),
            round_trend=charts.ROUND_SCORE_TREND.spec(round_trend.table),
            win_trend=charts.WIN_RATE_TREND.spec(win_trend.table),
            call_trend=charts.CALL_SUCCESS_TREND.spec(call_trend.table),
            rating_trend=charts.RATING_TREND.spec(rating_trend.table),
            call_chances=call_specs,
        ),
        ratings=ratings,
        rating_trend=rating_trend,
        call_chances=call_chances,
        caller_profiles=stats.only_players(call_analysis["profiles"], shown),
        calls_by_player=stats.only_players(call_analysis["by_player"], shown),
        ended_games=ended_games,
    )
