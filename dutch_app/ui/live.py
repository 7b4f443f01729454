"""Following a game live: notice a change made on another phone within a few seconds.

An open Play page or table view draws :func:`follow_game` (or, while no game is
on show, :func:`follow_group`) once. It is a fragment that Streamlit reruns on
its own every :data:`LIVE_EVERY` seconds: the rerun asks only for the version
(one indexed query, nothing written, no history read) and draws nothing, so an
idle page costs next to nothing. Only when the version differs from the one the
page was drawn with does it rerun the page, which then draws the new state; a
form's typed text survives that rerun because the form's widgets keep their
place on the page.
"""

from __future__ import annotations

import logging

import streamlit as st

from dutch_app.services import games, groups
from dutch_app.services.errors import ServiceError
from dutch_app.services.views import GroupView
from dutch_app.ui.context import call

log = logging.getLogger(__name__)

#: Seconds between two polls of an open page: a change shows within this plus one page run.
LIVE_EVERY = 1.5


@st.fragment(run_every=LIVE_EVERY)
def _follow(kind: str, ident: int, shown_version: int) -> None:
    """Rerun the page as soon as the game (or group) is no longer at ``shown_version``."""
    service = games.game_version if kind == "game" else groups.data_version
    try:
        version = call(service, ident)
    except ServiceError:  # deleted, or the person left the group: the page says what is left
        version = None
    except Exception:  # a passing database hiccup: the next poll tries again
        log.warning("polling %s %s failed", kind, ident, exc_info=True)
        return
    if version != shown_version:
        st.rerun()


def follow_game(game_id: int, shown_version: int) -> None:
    """Keep the page in step with the game it shows (drawn at version ``shown_version``)."""
    _follow("game", game_id, shown_version)


def follow_group(group: GroupView) -> None:
    """Keep a page that waits for a game in step with the group (a game started elsewhere)."""
    _follow("group", group.id, group.data_version)


def member_name(group: GroupView, user_id: int | None) -> str | None:
    """The display name of a member of ``group`` (None for someone who left or nobody)."""
    for member in group.members:
        if member.user_id == user_id:
            return member.display_name
    return None
