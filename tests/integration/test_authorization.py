"""Every service, called by someone outside the group, finds nothing and changes nothing.

The outsider is a signed-up person, and again an anonymous account (one tap, no email or
password): the same checks hold for both.

The services are enumerated from the package, so a new service without a case
here makes ``test_every_public_service_is_covered`` fail.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pytest
from sqlalchemy import select

import dutch_app.services
from dutch_app.services import (
    csv_export,
    csv_import,
    demo,
    games,
    groups,
    history,
    live,
    members,
    players,
    preferences,
    rounds,
    seasons,
    setup,
    sharing,
)
from dutch_app.services.errors import NotFound
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import User, token_hash
from dutch_core import PRESETS
from tests.views import get_group

MISSING = 987_654_321


@dataclass(frozen=True)
class World:
    """The owner's group with a player, a game and a round, and a stranger's own group."""

    owner: int
    group: int
    player: int
    other_player: int
    game: int
    round: int
    round_version: int
    stranger_group: int


@pytest.fixture(params=["signed-up", "anonymous"])
def outsider(request, session, make_user) -> Callable[[str], int]:
    """``outsider(name) -> user id``: a signed-up person, or an anonymous account."""
    if request.param == "signed-up":
        return make_user

    def anonymous(display_name: str) -> int:
        user = User(
            auth_provider="local",
            auth_subject=f"anonymous:{display_name.lower()}",
            email=None,
            display_name=display_name,
            is_anonymous=True,
        )
        session.add(user)
        session.commit()
        return user.id

    return anonymous


@pytest.fixture
def world(session, owner, group, seated, outsider) -> World:
    ann, bo = seated[:2]
    game = perform(session, games.start_game, owner, group.id, [ann.id, bo.id], PRESETS["classic"])
    made = perform(
        session, rounds.add_round, owner, game.id, {ann.id: "3", bo.id: "9"}, ann.id, "dutch"
    )
    stranger = outsider("Stranger")
    theirs = perform(session, groups.create_group, stranger, "Stranger's club")
    return World(owner, group.id, ann.id, bo.id, game.id, made.id, made.version, theirs.id)


@pytest.fixture
def stranger(session, world) -> int:
    return session.scalar(select(User.id).where(User.display_name == "Stranger"))


def hands(w: World) -> dict[int, str]:
    return {w.player: "3", w.other_player: "9"}


# service -> (kind of object not found, which id is asked for, call(session, user, that id, world))
SCOPED: dict[str, tuple[str, str, Callable]] = {
    "groups.rename_group": (
        "group", "group", lambda s, u, i, w: perform(s, groups.rename_group, u, i, "X")
    ),
    "groups.rotate_invite_code": (
        "group", "group", lambda s, u, i, w: perform(s, groups.rotate_invite_code, u, i)
    ),
    "groups.leave_group": (
        "group", "group", lambda s, u, i, w: perform(s, groups.leave_group, u, i)
    ),
    "groups.remove_member": (
        "group", "group", lambda s, u, i, w: perform(s, groups.remove_member, u, i, w.owner)
    ),
    "groups.data_version": (
        "group", "group", lambda s, u, i, w: perform(s, groups.data_version, u, i)
    ),
    "preferences.remember_group": (
        "group", "group", lambda s, u, i, w: perform(s, preferences.remember_group, u, i)
    ),
    "groups.cache_stamp": (
        "group", "group", lambda s, u, i, w: perform(s, groups.cache_stamp, u, i)
    ),
    "players.add_player": (
        "group", "group", lambda s, u, i, w: perform(s, players.add_player, u, i, "Zed")
    ),
    "players.rename_player": (
        "player", "player", lambda s, u, i, w: perform(s, players.rename_player, u, i, "Zed")
    ),
    "players.link_player": (
        "player", "player", lambda s, u, i, w: perform(s, players.link_player, u, i, None)
    ),
    "players.list_players": (
        "group", "group", lambda s, u, i, w: perform(s, players.list_players, u, i)
    ),
    "players.merge_players": (
        "group", "group",
        lambda s, u, i, w: perform(s, players.merge_players, u, i, w.other_player, w.player),
    ),
    "games.start_game": (
        "group", "group",
        lambda s, u, i, w: perform(
            s, games.start_game, u, i, [w.player, w.other_player], PRESETS["classic"]
        ),
    ),
    "games.get_game": ("game", "game", lambda s, u, i, w: perform(s, games.get_game, u, i)),
    "games.get_seating": ("game", "game", lambda s, u, i, w: perform(s, games.get_seating, u, i)),
    "games.game_version": ("game", "game", lambda s, u, i, w: perform(s, games.game_version, u, i)),
    "games.list_games": ("group", "group", lambda s, u, i, w: perform(s, games.list_games, u, i)),
    "games.end_game": ("game", "game", lambda s, u, i, w: perform(s, games.end_game, u, i)),
    "sharing.share_link_state": (
        "game", "game", lambda s, u, i, w: perform(s, sharing.share_link_state, u, i)
    ),
    "sharing.make_share_link": (
        "game", "game", lambda s, u, i, w: perform(s, sharing.make_share_link, u, i)
    ),
    "sharing.end_share_link": (
        "game", "game", lambda s, u, i, w: perform(s, sharing.end_share_link, u, i)
    ),
    "live.member_version": (
        "game", "game", lambda s, u, i, w: perform(s, live.member_version, u, live.Watched.GAME, i)
    ),
    "games.reopen_game": ("game", "game", lambda s, u, i, w: perform(s, games.reopen_game, u, i)),
    "games.delete_game": ("game", "game", lambda s, u, i, w: perform(s, games.delete_game, u, i)),
    "rounds.add_round": (
        "game", "game",
        lambda s, u, i, w: perform(s, rounds.add_round, u, i, hands(w), w.player, "dutch"),
    ),
    "rounds.edit_round": (
        "round", "round",
        lambda s, u, i, w: perform(
            s, rounds.edit_round, u, i, w.round_version, hands(w), w.player, "dutch"
        ),
    ),
    "rounds.delete_round": (
        "round", "round", lambda s, u, i, w: perform(s, rounds.delete_round, u, i, w.round_version)
    ),
    "rounds.undo_round": (
        "game", "game",
        lambda s, u, i, w: perform(s, rounds.undo_round, u, i, w.round, w.round_version)
    ),
    "history.load_history": (
        "group", "group", lambda s, u, i, w: perform(s, history.load_history, u, i)
    ),
    "csv_export.game_rules": (
        "group", "group", lambda s, u, i, w: perform(s, csv_export.game_rules, u, i)
    ),
    "csv_export.export_rounds": (
        "group", "group", lambda s, u, i, w: perform(s, csv_export.export_rounds, u, i)
    ),
    "csv_export.export_games": (
        "group", "group", lambda s, u, i, w: perform(s, csv_export.export_games, u, i)
    ),
    "setup.start_game_with_players": (
        "group", "group",
        lambda s, u, i, w: perform(
            s, setup.start_game_with_players, u, i, [w.player, "Newcomer"], PRESETS["classic"]
        ),
    ),
    "setup.game_defaults": (
        "group", "group", lambda s, u, i, w: perform(s, setup.game_defaults, u, i)
    ),
    "members.my_player_offer": (
        "group", "group", lambda s, u, i, w: perform(s, members.my_player_offer, u, i)
    ),
    "members.claim_player": (
        "player", "player", lambda s, u, i, w: perform(s, members.claim_player, u, i)
    ),
    "members.add_my_player": (
        "group", "group", lambda s, u, i, w: perform(s, members.add_my_player, u, i)
    ),
    "demo.remove_demo_group": (
        "group", "group", lambda s, u, i, w: perform(s, demo.remove_demo_group, u, i)
    ),
    "csv_import.import_rounds_csv": (
        "group", "group", lambda s, u, i, w: perform(s, csv_import.import_rounds_csv, u, i, b"")
    ),
    "seasons.group_seasons": (
        "group", "group", lambda s, u, i, w: perform(s, seasons.group_seasons, u, i)
    ),
    "seasons.set_season_kind": (
        "group", "group", lambda s, u, i, w: perform(s, seasons.set_season_kind, u, i, "year")
    ),
    "seasons.add_named_season": (
        "group", "group",
        lambda s, u, i, w: perform(s, seasons.add_named_season, u, i, "Cup", date(2026, 1, 1)),
    ),
    "seasons.remove_named_season": (
        "group", "group", lambda s, u, i, w: perform(s, seasons.remove_named_season, u, i, 1)
    ),
}  # fmt: skip


def _list_groups(session, stranger, world):
    assert [g.id for g in perform(session, groups.list_groups, stranger)] == [world.stranger_group]


def _create_group(session, stranger, world):
    made = perform(session, groups.create_group, stranger, "Another club")
    assert made.id not in (world.group, world.stranger_group)


def _join_group(session, stranger, world):
    with pytest.raises(NotFound, match=r"^No group with invite code 'WRONG123'\.$"):
        perform(session, groups.join_group, stranger, "WRONG123")


def _load_demo_group(session, stranger, world):
    made = perform(session, demo.load_demo_group, stranger)
    assert made.id not in (world.group, world.stranger_group)
    assert perform(session, games.list_games, stranger, made.id)


def _rename_my_players(session, stranger, world):
    before = {p.name for p in perform(session, players.list_players, world.owner, world.group)}
    groups_renamed = {r.group_name for r in perform(session, members.rename_my_players, stranger)}
    assert groups_renamed <= {"Stranger's club"}
    assert {
        p.name for p in perform(session, players.list_players, world.owner, world.group)
    } == before


def _own_preferences(session, stranger, world):
    """A person reads and keeps only their own preferences: the owner's stay as they were."""
    before = perform(session, preferences.get_preferences, world.owner)
    perform(
        session,
        preferences.save_preferences,
        stranger,
        language="fr",
        theme="dark",
        keep_awake=False,
    )
    perform(session, preferences.remember_rules, stranger, PRESETS["points"])
    perform(session, preferences.remember_season_choice, stranger, "last")
    mine = perform(session, preferences.get_preferences, stranger)
    assert (mine.language, mine.theme, mine.keep_awake) == ("fr", "dark", False)
    assert mine.season_choice == "last"
    assert perform(session, preferences.get_preferences, world.owner) == before


def _last_group(session, stranger, world):
    """A stranger who names another's group is refused (above); their own last group is
    never another's."""
    perform(session, preferences.remember_group, world.owner, world.group)
    assert perform(session, preferences.last_group, stranger) is None
    assert perform(session, preferences.last_group, world.owner) == world.group


def _open_shared_game(session, stranger, world):
    """Without the token, a guessed one opens nothing (the owner's game included)."""
    perform(session, sharing.make_share_link, world.owner, world.game)
    with pytest.raises(sharing.ShareLinkInvalid):
        perform(session, sharing.open_share_link, "guessed-" + "A" * 35, client="192.0.2.1")
    made_up = sharing.SharedLink(token_hash("guessed"), world.game, 1)
    with pytest.raises(sharing.ShareLinkInvalid):  # only a working link's hash reads a game
        perform(session, sharing.read_shared_game, made_up)
    with pytest.raises(sharing.ShareLinkInvalid):  # nor follows one
        perform(session, sharing.follow_share_link, made_up)


def _players_to_rename(session, stranger, world):
    assert perform(session, members.players_to_rename, stranger) == []


# Services that act on no existing group: what a stranger gets reveals nothing of others'.
UNSCOPED: dict[str, Callable] = {
    "groups.list_groups": _list_groups,
    "groups.create_group": _create_group,
    "groups.join_group": _join_group,
    "demo.load_demo_group": _load_demo_group,
    "members.rename_my_players": _rename_my_players,
    "members.players_to_rename": _players_to_rename,
    "preferences.get_preferences": _own_preferences,
    "preferences.save_preferences": _own_preferences,
    "preferences.remember_rules": _own_preferences,
    "preferences.remember_season_choice": _own_preferences,
    "preferences.last_group": _last_group,
    "sharing.open_share_link": _open_shared_game,
    "sharing.read_shared_game": _open_shared_game,
    "sharing.follow_share_link": _open_shared_game,
}

NOT_SERVICES = {
    "demo.generate_history": "a command-line tool that fills a group by id, no acting user",
    "demo.main": "the command line itself",
    "history.history_query": "builds the SELECT behind load_history; reads nothing",
    "live.versions": "the live watcher's batch read, asked only for what the route has checked",
    "preferences.check_choices": "checks a choice's values; reads and writes nothing",
    "sharing.shared_view": "turns a game already read by a service into its shared view",
    "leaving.end_membership": "a step of leaving, removing a member and deleting an account, "
    "given the membership those services checked",
    "sharing.end_links_made_by": "a step of removing a member, given the owner's membership "
    "that service checked",
    "moving.move_groups": "a step of signing in from an anonymous account, given the tab's "
    "session and the sign-in the account store checked (tested in test_anonymous.py)",
}


def public_functions() -> set[str]:
    """``module.function`` for every public function defined in a services module."""
    found = set()
    for module_info in pkgutil.iter_modules(dutch_app.services.__path__):
        if module_info.name.startswith("_") or module_info.name in {
            "errors",
            "views",
            "unit_of_work",
        }:
            continue
        module = importlib.import_module(f"dutch_app.services.{module_info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module.__name__ and not name.startswith("_"):
                found.add(f"{module_info.name}.{name}")
    return found


def test_every_public_service_is_covered():
    covered = set(SCOPED) | set(UNSCOPED) | set(NOT_SERVICES)
    assert public_functions() == covered


@pytest.mark.parametrize("service", sorted(SCOPED))
def test_a_stranger_finds_nothing_and_changes_nothing(
    session, world, stranger, count_rows, service
):
    kind, which, call = SCOPED[service]
    asked = getattr(world, which)
    before = count_rows()
    with pytest.raises(NotFound) as caught:
        call(session, stranger, asked, world)
    assert str(caught.value) == str(NotFound(kind, asked))
    assert count_rows() == before


@pytest.fixture
def removed_member(session, world, outsider) -> int:
    """Someone who was a member of the owner's group until the owner removed them."""
    former = outsider("Former")
    code = perform(session, get_group, world.owner, world.group).invite_code
    perform(session, groups.join_group, former, code)
    assert perform(session, history.load_history, former, world.group) is not None  # a member reads
    perform(session, groups.remove_member, world.owner, world.group, former)
    return former


@pytest.mark.parametrize("service", sorted(SCOPED))
def test_a_removed_member_gets_a_strangers_answer_and_changes_nothing(
    session, world, removed_member, count_rows, service
):
    kind, which, call = SCOPED[service]
    asked = getattr(world, which)
    before = count_rows()
    with pytest.raises(NotFound) as caught:
        call(session, removed_member, asked, world)
    assert str(caught.value) == str(NotFound(kind, asked))
    assert count_rows() == before


def test_a_removed_member_no_longer_lists_the_group(session, world, removed_member):
    assert perform(session, groups.list_groups, removed_member) == []


@pytest.mark.parametrize("service", sorted(SCOPED))
def test_a_missing_id_looks_the_same_as_a_strangers(session, owner, world, count_rows, service):
    kind, _, call = SCOPED[service]
    before = count_rows()
    with pytest.raises(NotFound) as caught:
        call(session, owner, MISSING, world)
    assert str(caught.value) == str(NotFound(kind, MISSING)) == f"No {kind} with id {MISSING}."
    assert count_rows() == before


@pytest.mark.parametrize("service", sorted(UNSCOPED))
def test_services_without_a_group_show_a_stranger_only_their_own(session, world, stranger, service):
    UNSCOPED[service](session, stranger, world)
