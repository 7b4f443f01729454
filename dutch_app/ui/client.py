"""Which network the browser behind this session comes from, as the sign-in and
invite-code limits count it."""

from __future__ import annotations

import streamlit as st

from dutch_app.throttle import client_key
from dutch_app.ui.context import resources


def client_address() -> str | None:
    """The network address of the browser behind this session (None when unknown)."""
    proxies = resources().settings.limits.trusted_proxies
    forwarded = st.context.headers.get("X-Forwarded-For") if proxies else None
    ip = st.context.ip_address
    # Text only: a script run without a browser (a test) has no real connection.
    return client_key(
        ip if isinstance(ip, str) else None,
        forwarded if isinstance(forwarded, str) else None,
        proxies,
    )
