"""Deleting a person from the project's database, the same way for both backends.

The person leaves every group first: a group nobody else is in goes with them
(games included); in a shared group the ownership passes to the longest-standing
member and the game history stays, with the person's players unlinked, not deleted.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from dutch_app.accounts.tokens import end_sessions
from dutch_app.services.leaving import end_membership
from dutch_app.storage.models import LocalCredential, Membership, Player, User, UserPreferences
from dutch_app.throttle import forget_email


def leave_all_groups(session: Session, user_id: int) -> None:
    """End every membership of ``user_id``, passing on ownership or deleting empty groups."""
    for mine in session.scalars(select(Membership).where(Membership.user_id == user_id)).all():
        end_membership(session, mine)
    session.execute(update(Player).where(Player.user_id == user_id).values(user_id=None))


def remove_user(session: Session, user: User) -> None:
    """Delete ``user`` with their credentials, preferences and sign-in attempts, after
    leaving all groups.

    The session secret is changed first, so no token of the person is good for even
    the rest of this transaction.
    """
    end_sessions(session, user.id)
    leave_all_groups(session, user.id)
    if user.email is not None:
        forget_email(session, user.email)
    session.execute(delete(LocalCredential).where(LocalCredential.user_id == user.id))
    session.execute(delete(UserPreferences).where(UserPreferences.user_id == user.id))
    session.delete(user)
    session.flush()
