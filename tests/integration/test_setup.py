"""Starting a game with new players in one step (services.setup)."""

import pytest

from dutch_app.services import games, players
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.setup import start_game_with_players
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS, HouseRules
from dutch_core.errors import DutchError


def test_new_players_join_the_group_and_sit_where_they_were_named(session, owner, group, seated):
    game = perform(
        session,
        start_game_with_players,
        owner,
        group.id,
        [seated[1].id, "Eve", seated[0].id],
        PRESETS["classic"],
    )
    assert [p.name for p in game.players] == ["Bo", "Eve", "Ann"]
    assert "Eve" in [p.name for p in perform(session, players.list_players, owner, group.id)]


def test_a_bad_seat_list_leaves_nothing_behind(session, owner, group, seated, count_rows):
    before = count_rows()
    with pytest.raises((ValidationError, DutchError)):
        perform(session, start_game_with_players, owner, group.id, ["Eve"], PRESETS["classic"])
    with pytest.raises(ValidationError):
        perform(
            session,
            start_game_with_players,
            owner,
            group.id,
            ["Ann", seated[1].id],
            PRESETS["classic"],
        )
    with pytest.raises(ValidationError):
        perform(
            session, start_game_with_players, owner, group.id, ["Eve", "eve"], PRESETS["classic"]
        )
    with pytest.raises(ValidationError):
        perform(
            session, start_game_with_players, owner, group.id, [seated[0].id, "Eve"], {"jokers": 9}
        )
    assert count_rows() == before


def test_strangers_cannot_start_games_in_a_group(session, group, seated, make_user, count_rows):
    stranger = make_user("Sam")
    before = count_rows()
    with pytest.raises(NotFound):
        perform(
            session,
            start_game_with_players,
            stranger,
            group.id,
            [seated[0].id, "Eve"],
            HouseRules(),
        )
    assert count_rows() == before
    assert games.list_games.__name__  # the normal listing stays the way to read games
