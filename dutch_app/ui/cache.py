"""Cached reads, keyed by the group's cache stamp: its random cache key and data version.

Every write to a group bumps its data version in the same transaction, and the
version is read afresh on every rerun (one indexed lookup). Keying the caches by
it means another member's new round shows up on the very next rerun, while an
unchanged group is served from memory. A group's history is the same for each
of its members, so one cached frame serves them all (a large group's frame is
tens of MB): the reader's id is not part of the key. Reading the version checks
membership first, so only members ever reach a cached frame.

The router reads the person's groups, each with its data version, at the start
of every run. A page that only reads takes the version from that
:class:`~dutch_app.services.views.GroupView` instead of asking again: it is as
fresh as a second read a few milliseconds later would be, and the group being in
the person's own list is the membership check.
"""

from __future__ import annotations

from datetime import date

import pandas as pd
import streamlit as st

from dutch_app.services import groups, history, players
from dutch_app.services.views import GroupView, PlayerView
from dutch_app.ui.context import call, require_account, resources, run_service
from dutch_app.ui.memory_cache import MIB, MemoryBoundedCache


def group_version(group_id: int) -> str:
    """The group's current cache stamp (checks membership).

    The stamp joins the group's data version to its random cache key, never to its
    id: a new group that gets a deleted group's id and reaches the same version
    still has a stamp of its own, so it is never served the old group's data.
    """
    return call(groups.cache_stamp, group_id)


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _roster(_reader_id: int, group_id: int, version: str) -> list[PlayerView]:
    del version  # part of the cache key only
    return run_service(players.list_players, _reader_id, group_id)


def roster(group: GroupView) -> list[PlayerView]:
    """The group's players by name, as of the data version ``group`` was read with.

    ``group`` must come from the signed-in person's own group list of this run.
    """
    return _roster(require_account().user_id, group.id, group.cache_stamp)


@st.cache_resource(show_spinner=False)
def shared_memory() -> MemoryBoundedCache:
    """The server process's cache of history frames and statistics, bounded by memory
    (``cache_megabytes`` of the limits) rather than by a count of entries, computing
    ``loading_slots`` entries at a time."""
    limits = resources().settings.limits
    return MemoryBoundedCache(limits.cache_megabytes * MIB, computing_at_once=limits.loading_slots)


def _history(
    reader_id: int,
    group_id: int,
    version: str,
    date_from: date | None,
    date_to: date | None,
    player_ids: tuple[int, ...] | None,
    status: str | None,
) -> pd.DataFrame:
    def load() -> pd.DataFrame:
        return run_service(
            history.load_history,
            reader_id,
            group_id,
            date_from=date_from,
            date_to=date_to,
            player_ids=list(player_ids) if player_ids is not None else None,
            status=status,
        )

    key = ("history", group_id, version, date_from, date_to, player_ids, status)
    # A shallow copy: the cached frame is shared by every session, and copy-on-write keeps
    # a page's changes to its copy away from it.
    return shared_memory().get_or_compute(key, load).copy(deep=False)


def history_frame(
    group_id: int,
    date_from: date | None = None,
    date_to: date | None = None,
    player_ids: tuple[int, ...] | None = None,
    status: str | None = None,
) -> pd.DataFrame:
    """The group's history frame with these filters, fresh as of this rerun."""
    account = require_account()
    version = group_version(group_id)
    return _history(account.user_id, group_id, version, date_from, date_to, player_ids, status)
