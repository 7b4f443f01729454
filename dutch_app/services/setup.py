"""Starting a game at the table: new players and the game in one step.

People often start a game with someone who has never played with the group.
:func:`start_game_with_players` adds such players and starts the game in a
single transaction, so a mistake anywhere (a bad name, bad rules) leaves
nothing half-made behind.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.i18n import _
from dutch_app.services import games, players
from dutch_app.services._access import membership
from dutch_app.services._input import name_key
from dutch_app.services.errors import ValidationError
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import GameDefaults, GameView
from dutch_app.storage.models import Game, GamePlayer, Membership, Player
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


@writes
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


def game_defaults(session: Session, user_id: int, group_id: int) -> GameDefaults:
    """What the set-up of the group's next game starts from.

    The most recently started game's players in its seat order, with its house rules
    (a rematch, also while that game is still going on); before the group's first
    game, the players of its members, in the order they joined.
    """
    membership(session, user_id, group_id)
    last = session.scalars(
        select(Game)
        .where(Game.group_id == group_id)
        .order_by(Game.started_at.desc(), Game.id.desc())
        .limit(1)
    ).one_or_none()
    if last is not None:
        seated = session.scalars(
            select(GamePlayer.player_id)
            .join(Player, Player.id == GamePlayer.player_id)
            .where(GamePlayer.game_id == last.id, Player.merged_into_id.is_(None))
            .order_by(GamePlayer.seat)
        )
        return GameDefaults(tuple(seated), HouseRules.from_dict(last.rules))
    members = session.scalars(
        select(Player.id)
        .join(
            Membership,
            (Membership.group_id == Player.group_id) & (Membership.user_id == Player.user_id),
        )
        .where(Player.group_id == group_id, Player.merged_into_id.is_(None))
        .order_by(Membership.joined_at, Membership.user_id)
    )
    return GameDefaults(tuple(members), None)
