"""Players of a group: add, rename, link to a member's account, merge, list."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, aliased

from dutch_app.i18n import _
from dutch_app.services._access import bump_group, membership, player_for
from dutch_app.services._caps import check_room_for_players
from dutch_app.services._input import check_id, clean_name, name_key
from dutch_app.services._members import PLAYER_NAME_LENGTH, linked_player
from dutch_app.services._present import player_view
from dutch_app.services.errors import NotFound, ValidationError
from dutch_app.services.unit_of_work import writes
from dutch_app.services.views import PlayerView
from dutch_app.storage.models import (
    Game,
    GamePlayer,
    Membership,
    Player,
    Round,
    RoundHand,
)


def _check_name_free(session: Session, group_id: int, name: str, keep: int | None = None) -> None:
    taken = session.scalars(
        select(Player).where(Player.group_id == group_id, Player.name_key == name_key(name))
    ).one_or_none()
    if taken is not None and taken.id != keep:
        raise ValidationError(
            "name", _("The group already has a player called {name!r}.").format(name=taken.name)
        )


def _check_link(session: Session, group_id: int, link_user_id: object, keep: int | None) -> None:
    link_user_id = check_id("link_user_id", link_user_id)
    if session.get(Membership, (group_id, link_user_id)) is None:
        raise NotFound("member", link_user_id)
    linked = linked_player(session, group_id, link_user_id)
    if linked is not None and linked.id != keep:
        raise ValidationError(
            "link_user_id", _("That member is already linked to {name!r}.").format(name=linked.name)
        )


@writes
def add_player(
    session: Session, user_id: int, group_id: int, name: str, link_user_id: int | None = None
) -> PlayerView:
    """Add a player to the group; names are unique in a group, whatever their case.

    Refused once the group has the most players allowed (``max_players_per_group``).
    """
    membership(session, user_id, group_id)
    name = clean_name("name", name, PLAYER_NAME_LENGTH)
    _check_name_free(session, group_id, name)
    check_room_for_players(session, group_id)
    if link_user_id is not None:
        _check_link(session, group_id, link_user_id, keep=None)
    player = Player(group_id=group_id, name=name, name_key=name_key(name), user_id=link_user_id)
    session.add(player)
    session.flush()
    bump_group(session, group_id)
    return player_view(player)


@writes
def rename_player(session: Session, user_id: int, player_id: int, name: str) -> PlayerView:
    """Rename a player; every game they played shows the new name."""
    player = player_for(session, user_id, player_id)
    name = clean_name("name", name, PLAYER_NAME_LENGTH)
    _check_name_free(session, player.group_id, name, keep=player.id)
    player.name, player.name_key = name, name_key(name)
    session.flush()
    bump_group(session, player.group_id)
    return player_view(player)


@writes
def link_player(
    session: Session, user_id: int, player_id: int, link_user_id: int | None
) -> PlayerView:
    """Link a player to a member's account, or unlink it (``link_user_id=None``)."""
    player = player_for(session, user_id, player_id)
    if link_user_id is not None:
        _check_link(session, player.group_id, link_user_id, keep=player.id)
    player.user_id = link_user_id
    session.flush()
    bump_group(session, player.group_id)
    return player_view(player)


def list_players(session: Session, user_id: int, group_id: int) -> list[PlayerView]:
    """The group's players by name (merged players are gone)."""
    membership(session, user_id, group_id)
    players = session.scalars(
        select(Player)
        .where(Player.group_id == group_id, Player.merged_into_id.is_(None))
        .order_by(Player.name_key, Player.id)
    )
    return [player_view(player) for player in players]


@writes
def merge_players(
    session: Session, user_id: int, group_id: int, source_id: int, target_id: int
) -> PlayerView:
    """Move all of ``source``'s history to ``target`` and retire ``source``.

    Refused when both sat in the same game (a game cannot have a player twice).
    """
    membership(session, user_id, group_id)
    source = player_for(session, user_id, source_id, field="source_id")
    target = player_for(session, user_id, target_id, field="target_id")
    if source.group_id != group_id:
        raise NotFound("player", source_id)
    if target.group_id != group_id:
        raise NotFound("player", target_id)
    if source.id == target.id:
        raise ValidationError(
            "target_id", _("{name!r} cannot be merged into itself.").format(name=source.name)
        )
    _check_never_together(session, source, target)
    game_ids = select(GamePlayer.game_id).where(GamePlayer.player_id == source.id)
    session.execute(
        update(Game)
        .where(Game.id.in_(game_ids))
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )
    for table, column in (
        (GamePlayer, GamePlayer.player_id),
        (RoundHand, RoundHand.player_id),
        (Round, Round.caller_player_id),
        (Player, Player.merged_into_id),
    ):
        session.execute(
            update(table)
            .where(column == source.id)
            .values({column.key: target.id})
            .execution_options(synchronize_session=False)
        )
    link = source.user_id
    source.merged_into_id, source.name_key, source.user_id = target.id, None, None
    session.flush()
    if target.user_id is None and link is not None:
        target.user_id = link
        session.flush()
    bump_group(session, group_id)
    return player_view(target)


def _check_never_together(session: Session, source: Player, target: Player) -> None:
    other = aliased(GamePlayer)
    shared = session.scalar(
        select(func.count())
        .select_from(GamePlayer)
        .join(other, other.game_id == GamePlayer.game_id)
        .where(GamePlayer.player_id == source.id, other.player_id == target.id)
    )
    if shared:
        raise ValidationError(
            "source_id",
            _(
                "{name!r} and {other!r} played {shared} game(s) together, so they are "
                "different people and cannot be merged."
            ).format(name=source.name, other=target.name, shared=shared),
        )
