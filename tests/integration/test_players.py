"""Players: unique names in a group, renaming, linking to members, merging."""

from __future__ import annotations

import pytest

from dutch_app.services import players
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.games import get_game, start_game
from dutch_app.services.groups import create_group, join_group
from dutch_app.services.history import load_history
from dutch_app.services.rounds import add_round
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS


def play(session, owner, group, table, hands, caller):
    """Start a game for ``table`` and enter one round; the game's id."""
    game = perform(session, start_game, owner, group.id, [p.id for p in table], PRESETS["classic"])
    entered = dict(zip([p.id for p in table], hands, strict=True))
    perform(session, add_round, owner, game.id, entered, caller.id, "dutch")
    return game.id


def unlink_own_player(session, owner, group, member):
    """Unlink the player a member got on joining, so they can be linked to another."""
    own = next(
        p for p in perform(session, players.list_players, owner, group.id) if p.user_id == member
    )
    perform(session, players.link_player, owner, own.id, None)


def test_players_are_listed_by_name(session, owner, group):
    for name in ("cy", "Ann", "Bo"):
        perform(session, players.add_player, owner, group.id, name)
    listed = [p.name for p in perform(session, players.list_players, owner, group.id)]
    assert listed == ["Ann", "Bo", "cy", "Olga"]  # Olga made the group, so she is a player


def test_a_name_is_taken_whatever_its_case(session, owner, group, seated):
    with pytest.raises(ValidationError, match="already has a player called 'Ann'") as caught:
        perform(session, players.add_player, owner, group.id, "  aNN ")
    assert caught.value.field == "name"
    with pytest.raises(ValidationError, match="'Bo'"):
        perform(session, players.rename_player, owner, seated[0].id, "BO")


def test_the_same_name_may_exist_in_another_group(session, owner, seated):
    other = perform(session, create_group, owner, "Other club")
    assert perform(session, players.add_player, owner, other.id, "Ann").name == "Ann"


def test_renaming_shows_in_every_game(session, owner, group, seated):
    game_id = play(session, owner, group, seated[:2], ["3", "9"], seated[0])
    renamed = perform(session, players.rename_player, owner, seated[0].id, "annie")
    assert renamed.name == "annie"
    assert perform(session, players.rename_player, owner, seated[0].id, "Annie").name == "Annie"
    view = perform(session, get_game, owner, game_id)
    assert [p.name for p in view.players] == ["Annie", "Bo"]
    assert view.rounds[0].caller == "Annie"
    assert view.standings[0].player == "Annie"


def test_a_player_can_be_linked_to_a_member_only(session, owner, make_user, group, seated):
    ben = make_user("Ben")
    with pytest.raises(NotFound, match="No member with id"):
        perform(session, players.link_player, owner, seated[1].id, ben)
    perform(session, join_group, ben, group.invite_code)
    unlink_own_player(session, owner, group, ben)
    assert perform(session, players.link_player, owner, seated[1].id, ben).user_id == ben
    with pytest.raises(ValidationError, match="already linked to 'Bo'"):
        perform(session, players.add_player, owner, group.id, "Benny", link_user_id=ben)
    assert perform(session, players.link_player, owner, seated[1].id, None).user_id is None


def test_merging_moves_the_history_and_frees_the_name(session, owner, group, seated):
    ann, bo, cy, dee = seated
    play(session, owner, group, [ann, bo], ["3", "9"], ann)
    play(session, owner, group, [dee, cy], ["2", "4"], dee)
    merged = perform(session, players.merge_players, owner, group.id, dee.id, ann.id)
    assert merged.id == ann.id
    listed = [p.name for p in perform(session, players.list_players, owner, group.id)]
    assert listed == ["Ann", "Bo", "Cy", "Olga"]
    frame = perform(session, load_history, owner, group.id)
    assert sorted(frame.loc[frame["player"] == "Ann", "round_score"].tolist()) == [2, 3]
    assert set(frame.loc[frame["player"] == "Ann", "player_id"]) == {ann.id}
    assert set(frame["caller"].dropna()) == {"Ann"}
    assert perform(session, players.add_player, owner, group.id, "Dee").name == "Dee"


def test_merging_is_refused_when_both_played_the_same_game(
    session, owner, group, seated, count_rows
):
    ann, bo = seated[:2]
    play(session, owner, group, [ann, bo], ["3", "9"], ann)
    before = count_rows()
    with pytest.raises(ValidationError, match="'Bo' and 'Ann' played 1 game"):
        perform(session, players.merge_players, owner, group.id, bo.id, ann.id)
    with pytest.raises(ValidationError, match="into itself"):
        perform(session, players.merge_players, owner, group.id, bo.id, bo.id)
    assert count_rows() == before


def test_a_merged_player_is_gone(session, owner, group, seated):
    perform(session, players.merge_players, owner, group.id, seated[3].id, seated[0].id)
    with pytest.raises(NotFound):
        perform(session, players.rename_player, owner, seated[3].id, "Dee again")
    with pytest.raises(NotFound):
        perform(
            session, start_game, owner, group.id, [seated[3].id, seated[1].id], PRESETS["classic"]
        )


def test_the_merged_players_link_moves_to_the_target(session, owner, make_user, group, seated):
    ben = make_user("Ben")
    perform(session, join_group, ben, group.invite_code)
    unlink_own_player(session, owner, group, ben)
    perform(session, players.link_player, owner, seated[3].id, ben)
    assert (
        perform(session, players.merge_players, owner, group.id, seated[3].id, seated[0].id).user_id
        == ben
    )
