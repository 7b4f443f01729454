"""Members are players: made on arrival, offered when a guest has their name, following a
new display name; the set-up of a new game starts from the last game or the members."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from dutch_app.services import demo, groups, members, players, setup
from dutch_app.services.errors import Conflict, Forbidden, NotFound, ValidationError
from dutch_app.services.games import end_game, list_games
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import User
from dutch_core import PRESETS
from tests.views import get_group


def roster(session, user, group_id) -> dict[str, int | None]:
    return {p.name: p.user_id for p in perform(session, players.list_players, user, group_id)}


def rename_account(session, user_id, name) -> None:
    session.get(User, user_id).display_name = name
    session.commit()


def test_the_maker_and_each_newcomer_are_linked_players_named_by_their_display_name(
    session, owner, group, make_user
):
    assert roster(session, owner, group.id) == {"Olga": owner}
    sam = make_user("Sam")
    perform(session, groups.join_group, sam, group.invite_code)
    perform(session, groups.join_group, sam, group.invite_code)  # twice changes nothing
    assert roster(session, owner, group.id) == {"Olga": owner, "Sam": sam}
    assert perform(session, members.my_player_offer, sam, group.id) is None


def test_a_name_another_members_player_has_gets_a_number(session, owner, group, make_user):
    first, second = make_user("Sam"), make_user("Samuel")
    rename_account(session, second, "SAM")
    perform(session, groups.join_group, first, group.invite_code)
    perform(session, groups.join_group, second, group.invite_code)
    assert roster(session, owner, group.id) == {"Olga": owner, "Sam": first, "SAM 2": second}


def test_a_guest_of_the_same_name_is_offered_never_linked_silently(
    session, owner, group, make_user
):
    guest = perform(session, players.add_player, owner, group.id, "olivia")
    olivia = make_user("Olivia")
    perform(session, groups.join_group, olivia, group.invite_code)
    assert roster(session, owner, group.id) == {"olivia": None, "Olga": owner}
    offer = perform(session, members.my_player_offer, olivia, group.id)
    assert offer.match == guest
    assert offer.new_name == "Olivia 2"
    claimed = perform(session, members.claim_player, olivia, guest.id)
    assert claimed.user_id == olivia
    assert perform(session, members.my_player_offer, olivia, group.id) is None
    with pytest.raises(Conflict, match="already play as 'olivia'"):
        perform(session, members.add_my_player, olivia, group.id)


def test_a_member_who_is_not_the_guest_adds_a_player_of_their_own(session, owner, group, make_user):
    perform(session, players.add_player, owner, group.id, "Olivia")
    olivia = make_user("Olivia")
    perform(session, groups.join_group, olivia, group.invite_code)
    added = perform(session, members.add_my_player, olivia, group.id)
    assert (added.name, added.user_id) == ("Olivia 2", olivia)
    assert roster(session, owner, group.id) == {"Olga": owner, "Olivia": None, "Olivia 2": olivia}


def test_another_members_player_cannot_be_claimed(session, owner, group, make_user):
    sam = make_user("Sam")
    perform(session, groups.join_group, sam, group.invite_code)
    olgas = perform(session, players.list_players, owner, group.id)[0]
    perform(
        session,
        players.link_player,
        sam,
        perform(session, players.list_players, sam, group.id)[1].id,
        None,
    )
    with pytest.raises(ValidationError, match="already another member's player"):
        perform(session, members.claim_player, sam, olgas.id)


def test_a_new_display_name_is_offered_to_the_players_and_taken_where_free(
    session, owner, group, make_user
):
    other = perform(session, groups.create_group, owner, "Family")
    perform(session, players.add_player, owner, other.id, "Liv")  # a guest called Liv is in Family
    assert perform(session, members.players_to_rename, owner) == []
    rename_account(session, owner, "Liv")
    offered = perform(session, members.players_to_rename, owner)
    assert [(r.group_name, r.old_name, r.new_name, r.renamed) for r in offered] == [
        ("Family", "Olga", "Liv", False),
        ("Friday club", "Olga", "Liv", True),
    ]
    assert roster(session, owner, group.id) == {"Olga": owner}  # only asked so far
    perform(session, members.rename_my_players, owner)
    assert roster(session, owner, group.id) == {"Liv": owner}
    assert roster(session, owner, other.id) == {"Liv": None, "Olga": owner}


def test_a_guest_stays_as_they_are_when_accounts_change(session, owner, group, make_user):
    perform(session, players.add_player, owner, group.id, "Grandpa")
    rename_account(session, owner, "Liv")
    perform(session, members.rename_my_players, owner)
    assert roster(session, owner, group.id) == {"Grandpa": None, "Liv": owner}


def test_a_new_game_starts_from_the_members_then_from_the_last_game(
    session, owner, group, make_user
):
    sam = make_user("Sam")
    perform(session, groups.join_group, sam, group.invite_code)
    olga, sam_player = (p.id for p in perform(session, players.list_players, owner, group.id))
    first = perform(session, setup.game_defaults, sam, group.id)
    assert (first.player_ids, first.rules) == ((olga, sam_player), None)
    game = perform(
        session,
        setup.start_game_with_players,
        owner,
        group.id,
        [sam_player, "Eve", olga],
        PRESETS["points"],
    )
    again = perform(session, setup.game_defaults, owner, group.id)  # the game is still going on
    assert again.player_ids == tuple(p.id for p in game.players)
    assert again.rules == PRESETS["points"]
    perform(session, end_game, owner, game.id)
    assert perform(session, setup.game_defaults, owner, group.id) == again


def test_a_demo_group_is_marked_and_its_owner_removes_it_in_one_step(
    session, owner, group, make_user, count_rows
):
    before = count_rows()
    made = perform(session, demo.load_demo_group, owner)
    assert made.is_demo and not group.is_demo
    assert perform(session, list_games, owner, made.id)
    sam = make_user("Sam")
    code = perform(session, get_group, owner, made.id).invite_code
    perform(session, groups.join_group, sam, code)
    with pytest.raises(Forbidden):
        perform(session, demo.remove_demo_group, sam, made.id)
    assert perform(session, demo.remove_demo_group, owner, made.id) == "Demo group"
    with pytest.raises(NotFound):
        perform(session, get_group, sam, made.id)
    after = count_rows()
    kept = {"users", "throttle_counters"}
    assert {k: v for k, v in after.items() if k not in kept} == {
        k: v for k, v in before.items() if k not in kept
    }
    with pytest.raises(Conflict, match="not a demo group"):
        perform(session, demo.remove_demo_group, owner, group.id)
    assert session.scalar(select(User.id).where(User.id == owner)) == owner
