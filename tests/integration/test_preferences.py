"""Preferences: kept with the account, read back on any device, in the data download, and
deleted with the account; on SQLite and on PostgreSQL."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from sqlalchemy import select

from dutch_app.accounts.export import export_user_data
from dutch_app.accounts.local import LocalBackend
from dutch_app.services import games, groups, players, setup
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.preferences import (
    DEFAULTS,
    Preferences,
    get_preferences,
    last_group,
    remember_group,
    save_preferences,
)
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import UserPreferences
from dutch_core import PRESETS, EndCondition, HouseRules
from dutch_core.errors import GameError

KEY = b"a test key that signs session tokens"
PASSWORD = "Correct horse 42"


@pytest.fixture
def backend(sessions) -> LocalBackend:
    return LocalBackend(sessions, secret_key=KEY)


def _rules() -> HouseRules:
    return HouseRules(red_king_value=5, end=EndCondition.after_rounds(7))


def _start_a_game(sessions, user_id: int, rules: HouseRules) -> int:
    with sessions() as session:
        group = perform(session, groups.create_group, user_id, "Friday")  # Ann, who made it, plays
        (own,) = perform(session, players.list_players, user_id, group.id)
        ids = [own.id, perform(session, players.add_player, user_id, group.id, "Bo").id]
        return perform(session, setup.start_game_with_players, user_id, group.id, ids, rules).id


def test_someone_who_chose_nothing_gets_the_defaults(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        assert perform(session, get_preferences, ann.user_id) == DEFAULTS
    assert Preferences(language=None, theme="auto", keep_awake=True, last_rules=None) == DEFAULTS


def test_saved_preferences_are_read_back_in_a_new_session(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    with sessions() as session:
        perform(
            session, save_preferences, ann.user_id, language="nl", theme="dark", keep_awake=False
        )
    with sessions() as session:  # another device: nothing but the database in common
        assert perform(session, get_preferences, ann.user_id) == Preferences(
            "nl", "dark", False, None
        )
        assert perform(session, get_preferences, bob.user_id) == DEFAULTS
    with sessions() as session:
        perform(
            session, save_preferences, ann.user_id, language=None, theme="light", keep_awake=True
        )
        assert perform(session, get_preferences, ann.user_id) == Preferences(
            None, "light", True, None
        )


@pytest.mark.parametrize(
    ("choices", "field"),
    [
        ({"language": "xx", "theme": "auto", "keep_awake": True}, "language"),
        ({"language": "NL", "theme": "auto", "keep_awake": True}, "language"),
        ({"language": None, "theme": "purple", "keep_awake": True}, "theme"),
        ({"language": None, "theme": "dark\u0000", "keep_awake": True}, "theme"),
        ({"language": None, "theme": "auto", "keep_awake": "yes"}, "keep_awake"),
    ],
)
def test_choices_the_app_does_not_offer_are_refused_and_nothing_is_stored(
    backend, sessions, choices, field
):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        with pytest.raises(ValidationError) as refused:
            perform(session, save_preferences, ann.user_id, **choices)
        assert refused.value.field == field
        assert session.scalars(select(UserPreferences)).all() == []


def test_a_stranger_id_has_no_preferences(sessions):
    with sessions() as session, pytest.raises(NotFound):
        perform(session, get_preferences, 123456)


def test_the_rules_of_the_last_game_started_are_remembered_and_kept_on_saving(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    _start_a_game(sessions, ann.user_id, _rules())
    with sessions() as session:
        assert perform(session, get_preferences, ann.user_id).last_rules == _rules()
        perform(
            session, save_preferences, ann.user_id, language="de", theme="auto", keep_awake=True
        )
    with sessions() as session:
        kept = perform(session, get_preferences, ann.user_id)
    assert (kept.language, kept.last_rules) == ("de", _rules())


def test_a_refused_game_leaves_the_remembered_rules_alone(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    game_id = _start_a_game(sessions, ann.user_id, _rules())
    with sessions() as session:
        group_id = perform(session, games.get_game, ann.user_id, game_id).group_id
        with pytest.raises(GameError):  # one seat is not a game
            perform(
                session,
                setup.start_game_with_players,
                ann.user_id,
                group_id,
                ["Cy"],
                PRESETS["points"],
            )
        assert perform(session, get_preferences, ann.user_id).last_rules == _rules()


def _unzip(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name.split("/", 1)[1]: archive.read(name).decode() for name in archive.namelist()}


def test_the_data_download_holds_the_preferences(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    with sessions() as session:
        before = json.loads(_unzip(export_user_data(session, ann.user_id))["preferences.json"])
    assert before == {"saved": False}
    _start_a_game(sessions, ann.user_id, _rules())
    with sessions() as session:
        perform(
            session, save_preferences, ann.user_id, language="fr", theme="dark", keep_awake=False
        )
        files = _unzip(export_user_data(session, ann.user_id))
    saved = json.loads(files["preferences.json"])
    assert (saved["language"], saved["theme"], saved["keep_screen_awake"]) == ("fr", "dark", False)
    assert HouseRules.from_dict(saved["last_used_house_rules"]) == _rules()
    assert "preferences.json" in files["README.txt"]


def test_deleting_the_account_deletes_its_preferences_only(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    bob = backend.sign_up("bob@example.com", PASSWORD, "Bob")
    for person in (ann, bob):
        with sessions() as session:
            perform(
                session,
                save_preferences,
                person.user_id,
                language="nl",
                theme="dark",
                keep_awake=True,
            )
    backend.delete_account(ann.user_id, PASSWORD)
    with sessions() as session:
        assert session.scalars(select(UserPreferences.user_id)).all() == [bob.user_id]


def test_the_last_chosen_group_counts_only_while_the_person_is_a_member(backend, sessions):
    ann = backend.sign_up("ann@example.com", PASSWORD, "Ann")
    eve = backend.sign_up("eve@example.com", PASSWORD, "Eve")
    with sessions() as session:
        friday = perform(session, groups.create_group, ann.user_id, "Friday")
        sunday = perform(session, groups.create_group, ann.user_id, "Sunday")
        strangers = perform(session, groups.create_group, eve.user_id, "Eve's")
    with sessions() as session:
        assert perform(session, last_group, ann.user_id) is None
        perform(session, remember_group, ann.user_id, sunday.id)
    with sessions() as session:  # another device
        assert perform(session, last_group, ann.user_id) == sunday.id
        assert perform(session, get_preferences, ann.user_id).last_group_id == sunday.id
        with pytest.raises(NotFound):
            perform(session, remember_group, ann.user_id, strangers.id)
        assert perform(session, last_group, ann.user_id) == sunday.id
        perform(session, groups.leave_group, ann.user_id, sunday.id)
    with sessions() as session:
        assert perform(session, last_group, ann.user_id) is None
        perform(session, remember_group, ann.user_id, friday.id)
        assert perform(session, last_group, ann.user_id) == friday.id
