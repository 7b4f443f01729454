"""Following a game live: notice a change made on another phone within a few seconds.

An open Play page or table view draws :func:`follow_game` (or, while no game is
on show, :func:`follow_group`) once: a fragment holding a small component that
draws nothing. The component waits on the app's live route
(:mod:`dutch_app.web.live`) for the game's version to move on from the one the
page was drawn at; the server answers every open page from one watcher per
process, so an idle page costs the server a request every
:data:`~dutch_app.web.live.WAIT_SECONDS` and no script run at all. When the
version moved, the component reruns the fragment, which asks the service for
the version (one indexed query, membership checked) and reruns the page, which
then draws the new state; a form's typed text survives that rerun because the
form's widgets keep their place on the page.

When the component cannot reach the route (a server started without
``serve.py``, a session cookie the browser did not keep, a network that drops
the request), it says so, and from then on this tab asks by itself: a fragment
that Streamlit reruns every :data:`LIVE_EVERY` seconds, which costs a script
run each time but keeps the same promise.
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urlencode

import streamlit as st

from dutch_app.services import games, groups
from dutch_app.services.errors import ServiceError
from dutch_app.services.live import Watched
from dutch_app.services.views import GroupView
from dutch_app.ui.context import call
from dutch_app.web.live import live_route_path, new_tab_name

log = logging.getLogger(__name__)

#: Seconds between two polls of a tab that asks by itself (the component could not connect).
LIVE_EVERY = 1.5
#: Set in a tab's session once its component could not reach the live route.
ASKING_KEY = "live_by_asking"
#: The tab's name in its requests to the live route (see :func:`changed_here`).
TAB_KEY = "live_tab"

_live = st.components.v2.component(
    "dutch_live",
    js=(Path(__file__).with_name("live_push.js")).read_text(encoding="utf-8"),
)


def _catch_up(kind: Watched, ident: int, shown_version: int) -> None:
    """Rerun the page when the game (or group) is no longer at ``shown_version``."""
    service = games.game_version if kind is Watched.GAME else groups.data_version
    try:
        version = call(service, ident)
    except ServiceError:  # deleted, or the person left the group: the page says what is left
        version = None
    except Exception:  # a passing database hiccup: the next poll tries again
        log.warning("polling %s %s failed", kind, ident, exc_info=True)
        return
    if version != shown_version:
        st.rerun()


def tab_name() -> str:
    """This tab's name in its requests to the app's routes (kept in its session)."""
    tab = st.session_state.get(TAB_KEY)
    if tab is None:
        tab = st.session_state[TAB_KEY] = new_tab_name()
    return tab


@st.fragment
def _follow_pushed(kind: Watched, ident: int, shown_version: int) -> None:
    query = urlencode({kind.value: ident, "tab": tab_name()})
    url = f"{live_route_path(st.get_option('server.baseUrlPath'))}?{query}"
    heard = _live(
        key="live_follow",
        data={"url": url, "since": shown_version},
        height=0,
        on_changed_change=lambda: None,
        on_offline_change=lambda: None,
    )
    if heard.offline is not None:
        log.info("the live route could not be reached (%s): this tab asks by itself", heard.offline)
        st.session_state[ASKING_KEY] = True
        st.rerun()
    if heard.changed is not None:
        _catch_up(kind, ident, shown_version)


@st.fragment(run_every=LIVE_EVERY)
def _follow_by_asking(kind: Watched, ident: int, shown_version: int) -> None:
    _catch_up(kind, ident, shown_version)


def _follow(kind: Watched, ident: int, shown_version: int) -> None:
    if st.session_state.get(ASKING_KEY):
        _follow_by_asking(kind, ident, shown_version)
    else:
        _follow_pushed(kind, ident, shown_version)


def follow_game(game_id: int, shown_version: int) -> None:
    """Keep the page in step with the game it shows (drawn at version ``shown_version``)."""
    _follow(Watched.GAME, game_id, shown_version)


def follow_group(group: GroupView) -> None:
    """Keep a page that waits for a game in step with the group (a game started elsewhere)."""
    _follow(Watched.GROUP, group.id, group.data_version)


def member_name(group: GroupView, user_id: int | None) -> str | None:
    """The display name of a member of ``group`` (None for someone who left or nobody)."""
    for member in group.members:
        if member.user_id == user_id:
            return member.display_name
    return None
