"""The Play page on a phone (390×844): a round is entered and the standings read at the table."""

from playwright.sync_api import expect

from dutch_app.services import games
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    data_frame,
    expect_clean_page,
    expect_standings,
    expect_title,
    fill_round,
    save_button,
    take_picture,
    wait_until_idle,
    widget,
)


def test_a_round_entered_on_a_phone_updates_the_standings(
    app_server, make_table, phone_page, screenshot
):
    """The round form comes first on a narrow screen; a tied Dutch call with its penalty
    card saves, the form moves on to round 2, and the standings below show the totals
    within the width of the screen."""
    table = make_table("Ann", "ann.train-rides@example.com", "Train rides", ["Ann", "Ben", "Cleo"])
    seats = [table.player_ids[name] for name in ("Ann", "Ben", "Cleo")]
    table.call(games.start_game, table.group_id, seats, PRESETS["classic"])
    phone_page.context.add_cookies([table.session_cookie(app_server.url)])

    phone_page.goto(app_server.url)
    expect_title(phone_page, "Play")
    assert phone_page.evaluate("window.innerWidth") == 390
    entry = widget(phone_page, "play_round_hand_0")
    standings = phone_page.get_by_role("heading", name="Standings")
    assert entry.bounding_box()["y"] < standings.bounding_box()["y"]

    fill_round(phone_page, "play_round", ["5", "5", "9"], "Ann", penalty="4S")
    wait_until_idle(phone_page)
    save_button(phone_page).tap()

    expect_standings(phone_page, [(1, "Ben", 5), (2, "Ann", 9), (2, "Cleo", 9)])
    box = data_frame(phone_page, "Rank", "Player", "Total").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # no sideways scrolling
    expect(phone_page.get_by_text("Round 1 saved.")).to_be_visible()
    expect(phone_page.get_by_role("heading", name="Round 2")).to_be_visible()
    expect_clean_page(phone_page)
    heading = phone_page.get_by_role("heading", name="Round 2")
    take_picture(phone_page, screenshot, "phone-play", top=heading, hide_toasts=True)
