"""The player pickers (the Group page's, the set-up's line-up) keep pointing at the player
picked in them after the player's name changed.

The browser answers a select box with the words of the option it shows. After a rename
those words are the old name, which no player has any more; Streamlit took that for no
pick at all and fell back to the first player, so a second rename (or a link) made
without picking again went to somebody else.
"""

import pytest
from playwright.sync_api import expect

from dutch_app.services import games, players
from tests.e2e.streamlit_ui import (
    choose,
    expect_clean_page,
    expect_title,
    field,
    fill,
    press,
    widget,
)

pytestmark = pytest.mark.e2e

SEATS = ["Ann", "Ben", "Cleo"]


def test_a_second_rename_without_picking_again_renames_the_same_player(
    app_server, make_table, browser_page, request
):
    table = make_table("Ann", f"{request.node.name}@example.com", "Renames", SEATS)
    page = browser_page
    page.context.add_cookies([table.session_cookie(app_server.url)])
    page.goto(app_server.url + "/group")
    expect_title(page, "Group")
    page.get_by_text("Rename a player").click()
    choose(page, "group_rename_player", "Cleo")
    for new_name in ("Clea", "Cleopatra"):
        if not widget(page, "group_rename_player").is_visible():  # folded by the last rename
            page.get_by_text("Rename a player").click()
        fill(page, "group_rename_player_name", new_name)
        press(page.get_by_role("button", name="Rename the player"))
        expect(page.get_by_text(f"is now called {new_name} in every game.")).to_be_visible()
        page.get_by_text("Rename a player").click()
        picked = widget(page, "group_rename_player").get_by_role("combobox")
        expect(picked).to_have_value(new_name)
    listed = table.call(players.list_players, table.group_id)
    assert {player.id: player.name for player in listed} == {
        table.player_ids["Ann"]: "Ann",
        table.player_ids["Ben"]: "Ben",
        table.player_ids["Cleo"]: "Cleopatra",
    }
    expect_clean_page(page)


def test_a_player_renamed_on_another_phone_stays_in_the_line_up_being_chosen(
    app_server, make_table, browser_page, request
):
    """Ann chooses Ann and Cleo for a new game; Cleo is renamed Clea on another phone;
    Ann goes on filling in the set-up (each field she leaves runs the page) and starts:
    Clea sits at the table (Streamlit dropped her: the browser named her Cleo)."""
    table = make_table("Ann", f"{request.node.name}@example.com", "Line-ups", SEATS)
    page = browser_page
    page.context.add_cookies([table.session_cookie(app_server.url)])
    page.goto(app_server.url)
    expect_title(page, "Play")
    line_up = widget(page, "play_setup_players")
    expect(line_up.locator("[data-tag]")).to_have_text(["Ann"])
    press(line_up.locator("input"))
    page.get_by_role("option", name="Cleo", exact=True).click()
    expect(line_up.locator("[data-tag]")).to_have_text(["Ann", "Cleo"])
    table.call(players.rename_player, table.player_ids["Cleo"], "Clea")
    for note in ("Friday", "Friday night"):
        fill(page, "play_setup_notes", note)
        field(page, "play_setup_notes").press("Enter")
    expect(line_up.locator("[data-tag]")).to_have_text(["Ann", "Clea"])
    press(widget(page, "play_setup_start").get_by_role("button"))
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    (game,) = table.call(games.list_games, table.group_id)
    assert [seat.name for seat in table.call(games.get_game, game.id).players] == ["Ann", "Clea"]
    expect_clean_page(page)
