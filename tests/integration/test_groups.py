"""Groups: owners and members, invite codes, leaving, and the data version."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from dutch_app.services import groups
from dutch_app.services.errors import Forbidden, NotFound, ValidationError
from dutch_app.services.games import get_game, start_game
from dutch_app.services.players import add_player, rename_player
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import Game, Group
from dutch_core import PRESETS
from tests.views import get_group


def test_the_creator_owns_the_group_and_sees_its_invite_code(session, owner, group):
    assert group.name == "Friday club"
    assert group.role == "owner"
    assert len(group.invite_code) == 8
    assert group.members == ((owner, "Olga", "owner"),)


def test_a_member_joins_by_code_typed_loosely_and_does_not_see_the_code(session, make_user, group):
    ben = make_user("Ben")
    loose = f" {group.invite_code[:4].lower()}-{group.invite_code[4:].lower()} "
    joined = perform(session, groups.join_group, ben, loose)
    assert joined.id == group.id
    assert joined.role == "member"
    assert joined.invite_code is None
    assert [member.display_name for member in joined.members] == ["Olga", "Ben"]
    again = perform(session, groups.join_group, ben, group.invite_code)
    assert again.members == joined.members


def test_an_unknown_invite_code_is_not_found(session, make_user, group):
    with pytest.raises(NotFound, match="No group with invite code 'NOPE1234'"):
        perform(session, groups.join_group, make_user("Ben"), "NOPE1234")


def test_rotating_the_code_stops_the_old_one(session, owner, make_user, group):
    rotated = perform(session, groups.rotate_invite_code, owner, group.id)
    assert rotated.invite_code != group.invite_code
    with pytest.raises(NotFound):
        perform(session, groups.join_group, make_user("Ben"), group.invite_code)
    assert (
        perform(session, groups.join_group, make_user("Cleo"), rotated.invite_code).id == group.id
    )


def test_only_the_owner_renames_or_rotates(session, make_user, group):
    ben = make_user("Ben")
    perform(session, groups.join_group, ben, group.invite_code)
    with pytest.raises(Forbidden):
        perform(session, groups.rename_group, ben, group.id, "Ben's club")
    with pytest.raises(Forbidden):
        perform(session, groups.rotate_invite_code, ben, group.id)
    assert perform(session, get_group, ben, group.id).name == "Friday club"


def test_renaming_tidies_spaces_and_refuses_an_empty_name(session, owner, group):
    assert (
        perform(session, groups.rename_group, owner, group.id, "  Sunday   club ").name
        == "Sunday club"
    )
    with pytest.raises(ValidationError, match="name cannot be empty") as caught:
        perform(session, groups.rename_group, owner, group.id, "   ")
    assert caught.value.field == "name"
    with pytest.raises(ValidationError, match="longer than 80"):
        perform(session, groups.create_group, owner, "x" * 81)


def test_list_groups_shows_only_the_users_own_groups(session, owner, make_user, group):
    ben = make_user("Ben")
    bens = perform(session, groups.create_group, ben, "Ben's club")
    assert [g.id for g in perform(session, groups.list_groups, owner)] == [group.id]
    assert [g.id for g in perform(session, groups.list_groups, ben)] == [bens.id]


def test_list_groups_gives_each_group_its_own_members_and_the_members_role(
    session, owner, make_user, group
):
    ben, cleo = make_user("Ben"), make_user("Cleo")
    bens = perform(session, groups.create_group, ben, "Ben's club")
    perform(session, groups.join_group, owner, bens.invite_code)
    perform(session, groups.join_group, cleo, group.invite_code)
    perform(session, groups.join_group, cleo, bens.invite_code)
    listed = {g.name: g for g in perform(session, groups.list_groups, owner)}
    assert list(listed) == ["Ben's club", "Friday club"]  # by name
    assert [m.display_name for m in listed["Friday club"].members] == ["Olga", "Cleo"]
    assert [m.display_name for m in listed["Ben's club"].members] == ["Ben", "Olga", "Cleo"]
    assert listed["Friday club"].role == "owner" and listed["Friday club"].invite_code
    assert listed["Ben's club"].role == "member" and listed["Ben's club"].invite_code is None
    for view in listed.values():
        assert view == perform(session, get_group, owner, view.id)


def test_list_groups_of_someone_in_no_group_is_empty_and_of_no_one_not_found(session, make_user):
    assert perform(session, groups.list_groups, make_user("Dora")) == []
    with pytest.raises(NotFound):
        perform(session, groups.list_groups, 987654)


def test_when_the_owner_leaves_the_longest_standing_member_takes_over(
    session, owner, make_user, group
):
    ben, cleo = make_user("Ben"), make_user("Cleo")
    perform(session, groups.join_group, ben, group.invite_code)
    perform(session, groups.join_group, cleo, group.invite_code)
    perform(session, groups.leave_group, owner, group.id)
    assert perform(session, get_group, ben, group.id).role == "owner"
    assert perform(session, get_group, cleo, group.id).role == "member"
    with pytest.raises(NotFound):
        perform(session, get_group, owner, group.id)


def test_a_leaving_members_player_is_unlinked(session, owner, make_user, group):
    from dutch_app.services.players import list_players

    ben = make_user("Ben")
    perform(session, groups.join_group, ben, group.invite_code)
    linked = {
        player.name: player.user_id for player in perform(session, list_players, owner, group.id)
    }
    assert linked == {"Ben": ben, "Olga": owner}
    perform(session, groups.leave_group, ben, group.id)
    linked = {
        player.name: player.user_id for player in perform(session, list_players, owner, group.id)
    }
    assert linked == {"Ben": None, "Olga": owner}


def _game_with_a_round(session, owner, group, seated, after_start=lambda: True):
    """A game of the first two seated players with one round stored; ``after_start`` is
    asked (and must hold) between the start and the round."""
    seats = [p.id for p in seated[:2]]
    game = perform(session, start_game, owner, group.id, seats, PRESETS["classic"])
    assert after_start()
    hands = {seated[0].id: "3", seated[1].id: "9"}
    perform(session, add_round, owner, game.id, hands, seated[0].id, "dutch")
    return game


def test_the_last_member_leaving_deletes_the_group_and_its_games(session, owner, group, seated):
    game = _game_with_a_round(session, owner, group, seated)
    perform(session, groups.leave_group, owner, group.id)
    assert session.scalar(select(func.count()).select_from(Group)) == 0
    assert session.scalar(select(func.count()).select_from(Game)) == 0
    with pytest.raises(NotFound):
        perform(session, get_game, owner, game.id)


def test_the_data_version_changes_with_every_change_in_the_group(
    session, owner, make_user, group, seated
):
    seen = [perform(session, groups.data_version, owner, group.id)]

    def changed() -> bool:
        seen.append(perform(session, groups.data_version, owner, group.id))
        return seen[-1] > seen[-2]

    assert (
        perform(session, groups.data_version, owner, group.id) == seen[-1]
    )  # reading changes nothing
    perform(session, groups.rename_group, owner, group.id, "Renamed")
    assert changed()
    perform(session, groups.join_group, make_user("Ben"), group.invite_code)
    assert changed()
    perform(session, rename_player, owner, seated[0].id, "Annie")
    assert changed()
    game = _game_with_a_round(session, owner, group, seated, after_start=changed)
    assert changed()
    assert perform(session, get_game, owner, game.id).version == 2
    assert not changed()


def test_the_owner_removes_a_member_who_loses_access_at_once(session, owner, make_user, group):
    ben, cleo = make_user("Ben"), make_user("Cleo")
    perform(session, groups.join_group, ben, group.invite_code)
    perform(session, groups.join_group, cleo, group.invite_code)
    before = perform(session, groups.data_version, owner, group.id)
    after = perform(session, groups.remove_member, owner, group.id, ben)
    assert [m.display_name for m in after.members] == ["Olga", "Cleo"]
    assert after.data_version > before
    assert perform(session, groups.list_groups, ben) == []
    with pytest.raises(NotFound) as caught:
        perform(session, get_group, ben, group.id)
    assert str(caught.value) == f"No group with id {group.id}."
    assert perform(session, get_group, cleo, group.id).role == "member"


def test_removing_a_member_replaces_the_invite_code_they_know(session, owner, make_user, group):
    ben = make_user("Ben")
    perform(session, groups.join_group, ben, group.invite_code)
    after = perform(session, groups.remove_member, owner, group.id, ben)
    assert after.invite_code != group.invite_code
    assert perform(session, get_group, owner, group.id).invite_code == after.invite_code
    with pytest.raises(NotFound):
        perform(session, groups.join_group, ben, group.invite_code)
    assert perform(session, groups.join_group, ben, after.invite_code).role == "member"


def test_a_removed_members_player_and_games_stay_unlinked(session, owner, make_user, group):
    from dutch_app.services.players import list_players

    ben = make_user("Ben")
    perform(session, groups.join_group, ben, group.invite_code)
    bens = next(p for p in perform(session, list_players, owner, group.id) if p.user_id == ben)
    ann = perform(session, add_player, owner, group.id, "Ann")
    game = perform(session, start_game, ben, group.id, [ann.id, bens.id], PRESETS["classic"])
    perform(session, add_round, ben, game.id, {ann.id: "3", bens.id: "9"}, ann.id, "dutch")
    perform(session, groups.remove_member, owner, group.id, ben)
    kept = {
        player.name: player.user_id for player in perform(session, list_players, owner, group.id)
    }
    assert kept == {"Ann": None, "Ben": None, "Olga": owner}
    stored = perform(session, get_game, owner, game.id)
    assert [p.name for p in stored.players] == ["Ann", "Ben"]
    assert len(stored.rounds) == 1


def test_only_the_owner_removes_members(session, owner, make_user, group):
    ben, cleo = make_user("Ben"), make_user("Cleo")
    perform(session, groups.join_group, ben, group.invite_code)
    perform(session, groups.join_group, cleo, group.invite_code)
    with pytest.raises(Forbidden):
        perform(session, groups.remove_member, ben, group.id, cleo)
    with pytest.raises(Forbidden):
        perform(session, groups.remove_member, ben, group.id, owner)
    assert len(perform(session, get_group, owner, group.id).members) == 3


def test_the_only_owner_cannot_remove_themselves(session, owner, make_user, group, count_rows):
    from dutch_app.services.errors import Conflict

    perform(session, groups.join_group, make_user("Ben"), group.invite_code)
    before = count_rows()
    with pytest.raises(Conflict, match="only owner, so you cannot remove yourself"):
        perform(session, groups.remove_member, owner, group.id, owner)
    assert count_rows() == before
    assert perform(session, get_group, owner, group.id).role == "owner"


def test_removing_someone_not_in_the_group_is_not_found(session, owner, make_user, group):
    outsider = make_user("Zed")
    with pytest.raises(NotFound, match=rf"^No member with id {outsider}\.$"):
        perform(session, groups.remove_member, owner, group.id, outsider)
    with pytest.raises(ValidationError) as caught:
        perform(session, groups.remove_member, owner, group.id, "Ben")
    assert caught.value.field == "member_id"
