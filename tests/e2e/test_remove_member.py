"""An owner removes a member while the member has the app open, in Chromium."""

from __future__ import annotations

from playwright.sync_api import expect

from dutch_app.accounts import make_backend
from dutch_app.config import load_settings
from dutch_app.services import groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.db import get_engine, make_session_factory
from tests.e2e.streamlit_ui import (
    PASSWORD,
    SESSION_COOKIE,
    expect_clean_page,
    expect_title,
    fill,
    press,
    widget,
)


def test_a_removed_members_open_tab_says_so_and_writes_nothing(
    streamlit_server, page_factory, tmp_path
):
    """Ann removes Ben on her Group page (after ticking the box); Ben's tab, open on the
    same group, says on his next click that he is no longer a member, adds nothing to the
    group, and shows no error."""
    database = f"sqlite:///{tmp_path / 'dutch.db'}"
    environ = {
        "DUTCH_DATABASE_URL": database,
        "DUTCH_SECRET_KEY": "e2e-secret-key-long-enough-to-sign-session-tokens",
        "DUTCH_AUTH_BACKEND": "local",
    }
    engine = get_engine(database)
    sessions = make_session_factory(engine)
    backend = make_backend(sessions, load_settings({}, environ))
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    ben = backend.sign_up("ben@example.com", PASSWORD, "Ben")
    with sessions() as session:
        group = perform(session, groups.create_group, ann.user_id, "Friday cards")
        perform(session, groups.join_group, ben.user_id, group.invite_code)
    url = streamlit_server(environ)

    def signed_in(account):
        page = page_factory()
        token = backend.issue_token(account.user_id)
        page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": url}])
        page.goto(url + "/group")
        expect_title(page, "Group")
        return page

    bens_tab = signed_in(ben)
    expect(bens_tab.get_by_role("heading", name="Friday cards")).to_be_visible()
    fill(bens_tab, "group_add_player_name", "Zed")

    anns_tab = signed_in(ann)
    anns_tab.get_by_text("Remove a member").click()
    press(anns_tab.get_by_role("button", name="Remove the member"))
    refused = anns_tab.get_by_text("Tick the box above to confirm; nobody was removed.")
    expect(refused).to_be_visible()
    press(widget(anns_tab, "group_remove_confirm").get_by_text("Yes, remove Ben"))
    # The tick reruns the page, which reads as idle until that run starts: the run has
    # ended once the refusal it no longer draws is gone, and only then is Remove pressed.
    expect(refused).to_be_hidden()
    press(anns_tab.get_by_role("button", name="Remove the member"))
    # Said once, in place (no toast besides).
    removed = anns_tab.get_by_test_id("stAlertContentSuccess")
    expect(removed.get_by_text("Ben is no longer a member of Friday cards.")).to_be_visible()
    expect_clean_page(anns_tab)

    press(bens_tab.get_by_role("button", name="Add the player"))
    notice = bens_tab.get_by_text("You are no longer a member of the group Friday cards")
    expect(notice).to_be_visible()
    expect(bens_tab.get_by_text("You are not in a group yet")).to_be_visible()
    expect_clean_page(bens_tab)
    with sessions() as session:  # Ann's and Ben's own players, Ben's now unlinked; no Zed
        listed = perform(session, players.list_players, ann.user_id, group.id)
        assert [(p.name, p.user_id) for p in listed] == [("Ann", ann.user_id), ("Ben", None)]
    engine.dispose()
