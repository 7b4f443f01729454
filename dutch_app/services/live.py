"""Versions of games and groups for the live table: what open pages wait on.

An open Play page or table view waits for the version of the game (or, while it
shows no game, of the group) it was drawn at to change. :func:`member_version`
answers one page, after checking that the person is a member; :func:`versions`
answers the server's one watcher for every page it serves at once, in one
indexed query per kind, and is only ever asked about games and groups whose
pages passed :func:`member_version` first.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from dutch_app.services import games, groups
from dutch_app.storage.models import Game, Group


class Watched(StrEnum):
    """What an open page follows."""

    GAME = "game"
    """A game in progress (the Play page, the table view): its version."""
    GROUP = "group"
    """A group, while the page waits for a game to show: its data version."""


#: One thing an open page follows: what kind, and its id.
Key = tuple[Watched, int]


def member_version(session: Session, user_id: int, kind: Watched, ident: int) -> int:
    """The version of the game or group ``ident`` for one of its members (one query).

    A NotFound for an unknown id and for a person who is not a member alike.
    """
    if kind is Watched.GAME:
        return games.game_version(session, user_id, ident)
    return groups.data_version(session, user_id, ident)


def versions(session: Session, keys: Iterable[Key]) -> dict[Key, int]:
    """The current version of each of ``keys`` (one query per kind; gone ones are left out).

    No membership check: the caller asks only for what members are waiting on.
    """
    wanted: dict[Watched, set[int]] = {Watched.GAME: set(), Watched.GROUP: set()}
    for kind, ident in keys:
        wanted[kind].add(ident)
    found: dict[Key, int] = {}
    if wanted[Watched.GAME]:
        query = select(Game.id, Game.version).where(Game.id.in_(wanted[Watched.GAME]))
        found.update({(Watched.GAME, ident): v for ident, v in session.execute(query)})
    if wanted[Watched.GROUP]:
        query = select(Group.id, Group.data_version).where(Group.id.in_(wanted[Watched.GROUP]))
        found.update({(Watched.GROUP, ident): v for ident, v in session.execute(query)})
    return found
