"""Accounts as a person experiences them, on both backends (local and Firebase emulator).

Every test that takes ``backend`` runs twice: once with accounts in the project's
database and once with Firebase Authentication (the Auth emulator). The clock is
passed in, so cooling-off times and token expiry are tested without waiting.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import re
import shutil
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from firebase_admin import auth
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from dutch_app.accounts import (
    Account,
    AuthFailed,
    EmailTaken,
    InvalidDisplayName,
    InvalidEmail,
    RateLimited,
    WeakPassword,
    issue_session_token,
    make_backend,
)
from dutch_app.accounts.base import AccountBackend
from dutch_app.accounts.export import export_user_data
from dutch_app.accounts.firebase import FirebaseBackend
from dutch_app.accounts.local import LocalBackend
from dutch_app.accounts.passwords import PasswordHashes
from dutch_app.config import FirebaseSettings, load_settings
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Group,
    LocalCredential,
    Membership,
    Player,
    Round,
    RoundHand,
    ThrottleCounter,
    User,
)

KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"
NEW_PASSWORD = "Battery staple 77"


@pytest.fixture
def database(request: pytest.FixtureRequest, migrated_sqlite, tmp_path) -> Iterator[str]:
    """The database URL: a fresh migrated SQLite file, or PostgreSQL database when asked."""
    if getattr(request, "param", "sqlite") == "postgres":
        yield request.getfixturevalue("migrated_postgres_database")()
        return
    path = tmp_path / "dutch.db"
    shutil.copy(migrated_sqlite, path)
    yield f"sqlite:///{path}"


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


both_databases = pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


def stored_emails(backend: AccountBackend, sessions) -> set[str]:
    """Every address with an account: in our database, and in Firebase for that backend."""
    with sessions() as session:
        emails = set(session.scalars(select(User.email)))
    if isinstance(backend, FirebaseBackend):
        app = backend._app
        emails |= {user.email for user in auth.list_users(app=app).iterate_all()}
    return emails


# --- Sign-up and sign-in ---------------------------------------------------------------------


def test_sign_up_gives_a_signed_in_account_and_sign_in_accepts_any_case(backend):
    made = backend.sign_up("  Ann@Example.com ", PASSWORD, "  Ann  ")
    assert made == Account(made.user_id, "ann@example.com", "Ann", backend.provider)
    assert backend.sign_in("ANN@example.COM", PASSWORD) == made


def test_wrong_password_and_unknown_email_get_one_message(backend):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with pytest.raises(AuthFailed) as wrong_password:
        backend.sign_in("ann@example.com", "Wrong horse 42")
    with pytest.raises(AuthFailed) as unknown_email:
        backend.sign_in("nobody@example.com", PASSWORD)
    assert str(wrong_password.value) == "Email or password is incorrect."
    assert str(unknown_email.value) == str(wrong_password.value)


@both_databases
def test_after_five_failures_each_further_try_waits_twice_as_long(backend, clock):
    """The wait after the sixth failure doubles with each further one (the right password
    waits too); once it has passed, the right password works. More in test_sign_in_limits."""
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    for _ in range(5):
        with pytest.raises(AuthFailed):
            backend.sign_in("ann@example.com", "Wrong horse 42")
    for wait in (1, 2, 4, 8):
        clock.advance(seconds=wait)
        with pytest.raises(AuthFailed):
            backend.sign_in("ann@example.com", "Wrong horse 42")
    with pytest.raises(RateLimited) as waiting:
        backend.sign_in("ann@example.com", PASSWORD)
    assert str(waiting.value).startswith(
        "Too many failed sign-ins for this address. Try again in 1"
    )
    assert 10 <= waiting.value.seconds <= 16
    clock.advance(seconds=16)
    assert backend.sign_in("ann@example.com", PASSWORD).email == "ann@example.com"


def test_failures_spread_over_more_than_fifteen_minutes_do_not_lock(backend, clock):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    for _ in range(6):
        with pytest.raises(AuthFailed):
            backend.sign_in("ann@example.com", "Wrong horse 42")
        clock.advance(minutes=4)
    assert backend.sign_in("ann@example.com", PASSWORD).display_name == "Ann"


def test_a_slowed_address_leaves_other_addresses_alone(backend, clock):
    backend.sign_up("bob@example.com", PASSWORD, "Bob")
    for wait in (0, 0, 0, 0, 0, 1, 2, 4, 8):
        clock.advance(seconds=wait)
        with pytest.raises(AuthFailed):
            backend.sign_in("ann@example.com", PASSWORD)
    with pytest.raises(RateLimited):
        backend.sign_in("Ann@Example.com", PASSWORD)
    assert backend.sign_in("bob@example.com", PASSWORD).display_name == "Bob"


def test_a_successful_sign_in_starts_the_count_afresh(backend):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    for _ in range(4):
        with pytest.raises(AuthFailed):
            backend.sign_in("ann@example.com", "Wrong horse 42")
    backend.sign_in("ann@example.com", PASSWORD)
    for _ in range(4):
        with pytest.raises(AuthFailed):
            backend.sign_in("ann@example.com", "Wrong horse 42")
    assert backend.sign_in("ann@example.com", PASSWORD).display_name == "Ann"


@pytest.mark.parametrize(
    ("password", "complaint"),
    [
        ("Short 1", "at least 10 characters"),
        ("onlylowercaseletters", "mix at least two kinds"),
        ("ann.smith@example.com", "must not be your email"),
        ("Qwerty1234", "too common"),
        ("Correct horse \ud83d 42", "half of a character"),
    ],
)
def test_weak_passwords_are_refused_and_nothing_is_stored(backend, sessions, password, complaint):
    with pytest.raises(WeakPassword, match=complaint) as refused:
        backend.sign_up("ann.smith@example.com", password, "Ann")
    assert refused.value.field == "password"
    assert str(refused.value).startswith("Password: ")
    assert password not in str(refused.value)
    assert stored_emails(backend, sessions) == set()


@pytest.mark.parametrize("email", ["", "ann", "ann@", "@example.com", "ann@example", "a b@c.de"])
def test_malformed_emails_are_refused_and_nothing_is_stored(backend, sessions, email):
    with pytest.raises(InvalidEmail, match=r"^Email: ") as refused:
        backend.sign_up(email, PASSWORD, "Ann")
    assert refused.value.field == "email"
    assert stored_emails(backend, sessions) == set()


def test_a_taken_email_is_refused_whatever_its_case(backend, sessions):
    first = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with pytest.raises(EmailTaken, match=r"'ann@example\.com' already has an account"):
        backend.sign_up("ANN@example.com", "Another pass 99", "Impostor")
    assert stored_emails(backend, sessions) == {"ann@example.com"}
    assert backend.sign_in("ann@example.com", PASSWORD) == first


@pytest.mark.parametrize(
    ("name", "complaint"),
    [("", "please enter a name"), ("   ", "please enter a name"), ("x" * 81, "at most 80")],
)
def test_bad_display_names_are_refused(backend, sessions, name, complaint):
    with pytest.raises(InvalidDisplayName, match=f"^Display name: .*{complaint}") as refused:
        backend.sign_up("ann@example.com", PASSWORD, name)
    assert refused.value.field == "display_name"
    assert stored_emails(backend, sessions) == set()


def test_a_display_name_of_80_characters_is_kept_whole(backend):
    assert backend.sign_up("ann@example.com", PASSWORD, "A" * 80).display_name == "A" * 80


def test_changing_the_display_name_lasts(backend):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    changed = backend.change_display_name(ann.user_id, "  Annie ")
    assert changed == Account(ann.user_id, ann.email, "Annie", backend.provider)
    assert backend.sign_in("ann@example.com", PASSWORD).display_name == "Annie"
    with pytest.raises(InvalidDisplayName):
        backend.change_display_name(ann.user_id, " ")


# --- Staying signed in -----------------------------------------------------------------------


def test_a_session_token_resumes_until_it_expires(backend, clock):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    assert backend.resume(token) == ann
    clock.advance(days=29, hours=23)
    assert backend.resume(token) == ann
    clock.advance(hours=1)
    assert backend.resume(token) is None


def test_the_session_length_is_configurable(sessions, clock):
    backend = LocalBackend(sessions, secret_key=KEY, session_days=2, clock=clock)
    token = backend.issue_token(backend.sign_up("ann@example.com", PASSWORD, "Ann").user_id)
    clock.advance(days=1, hours=23)
    assert backend.resume(token) is not None
    clock.advance(hours=1)
    assert backend.resume(token) is None


def _tamper(token: str, part: int) -> str:
    parts = token.split(".")
    if part == 4:
        parts[4] = ("A" if parts[4][0] != "A" else "B") + parts[4][1:]
    elif part == 1:
        parts[1] = str(int(parts[1]) - 1)  # the user who signed up just before
    else:
        parts[part] = str(int(parts[part]) + 1)
    return ".".join(parts)


@pytest.mark.parametrize("part", [1, 2, 3, 4], ids=["user", "issued", "expiry", "sig"])
def test_a_tampered_token_is_refused(backend, part):
    backend.sign_up("bob@example.com", PASSWORD, "Bob")
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    assert backend.resume(_tamper(token, part)) is None
    assert backend.check_session(_tamper(token, part)) is None
    assert backend.resume(token) == ann


@pytest.mark.parametrize(
    "token",
    [
        "",
        "v1",
        "v1.1.0.0.9999999999.",
        "not a token at all",
        "v2.\u0661.0.9999999999." + "A" * 43,
        f"v2.{2**64}.0.9999999999." + "A" * 43,
        f"v2.1.0.{10**30}." + "A" * 43,
        "v2.1.0.9999999999." + "\u00e9" * 43,
    ],
)
def test_garbage_is_not_a_token(backend, token):
    backend.sign_up("ann@example.com", PASSWORD, "Ann")
    assert backend.resume(token) is None
    assert backend.check_session(token) is None


@both_databases
def test_a_deleted_accounts_token_never_signs_in_as_a_later_account(backend, sessions):
    """Not with the next account (which gets a new id), nor with a row that had its id."""
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    backend.delete_account(ann.user_id, PASSWORD)
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    assert bob.user_id != ann.user_id
    assert backend.resume(token) is None and backend.check_session(token) is None
    with sessions() as session, session.begin():  # even a row given the old id by hand
        session.add(
            User(
                id=ann.user_id,
                auth_provider=backend.provider,
                auth_subject="someone-else",
                email="cy@example.com",
                display_name="Cy",
            )
        )
    assert backend.resume(token) is None and backend.check_session(token) is None


def test_the_quick_check_ends_with_sign_out_elsewhere_and_follows_the_profile(backend):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    phone, laptop = backend.issue_token(ann.user_id), backend.issue_token(ann.user_id)
    assert backend.check_session(phone) == ann
    renamed = backend.change_display_name(ann.user_id, "Annie")
    assert backend.check_session(phone) == renamed
    backend.sign_out(ann.user_id)  # from the laptop
    assert backend.check_session(phone) is None and backend.check_session(laptop) is None


def test_a_password_change_ends_the_quick_check_of_every_session(sessions, clock):
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock)
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    backend.change_password(ann.user_id, PASSWORD, NEW_PASSWORD)
    assert backend.check_session(token) is None
    assert backend.check_session(backend.issue_token(ann.user_id)) == ann


def test_a_token_signed_with_another_key_is_refused(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        forged = issue_session_token(session, ann.user_id, key=b"someone else's key", days=30)
    assert backend.resume(forged) is None


def test_signing_out_ends_every_session_but_not_the_next_sign_in(backend):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    phone, laptop = backend.issue_token(ann.user_id), backend.issue_token(ann.user_id)
    backend.sign_out(ann.user_id)
    assert backend.resume(phone) is None
    assert backend.resume(laptop) is None
    again = backend.sign_in("ann@example.com", PASSWORD)
    assert backend.resume(backend.issue_token(again.user_id)) == ann


def test_the_backend_uses_the_configured_key_and_days(sessions, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no secrets file here: the environment decides
    monkeypatch.setenv("DUTCH_SECRET_KEY", "a key from the environment, long and varied 42")
    monkeypatch.setenv("DUTCH_SESSION_DAYS", "3")
    backend = make_backend(sessions, load_settings(secrets={}))
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    start = datetime(2030, 1, 1, tzinfo=UTC)
    token = backend.issue_token(ann.user_id, now=start)
    assert backend.resume(token, now=start + timedelta(days=2)) == ann
    assert backend.resume(token, now=start + timedelta(days=3)) is None
    monkeypatch.setenv("DUTCH_SECRET_KEY", "a rotated key, just as long and varied as 77")
    rotated = make_backend(sessions, load_settings(secrets={}))
    assert rotated.resume(token, now=start) is None


# --- Local passwords -------------------------------------------------------------------------


def test_changing_the_password_ends_sessions_and_only_the_new_one_works(sessions, clock):
    backend = LocalBackend(sessions, secret_key=KEY, clock=clock)
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    with pytest.raises(AuthFailed, match=r"^Current password: ") as wrong:
        backend.change_password(ann.user_id, "Not my password 1", NEW_PASSWORD)
    assert wrong.value.field == "current_password"
    with pytest.raises(WeakPassword):
        backend.change_password(ann.user_id, PASSWORD, "weakweakweak")
    assert backend.resume(token) == ann  # nothing changed yet

    assert backend.change_password(ann.user_id, PASSWORD, NEW_PASSWORD) == ann
    assert backend.resume(token) is None
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", PASSWORD)
    assert backend.sign_in("ann@example.com", NEW_PASSWORD) == ann


@pytest.mark.real_password_cost
def test_passwords_are_stored_as_argon2id_hashes_and_rehashed_when_parameters_change(
    sessions, clock
):
    cheap = PasswordHashes(PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    old = LocalBackend(sessions, secret_key=KEY, clock=clock, hashes=cheap)
    ann = old.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        first_hash = session.get(LocalCredential, ann.user_id).password_hash
    assert first_hash.startswith("$argon2id$") and "m=1024,t=1,p=1" in first_hash
    assert PASSWORD not in first_hash

    LocalBackend(sessions, secret_key=KEY, clock=clock).sign_in("ann@example.com", PASSWORD)
    with sessions() as session:
        second_hash = session.get(LocalCredential, ann.user_id).password_hash
    assert second_hash.startswith("$argon2id$") and "m=1024,t=1" not in second_hash
    assert old.sign_in("ann@example.com", PASSWORD) == ann  # the new hash still verifies


@pytest.mark.real_password_cost
def test_the_app_hashes_passwords_at_argon2s_default_cost(sessions, tmp_path):
    """3 passes over 64 MiB in 4 lanes: what the app's local accounts store."""
    backend = make_backend(sessions, load_settings(secrets={}, environ={}, project_root=tmp_path))
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        stored = session.get(LocalCredential, ann.user_id).password_hash
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_the_local_backend_sends_no_reset_email(sessions, tmp_path):
    backend = make_backend(sessions, load_settings(secrets={}, environ={}, project_root=tmp_path))
    assert isinstance(backend, LocalBackend) and not backend.password_reset_by_email


# --- Deleting an account ---------------------------------------------------------------------


def test_deleting_the_account_ends_sign_in_sessions_and_frees_the_address(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    token = backend.issue_token(ann.user_id)
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", "Wrong horse 42")

    backend.delete_account(ann.user_id, PASSWORD)

    assert backend.resume(token) is None
    assert stored_emails(backend, sessions) == set()
    with sessions() as session:
        about_ann = select(func.count()).where(ThrottleCounter.email == "ann@example.com")
        assert session.scalar(about_ann) == 0
        assert session.scalar(select(func.count()).select_from(LocalCredential)) == 0
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", PASSWORD)
    assert backend.sign_up("ann@example.com", PASSWORD, "New Ann").display_name == "New Ann"


def test_deleting_needs_the_right_password(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with pytest.raises(AuthFailed, match=r"^Password: ") as refused:
        backend.delete_account(ann.user_id, "Wrong horse 42")
    assert refused.value.field == "password"
    with pytest.raises(AuthFailed, match=r"^Password: "):
        backend.delete_account(ann.user_id, "")
    assert stored_emails(backend, sessions) == {"ann@example.com"}
    assert backend.sign_in("ann@example.com", PASSWORD) == ann


def _group(session: Session, name: str, members: list[tuple[int, str]]) -> Group:
    """A group whose members joined in the order given, one player linked to each."""
    group = Group(name=name, invite_code=f"CODE{name.upper()}"[:32], created_by=members[0][0])
    session.add(group)
    session.flush()
    joined = datetime(2025, 1, 1, tzinfo=UTC)
    for position, (user_id, role) in enumerate(members):
        moment = joined + timedelta(days=position)
        session.add(Membership(group_id=group.id, user_id=user_id, role=role, joined_at=moment))
        display = session.get(User, user_id).display_name
        session.add(
            Player(group_id=group.id, name=display, name_key=display.lower(), user_id=user_id)
        )
    session.flush()
    return group


def _game(session: Session, group: Group, created_by: int) -> Game:
    """A game of the group's players with one finished round."""
    players = session.scalars(select(Player).where(Player.group_id == group.id)).all()
    game = Game(
        group_id=group.id, rules={"preset": "classic"}, status="active", created_by=created_by
    )
    session.add(game)
    session.flush()
    played = Round(
        game_id=game.id,
        number=1,
        caller_player_id=players[0].id,
        call_type="dutch",
        outcome="lowest",
        penalty_cards_due=0,
        entered_by=created_by,
    )
    session.add(played)
    session.flush()
    for seat, player in enumerate(players):
        session.add(GamePlayer(game_id=game.id, seat=seat, player_id=player.id))
        session.add(
            RoundHand(
                round_id=played.id,
                player_id=player.id,
                seat=seat,
                cards="AH 2C",
                hand_total=3,
                penalty_points=0,
                round_score=3,
                game_total=3,
                is_caller=seat == 0,
            )
        )
    session.flush()
    return game


@both_databases
def test_deleting_keeps_shared_history_and_drops_groups_nobody_else_is_in(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    cid = backend.sign_up("cid@example.com", PASSWORD, "Cid")
    with sessions() as session, session.begin():
        shared = _group(
            session,
            "Shared",
            [(ann.user_id, "owner"), (bob.user_id, "member"), (cid.user_id, "member")],
        )
        solo = _group(session, "Solo", [(ann.user_id, "owner")])
        shared_game, solo_game = (
            _game(session, shared, ann.user_id),
            _game(session, solo, ann.user_id),
        )
        ids = shared.id, solo.id, shared_game.id, solo_game.id

    backend.delete_account(ann.user_id, PASSWORD)

    shared_id, solo_id, shared_game_id, solo_game_id = ids
    with sessions() as session:
        roles = dict(
            session.execute(
                select(Membership.user_id, Membership.role).where(Membership.group_id == shared_id)
            ).all()
        )
        assert roles == {bob.user_id: "owner", cid.user_id: "member"}
        players = dict(
            session.execute(
                select(Player.name, Player.user_id).where(Player.group_id == shared_id)
            ).all()
        )
        assert players == {"Ann": None, "Bob": bob.user_id, "Cid": cid.user_id}
        game = session.get(Game, shared_game_id)
        assert game is not None and game.created_by is None
        hands = session.scalars(
            select(RoundHand.player_id).join(Round).where(Round.game_id == shared_game_id)
        ).all()
        assert len(hands) == 3
        assert session.get(Group, solo_id) is None
        assert session.get(Game, solo_game_id) is None
        assert session.scalars(select(Player).where(Player.group_id == solo_id)).all() == []
    assert stored_emails(backend, sessions) == {"bob@example.com", "cid@example.com"}


# --- Downloading one's data ------------------------------------------------------------------


def _unzip(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name.split("/", 1)[1]: archive.read(name).decode() for name in archive.namelist()}


def test_the_download_holds_the_profile_and_what_the_groups_hold(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    with sessions() as session, session.begin():
        shared = _group(session, "Shared", [(bob.user_id, "owner"), (ann.user_id, "member")])
        _game(session, shared, bob.user_id)
        hidden = _group(session, "Hidden", [(bob.user_id, "owner")])
        session.add(Player(group_id=hidden.id, name="Zelda", name_key="zelda"))
    with sessions() as session:
        files = _unzip(export_user_data(session, ann.user_id))

    profile = json.loads(files["profile.json"])
    assert profile["email"] == "ann@example.com" and profile["display_name"] == "Ann"
    assert profile["signs_in_with"] == backend.provider
    groups = json.loads(files["groups.json"])
    assert [(g["name"], g["your_role"]) for g in groups] == [("Shared", "member")]
    assert [m["display_name"] for m in groups[0]["members"]] == ["Bob", "Ann"]
    assert "group_id,player_id,name,merged_into_id,linked_to_you" in files["players.csv"]
    assert ",Ann,,True" in files["players.csv"] and ",Bob,,False" in files["players.csv"]
    assert len(files["rounds.csv"].splitlines()) == 2
    assert len(files["round_hands.csv"].splitlines()) == 3
    assert "AH 2C" in files["round_hands.csv"]
    everything = "".join(files.values())
    assert "Zelda" not in everything and "Hidden" not in everything
    assert "bob@example.com" not in everything


FORMULA_NAMES = [
    "=1+1",
    '=HYPERLINK("http://x.example/?leak","click")',
    "\uff0bSUM(1)",
    "\ufe66SUM(1)",
    "\ufe62SUM(1)",
    "\ufe63SUM(1)",
    "\ufe6bSUM(1)",
    "\u22121+1",
    "'quoted",
]


def test_the_download_neutralises_formulas_in_every_csv_cell(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "@Ann")
    with sessions() as session, session.begin():
        group = _group(session, "-Group", [(ann.user_id, "owner")])
        for name in FORMULA_NAMES:
            session.add(Player(group_id=group.id, name=name, name_key=name.casefold()))
        session.flush()
        game = _game(session, group, ann.user_id)
        game.notes = "\uff1d1+1"
    with sessions() as session:
        files = _unzip(export_user_data(session, ann.user_id))

    cells = [
        cell
        for name, text in files.items()
        if name.endswith(".csv")
        for row in csv.reader(io.StringIO(text))
        for cell in row
    ]
    starts = (
        *("=", "+", "-", "@", "\t", "\r"),
        *("\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe66", "\ufe62", "\ufe63", "\ufe6b"),
        "\u2212",
    )
    assert not [cell for cell in cells if cell.startswith(starts)]
    restored = {cell[1:] if cell.startswith("'") else cell for cell in cells}
    assert {"@Ann", "\uff1d1+1", *FORMULA_NAMES} <= restored
    assert "''quoted" in cells and "'=1+1" in cells
    # The JSON files keep the names as they are: JSON is not run by spreadsheets.
    assert json.loads(files["profile.json"])["display_name"] == "@Ann"


def test_no_password_hash_or_token_reaches_a_log_or_the_download(backend, sessions, caplog):
    caplog.set_level(logging.DEBUG)
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with pytest.raises(AuthFailed):
        backend.sign_in("ann@example.com", NEW_PASSWORD)
    backend.sign_in("ann@example.com", PASSWORD)
    token = backend.issue_token(ann.user_id)
    backend.resume(token)
    with sessions() as session:
        data = export_user_data(session, ann.user_id)
        stored_hash = session.scalar(select(LocalCredential.password_hash))
    backend.sign_out(ann.user_id)

    secrets = [PASSWORD, NEW_PASSWORD, token, token.rsplit(".", 1)[1]]
    if stored_hash is not None:
        secrets += [stored_hash, stored_hash.rsplit("$", 1)[1]]
    texts = [caplog.text, *_unzip(data).values(), data.decode("latin-1"), repr(backend)]
    for secret in secrets:
        assert all(secret not in text for text in texts)
    assert all("eyJ" not in text for text in texts)  # no Firebase ID or refresh token either
    assert "password" not in repr(ann).lower()


@both_databases
@pytest.mark.parametrize(
    ("display_name", "complaint"),
    [
        ("Ann\x00", "control character (U+0000)"),
        ("Ann \ud83d", "half of a character (U+D83D"),
        ("A" * 81, "at most 80 characters"),
    ],
)
def test_display_names_a_database_cannot_store_are_refused(
    backend, sessions, display_name, complaint
):
    with pytest.raises(InvalidDisplayName, match=re.escape(complaint)) as refused:
        backend.sign_up("ann@example.com", PASSWORD, display_name)
    assert refused.value.field == "display_name"
    assert stored_emails(backend, sessions) == set()
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann   Marie")
    assert ann.display_name == "Ann Marie"
    with pytest.raises(InvalidDisplayName, match=re.escape(complaint)):
        backend.change_display_name(ann.user_id, display_name)


def test_the_downloads_hands_entered_as_totals_read_as_in_the_history_csv(backend, sessions):
    """A hand written down as its total has that total in ``cards``, as the History page's
    rounds file writes it; a lone number card keeps its comma there too."""
    import csv as csv_module

    from dutch_app.services.csv_export import export_rounds

    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    with sessions() as session, session.begin():
        group = _group(session, "Shared", [(ann.user_id, "owner"), (bob.user_id, "member")])
        game = _game(session, group, ann.user_id)
        game.rules = {}  # the original rules, which the History file can write
        hands = session.scalars(select(RoundHand).order_by(RoundHand.seat)).all()
        hands[0].cards, hands[0].hand_total, hands[0].round_score = None, 21, 21
        hands[1].cards, hands[1].hand_total, hands[1].round_score = "7", 7, 7
        group_id, game_id = group.id, game.id
    with sessions() as session:
        files = _unzip(export_user_data(session, ann.user_id))
        history = perform(session, export_rounds, ann.user_id, group_id).decode("utf-8-sig")
    mine = [row["cards"] for row in csv_module.DictReader(io.StringIO(files["round_hands.csv"]))]
    theirs = [row["cards"] for row in csv_module.DictReader(io.StringIO(history))]
    assert mine[:2] == ["21", "7,"]
    assert mine == theirs
    assert game_id
