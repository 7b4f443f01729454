"""Skill ratings, the call-success fit, the random-hands reference line and player colours.

Ratings are checked on small cases worked out by hand from the Bradley-Terry update
of Weng and Lin (2011), the fit on data drawn from a known curve, the reference
line against independent simulation figures (200,000 random deals).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from dutch_app import charts
from dutch_core import stats
from dutch_core.stats import calling
from dutch_core.stats.ratings import NEWCOMER_SPREAD, PRIOR_GAMES

START = pd.Timestamp(2025, 3, 1, 19, tz="UTC")
NAMES = {"Ann": 1, "Ben": 2, "Cleo": 3, "Dan": 4, "Eve": 5}


def history_of(games: list[dict[str, int]], status: str = "ended") -> pd.DataFrame:
    """One round per game: each player's hand total is their game total; the first calls."""
    rows = []
    for number, totals in enumerate(games, start=1):
        caller = next(iter(totals))
        others = [total for name, total in totals.items() if name != caller]
        outcome = "lowest" if totals[caller] < min(others) else "beaten"
        for seat, (name, total) in enumerate(totals.items()):
            rows.append(
                {
                    "game_id": number,
                    "game_started_at": START + pd.Timedelta(days=number),
                    "game_status": status,
                    "round_id": number,
                    "round_number": 1,
                    "played_at": START + pd.Timedelta(days=number, minutes=5),
                    "player_id": NAMES[name],
                    "player": name,
                    "seat": seat,
                    "cards": None,
                    "hand_total": total,
                    "is_caller": name == caller,
                    "caller": caller,
                    "caller_hand_total": totals[caller],
                    "call_type": "dutch",
                    "outcome": outcome,
                    "penalty_cards_due": 0,
                    "penalty": None,
                    "penalty_points": 0,
                    "round_score": total,
                    "game_total": total,
                }
            )
    return stats.conform_history(pd.DataFrame(rows))


def final(frame: pd.DataFrame) -> dict[str, tuple[float, float]]:
    table = stats.player_ratings(frame)
    return dict(zip(table["player"], zip(table["mu"], table["sigma"], strict=True), strict=True))


# Ratings


def test_two_players_move_apart_by_the_hand_worked_ridge_step():
    # Margins -7.5 and +7.5; normal equations (1 + 1/2)·a - 1/2·b = -7.5 and the mirror:
    # a = -7.5 / 2 for the lower total, so Ann's skill is +3.75 points a game.
    ratings = final(history_of([{"Ann": 5, "Ben": 20}]))
    assert ratings["Ann"][0] == pytest.approx(7.5 / (PRIOR_GAMES + 1))
    assert ratings["Ben"][0] == pytest.approx(-7.5 / (PRIOR_GAMES + 1))
    assert ratings["Ann"][1] == pytest.approx(ratings["Ben"][1])


@pytest.mark.parametrize("order", list(itertools.permutations(["Ann", "Ben", "Cleo", "Dan"])))
def test_two_players_tied_for_the_win_are_level_and_above_everyone_behind(order):
    totals = {"Ann": 7, "Ben": 7, "Cleo": 15, "Dan": 30}
    ratings = final(history_of([{name: totals[name] for name in order}]))
    assert ratings["Ann"][0] == pytest.approx(ratings["Ben"][0])
    assert ratings["Ann"][0] > ratings["Cleo"][0] > ratings["Dan"][0]
    # Whatever the seat order, the same numbers.
    reference = final(history_of([totals]))
    for name in totals:
        assert ratings[name] == pytest.approx(reference[name])


def test_a_tie_between_two_players_leaves_both_where_they_were():
    ratings = final(history_of([{"Ann": 9, "Ben": 9}]))
    assert ratings["Ann"][0] == pytest.approx(0)
    assert ratings["Ben"][0] == pytest.approx(0)


def test_a_new_player_starts_from_the_prior_and_is_provisional():
    frame = pd.concat(
        [history_of([{"Ann": 5, "Ben": 20}]), history_of([{"Cleo": 3, "Dan": 4}], "active")]
    )
    frame = stats.conform_history(frame.assign(game_id=[1, 1, 2, 2], round_id=[1, 1, 2, 2]))
    table = stats.player_ratings(frame).set_index("player")
    assert table.loc["Cleo", "rated_games"] == 0
    assert table.loc["Cleo", "mu"] == 0
    assert table.loc["Cleo", "sigma"] == pytest.approx(table.loc["Cleo", "spread"])
    assert table.loc["Cleo", "rating"] == pytest.approx(0)
    assert table["provisional"].all()


def test_ratings_settle_after_five_games_and_the_steady_winner_comes_first():
    games = [{"Ann": 3, "Ben": 10, "Cleo": 20}] * 5
    table = stats.player_ratings(history_of(games))
    assert table["player"].tolist() == ["Ann", "Ben", "Cleo"]
    assert not table["provisional"].any()
    assert table["rated_games"].tolist() == [5, 5, 5]
    assert table["wins"].tolist() == [5, 0, 0]
    fewer = stats.player_ratings(history_of(games[:4]))
    assert fewer["provisional"].all()


def test_the_rating_history_follows_each_player_game_by_game():
    history = stats.rating_history(history_of([{"Ann": 3, "Ben": 10}, {"Ben": 1, "Cleo": 9}]))
    assert history["game_number"].tolist() == [1, 1, 2, 1]
    ben = history.loc[history["player"] == "Ben"]
    assert ben["rating"].tolist() == pytest.approx(ben["mu"].tolist())
    assert ben["mu"].tolist()[1] > ben["mu"].tolist()[0]  # last, then a win
    assert ben["rank"].tolist() == [2, 1]


def test_win_chances_add_up_to_one_favour_the_stronger_and_welcome_newcomers():
    ratings = stats.player_ratings(history_of([{"Ann": 3, "Ben": 10, "Cleo": 20}] * 6))
    chances = stats.win_chances(ratings, ["Cleo", "Ann", "Newcomer"])
    assert chances["player"].tolist() == ["Cleo", "Ann", "Newcomer"]
    assert chances["win_chance"].sum() == pytest.approx(1)
    by_name = dict(zip(chances["player"], chances["win_chance"], strict=True))
    assert by_name["Ann"] > by_name["Newcomer"] > by_name["Cleo"]
    assert chances.loc[2, "mu"] == 0


def test_a_player_with_the_group_average_wins_one_game_in_the_usual_table_size():
    games = [{"Ann": 3, "Ben": 10, "Cleo": 17}] * 6
    table = stats.player_ratings(history_of(games)).set_index("player")
    # Ben sits at the group's average: one game in three at the usual table of three.
    assert table.loc["Ben", "group_chance"] == pytest.approx(1 / 3, abs=0.02)
    assert table.loc["Ann", "group_chance"] > table.loc["Ben", "group_chance"]
    assert table.loc["Cleo", "group_chance"] < 1 / 3


def test_without_any_game_everyone_is_alike():
    table = stats.player_ratings(stats.empty_history())
    assert table.empty
    chances = stats.win_chances(table, ["Ann", "Ben"])
    assert chances["win_chance"].tolist() == pytest.approx([0.5, 0.5])
    assert chances["sigma"].tolist() == [NEWCOMER_SPREAD] * 2


def test_a_changed_past_game_changes_the_ratings_worked_out_again():
    before = final(history_of([{"Ann": 3, "Ben": 10}, {"Ann": 5, "Ben": 8}]))
    after = final(history_of([{"Ann": 30, "Ben": 10}, {"Ann": 5, "Ben": 8}]))
    assert after["Ann"][0] < before["Ann"][0]


# The logistic fit


def test_the_fit_recovers_a_known_curve_from_many_calls():
    rng = np.random.default_rng(7)
    hands = np.repeat(np.arange(0, 25), 4)
    players = np.tile([2, 3, 4, 5], 25)
    truth = 1 / (1 + np.exp(-(6 - 0.4 * hands - 0.5 * players)))
    calls = np.full(len(hands), 400)
    successes = rng.binomial(calls, truth)
    coefficients = calling.logistic_fit(hands, players, calls, successes)
    fitted = calling.fitted_chance(coefficients, hands, players)
    assert np.abs(fitted - truth).max() < 0.03


def test_with_no_calls_at_a_total_the_fit_follows_the_reference_line():
    """One lucky call at 30 points does not make every call at 30 a sure thing."""
    coefficients = calling.logistic_fit(np.array([30]), np.array([4]), np.array([1]), np.array([1]))
    fitted = calling.fitted_chance(coefficients, np.array([30, 15]), np.array([4, 4]))
    reference = calling.reference_chance(np.array([30, 15]), np.array([4, 4]))
    assert fitted[0] < 0.5  # not a sure thing, as the one call alone would say
    assert fitted[1] == pytest.approx(reference[1], abs=0.15)


def test_the_fit_of_perfectly_separated_calls_stays_finite_and_falls_with_the_hand():
    hands = np.array([2, 4, 6, 20, 22, 24])
    players = np.array([4] * 6)
    calls = np.array([3, 3, 3, 3, 3, 3])
    successes = np.array([3, 3, 3, 0, 0, 0])
    coefficients = calling.logistic_fit(hands, players, calls, successes)
    assert np.isfinite(coefficients).all()
    fitted = calling.fitted_chance(coefficients, np.arange(0, 30), np.full(30, 4))
    assert (np.diff(fitted) < 0).all()
    assert fitted[2] > 0.8 and fitted[24] < 0.2


def test_the_call_chances_count_calls_by_hand_and_players_with_the_expected_cost():
    frame = history_of(
        [
            {"Ann": 3, "Ben": 10, "Cleo": 20},
            {"Ann": 3, "Ben": 1, "Cleo": 20},
            {"Ben": 8, "Ann": 12},
        ]
    )
    table = stats.call_chances(frame)
    assert table[["hand_total", "players", "calls", "lowest"]].values.tolist() == [
        [3, 3, 2, 1],
        [8, 2, 1, 1],
    ]
    cost = table["hand_total"] + table["expected_penalty_cards"] * 338 / 52
    assert table["expected_cost"].tolist() == pytest.approx(cost.tolist())
    assert ((table["fitted"] > 0) & (table["fitted"] < 1)).all()


# The reference line

FIGURES = {(15, 2): 0.95, (15, 4): 0.81, (15, 6): 0.73, (20, 2): 0.79, (20, 4): 0.47, (20, 6): 0.26}


@pytest.mark.parametrize(("hand", "players"), sorted(FIGURES))
def test_the_reference_line_matches_the_simulation_figures(hand, players):
    chance = calling.reference_chance(np.array([hand]), np.array([players]))[0]
    # Both are simulations: about 0.005 of error each, 0.01 of rounding in the figures.
    assert chance == pytest.approx(FIGURES[hand, players], abs=0.02)


def test_the_reference_line_falls_with_the_hand_and_with_more_players():
    table = stats.reference_chances().set_index(["hand_total", "players"])["chance"]
    four = table.xs(4, level="players")
    assert four.loc[2] > 0.99 and four.loc[40] < 0.01
    assert (np.diff(four.loc[5:35].to_numpy()) <= 0.02).all()
    assert table[15, 2] > table[15, 3] > table[15, 6] > table[15, 12]


def test_the_reference_line_for_two_players_matches_an_exact_count():
    """Against one opponent the chance can be counted exactly over every pair of hands."""
    values = calling.DECK_VALUES
    combos = np.array(list(itertools.combinations(range(52), 4)))
    totals = values[combos].sum(axis=1)
    mine = combos[totals == 12]
    wins = seen = 0
    for hand in mine[:: max(1, len(mine) // 60)]:
        rest = np.setdiff1d(np.arange(52), hand)
        others = values[rest][np.array(list(itertools.combinations(range(48), 4)))].sum(axis=1)
        wins += (others > 12).sum()
        seen += len(others)
    exact = wins / seen
    simulated = calling.reference_chance(np.array([12]), np.array([2]))[0]
    assert simulated == pytest.approx(exact, abs=0.015)


def test_the_reference_line_is_the_same_every_time():
    first = stats.reference_chances()
    calling._reference_arrays.cache_clear()
    pd.testing.assert_frame_equal(first, stats.reference_chances())


# Colours


def test_each_player_keeps_one_colour_whatever_order_or_chart():
    roster = [(4, "Dan"), (1, "Ann"), (3, "Cleo"), (2, "Ben")]
    colours = charts.player_colours(roster)
    assert colours == charts.player_colours(list(reversed(roster)))
    assert len(set(colours.values())) == 4
    assert set(colours.values()) <= set(charts.OKABE_ITO)
    summary = pd.DataFrame(
        {"player": ["Dan", "Ben"], "win_rate": [0.5, 0.2], "wins": [1, 1], "games_ended": [2, 5]}
    )
    trend = pd.DataFrame(
        {
            "player": ["Ben", "Ann", "Dan"],
            "game_started_at": pd.to_datetime(["2025-01-01", "2025-01-02", "2025-01-09"], utc=True),
            "game_number": [1, 1, 1],
            "game_id": [1, 2, 3],
            "win_rate": [0.0, 1.0, 0.5],
        }
    )
    for spec in (charts.WIN_RATE.spec(summary), charts.WIN_RATE_TREND.spec(trend)):
        scale = charts.coloured(spec, colours)["encoding"]["color"]["scale"]
        # The legend lists just the chart's players, each in their own colour.
        assert scale["range"] == [colours[name] for name in scale["domain"]]
        assert set(scale["domain"]) == set(spec["usermeta"]["players"])


def test_colouring_a_spec_leaves_the_cached_spec_alone():
    summary = pd.DataFrame({"player": ["Ann"], "win_rate": [0.5], "wins": [1], "games_ended": [2]})
    spec = charts.WIN_RATE.spec(summary)
    before = repr(spec)
    charts.coloured(spec, {"Ann": "#000000"})
    assert repr(spec) == before


# Time axes


def times(*stamps: str) -> pd.Series:
    return pd.Series(pd.to_datetime(list(stamps), utc=True))


def test_the_time_axis_shows_days_for_weeks_times_within_a_day_and_rounds_for_one_game():
    two_weeks = times("2025-01-01 19:00", "2025-01-15 21:00")
    assert charts.time_axis(two_weeks, pd.Series([1, 2])) == "days"
    assert charts.time_axis(times("2025-01-01 19:00", "2025-01-01 23:00"), pd.Series([1, 2])) == (
        "time"
    )
    assert charts.time_axis(two_weeks, pd.Series([7, 7])) == "events"
    assert charts.time_axis(times("2023-01-01", "2025-01-01"), pd.Series([1, 2])) == "months"


def trend_of(stamps: pd.Series, games: list[int]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "player": ["Ann"] * len(stamps),
            "played_at": stamps,
            "player_round": range(1, len(stamps) + 1),
            "game_id": games,
            "rolling_avg": [5.0] * len(stamps),
        }
    )


def test_a_trend_over_two_weeks_labels_dates_and_one_game_labels_rounds():
    stamps = times(*(f"2025-01-{day:02d} 19:00" for day in range(1, 15)))
    spec = charts.ROUND_SCORE_TREND.spec(trend_of(stamps, list(range(14))))
    x = spec["encoding"]["x"]
    assert x["type"] == "temporal"
    assert x["axis"]["format"] == "%-d %b"  # "5 Mar", as the locale writes a day
    one_game = charts.ROUND_SCORE_TREND.spec(trend_of(stamps[:5], [3] * 5))
    x = one_game["encoding"]["x"]
    assert (x["field"], x["type"], x["title"]) == ("player_round", "quantitative", "Player's round")


def test_the_call_chart_draws_counted_points_the_fit_and_the_reference_with_a_legend():
    frame = history_of([{"Ann": 3, "Ben": 10, "Cleo": 20}, {"Ann": 12, "Ben": 1, "Cleo": 20}])
    chances = stats.call_chances(frame)
    data = charts.call_chance_data(chances, stats.call_curves(frame, chances), 3)
    assert set(data["series"]) == set(charts.CALL_SERIES)
    counted = data.loc[data["mark"] == "point"]
    assert counted[["hand_total", "chance", "calls"]].values.tolist() == [[3, 1.0, 1], [12, 0.0, 1]]
    spec = charts.CALL_CHANCES.spec(data)
    for layer in spec["layer"]:
        # One legend for the three series: no layer hides the series' legend.
        for channel in ("color", "strokeDash"):
            assert layer["encoding"].get(channel, {}).get("legend", {}) is not None


def test_the_fit_converges_on_lopsided_counts_and_falls_with_the_hand():
    """Lucky high calls and near-certain low ones: Newton steps that would overshoot are
    shortened, and the result is a finite curve through the well-counted totals."""
    hands = np.array([0, 1, 3, 8, 14, 20, 30, 45, 48])
    players = np.array([4, 4, 4, 4, 5, 3, 4, 2, 6])
    calls = np.array([70, 150, 240, 60, 80, 50, 30, 20, 10])
    successes = np.array([68, 130, 170, 30, 20, 10, 2, 1, 0])
    coefficients = calling.logistic_fit(hands, players, calls, successes)
    assert np.isfinite(coefficients).all()
    curve = calling.fitted_chance(coefficients, np.arange(0, 50), np.full(50, 4))
    assert (np.diff(curve) < 0).all()
    assert curve[1] == pytest.approx(130 / 150, abs=0.1)
    assert curve[45] < 0.1


def test_the_call_analysis_in_one_pass_equals_its_parts():
    frame = history_of([{"Ann": 3, "Ben": 10, "Cleo": 20}, {"Ben": 12, "Ann": 1, "Cleo": 20}])
    analysis = stats.call_analysis(frame)
    pd.testing.assert_frame_equal(analysis["chances"], stats.call_chances(frame))
    pd.testing.assert_frame_equal(analysis["curves"], stats.call_curves(frame))
    pd.testing.assert_frame_equal(analysis["profiles"], stats.caller_profiles(frame))
    pd.testing.assert_frame_equal(analysis["by_player"], stats.calls_by_player(frame))
    pd.testing.assert_frame_equal(analysis["advice"], stats.call_advice(frame))


def test_call_advice_is_the_highest_total_with_three_in_four_calls_lowest_once_there_are_ten():
    # Ann calls every round: lowest at 2, 4, 4, 5, 6, 6, 7 and 9, beaten at 6 and 8 (three
    # players), and beaten at 10 in a game of two.
    hands = [(2, 30), (4, 30), (4, 30), (5, 30), (6, 30), (6, 30), (6, 1), (7, 30), (8, 1)]
    games = [{"Ann": mine, "Ben": theirs, "Cleo": 40} for mine, theirs in hands]
    nine = history_of(games)
    advice = stats.call_advice(nine).iloc[0]
    assert (advice["player"], advice["players"], advice["calls"]) == ("Ann", 3, 9)
    assert advice["hand_total"] is pd.NA  # not enough calls yet
    ten = history_of([*games, {"Ann": 9, "Ben": 30, "Cleo": 40}, {"Ann": 10, "Ben": 1}])
    advice = stats.call_advice(ten)
    at_three = advice.loc[advice["players"] == 3].iloc[0]
    # At or below 8: 7 of 9 lowest (78%); at or below 9: 8 of 10 (80%): the highest is 9.
    assert at_three["hand_total"] == 9
    assert (at_three["lowest_at_or_below"], at_three["calls_at_or_below"]) == (8, 10)
    at_two = advice.loc[advice["players"] == 2].iloc[0]
    assert (at_two["calls"], at_two["hand_total"]) == (1, pd.NA)


def test_the_latest_game_is_the_newest_one_in_seat_order():
    frame = history_of([{"Ann": 3, "Ben": 10}, {"Cleo": 9, "Ann": 1, "Dan": 4}])
    latest = stats.latest_game(stats.game_results(frame))
    assert latest["player"].tolist() == ["Cleo", "Ann", "Dan"]
    assert stats.latest_game(stats.game_results(stats.empty_history())).empty


def test_a_player_needs_the_games_left_to_five_before_the_rating_settles():
    assert [stats.games_to_settle(games) for games in range(7)] == [5, 4, 3, 2, 1, 0, 0]
