"""What every page shares: the database, the account store, who is signed in, the active group.

Pages call services through :func:`call`, which opens a session, passes the
signed-in person and runs the service in its unit of work
(:mod:`dutch_app.services.unit_of_work`: one transaction, committed or rolled back,
a write retried after a clash), so no page ever opens a database session or a
transaction itself. What runs outside a page's script run (a download button) or
without an account (a shared link) uses :func:`run_service`.

A tab keeps its session token next to the account. At the start of every full
rerun the router checks that token again (:func:`resume_from_cookie`: one query by
primary key, and with Firebase accounts a word from Firebase at most every few
minutes), so signing out, changing the password or deleting the account in another
tab or on another device, or disabling it in Firebase, ends this tab's session before
its page runs: it shows the sign-in page with a plain message and can change nothing. A service
called outside a checked run (a widget callback, a fragment) checks first too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from dutch_app.accounts import Account, AccountBackend, AuthFailed, make_backend
from dutch_app.accounts.housekeeping import Daily
from dutch_app.config import ConfigError, Settings, load_settings
from dutch_app.i18n import N_, _
from dutch_app.services import groups, preferences, unit_of_work
from dutch_app.services.views import GroupView
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_app.ui.text import md
from dutch_app.web import cookie

T = TypeVar("T")
_log = logging.getLogger(__name__)

SESSION_COOKIE = cookie.SESSION_COOKIE
ACCOUNT_KEY = "account"
TOKEN_KEY = "session_token"  # noqa: S105 - a session-state key, not a secret
GROUP_KEY = "active_group_id"
CHECKED_KEY = "session_checked_this_run"
NOTICE_KEY = "signed_out_notice"
ENDED_ELSEWHERE = N_(
    "You were signed out, because this account signed out, changed its password, or was "
    "deleted or disabled somewhere else. Nothing more was changed from this tab. Sign in again "
    "to go on."
)


@dataclass(frozen=True)
class Resources:
    """The app-wide objects made once per server process."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    accounts: AccountBackend
    clean_up: Daily
    """Deletes anonymous accounts unused for 30 days: at start-up, then once a day."""


@st.cache_resource(show_spinner=False)
def resources() -> Resources:
    """Read the settings, connect and migrate the database, pick the account store, and
    delete the anonymous accounts nobody used for 30 days."""
    settings = load_settings()
    engine = get_engine(settings.database_url)
    sessions = make_session_factory(engine)
    backend = make_backend(sessions, settings)
    clean_up = Daily(backend.remove_unused_anonymous)
    clean_up.run_if_due()
    return Resources(settings, engine, sessions, backend, clean_up)


def settings_problem() -> str | None:
    """What is wrong with the server's settings (a missing or weak secret key...), or None.

    The app refuses to run on such settings and shows this message instead of any page.
    """
    try:
        resources()
    except ConfigError as error:
        _log.error("Dutch Scorer cannot start: %s", error)
        return _("Dutch Scorer cannot start until its settings are fixed: {error}").format(
            error=error
        )
    return None


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
    """Run a service as the signed-in person, in a session of its own.

    Outside a run whose session the router has already checked, the session is checked
    first; a session that has ended elsewhere runs nothing.
    """
    account = require_account()
    if not st.session_state.get(CHECKED_KEY):
        checked = check_session()
        if checked is None:
            st.rerun()  # the router shows the sign-in page with the notice
            raise AuthFailed(_(ENDED_ELSEWHERE))  # where a rerun cannot start (a callback)
        account = checked
    return run_service(service, account.user_id, *args, **kwargs)


def run_service(service: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a service in a session of its own, in the unit of work it asks for.

    For callers that name the person themselves (a download button runs after the
    page's script run) or need none (a shared link); pages use :func:`call`.
    """
    with resources().sessions() as session:
        return unit_of_work.perform(session, service, *args, **kwargs)


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
    token = accounts().issue_token(account.user_id)
    st.session_state[ACCOUNT_KEY] = account
    st.session_state[TOKEN_KEY] = token
    st.session_state[CHECKED_KEY] = True
    st.session_state.pop(NOTICE_KEY, None)
    st.session_state["pending_cookie"] = (token, resources().settings.session_days * 86400)


def flush_cookie() -> None:
    """Send a cookie change queued by sign-in or sign-out to the browser (once per change)."""
    pending = st.session_state.pop("pending_cookie", None)
    if pending is not None:
        _write_cookie(*pending)


def check_session() -> Account | None:
    """Check this tab's session against the database (one query by primary key).

    Returns the account, as it is now (a new display name shows at once), or None
    after ending the tab's session when it has ended elsewhere (signed out,
    password changed, account deleted) or the tab holds no valid token.
    """
    token = st.session_state.get(TOKEN_KEY)
    account = accounts().check_session(token) if isinstance(token, str) else None
    if account is None or account.user_id != getattr(current_account(), "user_id", None):
        end_session(everywhere=False)
        st.session_state[NOTICE_KEY] = ENDED_ELSEWHERE
        return None
    st.session_state[ACCOUNT_KEY] = account
    st.session_state[CHECKED_KEY] = True
    return account


def end_of_run() -> None:
    """Forget that this run's session was checked (the next run checks again)."""
    st.session_state.pop(CHECKED_KEY, None)


def resume_from_cookie() -> None:
    """Check the tab's session at the start of a run; after a reload, sign the person
    back in from their cookie when it is still valid."""
    st.session_state.pop(CHECKED_KEY, None)
    if current_account() is not None:
        check_session()
        return
    if st.session_state.get("cookie_checked"):
        return
    st.session_state["cookie_checked"] = True
    token = st.context.cookies.get(SESSION_COOKIE)
    if isinstance(token, str) and token:
        account = accounts().resume(token)
        if account is not None and account.anonymous:
            # Its cookie is the only way back to an anonymous account: each visit renews it.
            start_session(account)
        elif account is not None:
            st.session_state[ACCOUNT_KEY] = account
            st.session_state[TOKEN_KEY] = token
            st.session_state[CHECKED_KEY] = True
        else:
            st.session_state["pending_cookie"] = ("", 0)


def signed_out_notice() -> str | None:
    """The message for a tab whose session ended elsewhere, once (then it is forgotten)."""
    return st.session_state.pop(NOTICE_KEY, None)


def end_session(everywhere: bool = True) -> None:
    """Sign out: end the person's sessions and forget them in this tab."""
    account = current_account()
    if account is not None and everywhere:
        accounts().sign_out(account.user_id)
    st.session_state.clear()
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


GROUP_PARAM = "group"
"""The address's query parameter naming the active group (``?group=12``): a reload or a
bookmark opens the same group."""


def active_group(group_list: list[GroupView]) -> GroupView | None:
    """The group the person is working in.

    This tab's own choice first, so that a choice made on another device never switches
    an open tab. A new session (a reload, another device, a bookmark) takes the group in
    its address, then the one the person last chose (kept with their preferences), then
    the first one; a group they are not a member of counts as none. The address then
    names the group on show.

    When the group this tab was working in is no longer in the list (an owner removed
    the person, or they left it in another tab), :func:`show_lost_group` says so.
    """
    ids = {group.id: group for group in group_list}
    chosen = st.session_state.get(GROUP_KEY)
    found = ids.get(chosen) if chosen is not None else None
    if found is None and chosen is not None:
        _note_lost_group()
    elif chosen is None and group_list:
        for wanted in (_group_in_address, lambda: call(preferences.last_group)):
            found = ids.get(wanted() or 0)  # ids start at 1
            if found is not None:
                break
    found = found or (group_list[0] if group_list else None)
    if found is None:
        st.session_state.pop(GROUP_KEY, None)
        return None
    st.session_state[GROUP_KEY] = found.id
    st.session_state[GROUP_NAME_KEY] = found.name
    if st.query_params.get(GROUP_PARAM) != str(found.id):
        st.query_params[GROUP_PARAM] = str(found.id)
    return found


def _group_in_address() -> int | None:
    """The group id in the address, or None when there is none or it is not a number."""
    text = st.query_params.get(GROUP_PARAM, "")
    return int(text) if text.isdecimal() and len(text) < 19 else None


def set_active_group(group_id: int) -> None:
    """Switch the active group, in this tab and as the person's choice for new sessions."""
    st.session_state[GROUP_KEY] = group_id
    call(preferences.remember_group, group_id)


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
        if name:
            message = _(
                "You are no longer a member of the group {name}, so its games are no longer "
                "shown here. Ask its owner for an invite code to join again."
            ).format(name=md(name))
        else:
            message = _(
                "You are no longer a member of that group, so its games are no longer shown "
                "here. Ask its owner for an invite code to join again."
            )
        st.warning(
            message,
            icon=":material/group_off:",
        )
