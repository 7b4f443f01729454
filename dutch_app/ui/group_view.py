"""What the Group page shows about a group, as tables and sentences (no Streamlit here)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from dutch_app.i18n import _
from dutch_app.labels import label
from dutch_app.services.views import GroupView, PlayerOffer, PlayerView, Role
from dutch_app.ui.text import md


def members_frame(group: GroupView, me: int) -> pd.DataFrame:
    """The members with their roles; the person looking is marked "(you)"."""
    return pd.DataFrame(
        {
            _("Member"): [
                _("{name} (you)").format(name=member.display_name)
                if member.user_id == me
                else member.display_name
                for member in group.members
            ],
            _("Role"): [label(member.role) for member in group.members],
        }
    )


def member_names(group: GroupView) -> dict[int, str]:
    """Display name by user id."""
    return {member.user_id: member.display_name for member in group.members}


def players_frame(roster: Sequence[PlayerView], group: GroupView) -> pd.DataFrame:
    """The players, and the member account each one is linked to."""
    names = member_names(group)
    return pd.DataFrame(
        {
            _("Player"): [player.name for player in roster],
            _("Linked to"): [
                "" if player.user_id is None else names.get(player.user_id, "") for player in roster
            ],
        }
    )


def leave_note(group: GroupView, me: int) -> str:
    """What leaving will do, in Markdown (the group's name escaped)."""
    others = [member for member in group.members if member.user_id != me]
    name = md(group.name)
    if not others:
        return _(
            "You are the last member of {name}: leaving deletes the group with all "
            "its games and players, for good."
        ).format(name=name)
    text = _(
        "You will no longer see {name} or its games. The games you played stay "
        "in the group's history, and you can come back with an invite code."
    ).format(name=name)
    if group.role is Role.OWNER:
        heir = md(others[0].display_name)
        text += _(" Ownership passes to the longest-standing member ({heir}).").format(heir=heir)
    return text


def merge_note(source: PlayerView, target: PlayerView) -> str:
    """What merging does, in Markdown (names escaped)."""
    return _(
        "Every game and round of {source} moves to {target}, and {source} "
        "disappears from the list. Use this when one person was entered under "
        "two names; it cannot be undone."
    ).format(source=md(source.name), target=md(target.name))


def removable_members(group: GroupView, me: int) -> dict[int, str]:
    """The members an owner can remove (everyone but themselves), display name by user id."""
    return {member.user_id: member.display_name for member in group.members if member.user_id != me}


def remove_note(group: GroupView, name: str) -> str:
    """What removing a member will do, in Markdown (names escaped)."""
    return _(
        "{name} will no longer see {group} or its games, from their very next "
        "click. The games they played stay in the group's history, their "
        "player stays and is no longer linked to their account. The invite "
        "code is replaced, so the one they know stops working, and the links "
        "to games they made stop working too."
    ).format(name=md(name), group=md(group.name))


def offer_text(offer: PlayerOffer) -> str:
    """The question put to a member when a guest of the group has their name (Markdown)."""
    name = md(offer.match.name if offer.match is not None else offer.new_name)
    return _(
        "The group has a player called **{name}** who is not linked to an account. "
        "Is that you? Your games as {name} then count as yours."
    ).format(name=name)
