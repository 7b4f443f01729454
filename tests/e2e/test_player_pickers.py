"""The Group page's player pickers keep pointing at the player picked in them after the
player's name changed.

The browser answers a select box with the words of the option it shows. After a rename
those words are the old name, which no player has any more; Streamlit took that for no
pick at all and fell back to the first player, so a second rename (or a link) made
without picking again went to somebody else.
"""

import pytest
from playwright.sync_api import expect

from dutch_app.services import players
from tests.e2e.streamlit_ui import choose, expect_clean_page, expect_title, fill, press, widget

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
