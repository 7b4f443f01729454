"""Players: unique names in a group, renaming, linking to members, merging."""

from __future__ import annotations

import pytest

from dutch_app.services import players
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.games import get_game, start_game
from dutch_app.services.groups import create_group, join_group
from dutch_app.services.history import load_history
from dutch_app.services.rounds import add_round
from dutch_core import PRESETS


def play(session, owner, group, table, hands, caller):
    """Start a game for ``table`` and enter one round; the game's id."""
    game = start_game(session, owner, group.id, [p.id for p in table], PRESETS["classic"])
    entered = dict(zip([p.id for p in table], hands, strict=True))
    add_round(session, owner, game.id, entered, caller.id, "dutch")
    return game.id


def unlink_own_player(session, owner, group, member):
    """Unlink the player a member got on joining, so they can be linked to another."""
    own = next(p for p in players.list_players(session, owner, group.id) if p.user_id == member)
    players.link_player(session, owner, own.id, None)


def test_players_are_listed_by_name(session, owner, group):
    for name in ("cy", "Ann", "Bo"):
        players.add_player(session, owner, group.id, name)
    listed = [p.name for p in players.list_players(session, owner, group.id)]
    assert listed == ["Ann", "Bo", "cy", "Olga"]  # Olga made the group, so she is a player


def test_a_name_is_taken_whatever_its_case(session, owner, group, seated):
    with pytest.raises(ValidationError, match="already has a player called 'Ann'") as caught:
        players.add_player(session, owner, group.id, "  aNN ")
    assert caught.value.field == "name"
    with pytest.raises(ValidationError, match="'Bo'"):
        players.rename_player(session, owner, seated[0].id, "BO")


def test_the_same_name_may_exist_in_another_group(session, owner, seated):
    other = create_group(session, owner, "Other club")
    assert players.add_player(session, owner, other.id, "Ann").name == "Ann"


def test_renaming_shows_in_every_game(session, owner, group, seated):
    game_id = play(session, owner, group, seated[:2], ["3", "9"], seated[0])
    renamed = players.rename_player(session, owner, seated[0].id, "annie")
    assert renamed.name == "annie"
    assert players.rename_player(session, owner, seated[0].id, "Annie").name == "Annie"
    view = get_game(session, owner, game_id)
    assert [p.name for p in view.players] == ["Annie", "Bo"]
    assert view.rounds[0].caller == "Annie"
    assert view.standings[0].player == "Annie"


def test_a_player_can_be_linked_to_a_member_only(session, owner, make_user, group, seated):
    ben = make_user("Ben")
    with pytest.raises(NotFound, match="No member with id"):
        players.link_player(session, owner, seated[1].id, ben)
    join_group(session, ben, group.invite_code)
    unlink_own_player(session, owner, group, ben)
    assert players.link_player(session, owner, seated[1].id, ben).user_id == ben
    with pytest.raises(ValidationError, match="already linked to 'Bo'"):
        players.add_player(session, owner, group.id, "Benny", link_user_id=ben)
    assert players.link_player(session, owner, seated[1].id, None).user_id is None


def test_merging_moves_the_history_and_frees_the_name(session, owner, group, seated):
    ann, bo, cy, dee = seated
    play(session, owner, group, [ann, bo], ["3", "9"], ann)
    play(session, owner, group, [dee, cy], ["2", "4"], dee)
    merged = players.merge_players(session, owner, group.id, dee.id, ann.id)
    assert merged.id == ann.id
    listed = [p.name for p in players.list_players(session, owner, group.id)]
    assert listed == ["Ann", "Bo", "Cy", "Olga"]
    frame = load_history(session, owner, group.id)
    assert sorted(frame.loc[frame["player"] == "Ann", "round_score"].tolist()) == [2, 3]
    assert set(frame.loc[frame["player"] == "Ann", "player_id"]) == {ann.id}
    assert set(frame["caller"].dropna()) == {"Ann"}
    assert players.add_player(session, owner, group.id, "Dee").name == "Dee"


def test_merging_is_refused_when_both_played_the_same_game(
    session, owner, group, seated, count_rows
):
    ann, bo = seated[:2]
    play(session, owner, group, [ann, bo], ["3", "9"], ann)
    before = count_rows()
    with pytest.raises(ValidationError, match="'Bo' and 'Ann' played 1 game"):
        players.merge_players(session, owner, group.id, bo.id, ann.id)
    with pytest.raises(ValidationError, match="into itself"):
        players.merge_players(session, owner, group.id, bo.id, bo.id)
    assert count_rows() == before


def test_a_merged_player_is_gone(session, owner, group, seated):
    players.merge_players(session, owner, group.id, seated[3].id, seated[0].id)
    with pytest.raises(NotFound):
        players.rename_player(session, owner, seated[3].id, "Dee again")
    with pytest.raises(NotFound):
        start_game(session, owner, group.id, [seated[3].id, seated[1].id], PRESETS["classic"])


def test_the_merged_players_link_moves_to_the_target(session, owner, make_user, group, seated):
    ben = make_user("Ben")
    join_group(session, ben, group.invite_code)
    unlink_own_player(session, owner, group, ben)
    players.link_player(session, owner, seated[3].id, ben)
    assert (
        players.merge_players(session, owner, group.id, seated[3].id, seated[0].id).user_id == ben
    )
