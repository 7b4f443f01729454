"""What every page shares: the database, the account store, who is signed in, the active group.

Pages call services through :func:`call`, which opens a session and passes the
signed-in person, so no page ever opens a database session itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from dutch_app.accounts import Account, AccountBackend, make_backend
from dutch_app.config import Settings, load_settings
from dutch_app.services import groups
from dutch_app.services.views import GroupView
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_app.ui.text import md
from dutch_app.web import cookie

T = TypeVar("T")
_log = logging.getLogger(__name__)

SESSION_COOKIE = cookie.SESSION_COOKIE
ACCOUNT_KEY = "account"
GROUP_KEY = "active_group_id"


@dataclass(frozen=True)
class Resources:
    """The app-wide objects made once per server process."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    accounts: AccountBackend


@st.cache_resource(show_spinner=False)
def resources() -> Resources:
    """Read the settings, connect and migrate the database, and pick the account store."""
    settings = load_settings()
    engine = get_engine(settings.database_url)
    sessions = make_session_factory(engine)
    return Resources(settings, engine, sessions, make_backend(sessions, settings))


def accounts() -> AccountBackend:
    """The configured account store (local or Firebase)."""
    return resources().accounts


def current_account() -> Account | None:
    """The signed-in person, or None."""
    return st.session_state.get(ACCOUNT_KEY)


def require_account() -> Account:
    """The signed-in person; pages behind the sign-in gate can rely on it."""
    account = current_account()
    if account is None:  # the router never shows these pages then; a safe stop anyway
        st.stop()
    return account


def call(service: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a service as the signed-in person, in a session of its own."""
    account = require_account()
    with resources().sessions() as session:
        return service(session, account.user_id, *args, **kwargs)


def _write_cookie(value: str, max_age: int) -> None:
    """Set (or with max_age 0, remove) the session cookie in the browser.

    The web server sets it (``HttpOnly``, so no script of the page can read it): the page
    gets a single-use ticket for the change, in a hidden image the browser fetches from
    the app's cookie route (see :mod:`dutch_app.web.cookie`).
    """
    if not cookie.TICKETS.served:
        _log.warning("The session cookie needs the app's web server: `streamlit run serve.py`")
    ticket = cookie.TICKETS.issue(value, max_age, always_secure=resources().settings.hosted)
    st.html(cookie.ticket_image(ticket, st.get_option("server.baseUrlPath")))


def start_session(account: Account) -> None:
    """Remember the person in this tab and, through a signed cookie, across reloads."""
    st.session_state[ACCOUNT_KEY] = account
    token = accounts().issue_token(account.user_id)
    st.session_state["pending_cookie"] = (token, resources().settings.session_days * 86400)


def flush_cookie() -> None:
    """Send a cookie change queued by sign-in or sign-out to the browser (once per change)."""
    pending = st.session_state.pop("pending_cookie", None)
    if pending is not None:
        _write_cookie(*pending)


def resume_from_cookie() -> None:
    """Sign the person back in from their cookie after a reload, when it is still valid."""
    if current_account() is not None or st.session_state.get("cookie_checked"):
        return
    st.session_state["cookie_checked"] = True
    token = st.context.cookies.get(SESSION_COOKIE)
    if isinstance(token, str) and token:
        account = accounts().resume(token)
        if account is not None:
            st.session_state[ACCOUNT_KEY] = account
        else:
            st.session_state["pending_cookie"] = ("", 0)


def end_session(everywhere: bool = True) -> None:
    """Sign out: end the person's sessions and forget them in this tab."""
    account = current_account()
    if account is not None and everywhere:
        accounts().sign_out(account.user_id)
    for key in list(st.session_state):
        del st.session_state[key]
    st.session_state["cookie_checked"] = True
    st.session_state["pending_cookie"] = ("", 0)


def replace_account(account: Account) -> None:
    """Keep a changed profile (a new display name) for the rest of the session."""
    st.session_state[ACCOUNT_KEY] = account


HANDED_GROUPS_KEY = "groups_read_by_router"


def my_groups() -> list[GroupView]:
    """The groups the signed-in person belongs to.

    The router reads them for the sidebar at the start of each run and hands that
    list on to the page's first call, so a rerun reads them once; any later call
    reads afresh (after an action that created, joined or left a group).
    """
    handed = st.session_state.pop(HANDED_GROUPS_KEY, None)
    if handed is not None:
        return handed
    return call(groups.list_groups)


def hand_groups_to_page(group_list: list[GroupView]) -> None:
    """Let the page's first :func:`my_groups` call use the list the router just read."""
    st.session_state[HANDED_GROUPS_KEY] = group_list


def active_group(group_list: list[GroupView]) -> GroupView | None:
    """The group the person is working in (the first one unless they chose another).

    When the group this tab was working in is no longer in the list (an owner removed
    the person, or they left it in another tab), :func:`show_lost_group` says so.
    """
    chosen = st.session_state.get(GROUP_KEY)
    found = next((group for group in group_list if group.id == chosen), None)
    if found is None and chosen is not None:
        _note_lost_group()
    found = found or (group_list[0] if group_list else None)
    if found is None:
        st.session_state.pop(GROUP_KEY, None)
        return None
    st.session_state[GROUP_KEY] = found.id
    st.session_state[GROUP_NAME_KEY] = found.name
    return found


def set_active_group(group_id: int) -> None:
    """Switch the active group."""
    st.session_state[GROUP_KEY] = group_id


GROUP_NAME_KEY = "active_group_name"
LOST_GROUP_KEY = "lost_group_name"


def _note_lost_group() -> None:
    st.session_state[LOST_GROUP_KEY] = st.session_state.pop(GROUP_NAME_KEY, "")


def forget_active_group() -> None:
    """The person left the active group themselves: no "no longer a member" notice."""
    st.session_state.pop(GROUP_KEY, None)
    st.session_state.pop(GROUP_NAME_KEY, None)


def show_lost_group() -> None:
    """Say once that the group this tab was working in is no longer the person's."""
    name = st.session_state.pop(LOST_GROUP_KEY, None)
    if name is not None:
        group = f"the group {md(name)}" if name else "that group"
        st.warning(
            f"You are no longer a member of {group}, so its games are no longer shown here. "
            "Ask its owner for an invite code to join again.",
            icon=":material/group_off:",
        )
