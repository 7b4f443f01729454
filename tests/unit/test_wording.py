"""The words and formats a careful user reads, pinned: percentages, call sentences,
corrections, file names, hands in files, the upload limit and the game chooser."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from dutch_app import charts, csv_io
from dutch_app.csv_io.format import hand_text
from dutch_app.labels import call_summary
from dutch_app.services.views import GameSummary, HandView, RoundView
from dutch_app.stats_columns import SHARE_FORMAT, SUMMARY
from dutch_app.ui.history_files import game_file_name
from dutch_app.ui.history_view import in_progress_label
from dutch_app.ui.round_view import correction_summary
from dutch_app.ui.stats_tables import shown_frame
from dutch_app.ui.text import percent
from dutch_core import PRESETS, HouseRules, PenaltyMode, RoundInput, score_round

ROOT = Path(__file__).resolve().parents[2]


def stored(number: int, scores: dict[str, int], caller: str | None = "Sam") -> RoundView:
    hands = tuple(
        HandView(seat, name, seat, None, score, 0, score, name == caller, score)
        for seat, (name, score) in enumerate(scores.items())
    )
    moment = datetime(2025, 5, 10, 18, tzinfo=UTC)
    return RoundView(
        1, 1, number, None, caller, "dutch", "lowest", None, 0, None, moment, None, 1, hands
    )


# --- one percentage format ------------------------------------------------------------------


def test_every_percentage_is_a_whole_percent():
    assert [percent(5 / 6), percent(0.5), percent(1.0), percent(0.0)] == [
        "83%",
        "50%",
        "100%",
        "0%",
    ]
    assert percent(float("nan")) == "-"
    assert charts.PERCENT_FORMAT == ".0%"  # the charts' d3 axes and tooltips write the same
    assert SHARE_FORMAT == "%.0f%%"  # the tables: the share in percent points, no decimals


def test_a_share_column_is_shown_in_percent_points_and_other_columns_as_they_are():
    import pandas as pd

    table = pd.DataFrame({"player": ["Ann"], "games": [6], "wins": [5], "win_rate": [5 / 6]})
    shown = shown_frame(table.reindex(columns=list(SUMMARY), fill_value=0), SUMMARY)
    assert shown.loc[0, "win_rate"] == pytest.approx(500 / 6)  # drawn as "83%"
    assert shown.loc[0, "games"] == 6
    assert table.loc[0, "win_rate"] == 5 / 6  # the statistics themselves are untouched


def test_no_percentage_of_the_shell_is_written_another_way():
    """No page or shell module formats a share by hand (``:.1%``, ``"percent"``…)."""
    odd = []
    for path in [*ROOT.glob("pages/*.py"), *ROOT.glob("dutch_app/**/*.py")]:
        text = path.read_text()
        for spelling in (":.0%}", ":.1%}", ":.2%}", 'format="percent"', '".1%"', '".2%"'):
            if spelling in text:
                odd.append((path.name, spelling))
    assert odd == []


# --- the call sentence ------------------------------------------------------------------------


def test_a_successful_call_under_fixed_points_names_the_bonus_taken_off():
    rules = HouseRules(penalty_mode=PenaltyMode.POINTS, failed_call_points=10, success_bonus=5)
    result = score_round(RoundInput.build({"Ann": "2", "Bo": "9"}, "Ann", "dutch"), rules)
    assert call_summary(result) == "Ann called Dutch and had the lowest hand: 5 points taken off."
    one = HouseRules(penalty_mode=PenaltyMode.POINTS, failed_call_points=10, success_bonus=1)
    result = score_round(RoundInput.build({"Ann": "2", "Bo": "9"}, "Ann", "dutch"), one)
    assert call_summary(result) == "Ann called Dutch and had the lowest hand: 1 point taken off."


def test_a_successful_call_without_a_bonus_still_says_no_penalty():
    result = score_round(
        RoundInput.build({"Ann": "2", "Bo": "9"}, "Ann", "dutch"), PRESETS["classic"]
    )
    assert call_summary(result) == "Ann called Dutch and had the lowest hand: no penalty."


# --- a correction's confirmation ----------------------------------------------------------------


def test_a_correction_names_each_score_that_moved():
    before = stored(5, {"Olivia": 12, "Sam": 3, "Ann": 8})
    after = stored(5, {"Olivia": 21, "Sam": 3, "Ann": 7})
    assert correction_summary(before, after) == "Round 5 corrected: Olivia 12 → 21, Ann 8 → 7."


def test_a_correction_names_a_new_caller_and_says_when_no_score_moved():
    before = stored(2, {"Olivia": 4, "Sam": 4}, caller="Sam")
    after = stored(2, {"Olivia": 4, "Sam": 4}, caller="Olivia")
    assert correction_summary(before, after) == (
        "Round 2 corrected: the caller Sam → Olivia; no score changed."
    )
    assert correction_summary(before, before) == "Round 2 corrected; no score changed."


# --- files --------------------------------------------------------------------------------------


def test_one_games_file_is_named_by_its_start_as_the_page_names_the_game():
    started = datetime(2025, 5, 10, 18, 30, tzinfo=UTC)
    assert game_file_name(started) == "dutch-scorer-game-of-2025-05-10-1830.csv"
    berlin = timezone(timedelta(hours=2))
    assert game_file_name(started, berlin) == "dutch-scorer-game-of-2025-05-10-2030.csv"


def test_a_hand_in_any_file_reads_as_the_history_csv_writes_it():
    assert hand_text("KH 5", 5) == "KH 5"
    assert hand_text(None, 21) == "21"  # entered as a total: the total, never empty
    assert hand_text("7", 7) == "7,"  # one plain number card is not a total
    assert hand_text("", 0) == ""  # Auto Dutch: an empty hand


def test_the_upload_limit_is_stated_from_the_one_setting_everywhere():
    limit = csv_io.MAX_UPLOAD_MB
    assert f"**{limit} MB and" in (ROOT / "docs/csv.md").read_text()
    assert f"files up to {limit} MB" in (ROOT / "docs/hosting.md").read_text()
    config = tomllib.loads((ROOT / ".streamlit/config.toml").read_text())
    assert config["server"]["maxUploadSize"] >= limit
    history = (ROOT / "pages/history.py").read_text()
    assert "max_upload_size=MAX_UPLOAD_MB" in history
    assert "Files up to {MAX_UPLOAD_MB} MB" in history


# --- the game chooser ---------------------------------------------------------------------------


def game(rounds: int) -> GameSummary:
    started = datetime(2025, 5, 10, tzinfo=UTC)
    return GameSummary(1, 1, "active", started, None, "", ("Ann", "Bo"), (0, 0), rounds, 1)


def test_the_game_chooser_never_says_round_0():
    assert in_progress_label(game(0)) == "Ann, Bo — not started yet"
    assert in_progress_label(game(1)) == "Ann, Bo — 1 round played"
    assert in_progress_label(game(12)) == "Ann, Bo — 12 rounds played"
