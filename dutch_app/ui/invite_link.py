"""Inviting by link and QR code: the owner's view on the Group page, and joining from a link.

The link opens the app with ``?join=<code>``. The code moves from the address into the tab's
own state at once, so it waits there while the person signs in or creates an account (in the
same tab), and they join as soon as they are signed in, without typing it. A link whose code
was replaced is refused with a message saying so.
"""

from __future__ import annotations

import io
from urllib.parse import quote, urlsplit

import segno
import streamlit as st

from dutch_app.config import DEFAULT_BASE_URL
from dutch_app.i18n import N_, _, error_text
from dutch_app.services import groups
from dutch_app.services.errors import NotFound, ServiceError
from dutch_app.services.views import GroupView
from dutch_app.ui.client import client_address
from dutch_app.ui.context import call, resources, set_active_group
from dutch_app.ui.text import md

QUERY_PARAMETER = "join"
PENDING_KEY = "invite_code_from_link"
OUTCOME_KEY = "invite_link_outcome"
LINK_REFUSED = N_(
    "This invite link no longer works: the group's owner has made a new invite code since "
    "it was sent (or the link was cut short). Ask them for the new link or code."
)
WAITING = N_(
    "You were invited to join a group. Join as a guest, or sign in (or create an account "
    "and then sign in), and you will join it straight away."
)


def app_address() -> str:
    """Where people open the app: the configured ``base_url``, else the address in this
    browser's bar (its scheme, host and Streamlit's base path)."""
    configured = resources().settings.base_url
    if configured != DEFAULT_BASE_URL:
        return configured
    seen = urlsplit(st.context.url or DEFAULT_BASE_URL)
    base = st.get_option("server.baseUrlPath").strip("/")
    return f"{seen.scheme}://{seen.netloc}" + (f"/{base}" if base else "")


def invite_link(code: str, address: str) -> str:
    """The link that opens the app at ``address`` with ``code`` filled in.

    >>> invite_link("K7QXM2PD", "https://scores.example.com")
    'https://scores.example.com/?join=K7QXM2PD'
    """
    return f"{address.rstrip('/')}/?{QUERY_PARAMETER}={quote(code, safe='')}"


def qr_png(text: str) -> bytes:
    """A QR code of ``text`` as PNG bytes: dark on white whatever the theme, for any camera."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=4)
    return buffer.getvalue()


def show_invite(group: GroupView) -> None:
    """The owner's invite: the link, its QR code and the code itself."""
    link = invite_link(group.invite_code or "", app_address())
    st.caption(_("Send this link, or let them scan the code: it opens the app ready to join."))
    st.code(link, language=None)
    st.image(qr_png(link), caption=_("Scan to join"), width=220)
    st.caption(_("Or tell them the invite code:"))
    st.code(group.invite_code, language=None)


def invite_link_opened() -> None:
    """Keep the code of an opened invite link in the tab, out of the address bar."""
    code = st.query_params.get(QUERY_PARAMETER)
    if code is not None:
        del st.query_params[QUERY_PARAMETER]
        st.session_state[PENDING_KEY] = code
        st.session_state.pop(OUTCOME_KEY, None)


def invite_waiting() -> bool:
    """Whether an invite link's code waits for the person to sign in."""
    return PENDING_KEY in st.session_state


def join_from_link() -> None:
    """Signed in with an invite link's code waiting: join that group and make it active.

    The outcome (joined; or refused, with the reason) is shown by :func:`show_invite_outcome`.
    """
    code = st.session_state.pop(PENDING_KEY, None)
    if code is None:
        return
    try:
        group = call(groups.join_group, code, client=client_address())
    except NotFound:
        st.session_state[OUTCOME_KEY] = ("error", _(LINK_REFUSED))
        return
    except ServiceError as error:  # too many wrong codes, or in too many groups already
        st.session_state[OUTCOME_KEY] = ("error", md(error_text(error)))
        return
    set_active_group(group.id)
    st.session_state[OUTCOME_KEY] = (
        "success",
        _("You joined {name} with the invite link; it is now your active group.").format(
            name=md(group.name)
        ),
    )


def show_invite_outcome() -> None:
    """Say once what became of the invite link (joined, or refused and why)."""
    outcome = st.session_state.pop(OUTCOME_KEY, None)
    if outcome is None:
        return
    kind, message = outcome
    if kind == "success":
        st.success(message, icon=":material/group_add:")
    else:
        st.error(message, icon=":material/link_off:")
