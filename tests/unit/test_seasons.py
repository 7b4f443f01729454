"""Seasons: which season a game belongs to, in the viewer's time zone, and the season table
against its plain pandas statement on random histories."""

from __future__ import annotations

import datetime as dt
import random
from zoneinfo import ZoneInfo

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dutch_core import NamedSeason, SeasonKind, season_before, season_of, stats
from tests.unit import stats_oracle as oracle
from tests.unit.test_stats_oracle import FAST, START, assert_same_values, histories, random_history

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
NEW_YORK = ZoneInfo("America/New_York")
UTC = dt.UTC
ZONES = [UTC, AMSTERDAM, NEW_YORK, ZoneInfo("Pacific/Auckland")]
NAMED = (
    NamedSeason("Winter cup", START.date() + dt.timedelta(days=1)),
    NamedSeason("Spring league", START.date() + dt.timedelta(days=3)),
)


def one_game(started: str, game_id: int = 1, totals=(3, 9)) -> pd.DataFrame:
    """An ended one-round game of Ann and Bo, started at ``started`` (UTC)."""
    moment = pd.Timestamp(started, tz="UTC")
    rows = [
        {
            "game_id": game_id, "game_started_at": moment, "game_status": "ended",
            "round_id": game_id, "round_number": 1, "played_at": moment + pd.Timedelta(minutes=20),
            "player_id": seat + 1, "player": name, "seat": seat, "cards": None,
            "hand_total": total, "is_caller": False, "caller": None, "caller_hand_total": None,
            "call_type": None, "outcome": None, "penalty_cards_due": 0, "penalty": None,
            "penalty_points": 0, "round_score": total, "game_total": total,
        }
        for seat, (name, total) in enumerate(zip(("Ann", "Bo"), totals, strict=True))
    ]  # fmt: skip
    return pd.DataFrame(rows)


def history_of(*games: pd.DataFrame) -> pd.DataFrame:
    return stats.conform_history(pd.concat(games, ignore_index=True))


def test_a_game_just_before_midnight_utc_on_new_years_eve_is_in_the_new_year_in_amsterdam():
    frame = history_of(one_game("2025-12-31 23:30"))
    in_utc, _ = stats.season_table(frame, SeasonKind.QUARTER, UTC)
    in_amsterdam, _ = stats.season_table(frame, SeasonKind.QUARTER, AMSTERDAM)
    assert in_utc["season"].tolist() == ["2025 Q4"]
    assert in_amsterdam["season"].tolist() == ["2026 Q1"]
    years, _ = stats.season_table(frame, SeasonKind.YEAR, AMSTERDAM)
    assert years["season"].tolist() == ["2026"]


def test_a_new_york_evening_stays_in_the_old_year_though_utc_has_moved_on():
    frame = history_of(one_game("2026-01-01 03:00"))
    table, _ = stats.season_table(frame, SeasonKind.MONTH, NEW_YORK)
    assert table["season"].tolist() == ["2025-12"]


def test_seasons_across_a_year_end_run_on_without_a_gap():
    frame = history_of(one_game("2025-11-20 19:00", 1), one_game("2026-02-03 19:00", 2, (9, 3)))
    table, players = stats.season_table(frame, SeasonKind.MONTH, AMSTERDAM)
    assert table["season"].tolist() == ["2025-11", "2025-12", "2026-01", "2026-02"]
    assert table["games"].tolist() == [1, 0, 0, 1]
    assert table["leaders"].tolist() == ["Ann", "", "", "Bo"]
    assert players.loc[players["season"] == "2026-02", "leader"].tolist() == [False, True]


def test_a_season_with_no_games_has_no_leader_and_no_player_rows():
    frame = history_of(one_game("2025-01-10 19:00", 1), one_game("2025-07-10 19:00", 2))
    table, players = stats.season_table(frame, SeasonKind.QUARTER, UTC)
    empty = table.loc[table["season"] == "2025 Q2"].iloc[0]
    assert (empty["games"], empty["leaders"], empty["leader_wins"]) == (0, "", 0)
    assert "2025 Q2" not in set(players["season"])


def test_tied_leaders_are_named_together_in_name_order():
    frame = history_of(
        one_game("2025-03-01 19:00", 1, (3, 9)), one_game("2025-03-02 19:00", 2, (9, 3))
    )
    table, _ = stats.season_table(frame, SeasonKind.QUARTER, UTC)
    assert table["leaders"].tolist() == ["Ann, Bo"]
    assert table["leader_wins"].tolist() == [1]


def test_the_rating_at_a_seasons_end_leaves_out_the_later_seasons():
    frame = history_of(one_game("2025-03-01 19:00", 1), one_game("2025-04-02 19:00", 2))
    _, players = stats.season_table(frame, SeasonKind.QUARTER, UTC)
    history = stats.rating_history(frame)
    first, second = history["rating"].iloc[0], history["rating"].iloc[2]  # Ann after each game
    ann = players.loc[players["player"] == "Ann", "rating"].tolist()
    assert ann == [pytest.approx(first), pytest.approx(second)]
    assert first < second


def test_named_seasons_run_from_one_start_to_the_next_and_games_before_them_count_in_none():
    seasons = (
        NamedSeason("Autumn", dt.date(2025, 9, 1)),
        NamedSeason("Cup", dt.date(2025, 11, 15)),
    )
    frame = history_of(
        one_game("2025-08-01 19:00", 1),
        one_game("2025-10-01 19:00", 2),
        one_game("2026-03-01 19:00", 3, (9, 3)),
    )
    table, _ = stats.season_table(frame, SeasonKind.NAMED, UTC, seasons)
    assert table["season"].tolist() == ["Autumn", "Cup"]
    assert table["games"].tolist() == [1, 1]
    assert table["end_day"].tolist() == [dt.date(2025, 11, 15), None]


def test_this_and_last_season():
    today = dt.date(2026, 1, 5)
    this = season_of(today, SeasonKind.QUARTER)
    assert (this.first_day, this.last_day) == (dt.date(2026, 1, 1), dt.date(2026, 3, 31))
    last = season_before(this, SeasonKind.QUARTER)
    assert (last.label, last.first_day, last.last_day) == (
        "2025 Q4",
        dt.date(2025, 10, 1),
        dt.date(2025, 12, 31),
    )
    assert season_of(today, SeasonKind.NAMED, NAMED[1:]).label == "Spring league"
    assert season_of(dt.date(2024, 1, 1), SeasonKind.NAMED, NAMED) is None
    assert (
        season_before(season_of(today, SeasonKind.NAMED, NAMED), SeasonKind.NAMED, NAMED).label
        == "Winter cup"
    )


def assert_same_seasons(frame, kind, zone, named=()):
    table, players = stats.season_table(frame, kind, zone, named)
    expected_table, expected_players = oracle.season_table(frame, str(kind), zone, named)
    assert_same_values(table, expected_table, f"season_table {kind}")
    assert_same_values(players, expected_players, f"season players {kind}")


@FAST
@given(histories(), st.sampled_from(list(SeasonKind)), st.sampled_from(ZONES))
def test_the_season_table_matches_its_plain_pandas_statement(frame, kind, zone):
    assert_same_seasons(frame, kind, zone, NAMED)


def test_the_season_table_of_an_empty_history_is_empty():
    table, players = stats.season_table(stats.empty_history(), SeasonKind.QUARTER, UTC)
    assert table.empty and players.empty
    assert list(table.columns) == list(stats.seasons.SEASON_COLUMNS)


@pytest.mark.parametrize("kind", list(SeasonKind))
def test_the_season_table_of_a_long_history_across_a_year_end_matches(kind):
    frame = random_history(random.Random(5), games=150, max_rounds=8)
    # Spread the games over a year end: from mid-November to mid-February.
    shift = pd.to_timedelta(frame["game_id"] % 90, unit="D") - pd.Timedelta(days=45)
    frame = frame.assign(game_started_at=frame["game_started_at"] + shift)
    frame = frame.assign(played_at=frame["played_at"] + shift)
    named = (
        NamedSeason("Before", dt.date(2024, 12, 1)),
        NamedSeason("After", dt.date(2025, 1, 20)),
    )
    assert_same_seasons(stats.conform_history(frame), kind, AMSTERDAM, named)
