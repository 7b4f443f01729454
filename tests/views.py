"""One of a person's groups, for tests that need its invite code, members or role.

The app reads groups only as the list a person belongs to (``groups.list_groups``, which
the sidebar reads on every run); tests often want one group of that list.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from dutch_app.services import groups
from dutch_app.services.errors import NotFound
from dutch_app.services.views import GroupView


def get_group(session: Session, user_id: int, group_id: int) -> GroupView:
    """The group ``group_id`` as ``user_id`` sees it in their list (NotFound if not theirs)."""
    for group in groups.list_groups(session, user_id):
        if group.id == group_id:
            return group
    raise NotFound("group", group_id)
