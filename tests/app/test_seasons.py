"""Seasons on Stats, History and Group: the one-tap period filters the games, agrees with
the date filter, is remembered for the person's next visit; the owner sets the seasons."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from dutch_app.services import games, groups, preferences, rounds, seasons
from dutch_core import EndCondition, HouseRules, SeasonKind, season_before, season_of
from tests.app.apptools import Table, open_app
from tests.views import get_group

ONE_ROUND = HouseRules(end=EndCondition.after_rounds(1))
STATS, HISTORY, GROUP = "pages/stats.py", "pages/history.py", "pages/group.py"


def play(table: Table, started: datetime, winner: str) -> None:
    """A one-round game of Ann and Ben that ``winner`` wins with a Dutch call."""
    ids = table.player_ids
    seated = [ids["Ann"], ids["Ben"]]
    game = table.call(games.start_game, table.group_id, seated, ONE_ROUND, started_at=started)
    loser = "Ben" if winner == "Ann" else "Ann"
    hands = {ids[winner]: "2", ids[loser]: "9"}
    entered = started + timedelta(minutes=5)
    table.call(rounds.add_round, game.id, hands, ids[winner], "dutch", entered_at=entered)


@pytest.fixture
def two_seasons(table: Table) -> Table:
    """Ann won a game this quarter; Ben won two in the quarter before (UTC: the tests'
    browser gives no time zone)."""
    this = season_of(datetime.now(UTC).date(), SeasonKind.QUARTER)
    last = season_before(this, SeasonKind.QUARTER)
    noon = datetime.combine(this.first_day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=12)
    play(table, noon, "Ann")
    earlier = datetime.combine(last.first_day, datetime.min.time(), tzinfo=UTC)
    play(table, earlier + timedelta(days=3, hours=20), "Ben")
    play(table, earlier + timedelta(days=4, hours=20), "Ben")
    return table


def games_caption(at) -> str:
    return next(c.value for c in at.caption if " in this view" in c.value)


def test_tapping_this_season_filters_stats_and_fills_in_the_dates(two_seasons):
    at = open_app(two_seasons.account, STATS)
    assert games_caption(at).startswith("3 games")
    leaders = next(frame.value for frame in at.dataframe if "leaders" in frame.value.columns)
    assert leaders["leaders"].tolist() == ["Ann", "Ben"]  # the latest season first
    at.segmented_control(key="stats_period").set_value("this").run()
    assert not at.exception, at.exception
    assert games_caption(at).startswith("1 game ")
    this = season_of(datetime.now(UTC).date(), SeasonKind.QUARTER)
    assert tuple(at.date_input(key="stats_dates").value) == (this.first_day, this.last_day)
    at.segmented_control(key="stats_period").set_value("last").run()
    assert games_caption(at).startswith("2 games")


def test_the_period_works_in_another_language_and_time_zone(two_seasons):
    two_seasons.call(preferences.save_preferences, language="nl", theme="auto", keep_awake=True)
    at = open_app(two_seasons.account, STATS, {"timezone": "Europe/Amsterdam"})
    assert at.segmented_control(key="stats_period").options == [
        "Dit seizoen",
        "Vorig seizoen",
        "Altijd",
    ]
    at.segmented_control(key="stats_period").set_value("last").run()
    assert not at.exception, at.exception
    assert any(c.value.startswith("2 spellen") for c in at.caption)


def test_picking_other_dates_clears_the_period(two_seasons):
    at = open_app(two_seasons.account, STATS)
    at.segmented_control(key="stats_period").set_value("this").run()
    at.date_input(key="stats_dates").set_value((date(2020, 1, 1), date.today())).run()
    assert not at.exception, at.exception
    assert at.segmented_control(key="stats_period").value is None
    assert games_caption(at).startswith("3 games")


def test_the_period_is_remembered_for_the_next_visit_and_on_history(two_seasons):
    at = open_app(two_seasons.account, STATS)
    at.segmented_control(key="stats_period").set_value("last").run()
    kept = two_seasons.call(preferences.get_preferences)
    assert kept.season_choice == "last"
    later = open_app(two_seasons.account, HISTORY)  # a new visit
    assert not later.exception, later.exception
    assert later.segmented_control(key="history_period").value == "last"
    listed = next(frame.value for frame in later.dataframe if "Started" in frame.value.columns)
    assert len(listed) == 2


def test_the_owner_chooses_the_season_kind_and_names_seasons(two_seasons):
    at = open_app(two_seasons.account, GROUP)
    at.selectbox(key="group_season_kind").set_value("named").run()
    assert not at.exception, at.exception
    at.text_input(key="group_season_name").set_value("<b>Cup</b>")
    at.date_input(key="group_season_start").set_value(date(2020, 1, 1))
    at.button(key="group_season_add").click().run()
    assert not at.exception, at.exception
    found = two_seasons.call(seasons.group_seasons, two_seasons.group_id)
    assert found.kind == SeasonKind.NAMED
    assert [s.name for s in found.named] == ["<b>Cup</b>"]
    stats = open_app(two_seasons.account, STATS)
    shown = next(frame.value for frame in stats.dataframe if "leaders" in frame.value.columns)
    assert shown["season"].tolist() == ["<b>Cup</b>"]  # plain data, never markup


def test_a_member_who_is_not_the_owner_sees_no_season_settings(two_seasons, app_resources):
    code = get_group_code(two_seasons)
    other = app_resources.accounts.sign_up("mia@example.com", "correct horse 42", "Mia")
    with app_resources.sessions() as session:
        from dutch_app.services.unit_of_work import perform

        perform(session, groups.join_group, other.user_id, code)
    at = open_app(other, GROUP)
    assert not at.exception, at.exception
    assert not [box for box in at.selectbox if box.key == "group_season_kind"]


def get_group_code(table: Table) -> str:
    with table.resources.sessions() as session:
        return get_group(session, table.account.user_id, table.group_id).invite_code
