"""The game pickers of the History and Stats pages keep telling the truth about the
game picked in them.

Streamlit sends the words of a keyed select box's picked option only with its value,
so a browser would go on showing "1 round, in progress" after the game moved on unless
the page sends the value again (``dutch_app.ui.widgets.labelled_selectbox``). Each test
picks a game, lets it change while the picker stays on the page, makes the page run
again the way a person would, and reads the picker's text in Chromium.
"""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Locator, Page, expect

from dutch_app.i18n import format_moment
from dutch_app.services import games, rounds
from dutch_core import PRESETS, GameStatus
from tests.e2e.streamlit_ui import (
    choose,
    expect_clean_page,
    expect_title,
    open_page,
    press,
    wait_until_idle,
    widget,
)

pytestmark = pytest.mark.e2e

SEATS = ["Ann", "Ben", "Cleo"]
START = datetime(2025, 5, 5, 19, 0, tzinfo=UTC)
HANDS = ("3", "9", "12")


@pytest.fixture
def two_games(make_table, request):
    """A group with two games of Ann, Ben and Cleo in progress, one round played in each:
    the table, the older game and the newer."""
    table = make_table("Ann", f"{request.node.name}@example.com", "Pickers", SEATS)
    seated = [table.player_ids[name] for name in SEATS]
    started = []
    for number in range(2):
        begun = START + timedelta(days=number)
        game = table.call(
            games.start_game, table.group_id, seated, PRESETS["classic"], started_at=begun
        )
        add_round(table, game.id, begun + timedelta(minutes=10))
        started.append(game)
    return table, *started


def add_round(table, game_id: int, entered_at: datetime | None = None) -> None:
    """A round where Ann calls Dutch with the lowest hand, as another phone would save it."""
    seated = [table.player_ids[name] for name in SEATS]
    hands = dict(zip(seated, HANDS, strict=True))
    table.call(rounds.add_round, game_id, hands, seated[0], "dutch", None, entered_at=entered_at)


def signed_in(page: Page, table, url: str, title: str) -> Page:
    page.context.add_cookies([table.session_cookie(url)])
    page.goto(url)
    expect_title(page, "Play")
    open_page(page, title)
    return page


def as_shown(page: Page, moment: datetime) -> str:
    """``moment`` as the page writes it: in the browser's own locale (``en-US`` here)."""
    return format_moment(moment, page.evaluate("navigator.language").replace("-", "_"))


def picked(page: Page, key: str) -> Locator:
    return widget(page, key).get_by_role("combobox")


def test_the_history_picker_says_a_game_ended_once_it_is_ended(app_server, two_games, browser_page):
    """Ending the picked game on the History page, then reopening it: the picker above
    says so each time, without picking the game again."""
    table, older, _newer = two_games
    page = signed_in(browser_page, table, app_server.url, "History")
    older_label = as_shown(page, START) + " · Ann, Ben, Cleo · 1 round, {}"
    choose(page, "history_game", older_label.format("in progress"))
    press(page.get_by_role("button", name="End this game"))
    expect(page.get_by_role("button", name="Reopen this game")).to_be_visible()
    expect(picked(page, "history_game")).to_have_value(older_label.format("ended"))
    press(page.get_by_role("button", name="Reopen this game"))
    expect(page.get_by_role("button", name="End this game")).to_be_visible()
    expect(picked(page, "history_game")).to_have_value(older_label.format("in progress"))
    stored = table.call(games.get_game, older.id)
    assert stored.status is GameStatus.ACTIVE and stored.rounds_played == 1
    expect_clean_page(page)


def test_the_stats_game_picker_counts_a_round_saved_at_the_table(
    app_server, two_games, browser_page
):
    """The Stats page's "one game, round by round" picker, with a game picked: a round
    saved on another phone shows in the picker's words on the page's next run (here a
    move of a trend's slider)."""
    table, older, _newer = two_games
    page = signed_in(browser_page, table, app_server.url, "Stats")
    page.get_by_role("tab", name="Trends").click()
    older_label = as_shown(page, START) + " · Ann, Ben, Cleo · {} · In progress"
    choose(page, "stats_game", older_label.format("1 round"))
    add_round(table, older.id)
    slider = widget(page, "stats_window_games").get_by_role("slider")
    before = slider.get_attribute("aria-valuenow")
    slider.focus()
    slider.press("ArrowRight")
    expect(slider).not_to_have_attribute("aria-valuenow", before or "")
    wait_until_idle(page)
    expect(picked(page, "stats_game")).to_have_value(older_label.format("2 rounds"))
    assert table.call(games.get_game, older.id).rounds_played == 2
    expect_clean_page(page)
