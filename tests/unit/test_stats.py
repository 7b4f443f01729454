"""Statistics checked against a small history worked out by hand.

The history (lower is better; * marks the caller):

Game 1, ended, 2025-01-01: Ann, Bob, Cat
  r1  Ann* 3 lowest            | Bob 10 | Cat 7        totals A 3  B 10 C 7
  r2  Bob* 5 tied with Ann (1 card: 4) -> 9 | Ann 5 | Cat 9   totals A 8  B 19 C 16
  r3  Cat* 6 beaten by Ann 2, tied with Bob 6 (3 cards: 10) -> 16
                                                       totals A 10 B 25 C 32   Ann wins
Game 2, ended, 2025-01-02: Ann, Bob
  r1  Ann* auto Dutch 0 lowest | Bob 4                 totals A 0  B 4
  r2  Bob* 1 lowest            | Ann 20                totals A 20 B 5       Bob wins (was 4 behind)
Game 3, ended, 2025-01-03: Ann, Bob, Cat
  r1  Cat* 4 beaten by Bob 1 (2 cards: 13) -> 17 | Ann 8  totals A 8  B 1  C 17
  r2  Ann* 0 tied with Cat 0 (1 card: 6) -> 6 | Bob 7   totals A 14 B 8  C 17   Bob wins
Game 4, active, 2025-01-04: Ann, Cat
  r1  Cat* 2 lowest            | Ann 9                 totals A 9  C 2       (no winner yet)
Game 5, ended, 2025-01-05: Bob, Cat (deck ran out, no caller)
  r1  Bob 5 | Cat 5                                    totals B 5  C 5       shared win
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from dutch_core import stats

STATUS = {1: "ended", 2: "ended", 3: "ended", 4: "active", 5: "ended"}
PLAYER_IDS = {"Ann": 1, "Bob": 2, "Cat": 3}

# (game, round, caller, call_type, outcome, caller_hand_total,
#  [(player, hand_total, penalty_cards_due, penalty_points, round_score, game_total), ...])
# fmt: off
ROUNDS = [
    (1, 1, "Ann", "dutch", "lowest", 3,
     [("Ann", 3, 0, 0, 3, 3), ("Bob", 10, 0, 0, 10, 10), ("Cat", 7, 0, 0, 7, 7)]),
    (1, 2, "Bob", "dutch", "tied", 5,
     [("Ann", 5, 0, 0, 5, 8), ("Bob", 5, 1, 4, 9, 19), ("Cat", 9, 0, 0, 9, 16)]),
    (1, 3, "Cat", "dutch", "beaten", 6,
     [("Ann", 2, 0, 0, 2, 10), ("Bob", 6, 0, 0, 6, 25), ("Cat", 6, 3, 10, 16, 32)]),
    (2, 1, "Ann", "auto_dutch", "lowest", 0,
     [("Ann", 0, 0, 0, 0, 0), ("Bob", 4, 0, 0, 4, 4)]),
    (2, 2, "Bob", "dutch", "lowest", 1,
     [("Ann", 20, 0, 0, 20, 20), ("Bob", 1, 0, 0, 1, 5)]),
    (3, 1, "Cat", "dutch", "beaten", 4,
     [("Ann", 8, 0, 0, 8, 8), ("Bob", 1, 0, 0, 1, 1), ("Cat", 4, 2, 13, 17, 17)]),
    (3, 2, "Ann", "dutch", "tied", 0,
     [("Ann", 0, 1, 6, 6, 14), ("Bob", 7, 0, 0, 7, 8), ("Cat", 0, 0, 0, 0, 17)]),
    (4, 1, "Cat", "dutch", "lowest", 2,
     [("Ann", 9, 0, 0, 9, 9), ("Cat", 2, 0, 0, 2, 2)]),
    (5, 1, None, None, None, None,
     [("Bob", 5, 0, 0, 5, 5), ("Cat", 5, 0, 0, 5, 5)]),
]
# fmt: on


def hand_made_history() -> pd.DataFrame:
    """The history above as a frame (only ids, times and seats are filled in by code)."""
    rows = []
    for round_id, (game, number, caller, call_type, outcome, caller_total, hands) in enumerate(
        ROUNDS, start=1
    ):
        started = pd.Timestamp(2025, 1, game, 18, tz="UTC")
        for seat, (player, hand, due, points, score, total) in enumerate(hands):
            rows.append(
                {
                    "game_id": game,
                    "game_started_at": started,
                    "game_status": STATUS[game],
                    "round_id": round_id,
                    "round_number": number,
                    "played_at": started + pd.Timedelta(minutes=10 * number),
                    "player_id": PLAYER_IDS[player],
                    "player": player,
                    "seat": seat,
                    "cards": None,
                    "hand_total": hand,
                    "is_caller": player == caller,
                    "caller": caller,
                    "caller_hand_total": caller_total,
                    "call_type": call_type,
                    "outcome": outcome,
                    "penalty_cards_due": due,
                    "penalty": str(points) if player == caller and due else None,
                    "penalty_points": points,
                    "round_score": score,
                    "game_total": total,
                }
            )
    return pd.DataFrame(rows).astype(stats.HISTORY_DTYPES)


@pytest.fixture
def history() -> pd.DataFrame:
    return hand_made_history()


def by_player(table: pd.DataFrame) -> dict[str, dict]:
    return {row["player"]: row for row in table.to_dict("records")}


def test_player_summary_matches_the_hand_worked_numbers(history):
    summary = by_player(stats.player_summary(history))
    ann, bob, cat = summary["Ann"], summary["Bob"], summary["Cat"]
    assert (ann["games"], ann["games_ended"], ann["wins"]) == (4, 3, 1)
    assert ann["win_rate"] == pytest.approx(1 / 3)
    assert (ann["rounds"], ann["best_round"], ann["worst_round"]) == (8, 0, 20)
    assert ann["avg_round_score"] == pytest.approx(6.625)
    assert ann["median_round_score"] == pytest.approx(5.5)
    assert ann["avg_game_total"] == pytest.approx(44 / 3)
    assert (ann["best_game"], ann["worst_game"]) == (10, 20)
    assert (bob["games"], bob["games_ended"], bob["wins"], bob["win_rate"]) == (4, 4, 3, 0.75)
    assert (bob["avg_round_score"], bob["median_round_score"]) == (5.375, 5.5)
    assert (bob["avg_game_total"], bob["best_game"], bob["worst_game"]) == (10.75, 5, 25)
    assert (cat["games"], cat["games_ended"], cat["wins"], cat["rounds"]) == (4, 3, 1, 7)
    assert (cat["avg_round_score"], cat["median_round_score"]) == (8.0, 7.0)
    assert (cat["avg_game_total"], cat["best_game"], cat["worst_game"]) == (18.0, 5, 32)


def test_game_results_rank_players_and_only_ended_games_have_winners(history):
    results = stats.game_results(history)
    game1 = results[results["game_id"] == 1]
    columns = ["player", "game_total", "rank", "won"]
    assert list(game1[columns].itertuples(index=False, name=None)) == [
        ("Ann", 10, 1, True),
        ("Bob", 25, 2, False),
        ("Cat", 32, 3, False),
    ]
    game4 = results[results["game_id"] == 4]
    assert not game4["won"].any()
    game5 = results[results["game_id"] == 5]
    assert list(game5["rank"]) == [1, 1] and game5["won"].all()


def test_dutch_calls_count_outcomes_penalties_and_beaten_calls(history):
    calls = by_player(stats.dutch_calls(history))
    ann, bob, cat = calls["Ann"], calls["Bob"], calls["Cat"]
    assert (ann["calls"], ann["dutch"], ann["auto_dutch"]) == (3, 2, 1)
    assert (ann["lowest"], ann["tied"], ann["beaten"]) == (2, 1, 0)
    assert ann["calls_per_round"] == 3 / 8
    assert ann["lowest_rate"] == pytest.approx(2 / 3)
    assert ann["avg_penalty_cards"] == pytest.approx(1 / 3)
    assert ann["avg_penalty_points"] == 2.0
    assert (ann["faced_calls"], ann["beat_calls"], ann["beat_call_rate"]) == (5, 1, 0.2)
    assert (bob["calls"], bob["lowest"], bob["tied"], bob["beaten"]) == (2, 1, 1, 0)
    assert (bob["avg_penalty_cards"], bob["avg_penalty_points"]) == (0.5, 2.0)
    assert (bob["faced_calls"], bob["beat_calls"]) == (5, 1)
    assert (cat["calls"], cat["lowest"], cat["beaten"], cat["beaten_rate"]) == (3, 1, 2, 2 / 3)
    assert cat["calls_per_round"] == pytest.approx(3 / 7)
    assert cat["avg_penalty_points"] == pytest.approx(23 / 3)
    assert (cat["faced_calls"], cat["beat_calls"], cat["beat_call_rate"]) == (3, 0, 0.0)


def test_call_success_by_hand_total_shows_how_low_a_caller_needs_to_be(history):
    table = stats.call_success_by_hand_total(history)
    assert list(table["hand_total"]) == [0, 1, 2, 3, 4, 5, 6]
    assert list(table["calls"]) == [2, 1, 1, 1, 1, 1, 1]
    assert list(table["lowest_rate"]) == [0.5, 1, 1, 1, 0, 0, 0]
    expected = [1 / 2, 2 / 3, 3 / 4, 4 / 5, 4 / 6, 4 / 7, 4 / 8]
    assert list(table["lowest_rate_at_or_below"]) == pytest.approx(expected)
    per_player = stats.call_success_by_hand_total(history, by_player=True)
    cat = per_player[per_player["player"] == "Cat"]
    assert list(cat["hand_total"]) == [2, 4, 6]
    assert list(cat["lowest_rate_at_or_below"]) == [1.0, 0.5, pytest.approx(1 / 3)]


def test_head_to_head_counts_lower_finishes_in_shared_ended_games(history):
    table = stats.head_to_head(history)
    pairs = {
        (r["player"], r["opponent"]): (r["games"], r["lower"], r["higher"], r["equal"])
        for r in table.to_dict("records")
    }
    assert pairs[("Ann", "Bob")] == (3, 1, 2, 0)
    assert pairs[("Bob", "Ann")] == (3, 2, 1, 0)
    assert pairs[("Ann", "Cat")] == (2, 2, 0, 0)
    assert pairs[("Bob", "Cat")] == (3, 2, 0, 1)
    assert pairs[("Cat", "Bob")] == (3, 0, 2, 1)
    assert len(pairs) == 6


def test_win_streaks_follow_the_order_of_ended_games(history):
    streaks = by_player(stats.win_streaks(history))
    assert (streaks["Ann"]["longest_win_streak"], streaks["Ann"]["current_win_streak"]) == (1, 0)
    assert (streaks["Bob"]["longest_win_streak"], streaks["Bob"]["current_win_streak"]) == (3, 3)
    assert (streaks["Cat"]["longest_win_streak"], streaks["Cat"]["current_win_streak"]) == (1, 1)


def test_biggest_comeback_is_the_largest_deficit_a_winner_overcame(history):
    table = stats.comebacks(history)
    top = table.iloc[0]
    assert (top["game_id"], top["player"], top["deficit"], top["round_number"]) == (2, "Bob", 4, 1)
    assert list(table["deficit"].iloc[1:]) == [0] * (len(table) - 1)


def test_records_list_streak_best_game_and_comeback_with_every_holder(history):
    table = stats.records(history)
    rows = [(r["record"], r["player"], r["value"]) for r in table.to_dict("records")]
    assert rows == [
        ("Longest winning streak", "Bob", 3),
        ("Best game", "Bob", 5),
        ("Best game", "Cat", 5),
        ("Best game", "Bob", 5),
        ("Biggest comeback", "Bob", 4),
    ]
    assert list(table["game_id"].iloc[1:4]) == [5, 5, 2]


def test_trends_have_running_and_rolling_values(history):
    scores = stats.round_score_trend(history, window=2)
    ann = scores[scores["player"] == "Ann"]
    assert list(ann["round_score"]) == [3, 5, 2, 0, 20, 8, 6, 9]
    assert list(ann["rolling_avg"]) == [3, 4, 3.5, 1, 10, 14, 7, 7.5]
    wins = stats.win_rate_trend(history)
    bob = wins[wins["player"] == "Bob"]
    assert list(bob["wins"]) == [0, 1, 2, 3]
    assert list(bob["win_rate"]) == [0, 0.5, pytest.approx(2 / 3), 0.75]
    calls = stats.call_success_trend(history)
    cat = calls[calls["player"] == "Cat"]
    assert list(cat["outcome"]) == ["beaten", "beaten", "lowest"]
    assert list(cat["success_rate"]) == [0, 0, pytest.approx(1 / 3)]


def test_cumulative_totals_follow_one_game_round_by_round(history):
    table = stats.cumulative_totals(history, game_id=1)
    ann = table[table["player"] == "Ann"]
    assert list(ann["game_total"]) == [3, 8, 10]
    assert stats.cumulative_totals(history, game_id=99).empty


def test_filter_keeps_whole_games_in_the_date_range(history):
    kept = stats.filter_history(history, dt.date(2025, 1, 2), dt.date(2025, 1, 3))
    assert sorted(kept["game_id"].unique()) == [2, 3]
    open_start = stats.filter_history(history, date_to=dt.date(2025, 1, 1))
    assert sorted(open_start["game_id"].unique()) == [1]


def test_filter_by_player_keeps_their_games_with_every_opponent(history):
    kept = stats.filter_history(history, players=["Cat"])
    assert sorted(kept["game_id"].unique()) == [1, 3, 4, 5]
    assert set(kept["player"]) == {"Ann", "Bob", "Cat"}
    shown = stats.only_players(stats.player_summary(kept), ["Cat"])
    assert list(shown["player"]) == ["Cat"]


def test_changing_a_round_changes_the_statistics(history):
    """A corrected round flows into every total: Ann's round 1 of game 1 becomes 13."""
    corrected = history.copy()
    mask = (corrected["round_id"] == 1) & (corrected["player"] == "Ann")
    corrected.loc[mask, "round_score"] = 13
    summary = by_player(stats.player_summary(corrected))
    assert summary["Ann"]["avg_round_score"] == pytest.approx(63 / 8)


STATS_TABLES = {
    "player_summary": stats.player_summary,
    "game_results": stats.game_results,
    "dutch_calls": stats.dutch_calls,
    "call_success_by_hand_total": stats.call_success_by_hand_total,
    "head_to_head": stats.head_to_head,
    "win_streaks": stats.win_streaks,
    "comebacks": stats.comebacks,
    "best_games": stats.best_games,
    "records": stats.records,
    "round_score_trend": stats.round_score_trend,
    "win_rate_trend": stats.win_rate_trend,
    "call_success_trend": stats.call_success_trend,
    "cumulative_totals": lambda df: stats.cumulative_totals(df, game_id=1),
}


@pytest.mark.parametrize("name", sorted(STATS_TABLES))
def test_every_statistic_of_an_empty_history_is_an_empty_table_with_the_same_columns(name, history):
    compute = STATS_TABLES[name]
    empty = compute(stats.empty_history())
    full = compute(history)
    assert empty.empty
    assert list(empty.columns) == list(full.columns)


def test_empty_history_has_the_schema_columns_and_dtypes():
    frame = stats.empty_history()
    assert list(frame.columns) == list(stats.HISTORY_COLUMNS)
    assert str(frame["game_started_at"].dtype) == "datetime64[ns, UTC]"
    assert str(frame["caller_hand_total"].dtype) == "Int32"
    assert str(frame["player"].dtype) == "category"
    assert stats.filter_history(frame, dt.date(2025, 1, 1), players=["Ann"]).empty


SHARING_RESULTS = {
    "player_summary": stats.player_summary,
    "head_to_head": stats.head_to_head,
    "win_streaks": stats.win_streaks,
    "comebacks": stats.comebacks,
    "best_games": stats.best_games,
    "records": stats.records,
    "win_rate_trend": stats.win_rate_trend,
}


@pytest.mark.parametrize("name", sorted(SHARING_RESULTS))
@pytest.mark.parametrize("filtered", [False, True], ids=["whole", "filtered"])
def test_tables_given_the_game_results_match_those_working_them_out(name, filtered, history):
    """Passing ``game_results`` in (so the Stats page works them out once) changes nothing."""
    frame = stats.filter_history(history, players=["Cat"]) if filtered else history
    compute = SHARING_RESULTS[name]
    given = compute(frame, results=stats.game_results(frame))
    pd.testing.assert_frame_equal(given, compute(frame))
    assert not given.empty


def test_records_given_streaks_and_comebacks_match_records_working_them_out(history):
    results = stats.game_results(history)
    given = stats.records(
        history,
        results=results,
        streaks=stats.win_streaks(history, results=results),
        comeback_rows=stats.comebacks(history, results=results),
    )
    pd.testing.assert_frame_equal(given, stats.records(history))
    assert set(given["record"]) == {"Longest winning streak", "Best game", "Biggest comeback"}
