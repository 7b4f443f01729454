"""Playing without an account: the sign-in page's one tap, joining by invite link as a
guest, and the Account page's offer to keep the games."""

from datetime import UTC, datetime, timedelta

from dutch_app.services import groups
from dutch_app.services.unit_of_work import perform
from tests.app.apptools import make_table, messages, open_app
from tests.views import get_group

PASSWORD = "correct horse 42"


def test_one_tap_on_the_sign_in_page_opens_game_set_up_in_a_private_group(app_resources):
    at = open_app()
    at.button(key="signin_play_now").click().run()
    assert not at.exception
    account = at.session_state["account"]
    assert (account.anonymous, account.email, account.display_name) == (True, "", "Guest")
    assert [title.value for title in at.title] == ["Play"]
    with app_resources.sessions() as session:
        mine = perform(session, groups.list_groups, account.user_id)
    assert [(g.name, g.role.value) for g in mine] == [("My games", "owner")]
    assert at.session_state["active_group_id"] == mine[0].id
    assert at.multiselect(key="play_setup_players") is not None  # set-up, ready to start
    at.run()  # the next run keeps the session, as every run checks it
    assert at.session_state["account"] == account


def test_an_invite_link_opened_signed_out_lets_a_guest_join_the_group(app_resources):
    owner = make_table(app_resources)
    code = owner.call(get_group, owner.group_id).invite_code
    at = open_app()
    at.query_params["join"] = code
    at.run()
    assert "signin_play_now" not in [button.key for button in at.button]
    at.button(key="signin_join_as_guest").click().run()
    assert not at.exception
    guest = at.session_state["account"]
    assert guest.anonymous
    assert "You joined Friday cards with the invite link; it is now your active group." in (
        messages(at)
    )
    with app_resources.sessions() as session:  # the group of the link, and no other
        assert [g.id for g in perform(session, groups.list_groups, guest.user_id)] == [
            owner.group_id
        ]


def test_the_account_page_offers_to_keep_the_games_with_an_email_and_password(app_resources):
    at = open_app()
    at.button(key="signin_play_now").click().run()
    at.switch_page("pages/account.py")
    at.run()
    assert not at.exception
    assert "Keep your games: add an email and password" in [h.value for h in at.subheader]
    keys = [field.key for field in at.text_input]
    assert "account_current_password" not in keys  # no password to change yet
    assert "account_delete_password" not in keys
    # The guest's tab holds a session from an hour ago (a guest plays before keeping).
    guest = at.session_state["account"]
    an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
    guest_token = app_resources.accounts.issue_token(guest.user_id, now=an_hour_ago)
    at.session_state["session_token"] = guest_token
    at.text_input(key="account_keep_email").input("guest@example.com")
    at.text_input(key="account_keep_password").input(PASSWORD)
    at.button(key="FormSubmitter:account_keep_form-Keep my games").click().run()
    assert not at.exception
    kept = at.session_state["account"]
    assert (kept.anonymous, kept.email) == (False, "guest@example.com")
    assert "account_keep_email" not in [field.key for field in at.text_input]
    # A new session, so that an account store that ends the sessions started before the
    # password was set (Firebase does) does not sign this tab out a few minutes later.
    assert at.session_state["session_token"] != guest_token
    assert app_resources.accounts.check_session(at.session_state["session_token"]) == kept
    signed_in = app_resources.accounts.sign_in("guest@example.com", PASSWORD)
    assert signed_in.user_id == kept.user_id
