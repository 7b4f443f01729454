"""The game list and each player's records, as the Stats page shows them."""

from __future__ import annotations

import pandas as pd

from dutch_core import stats
from dutch_core.stats import game_list, player_records

STARTS = pd.to_datetime(["2025-03-01 19:00", "2025-03-02 20:00"], utc=True)


def results_table() -> pd.DataFrame:
    """Two games as ``game_results`` gives them: by start, then seat."""
    return pd.DataFrame(
        {
            "game_id": [7, 7, 7, 3, 3],
            "game_started_at": [STARTS[0]] * 3 + [STARTS[1]] * 2,
            "game_status": pd.array(["ended"] * 3 + ["active"] * 2, dtype="string"),
            "player": pd.array(["Cleo", "Ann", "Bob", "Bob", "Ann"], dtype="string"),
            "rounds": [4, 4, 4, 2, 2],
        }
    )


def test_the_game_list_is_newest_first_with_the_players_in_seat_order():
    games = game_list(results_table())
    assert games["game_id"].tolist() == [3, 7]
    assert games["players"].tolist() == ["Bob, Ann", "Cleo, Ann, Bob"]
    assert games["game_status"].tolist() == ["active", "ended"]
    assert games["rounds"].tolist() == [2, 4]
    assert games["game_started_at"].tolist() == [STARTS[1], STARTS[0]]


def test_the_game_list_joins_names_kept_as_categories_like_any_other_names():
    """The history frame keeps player names as a categorical column; a game's line-up is
    not one of its categories, and must come out whole, not missing."""
    results = results_table()
    results["player"] = results["player"].astype("category")
    games = game_list(results)
    assert games["players"].tolist() == ["Bob, Ann", "Cleo, Ann, Bob"]
    assert not isinstance(games["players"].dtype, pd.CategoricalDtype)


def test_the_game_list_of_no_games_is_empty_with_its_columns():
    games = game_list(results_table().iloc[0:0])
    assert games.empty
    assert games.columns.tolist() == [
        "game_id",
        "game_started_at",
        "game_status",
        "rounds",
        "players",
    ]


def test_player_records_fill_in_players_without_a_streak_or_comeback():
    summary = pd.DataFrame(
        {
            "player": pd.array(["Ann", "Bob", "Cleo"], dtype="string"),
            "best_game": pd.array([12, pd.NA, 30], dtype="Int64"),
        }
    )
    streaks = pd.DataFrame(
        {
            "player": pd.array(["Cleo", "Ann"], dtype="string"),
            "longest_win_streak": [1, 3],
            "current_win_streak": [0, 2],
        }
    )
    comebacks = pd.DataFrame(
        {"player": pd.array(["Ann", "Ann"], dtype="string"), "deficit": [4, 9]}
    )
    records = player_records(summary, streaks, comebacks)
    assert records["player"].tolist() == ["Ann", "Bob", "Cleo"]
    assert records["longest_win_streak"].tolist() == [3, 0, 1]
    assert records["current_win_streak"].tolist() == [2, 0, 0]
    assert records["biggest_comeback"].tolist() == [9, pd.NA, pd.NA]
    assert records["best_game"].tolist() == [12, pd.NA, 30]
    assert str(records["biggest_comeback"].dtype) == "Int64"


def test_player_records_of_an_empty_history_are_empty():
    empty = stats.empty_history()
    results = stats.game_results(empty)
    records = player_records(
        stats.player_summary(empty, results=results),
        stats.win_streaks(empty, results=results),
        stats.comebacks(empty, results=results),
    )
    assert records.empty
    assert "biggest_comeback" in records.columns
