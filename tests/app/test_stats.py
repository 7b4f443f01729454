"""The Stats page: the numbers a group sees, how filters change them, and the empty states.

The history below is small enough to work out by hand (players Ann, Ben, Cleo;
each game ends after two rounds; a star marks the caller):

Game 1 (10 Jan 2025)
  round 1: Cleo* 2 (Dutch), Ann 9, Ben 10      -> lowest.  Scores A 9, B 10, C 2
  round 2: Ben* 5 (Dutch), Ann 5, Cleo 30      -> tied with Ann, draws one card: 4.
                                                  Scores A 5, B 9, C 30
  totals: Ann 14, Ben 19, Cleo 32 -> Ann wins, after trailing Cleo by 7 (9 - 2)
Game 2 (10 Feb 2025)
  round 1: Cleo* 12 (Dutch), Ann 4, Ben 12     -> beaten (one lower, one tied), draws
                                                  QC 3D KS = 28. Scores A 4, B 12, C 40
  round 2: Ben* Auto Dutch (0), Ann KH KD (0), Cleo 6 -> tied, draws 7H.
                                                  Scores A 0, B 7, C 6
  totals: Ann 4, Ben 19, Cleo 46 -> Ann wins
"""

from __future__ import annotations

import io
import json
from dataclasses import fields
from datetime import UTC, date, datetime, timedelta

import pandas as pd
import pytest

from dutch_app.csv_io import parse_rounds_csv
from dutch_app.services import games, groups, players, rounds
from dutch_app.services.demo import generate_history
from dutch_app.services.history import load_history
from dutch_app.stats_sections import TrendWindows
from dutch_app.stats_view import StatsBundle, StatsFilters, Trend, compute_bundle
from dutch_app.ui.stats_cache import _bundle, games_csv, rounds_csv
from dutch_core import EndCondition, HouseRules, stats
from tests.app.apptools import Table, literal, messages, open_app, shown
from tests.views import get_group

TWO_ROUNDS = HouseRules(end=EndCondition.after_rounds(2))
OPEN = HouseRules(end=EndCondition.open())
STATS = "pages/stats.py"


def play(
    table: Table,
    started: datetime,
    rounds_played: list[tuple],
    rules=TWO_ROUNDS,
    names=("Ann", "Ben", "Cleo"),
) -> int:
    """Start a game of ``names`` (Ann, Ben and Cleo) and add ``(hands, caller, call_type,
    penalty)`` rounds."""
    ids = table.player_ids
    seated = [ids[name] for name in names]
    game = table.call(games.start_game, table.group_id, seated, rules, started_at=started)
    for number, (hands, caller, call_type, penalty) in enumerate(rounds_played, start=1):
        table.call(
            rounds.add_round,
            game.id,
            {ids[name]: text for name, text in hands.items()},
            ids[caller],
            call_type,
            penalty,
            entered_at=started + timedelta(minutes=5 * number),
        )
    return game.id


@pytest.fixture
def history(table: Table) -> Table:
    """The two games of the module docstring."""
    play(
        table,
        datetime(2025, 1, 10, 19, 0, tzinfo=UTC),
        [
            ({"Ann": "9", "Ben": "10", "Cleo": "2"}, "Cleo", "dutch", None),
            ({"Ann": "5", "Ben": "5", "Cleo": "30"}, "Ben", "dutch", "4"),
        ],
    )
    play(
        table,
        datetime(2025, 2, 10, 19, 0, tzinfo=UTC),
        [
            ({"Ann": "4", "Ben": "12", "Cleo": "12"}, "Cleo", "dutch", "QC 3D KS"),
            ({"Ann": "KH KD", "Ben": "", "Cleo": "6"}, "Ben", "auto_dutch", "7H"),
        ],
    )
    return table


def table_with(at, column: str) -> pd.DataFrame:
    """The first table on the page that has ``column``, as shown (shares in percent points)."""
    for frame in at.dataframe:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no table with a {column!r} column")


def row_of(frame: pd.DataFrame, **match) -> dict:
    """The one row of ``frame`` whose columns equal ``match``."""
    mask = pd.Series(True, index=frame.index)
    for column, value in match.items():
        mask &= frame[column] == value
    rows = frame.loc[mask]
    assert len(rows) == 1, rows
    return rows.iloc[0].to_dict()


def show_section(at, section: str):
    """Switch to one of the page's tabs and rerun."""
    at.session_state["stats_section"] = section
    at.run()
    assert not at.exception, at.exception
    return at


def test_players_section_shows_each_players_games_wins_and_scores(history):
    at = open_app(history.account, STATS)
    summary = table_with(at, "avg_round_score")
    assert sorted(summary["player"]) == ["Ann", "Ben", "Cleo"]  # Dan never played
    ann = row_of(summary, player="Ann")
    assert (ann["games"], ann["wins"], ann["win_rate"], ann["rounds"]) == (2, 2, 100.0, 4)
    assert ann["time_played"] == "20 mins"  # two games, each 10 minutes to the last round
    assert (ann["avg_round_score"], ann["median_round_score"]) == (4.5, 4.5)
    assert (ann["best_round"], ann["worst_round"]) == (0, 9)
    assert (ann["avg_game_total"], ann["best_game"], ann["worst_game"]) == (9.0, 4, 14)
    cleo = row_of(summary, player="Cleo")
    assert (cleo["wins"], cleo["win_rate"]) == (0, 0.0)
    assert (cleo["avg_round_score"], cleo["median_round_score"]) == (19.5, 18.0)
    assert (cleo["best_round"], cleo["worst_round"]) == (2, 40)
    assert (cleo["avg_game_total"], cleo["best_game"], cleo["worst_game"]) == (39.0, 32, 46)
    assert any("2 games and 4 rounds" in shown(caption.value) for caption in at.caption)


def test_dutch_calls_show_every_outcome_penalties_and_beaten_calls(history):
    at = show_section(open_app(history.account, STATS), "Dutch calls")
    calls = table_with(at, "calls_per_round")
    ben = row_of(calls, player="Ben")
    assert (ben["calls"], ben["calls_per_round"], ben["auto_dutch"]) == (2, 0.5, 1)
    assert (ben["lowest"], ben["tied"], ben["beaten"]) == (0, 2, 0)
    assert (ben["avg_penalty_cards"], ben["avg_penalty_points"]) == (1.0, 5.5)
    cleo = row_of(calls, player="Cleo")
    assert (cleo["lowest"], cleo["tied"], cleo["beaten"]) == (1, 0, 1)
    assert (cleo["lowest_rate"], cleo["tied_rate"], cleo["beaten_rate"]) == (50.0, 0.0, 50.0)
    assert (cleo["avg_penalty_cards"], cleo["avg_penalty_points"]) == (1.5, 14.0)
    assert "Ann" not in set(calls["player"])
    assert any("Never called in this view: Ann" in shown(caption.value) for caption in at.caption)
    against = table_with(at, "beat_call_rate")
    ann = row_of(against, player="Ann")
    assert (ann["faced_calls"], ann["beat_calls"], ann["beat_call_rate"]) == (4, 1, 25.0)
    assert row_of(against, player="Cleo")["beat_calls"] == 0
    by_total = table_with(at, "lowest_rate_at_or_below")
    assert by_total["hand_total"].tolist() == [0, 2, 5, 12]
    assert by_total["lowest"].tolist() == [0, 1, 0, 0]
    assert by_total["lowest_rate_at_or_below"].tolist() == pytest.approx(
        [0, 100 / 2, 100 / 3, 100 / 4]
    )


def test_head_to_head_counts_who_finished_lower_in_shared_games(history):
    at = show_section(open_app(history.account, STATS), "Head to head")
    pairs = table_with(at, "opponent")
    ben_v_cleo = row_of(pairs, player="Ben", opponent="Cleo")
    assert (ben_v_cleo["games"], ben_v_cleo["lower"], ben_v_cleo["higher"]) == (2, 2, 0)
    cleo_v_ann = row_of(pairs, player="Cleo", opponent="Ann")
    assert (cleo_v_ann["lower"], cleo_v_ann["higher"], cleo_v_ann["lower_rate"]) == (0, 2, 0.0)


def test_records_show_the_streak_the_best_game_and_the_comeback(history):
    at = show_section(open_app(history.account, STATS), "Records")
    found = table_with(at, "record")
    held = {(r["record"], r["player"], r["value"]) for r in found.to_dict("records")}
    assert held == {
        ("Longest winning streak", "Ann", 2),
        ("Best game", "Ann", 4),
        ("Biggest comeback", "Ann", 7),
    }
    mine = table_with(at, "biggest_comeback")
    ann = row_of(mine, player="Ann")
    assert (ann["longest_win_streak"], ann["current_win_streak"], ann["best_game"]) == (2, 2, 4)


def test_trends_follow_each_player_and_one_chosen_game(history):
    at = show_section(open_app(history.account, STATS), "Trends")
    scores = table_with(at, "rolling_avg")
    assert scores.loc[scores["player"] == "Cleo", "rolling_avg"].tolist() == [2, 16, 24, 19.5]
    wins = table_with(at, "win_rate")
    assert wins.loc[wins["player"] == "Ann", "win_rate"].tolist() == [100.0, 100.0]
    calls = table_with(at, "success_rate")
    assert calls.loc[calls["player"] == "Cleo", "success_rate"].tolist() == [100.0, 50.0]
    picker = at.selectbox(key="stats_game")
    assert picker.options[0].startswith("10 Feb 2025")  # the newest game first, in the locale
    totals = table_with(at, "game_total")
    assert totals.loc[totals["player"] == "Cleo", "game_total"].tolist() == [40, 46]
    picker.select_index(1)
    at.run()
    assert not at.exception
    totals = table_with(at, "game_total")
    assert totals.loc[totals["player"] == "Cleo", "game_total"].tolist() == [2, 32]


def test_drawing_every_section_leaves_the_shared_numbers_as_computed(history):
    """The bundle is shared by every rerun and member; showing it must not change it."""
    at = open_app(history.account, STATS)
    version = history.call(groups.cache_stamp, history.group_id)
    shared = _bundle(history.group_id, version, StatsFilters(), TrendWindows())
    fresh = compute_bundle(history.call(load_history, history.group_id), None, TrendWindows())
    for section in (
        "Players",
        "Ratings",
        "Dutch calls",
        "Head to head",
        "Records",
        "Trends",
        "One player",
    ):
        show_section(at, section)
    assert _bundle(history.group_id, version, StatsFilters(), TrendWindows()) is shared
    parts = [(f.name, getattr(shared, f.name), getattr(fresh, f.name)) for f in fields(StatsBundle)]
    parts += [(key, kept, fresh.tables[key]) for key, kept in shared.tables.items()]
    for name, kept, computed in parts:
        if name == "tables":
            assert kept.keys() == computed.keys()
            continue
        if isinstance(kept, Trend):
            kept, computed = kept.table, computed.table
        if isinstance(kept, pd.DataFrame):
            pd.testing.assert_frame_equal(kept, computed)
        else:
            assert kept == computed, name


def test_the_rolling_window_can_be_chosen_and_is_kept_across_tabs(history):
    at = show_section(open_app(history.account, STATS), "Trends")
    at.select_slider(key="stats_window_rounds").set_value(3).run()
    assert not at.exception
    scores = table_with(at, "rolling_avg")
    cleo = scores.loc[scores["player"] == "Cleo", "rolling_avg"].tolist()
    assert cleo == pytest.approx([2, 16, 24, 76 / 3])  # 30 + 40 + 6 over the last three
    show_section(at, "Players")
    show_section(at, "Trends")
    assert at.select_slider(key="stats_window_rounds").value == 3
    scores = table_with(at, "rolling_avg")
    assert scores.loc[scores["player"] == "Cleo", "rolling_avg"].iloc[-1] == pytest.approx(76 / 3)


def test_rounds_games_and_calls_each_have_a_rolling_window_of_their_own(history):
    """Choosing the rounds' window leaves the games' and the calls' windows as they were."""
    at = show_section(open_app(history.account, STATS), "Trends")
    sliders = {slider.key: slider for slider in at.select_slider}
    assert set(sliders) == {"stats_window_rounds", "stats_window_games", "stats_window_calls"}
    assert [sliders[f"stats_window_{w}"].label for w in ("rounds", "games", "calls")] == [
        "Rolling average over each player's latest rounds",
        "Rolling average over each player's latest games",
        "Rolling average over each player's latest calls",
    ]
    calls_before = table_with(at, "rolling_success_rate")
    at.select_slider(key="stats_window_rounds").set_value(3).run()
    pd.testing.assert_frame_equal(table_with(at, "rolling_success_rate"), calls_before)
    at.select_slider(key="stats_window_calls").set_value(5).run()
    assert not at.exception
    assert at.select_slider(key="stats_window_rounds").value == 3
    assert at.select_slider(key="stats_window_games").value == 10
    assert at.select_slider(key="stats_window_calls").value == 5


def test_a_date_range_keeps_only_the_games_started_in_it(history):
    at = open_app(history.account, STATS)
    at.date_input(key="stats_dates").set_value((date(2025, 2, 1), date(2025, 2, 28))).run()
    assert not at.exception
    summary = table_with(at, "avg_round_score")
    ann = row_of(summary, player="Ann")
    assert (ann["games"], ann["rounds"], ann["avg_round_score"], ann["best_game"]) == (1, 2, 2, 4)
    assert row_of(summary, player="Cleo")["avg_round_score"] == 23.0


def test_choosing_players_shows_only_their_rows_of_their_games(history):
    at = open_app(history.account, STATS)
    at.multiselect(key="stats_players").select(history.player_ids["Cleo"]).run()
    assert not at.exception
    summary = table_with(at, "avg_round_score")
    assert summary["player"].tolist() == ["Cleo"]
    # Wins still compare Cleo with everyone at the table.
    assert row_of(summary, player="Cleo")["games"] == 2
    show_section(at, "Head to head")
    assert set(table_with(at, "opponent")["player"]) == {"Cleo"}


def test_a_renamed_or_new_player_shows_in_the_filter_on_the_next_run(history):
    at = open_app(history.account, STATS)
    assert at.multiselect(key="stats_players").options == ["Ann", "Ben", "Cleo", "Dan"]
    history.call(players.rename_player, history.player_ids["Ben"], "Benedict")
    history.call(players.add_player, history.group_id, "Bea")
    at.run()
    assert not at.exception
    assert at.multiselect(key="stats_players").options == ["Ann", "Bea", "Benedict", "Cleo", "Dan"]


def test_a_new_round_shows_on_the_next_run(history):
    at = open_app(history.account, STATS)
    assert row_of(table_with(at, "avg_round_score"), player="Ann")["rounds"] == 4
    play(
        history,
        datetime(2025, 3, 1, 19, 0, tzinfo=UTC),
        [({"Ann": "1", "Ben": "20", "Cleo": "20"}, "Ann", "dutch", None)],
        rules=OPEN,
    )
    at.run()
    assert not at.exception
    ann = row_of(table_with(at, "avg_round_score"), player="Ann")
    assert (ann["games"], ann["rounds"], ann["wins"]) == (3, 5, 2)  # the new game is still on
    assert ann["avg_round_score"] == pytest.approx(19 / 5)  # 9 + 5 + 4 + 0 + 1


def test_a_group_without_rounds_explains_what_to_do(table):
    at = open_app(table.account, STATS)
    assert any("no rounds yet" in text for text in messages(at))
    assert not at.dataframe
    assert not at.tabs


def test_filters_matching_nothing_say_so(history):
    at = open_app(history.account, STATS)
    at.date_input(key="stats_dates").set_value((date(2020, 1, 1), date(2020, 12, 31))).run()
    assert not at.exception
    assert any("No games match these filters" in text for text in messages(at))
    assert not at.dataframe


def test_someone_without_a_group_is_sent_to_the_group_page(app_resources):
    account = app_resources.accounts.sign_up("eve@example.com", "correct horse 42", "Eve")
    at = open_app(account, STATS)
    assert any("not in a group yet" in text for text in messages(at))


def test_the_view_can_be_downloaded(history):
    at = open_app(history.account, STATS)
    labels = {button.label for button in at.download_button}
    assert labels == {"Rounds CSV", "Games CSV"}


def test_downloads_hold_exactly_the_filtered_view(history):
    """The files are made when clicked, outside the script run, from the same filters."""
    version = history.call(groups.cache_stamp, history.group_id)
    february = StatsFilters(date(2025, 2, 1), date(2025, 2, 28), None)
    key = (history.account.user_id, history.group_id, version, february)
    plan = parse_rounds_csv(rounds_csv(*key))
    assert [game.rules for game in plan.games] == [TWO_ROUNDS]
    assert [len(game.rounds) for game in plan.games] == [2]
    games_file = pd.read_csv(io.BytesIO(games_csv(*key)))
    assert dict(zip(games_file["player"], games_file["game_total"], strict=True)) == {
        "Ann": 4,
        "Ben": 19,
        "Cleo": 46,
    }


def test_a_long_history_offers_the_newest_games_to_pick_and_says_how_to_reach_older_ones(table):
    with table.resources.sessions() as session:
        summary = generate_history(session, table.group_id, rows=14_000, seed=3)
    assert summary.games > 300
    at = show_section(open_app(table.account, STATS), "Trends")
    picker = at.selectbox(key="stats_game")
    assert len(picker.options) == 300
    newest = table.call(games.list_games, table.group_id)[0]
    assert picker.value == newest.id
    assert any(
        f"The newest 300 of {summary.games:,} games" in shown(caption.value)
        for caption in at.caption
    )


def test_names_in_markdown_are_shown_literally(history):
    history.call(groups.rename_group, history.group_id, "**Friday** <b>cards</b>")
    at = open_app(history.account, STATS)
    assert "Group: **Friday** <b>cards</b>" in [literal(caption.value) for caption in at.caption]


def test_switching_groups_drops_the_other_groups_players_from_the_filter(history):
    other = history.call(groups.create_group, "Sunday cards")
    history.call(players.add_player, other.id, "Zoe")
    at = open_app(history.account, STATS)
    at.multiselect(key="stats_players").select(history.player_ids["Cleo"]).run()
    at.session_state["active_group_id"] = other.id
    at.run()
    assert not at.exception
    assert not at.error
    assert at.multiselect(key="stats_players").value == []
    assert any("no rounds yet" in text for text in messages(at))


def test_a_game_still_going_with_no_call_yet_explains_the_missing_numbers(table):
    deck_out = HouseRules(allow_no_caller=True, end=EndCondition.open())
    ids = table.player_ids
    seated = [ids["Ann"], ids["Ben"]]
    game = table.call(games.start_game, table.group_id, seated, deck_out)
    table.call(rounds.add_round, game.id, {ids["Ann"]: "7", ids["Ben"]: "9"}, None, None)
    at = open_app(table.account, STATS)
    assert any("no game in this view has ended yet" in text.lower() for text in messages(at))
    for section, expected in (
        ("Ratings", "Ratings start with the first ended game"),
        ("Dutch calls", "Nobody in this view has called Dutch yet."),
        ("Head to head", "Head to head counts ended games"),
        ("Records", "no records have been set"),
        ("Trends", "No calls in this view yet."),
        ("One player", "No ended games in this view."),
    ):
        show_section(at, section)
        assert any(expected in text for text in messages(at)), section


def test_a_new_group_with_a_deleted_groups_id_and_version_never_gets_its_statistics(history):
    """Caches rest on the group's random cache key, never on its id: even a group that gets
    a deleted group's id and reaches the same data version sees only its own players."""
    from sqlalchemy import update

    from dutch_app.storage.models import Group, Membership, Player

    at = open_app(history.account, STATS)
    assert sorted(table_with(at, "avg_round_score")["player"]) == ["Ann", "Ben", "Cleo"]
    old = history.call(get_group, history.group_id)
    history.call(groups.leave_group, history.group_id)  # the last member: the group goes
    with history.resources.sessions() as session:
        session.add(Group(id=old.id, name="New club", invite_code="NEWCODE1", data_version=1))
        session.add(Membership(group_id=old.id, user_id=history.account.user_id, role="owner"))
        session.commit()
    seated = [history.call(players.add_player, old.id, name).id for name in ("Xia", "Yan")]
    game = history.call(games.start_game, old.id, seated, OPEN)
    history.call(rounds.add_round, game.id, {seated[0]: "3", seated[1]: "8"}, seated[0], "dutch")
    with history.resources.sessions() as session:  # the same version the old group had
        session.execute(
            update(Group).where(Group.id == old.id).values(data_version=old.data_version)
        )
        session.commit()
        assert session.get(Player, seated[0]).group_id == old.id
    again = open_app(history.account, STATS)
    assert sorted(table_with(again, "avg_round_score")["player"]) == ["Xia", "Yan"]


def chart_specs(at) -> list[dict]:
    """The Vega-Lite specs of the charts on the page, in page order."""
    return [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]


def colour_of(spec: dict, player: str) -> str:
    scale = spec["encoding"]["color"]["scale"]
    return scale["range"][scale["domain"].index(player)]


def test_ratings_rank_the_steady_winner_first_and_call_everyone_provisional(history):
    at = show_section(open_app(history.account, STATS), "Ratings")
    ratings = table_with(at, "rating_text")
    assert ratings["player"].tolist() == ["Ann", "Ben", "Cleo"]
    assert ratings["rating_text"].tolist() == ["provisional: 3 more games"] * 3
    assert ratings["wins"].tolist() == [2, 0, 0]
    assert ratings["win_rate"].tolist() == [100.0, 0.0, 0.0]
    assert ratings["mu"].is_monotonic_decreasing
    over_time = table_with(at, "game_number")
    assert over_time.loc[over_time["player"] == "Ann", "game_number"].tolist() == [1, 2]
    chances = table_with(at, "win_chance")
    assert chances["player"].tolist() == ["Ann", "Ben", "Cleo"]  # the whole line-up by default
    assert chances["win_chance"].sum() == pytest.approx(100)
    assert chances["win_chance"].tolist() == sorted(chances["win_chance"], reverse=True)


def test_a_chosen_line_up_gets_its_own_win_chances(history):
    at = show_section(open_app(history.account, STATS), "Ratings")
    at.multiselect(key="stats_lineup").set_value(["Cleo", "Ben"]).run()
    assert not at.exception
    chances = table_with(at, "win_chance")
    assert chances["player"].tolist() == ["Cleo", "Ben"]
    assert chances["win_chance"].iloc[1] > 0.5
    at.multiselect(key="stats_lineup").set_value(["Cleo"]).run()
    assert any("at least two players" in info.value for info in at.info)


def page_text(at) -> str:
    """Every Markdown text on the page, as a person reads it."""
    return "\n".join(shown(markdown.value) for markdown in at.markdown)


def in_ten(chance: float) -> str:
    """A chance in games out of ten, as the sentences round it (never at the ends here)."""
    assert 0.05 < chance < 0.95
    return str(round(chance * 10))


def test_ratings_in_words_before_anyone_has_five_games(history):
    """Two games each: nobody is best yet. By hand, the ridge skill after both is a third
    of each player's summed margin below the table's average: Ann (23/3 + 19) / 3 = +8.9,
    Ben (8/3 + 4) / 3 = +2.2, Cleo -(31/3 + 23) / 3 = -11.1 points a game."""
    at = show_section(open_app(history.account, STATS), "Ratings")
    text = page_text(at)
    assert (
        "Nobody is settled yet, so there is no best player: a rating settles after 5 rated games."
        in text
    )
    ratings = stats.player_ratings(history.call(load_history, history.group_id))
    share = dict(zip(ratings["player"], ratings["group_chance"], strict=True))
    assert "Provisional, until 5 rated games:" in text
    for name, points in (("Ann", "+8.9"), ("Ben", "+2.2"), ("Cleo", "-11.1")):
        line = (
            f"{name}: 3 more games to settle ({points} points a game so far); "
            f"wins {round(share[name] * 100)}% of games against this group"
        )
        assert line in text
    assert text.index("Ann: 3 more") < text.index("Ben: 3 more") < text.index("Cleo: 3 more")
    # The line-up starts as the latest game's players; Ann is the signed-in person.
    assert at.multiselect(key="stats_lineup").value == ["Ann", "Ben", "Cleo"]
    chances = stats.win_chances(ratings, ["Ann", "Ben", "Cleo"])
    chance = dict(zip(chances["player"], chances["win_chance"], strict=True))
    assert (
        f"Your chance tonight: you (Ann) win about {in_ten(chance['Ann'])} in 10 games "
        "against this line-up." in text
    )
    assert f"Ben wins about {in_ten(chance['Ben'])} in 10 such games" in text
    at.multiselect(key="stats_lineup").set_value(["Cleo", "Ben"]).run()
    text = page_text(at)
    assert "Your chance tonight" not in text  # Ann does not play
    chances = stats.win_chances(ratings, ["Cleo", "Ben"])
    assert f"Cleo wins about {in_ten(chances['win_chance'][0])} in 10 such games" in text


def test_settled_ratings_name_the_best_player_and_rank_newcomers_below_in_dutch(history):
    """Three more games ending Ann 0, Ben 10, Cleo 20 (margins -10, 0, +10): with five
    games each the skills are a sixth of the summed margins: Ann (80/3 + 30) / 6 = +9.4,
    Ben (20/3) / 6 = +1.1, Cleo -(100/3 + 30) / 6 = -10.6 points a game."""
    for day in (1, 2, 3):
        play(
            history,
            datetime(2025, 3, day, 19, tzinfo=UTC),
            [
                ({"Ann": "KH KD", "Ben": "4", "Cleo": "10"}, "Ann", "dutch", None),
                ({"Ann": "KH KD", "Ben": "6", "Cleo": "10"}, "Ann", "dutch", None),
            ],
        )
    at = open_app(history.account, STATS, context={"locale": "nl-NL"})
    at = show_section(at, "Ratings")
    text = page_text(at)
    assert "Beste speler: Ann, met +9,4 punten per spel." in text
    ratings = stats.player_ratings(history.call(load_history, history.group_id))
    share = dict(zip(ratings["player"], ratings["group_chance"], strict=True))
    for name, points in (("Ann", "+9,4"), ("Ben", "+1,1"), ("Cleo", "-10,6")):
        line = (
            f"{name}: {points} punten per spel; wint {round(share[name] * 100)}% van de "
            "spellen tegen deze groep"
        )
        assert line in text
    assert "Voorlopig" not in text
    # Dan joins for one game: he is provisional, listed below the settled players.
    play(
        history,
        datetime(2025, 3, 4, 19, tzinfo=UTC),
        [
            ({"Ann": "5", "Ben": "6", "Dan": "7"}, "Ann", "dutch", None),
            ({"Ann": "5", "Ben": "6", "Dan": "7"}, "Ann", "dutch", None),
        ],
        names=("Ann", "Ben", "Dan"),
    )
    at = show_section(open_app(history.account, STATS, context={"locale": "nl-NL"}), "Ratings")
    text = page_text(at)
    assert "Voorlopig, tot 5 gewaardeerde spellen:" in text
    assert "Dan: nog 4 spellen tot een vaste rating" in text
    assert text.index("Cleo: ") < text.index("Voorlopig") < text.index("Dan: nog 4")
    assert at.multiselect(key="stats_lineup").value == ["Ann", "Ben", "Dan"]
    assert "Jouw kans vanavond: jij (Ann) wint ongeveer" in text


def test_should_i_call_shows_the_chances_by_hand_total_with_counts_and_the_reference(history):
    at = show_section(open_app(history.account, STATS), "Dutch calls")
    assert at.selectbox(key="stats_call_players").value == 3
    chances = table_with(at, "expected_cost")
    assert chances["hand_total"].tolist() == [0, 2, 5, 12]
    assert chances["calls"].tolist() == [1, 1, 1, 1]
    assert chances["lowest_rate"].tolist() == [0, 100, 0, 0]
    assert chances["reference"].iloc[1] > chances["reference"].iloc[3]
    assert chances["fitted"].between(0, 100).all()
    lines = " ".join(markdown.value for markdown in at.markdown)
    assert "**Cleo** calls at 7.0 on average" in lines
    assert "against random hands the same calls would succeed" in lines
    profiles = table_with(at, "reference_rate")
    assert row_of(profiles, player="Ben")["avg_hand_total"] == 2.5


def cleo_calls_ten_times(table: Table) -> None:
    """A game of Ann, Ben and Cleo in which Cleo calls ten times: eight times at 2, lowest,
    then twice at 12, beaten by Ann's 4 (drawing two cards each)."""
    lowest = ({"Ann": "9", "Ben": "10", "Cleo": "2"}, "Cleo", "dutch", None)
    beaten = ({"Ann": "4", "Ben": "20", "Cleo": "12"}, "Cleo", "dutch", "5H 6H")
    play(table, datetime(2025, 3, 1, 19, tzinfo=UTC), [lowest] * 8 + [beaten] * 2, rules=OPEN)


def test_each_callers_advice_is_one_line_beside_the_chart_for_the_table_size(history):
    at = show_section(open_app(history.account, STATS), "Dutch calls")
    lines = "\n".join(shown(markdown.value) for markdown in at.markdown)
    assert "Cleo: not enough calls yet with 3 players (2 of 10)." in lines
    cleo_calls_ten_times(history)
    at.run()
    lines = "\n".join(shown(markdown.value) for markdown in at.markdown)
    # With the two calls above: at 2 or less, 9 of 9 lowest; at 12 or less, 9 of 12 (75%).
    assert "Cleo: call at 12 or less: with 3 players, 9 of 12 such calls were lowest." in lines
    assert "Ben: not enough calls yet with 3 players (2 of 10)." in lines
    assert "Ann:" not in lines  # never called


def test_the_one_player_view_shows_rating_record_rivals_calls_and_best_games(history):
    at = show_section(open_app(history.account, STATS), "One player")
    at.selectbox(key="stats_one_player").select("Cleo").run()
    assert not at.exception
    metrics = {metric.label: metric.value for metric in at.metric}
    assert metrics["Rating"] == "provisional: 3 more games"
    assert metrics["Wins"] == "0 of 2"
    lines = " ".join(markdown.value for markdown in at.markdown)
    assert "Beats most often: nobody yet" in lines
    assert "Beaten most often by: Ann (2 of 2 games)" in lines
    calls = table_with(at, "reference")
    assert calls["hand_total"].tolist() == [2, 12]
    assert calls["lowest_rate"].tolist() == [100.0, 0.0]
    best, worst = [frame.value for frame in at.dataframe if "game_total" in frame.value.columns][:2]
    assert best["game_total"].tolist() == [32, 46]
    assert worst["game_total"].tolist() == [46, 32]
    at.selectbox(key="stats_one_player").select("Ann").run()
    lines = " ".join(markdown.value for markdown in at.markdown)
    assert "Beats most often: Ben (2 of 2 games)" in lines  # Ben ties with Cleo, fewer games first
    assert any("No calls in this view" in info.value for info in at.info)


def test_each_player_has_one_colour_in_every_chart(history):
    at = open_app(history.account, STATS)
    win_rate = next(spec for spec in chart_specs(at) if "win_rate" in json.dumps(spec))
    show_section(at, "Ratings")
    rating = next(spec for spec in chart_specs(at) if "Rating over time" in json.dumps(spec))
    show_section(at, "Trends")
    trends = [spec for spec in chart_specs(at) if "player" in spec.get("usermeta", {})]
    for player in ("Ann", "Ben", "Cleo"):
        colours = {colour_of(spec, player) for spec in [win_rate, rating, *trends]}
        assert len(colours) == 1, (player, colours)
    assert len({colour_of(rating, player) for player in ("Ann", "Ben", "Cleo")}) == 3
    assert not any("colours" in markdown.value for markdown in at.markdown)  # no stray text


def test_a_single_game_trend_counts_rounds_instead_of_dates(history):
    at = open_app(history.account, STATS)
    at.date_input(key="stats_dates").set_value((date(2025, 2, 10), date(2025, 2, 10))).run()
    show_section(at, "Trends")
    specs = [spec for spec in chart_specs(at) if "Round score over time" in json.dumps(spec)]
    assert specs[0]["encoding"]["x"]["field"] == "player_round"
    at.date_input(key="stats_dates").set_value(()).run()
    specs = [spec for spec in chart_specs(at) if "Round score over time" in json.dumps(spec)]
    assert specs[0]["encoding"]["x"]["type"] == "temporal"
    assert specs[0]["encoding"]["x"]["axis"]["format"] == "%-d %b"


def test_correcting_a_past_round_rates_the_whole_history_again(history):
    """Ann's 9 in the first round becomes 40: Ben wins that game, and the ratings follow."""
    at = show_section(open_app(history.account, STATS), "Ratings")
    before = table_with(at, "rating_text").set_index("player")
    ids = history.player_ids
    first_game = int(history.call(load_history, history.group_id)["game_id"].iloc[0])
    stored = history.call(games.get_game, first_game).rounds[0]
    history.call(
        rounds.edit_round,
        stored.id,
        stored.version,
        {ids["Ann"]: "40", ids["Ben"]: "10", ids["Cleo"]: "2"},
        ids["Cleo"],
        "dutch",
    )
    show_section(at, "Ratings")
    after = table_with(at, "rating_text").set_index("player")
    assert after.loc["Ben", "wins"] == 1
    assert after.loc["Ben", "mu"] > before.loc["Ben", "mu"]
    assert after.loc["Ann", "mu"] < before.loc["Ann", "mu"]


def test_narrowed_to_one_player_their_calls_still_count_everyone_at_the_table(history):
    at = open_app(history.account, STATS)
    at.multiselect(key="stats_players").select(history.player_ids["Cleo"]).run()
    show_section(at, "Dutch calls")
    assert at.selectbox(key="stats_call_players").options == ["3"]  # three hands, not one
    chances = table_with(at, "expected_cost")
    assert chances["hand_total"].tolist() == [2, 12]  # Cleo's own calls only
    profiles = table_with(at, "reference_rate")
    assert profiles["player"].tolist() == ["Cleo"]


def test_the_servers_cache_keeps_frames_and_bundles_within_its_memory_budget(history, monkeypatch):
    """History frames and bundles live in one cache per server process, weighed in bytes and
    kept under the ``cache_megabytes`` limit; the page works the same with a tiny budget, and
    with one loading slot."""
    import streamlit as st

    from dutch_app.ui.cache import MIB, shared_memory

    at = open_app(history.account, STATS)
    cache = shared_memory()
    assert (cache.entries.maxsize, cache.loading_slots) == (512 * MIB, 2)
    assert len(cache.entries) >= 2  # the frame and the bundle
    assert 0 < cache.entries.currsize <= cache.entries.maxsize
    monkeypatch.setenv("DUTCH_CACHE_MEGABYTES", "1")
    monkeypatch.setenv("DUTCH_LOADING_SLOTS", "1")
    st.cache_resource.clear()
    at = open_app(history.account, STATS)
    small = shared_memory()
    assert small is not cache and (small.entries.maxsize, small.loading_slots) == (MIB, 1)
    assert small.entries.currsize <= MIB
    assert table_with(at, "avg_round_score")["player"].tolist()
