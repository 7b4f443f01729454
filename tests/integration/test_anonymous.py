"""Playing without an account: made with one tap, counted per network, kept later with an
email and password, moved into an existing account, and deleted after 30 unused days.

Tests that take ``backend`` run with local accounts and with Firebase (the Auth emulator:
its anonymous sign-up, and linking a password to the anonymous user).
"""

from __future__ import annotations

import pytest
from firebase_admin import auth
from sqlalchemy import func, select

from dutch_app.accounts import EmailTaken, NotSupported, RateLimited, WeakPassword
from dutch_app.accounts.base import AccountBackend
from dutch_app.accounts.firebase import FirebaseBackend
from dutch_app.accounts.housekeeping import Daily
from dutch_app.accounts.local import LocalBackend
from dutch_app.accounts.ratelimit import ANONYMOUS
from dutch_app.config import FirebaseSettings
from dutch_app.services import games, groups, moving, rounds, setup
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Group, LocalCredential, Membership, User
from dutch_core import PRESETS

KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"
NETWORK = "198.51.100.7"


@pytest.fixture(params=["local", pytest.param("firebase", marks=pytest.mark.firebase)])
def backend(request: pytest.FixtureRequest, sessions, clock) -> AccountBackend:
    if request.param == "local":
        return LocalBackend(sessions, secret_key=KEY, clock=clock)
    emulator = request.getfixturevalue("firebase_auth_emulator")
    emulator.clear()
    settings = FirebaseSettings(
        project_id=emulator.project_id, api_key="demo-api-key", auth_emulator_host=emulator.host
    )
    return FirebaseBackend(sessions, settings, secret_key=KEY, clock=clock)


def a_game_with_a_round(sessions, user_id: int) -> tuple[int, int]:
    """The person's private group with a game of two and one saved round: (group, game)."""
    with sessions() as session:
        group = perform(session, groups.create_group, user_id, "My games")
        game = perform(
            session, setup.start_game_with_players, user_id, group.id, ["Ann", "Bo"],
            PRESETS["classic"],
        )  # fmt: skip
        seats = perform(session, games.get_seating, user_id, game.id)
        first, second = (player.id for player in seats.players)
        hands = {first: "3", second: "9"}
        perform(session, rounds.add_round, user_id, game.id, hands, first, "dutch")
    return group.id, game.id


def test_one_tap_makes_a_signed_in_account_with_no_email_or_password(backend, sessions):
    made = backend.start_anonymous("Guest", client=NETWORK)
    assert (made.anonymous, made.email, made.display_name) == (True, "", "Guest")
    token = backend.issue_token(made.user_id)
    assert backend.check_session(token) == made == backend.resume(token)
    with sessions() as session:
        user = session.get_one(User, made.user_id)
        assert (user.email, user.is_anonymous) == (None, True)
        assert session.get(LocalCredential, made.user_id) is None
    other = backend.start_anonymous("Guest", client=NETWORK)
    assert other.user_id != made.user_id  # two guests never share an account
    if isinstance(backend, FirebaseBackend):  # a Firebase anonymous user, without a provider
        record = auth.get_user(user.auth_subject, app=backend._app)
        assert (record.email, record.provider_data) == (None, [])


def test_a_network_makes_thirty_anonymous_accounts_a_day_then_waits(sessions, clock):
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock)
    for _ in range(ANONYMOUS.free):
        backend.start_anonymous("Guest", client=NETWORK)
    with pytest.raises(RateLimited, match="Too many new accounts from your network"):
        backend.start_anonymous("Guest", client=NETWORK)
    backend.start_anonymous("Guest", client="203.0.113.9")  # another network is not slowed
    clock.advance(minutes=1, seconds=1)
    backend.start_anonymous("Guest", client=NETWORK)  # after the wait, one more
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(User)) == ANONYMOUS.free + 2


def test_keeping_the_account_gives_it_an_email_and_password_with_its_games(backend, sessions):
    made = backend.start_anonymous("Guest", client=NETWORK)
    group_id, game_id = a_game_with_a_round(sessions, made.user_id)

    with pytest.raises(WeakPassword):  # the rules of sign-up hold
        backend.keep_account(made.user_id, "guest@example.com", "short")
    backend.sign_up("taken@example.com", PASSWORD, "Taken")
    with pytest.raises(EmailTaken):
        backend.keep_account(made.user_id, "taken@example.com", PASSWORD)

    kept = backend.keep_account(made.user_id, " Guest@Example.com ", PASSWORD)
    assert (kept.user_id, kept.email, kept.anonymous) == (made.user_id, "guest@example.com", False)
    assert backend.check_session(backend.issue_token(made.user_id)) == kept  # the tab's new session
    again = backend.sign_in("guest@example.com", PASSWORD)  # another device signs in
    assert again.user_id == made.user_id
    with sessions() as session:
        assert [g.id for g in perform(session, groups.list_groups, again.user_id)] == [group_id]
        assert perform(session, games.get_game, again.user_id, game_id).rounds_played == 1
    with pytest.raises(NotSupported):  # kept once: the same step cannot take another address
        backend.keep_account(made.user_id, "other@example.com", PASSWORD)


def test_signing_in_from_an_anonymous_account_can_move_its_groups(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        shared = perform(session, groups.create_group, ann.user_id, "Friday club")
    guest = backend.start_anonymous("Guest", client=NETWORK)
    mine, game_id = a_game_with_a_round(sessions, guest.user_id)
    with sessions() as session:
        perform(session, groups.join_group, guest.user_id, shared.invite_code)
        assert perform(session, moving.move_groups, guest.user_id, ann.user_id) == 1
    backend.delete_account(guest.user_id, "")  # no password: the session is its credential
    with sessions() as session:
        listed = {g.id: g.role for g in perform(session, groups.list_groups, ann.user_id)}
        assert set(listed) == {mine, shared.id}
        assert listed[mine].value == "owner"
        assert perform(session, games.get_game, ann.user_id, game_id).rounds_played == 1
        assert session.get(User, guest.user_id) is None


def test_moving_never_takes_a_normal_accounts_groups(sessions, clock):
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock)
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bo = backend.sign_up("bo@example.com", PASSWORD, "Bo")
    with sessions() as session:
        perform(session, groups.create_group, bo.user_id, "Bo's")
        assert perform(session, moving.move_groups, bo.user_id, ann.user_id) == 0
        assert perform(session, groups.list_groups, ann.user_id) == []


def test_anonymous_accounts_unused_for_30_days_go_with_their_private_groups(
    backend, sessions, clock
):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        shared = perform(session, groups.create_group, ann.user_id, "Friday club")
    idle = backend.start_anonymous("Guest", client=NETWORK)
    idle_group, _game = a_game_with_a_round(sessions, idle.user_id)
    with sessions() as session:
        perform(session, groups.join_group, idle.user_id, shared.invite_code)
    back = backend.start_anonymous("Guest", client=NETWORK)
    back_token = backend.issue_token(back.user_id)
    kept = backend.start_anonymous("Guest", client=NETWORK)
    backend.keep_account(kept.user_id, "kept@example.com", PASSWORD)
    subjects = {}
    with sessions() as session:
        subjects = {u.id: u.auth_subject for u in session.scalars(select(User))}

    clock.advance(days=29)
    assert backend.check_session(back_token) == back  # a visit: counted from today
    clean_up = Daily(backend.remove_unused_anonymous, clock=clock)
    assert clean_up.run_if_due()  # the start-up's run: nothing is 30 days old yet
    with sessions() as session:
        assert session.get(User, idle.user_id) is not None

    clock.advance(hours=23, minutes=59)
    assert not clean_up.run_if_due()  # a day since the last run has not quite passed
    clock.advance(minutes=2)
    assert clean_up.run_if_due()
    with sessions() as session:
        assert session.get(User, idle.user_id) is None
        assert session.get(Group, idle_group) is None  # its private group, with the game
        assert session.get(Group, shared.id) is not None  # a shared group stays
        assert session.scalars(select(Membership.user_id).where(
            Membership.group_id == shared.id)).all() == [ann.user_id]  # fmt: skip
        assert session.get(User, back.user_id) is not None  # seen 1 day ago
        assert session.get(User, kept.user_id) is not None  # no longer anonymous
        assert session.get(User, ann.user_id) is not None
    if isinstance(backend, FirebaseBackend):
        with pytest.raises(auth.UserNotFoundError):
            auth.get_user(subjects[idle.user_id], app=backend._app)
        auth.get_user(subjects[back.user_id], app=backend._app)

    clock.advance(days=31)
    assert clean_up.run_if_due()
    with sessions() as session:
        assert session.get(User, back.user_id) is None
        assert session.get(User, kept.user_id) is not None


def test_daily_work_that_fails_is_logged_and_tried_again_a_day_later(clock, caplog):
    tries = []

    def work(now):
        tries.append(now)
        raise RuntimeError("the database went away")

    daily = Daily(work, clock=clock)
    assert daily.run_if_due() and not daily.run_if_due()
    assert "daily housekeeping failed" in caplog.text
    clock.advance(days=1)
    assert daily.run_if_due() and len(tries) == 2
