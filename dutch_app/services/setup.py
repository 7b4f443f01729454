"""Starting a game at the table: new players and the game in one step.

People often start a game with someone who has never played with the group.
:func:`start_game_with_players` adds such players and starts the game in a
single transaction, so a mistake anywhere (a bad name, bad rules) leaves
nothing half-made behind.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services import games, players
from dutch_app.services._access import membership
from dutch_app.services._input import name_key
from dutch_app.services._transaction import writing
from dutch_app.services.errors import ValidationError
from dutch_app.services.views import GameView
from dutch_core import HouseRules


def _check_seats(seats: object) -> list[int | str]:
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise ValidationError("players", f"players must be a list in seat order, not {seats!r}.")
    checked: list[int | str] = []
    for seat in seats:
        if isinstance(seat, bool) or not isinstance(seat, (int, str)):
            raise ValidationError(
                "players", f"each seat needs a player id or a name, not {seat!r}."
            )
        checked.append(seat)
    new_names = [name_key(seat) for seat in checked if isinstance(seat, str)]
    if len(set(new_names)) != len(new_names):
        raise ValidationError("players", _("A new player's name appears twice."))
    return checked


@writing
def start_game_with_players(
    session: Session,
    user_id: int,
    group_id: int,
    seats: Sequence[int | str],
    rules: HouseRules,
    notes: str = "",
) -> GameView:
    """Start a game; each seat is an existing player's id or the name of a new player.

    New players are added to the group first, in the same transaction as the game.
    """
    membership(session, user_id, group_id)
    player_ids = []
    for seat in _check_seats(seats):
        if isinstance(seat, str):
            seat = players.add_player(session, user_id, group_id, seat).id
        player_ids.append(seat)
    return games.start_game(session, user_id, group_id, player_ids, rules, notes)
