"""Every statistic returns exactly what its plain pandas statement returns, on random histories.

The reference statements are in :mod:`tests.unit.stats_oracle`. Histories are
random but shaped like real ones (a caller's outcome follows from the hands,
game totals are running sums), and made to hit the awkward cases often: empty
frames, active and ended games, games started at the same moment, tied hands and
totals, players who never call, rounds some players sat out, two players with
the same name, and frames narrowed by :func:`dutch_core.stats.filter_history`.
"""

from __future__ import annotations

import datetime as dt
import random

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dutch_core import stats
from tests.unit import stats_oracle as oracle

FAST = settings(max_examples=40, deadline=None)
START = pd.Timestamp(2025, 1, 1, 18, tz="UTC")
# Ids 3 and 7 share a name: the statistics group by name.
PLAYERS = {1: "Ann", 2: "ann", 3: "Bob", 4: "Chloé", 5: "Zoë", 6: "Émile", 7: "Bob", 8: "Dirk"}


def random_history(rng: random.Random, games: int, max_rounds: int = 5) -> pd.DataFrame:
    """A history of ``games`` games (some may have no rounds) drawn with ``rng``."""
    rows: list[dict] = []
    game_ids = rng.sample(range(1, 10 * games + 2), games)
    rounds_made = 0
    for game_id in game_ids:
        started = START + pd.Timedelta(days=rng.randrange(4), hours=rng.choice([0, 0, 1]))
        status = rng.choice(["ended", "ended", "active"])
        seated = rng.sample(sorted(PLAYERS), rng.randint(2, 5))
        # Some players never call.
        callers = [player for player in seated if player % 3 != 0] or seated
        totals = dict.fromkeys(seated, 0)
        for number in range(1, rng.randint(0, max_rounds) + 1):
            present = list(seated)
            if len(present) > 2 and rng.random() < 0.2:
                present.remove(rng.choice(present))
            rounds_made += 1
            rows += _round(rng, game_id, status, started, number, rounds_made, present, callers)
            for row in rows[-len(present) :]:
                row["seat"] = seated.index(row["player_id"])
                totals[row["player_id"]] += row["round_score"]
                row["game_total"] = totals[row["player_id"]]
    if not rows:
        return stats.empty_history()
    frame = pd.DataFrame(rows)
    # Round ids need not follow the order of play.
    ids = rng.sample(range(1, 10 * rounds_made + 1), rounds_made)
    frame["round_id"] = [ids[index - 1] for index in frame["round_id"]]
    return stats.conform_history(frame)


def _round(rng, game_id, status, started, number, index, present, callers) -> list[dict]:
    """The rows of one round of the players ``present``."""
    hands = {player: rng.randint(0, 12) for player in present}
    eligible = [player for player in present if player in callers]
    caller = rng.choice(eligible) if eligible and rng.random() < 0.85 else None
    call_type = rng.choice(["dutch", "dutch", "auto_dutch"]) if caller else None
    outcome, due, points = None, 0, 0
    if caller is not None:
        others = [hands[player] for player in present if player != caller]
        lowest = min(others)
        outcome = "lowest" if hands[caller] < lowest else "tied"
        outcome = "beaten" if hands[caller] > lowest else outcome
        if outcome != "lowest":
            due = rng.randint(1, 3)
            points = sum(rng.randint(0, 13) for _ in range(due))
    played = started + pd.Timedelta(minutes=10 * number + rng.choice([0, 0, 5]))
    return [
        {
            "game_id": game_id,
            "game_started_at": started,
            "game_status": status,
            "round_id": index,
            "round_number": number,
            "played_at": played,
            "player_id": player,
            "player": PLAYERS[player],
            "seat": 0,
            "cards": None,
            "hand_total": hands[player],
            "is_caller": player == caller,
            "caller": PLAYERS[caller] if caller is not None else None,
            "caller_hand_total": hands[caller] if caller is not None else None,
            "call_type": call_type,
            "outcome": outcome,
            "penalty_cards_due": due if player == caller else 0,
            "penalty": str(points) if player == caller and due else None,
            "penalty_points": points if player == caller else 0,
            "round_score": hands[player] + (points if player == caller else 0),
            "game_total": 0,
        }
        for player in present
    ]


@st.composite
def histories(draw) -> pd.DataFrame:
    """A random history, sometimes narrowed by dates and players as the Stats page does.

    Now and then its rows are shuffled: the statistics must not rely on the sort order.
    """
    rng = draw(st.randoms(use_true_random=False))
    frame = random_history(rng, draw(st.integers(0, 7)))
    if draw(st.booleans()):
        first, last = sorted(draw(st.lists(st.integers(0, 4), min_size=2, max_size=2)))
        chosen = draw(st.none() | st.lists(st.sampled_from(sorted(set(PLAYERS.values())))))
        frame = stats.filter_history(
            frame, START.date() + dt.timedelta(first), START.date() + dt.timedelta(last), chosen
        )
    if draw(st.integers(0, 3)) == 0:
        frame = frame.sample(frac=1, random_state=rng.randrange(2**32), ignore_index=True)
    return frame


TABLES = [
    "game_results",
    "player_summary",
    "head_to_head",
    "dutch_calls",
    "call_success_by_hand_total",
    "win_streaks",
    "comebacks",
    "best_games",
    "records",
    "round_score_trend",
    "win_rate_trend",
    "call_success_trend",
]
GIVEN_RESULTS = {
    "player_summary",
    "head_to_head",
    "win_streaks",
    "comebacks",
    "best_games",
    "records",
    "win_rate_trend",
}


def assert_same(table: pd.DataFrame, expected: pd.DataFrame, obj: str = "table") -> None:
    """Equal columns, dtypes, index and values; floats too, to the last bit."""
    pd.testing.assert_frame_equal(table, expected, check_exact=True, obj=obj)


def assert_same_tables(frame: pd.DataFrame, window: int = 10) -> None:
    """Every table of ``frame`` equals its reference, the shared-results paths included."""
    results = stats.game_results(frame)
    for name in TABLES:
        fast, reference = getattr(stats, name), getattr(oracle, name)
        args = (window,) if name.endswith("_trend") else ()
        assert_same(fast(frame, *args), reference(frame, *args), obj=name)
        if name in GIVEN_RESULTS:
            given_results = fast(frame, results=results)
            assert_same(given_results, reference(frame), obj=f"{name}(results)")
    by_player = stats.call_success_by_hand_total(frame, by_player=True)
    expected = oracle.call_success_by_hand_total(frame, by_player=True)
    assert_same(by_player, expected, obj="call_success_by_hand_total(by_player)")
    streaks = stats.win_streaks(frame, results=results)
    comeback_rows = stats.comebacks(frame, results=results)
    given_all = stats.records(frame, results=results, streaks=streaks, comeback_rows=comeback_rows)
    assert_same(given_all, oracle.records(frame), obj="records(all given)")


@FAST
@given(histories(), st.integers(1, 4))
def test_every_table_matches_its_plain_pandas_statement(frame, window):
    assert_same_tables(frame, window)


@FAST
@given(histories(), st.none() | st.lists(st.sampled_from(sorted(set(PLAYERS.values())))))
def test_only_players_matches_its_plain_pandas_statement(frame, players):
    for name in ("player_summary", "head_to_head", "win_rate_trend"):
        table = getattr(stats, name)(frame)
        assert_same(stats.only_players(table, players), oracle.only_players(table, players), name)


def test_every_table_of_an_empty_history_matches_its_plain_pandas_statement():
    assert_same_tables(stats.empty_history())


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("shuffled", [False, True], ids=["sorted", "shuffled"])
def test_every_table_of_a_long_history_matches_its_plain_pandas_statement(seed, shuffled):
    frame = random_history(random.Random(seed), games=150, max_rounds=12)
    if shuffled:
        frame = frame.sample(frac=1, random_state=seed, ignore_index=True)
    assert_same_tables(frame)


def assert_same_values(table: pd.DataFrame, expected: pd.DataFrame, obj: str) -> None:
    """Equal columns and values (floats to rounding; dtypes may differ: pandas' group-bys
    pick their own, and keep the history's categorical names where the tables hold text)."""
    pd.testing.assert_frame_equal(
        table.reset_index(drop=True),
        expected.reset_index(drop=True),
        check_dtype=False,
        check_categorical=False,
        check_index_type=False,
        check_column_type=False,
        rtol=1e-9,
        obj=obj,
    )


def assert_same_ratings_and_calls(frame: pd.DataFrame) -> None:
    assert_same_values(stats.rating_history(frame), oracle.rating_history(frame), "rating_history")
    assert_same_values(stats.player_ratings(frame), oracle.player_ratings(frame), "player_ratings")
    chances = stats.call_chances(frame)
    counted = chances[["hand_total", "players", "calls", "lowest", "lowest_rate"]]
    assert_same_values(counted, oracle.call_chances(frame), "call_chances")
    assert_same_values(stats.calls_by_player(frame), oracle.calls_by_player(frame), "by player")
    assert_same_values(stats.caller_profiles(frame), oracle.caller_profiles(frame), "profiles")
    assert_same_values(stats.call_advice(frame), oracle.call_advice(frame), "call_advice")


@FAST
@given(histories())
def test_ratings_and_call_analysis_match_their_plain_pandas_statements(frame):
    assert_same_ratings_and_calls(frame)


def test_ratings_and_call_analysis_of_an_empty_history_match_the_plain_statements():
    assert_same_ratings_and_calls(stats.empty_history())


@pytest.mark.parametrize("shuffled", [False, True], ids=["sorted", "shuffled"])
def test_ratings_and_call_analysis_of_a_long_history_match_the_plain_statements(shuffled):
    frame = random_history(random.Random(4), games=150, max_rounds=12)
    if shuffled:
        frame = frame.sample(frac=1, random_state=4, ignore_index=True)
    assert_same_ratings_and_calls(frame)


@FAST
@given(histories(), st.lists(st.sampled_from(sorted(set(PLAYERS.values())))))
def test_the_call_analysis_of_some_callers_matches_its_plain_pandas_statement(frame, callers):
    analysis = stats.call_analysis(frame, callers)
    counted = analysis["chances"][["hand_total", "players", "calls", "lowest", "lowest_rate"]]
    assert_same_values(counted, oracle.call_chances(frame, callers), "call_chances(callers)")
    if not callers:
        assert analysis["profiles"].empty
