"""A session ended elsewhere ends in every open tab: the next action there changes nothing.

Ann has the Group page open in one browser; in another browser (another device) she signs
out. The first tab still shows the Group page, but the moment she uses it, it shows the
sign-in page with a plain message, and the player she tried to add is not stored.
"""

from __future__ import annotations

from playwright.sync_api import expect

from dutch_app.services import players
from dutch_app.ui.context import ENDED_ELSEWHERE
from tests.e2e.streamlit_ui import expect_title, fill, open_page, press


def test_signing_out_on_another_device_ends_the_open_tab_before_it_changes_anything(
    app_server, make_table, page_factory
):
    table = make_table("Ann", "ann.tabs@example.com", "Tab club", ["Ann", "Ben"])
    first, other = page_factory(), page_factory()
    for page in (first, other):
        page.context.add_cookies([table.session_cookie(app_server.url)])
        page.goto(app_server.url)
        expect_title(page, "Play")
    open_page(first, "Group")

    press(other.get_by_test_id("stSidebar").get_by_role("button", name="Sign out"))
    expect_title(other, "Dutch Scorer")

    fill(first, "group_add_player_name", "Mallory")
    press(first.get_by_role("button", name="Add the player"))
    expect_title(first, "Dutch Scorer")
    expect(first.get_by_text(ENDED_ELSEWHERE)).to_be_visible()
    expect(first.get_by_test_id("stSidebar").get_by_role("button", name="Sign out")).to_have_count(
        0
    )
    roster = sorted(p.name for p in table.call(players.list_players, table.group_id))
    assert roster == ["Ann", "Ben"]

    first.reload()  # the cookie it kept is no good either
    expect_title(first, "Dutch Scorer")
