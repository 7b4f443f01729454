"""Every member is a player of their group; demo groups are marked.

A member who has no linked player in a group gets one, named by their display name
and linked to their account. When the group already has a player of that name
(case does not matter) that no account is linked to, nothing is made or linked: the
Group page asks the member whether that player is them. When the name belongs to a
player linked to someone else, the new player is called "Name 2" (or 3, …), the rule
the app follows when someone joins.

``groups.is_demo`` marks the groups made by "Load a demo group" from now on; groups
loaded before cannot be told apart from real ones and stay unmarked.

Revision ID: 0008_members_are_players
Revises: 0007_preferences_and_shares
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0008_members_are_players"
down_revision: str | Sequence[str] | None = "0007_preferences_and_shares"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME_LENGTH = 60

users = sa.table("users", sa.column("id", sa.Integer), sa.column("display_name", sa.String))
memberships = sa.table(
    "memberships",
    sa.column("group_id", sa.Integer),
    sa.column("user_id", sa.Integer),
    sa.column("joined_at", sa.DateTime(timezone=True)),
)
players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("group_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("user_id", sa.Integer),
    sa.column("merged_into_id", sa.Integer),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
groups = sa.table("groups", sa.column("id", sa.Integer), sa.column("data_version", sa.Integer))


def free_name(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted 2``, ``wanted 3``, … whichever is free (as of this revision)."""
    wanted = " ".join(wanted.split())[:NAME_LENGTH] or "Player"
    number = 1
    name = wanted
    while name.casefold() in taken:
        number += 1
        suffix = f" {number}"
        name = wanted[: NAME_LENGTH - len(suffix)].rstrip() + suffix
    return name


def _give_members_players(connection: sa.Connection) -> None:
    names: dict[int, dict[str, int | None]] = {}  # group -> name key -> linked user (or None)
    linked: set[tuple[int, int]] = set()
    for group_id, key, user_id in connection.execute(
        sa.select(players.c.group_id, players.c.name_key, players.c.user_id).where(
            players.c.merged_into_id.is_(None)
        )
    ):
        names.setdefault(group_id, {})[key] = user_id
        if user_id is not None:
            linked.add((group_id, user_id))
    members = connection.execute(
        sa.select(memberships.c.group_id, memberships.c.user_id, users.c.display_name)
        .join(users, users.c.id == memberships.c.user_id)
        .order_by(memberships.c.group_id, memberships.c.joined_at, memberships.c.user_id)
    ).all()
    now = datetime.now(UTC)
    made, touched = [], set()
    for group_id, user_id, display_name in members:
        if (group_id, user_id) in linked:
            continue
        taken = names.setdefault(group_id, {})
        wanted = " ".join(display_name.split())[:NAME_LENGTH] or "Player"
        if wanted.casefold() in taken and taken[wanted.casefold()] is None:
            continue  # an unlinked player of that name: the member is asked, never linked here
        name = free_name(wanted, set(taken))
        taken[name.casefold()] = user_id
        made.append(
            {
                "group_id": group_id,
                "name": name,
                "name_key": name.casefold(),
                "user_id": user_id,
                "created_at": now,
            }
        )
        touched.add(group_id)
    if made:
        connection.execute(players.insert(), made)
        connection.execute(
            groups.update()
            .where(groups.c.id.in_(sorted(touched)))
            .values(data_version=groups.c.data_version + 1)
        )


def upgrade() -> None:
    op.add_column(
        "groups",
        sa.Column("is_demo", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    _give_members_players(op.get_bind())


def downgrade() -> None:
    # The players made here stay: by now they may have played games.
    with op.batch_alter_table("groups") as batch:
        batch.drop_column("is_demo")
