"""Which network a request comes from, as the sign-in and invite-code limits count it."""

from __future__ import annotations

import ipaddress

import streamlit as st


def client_key(ip: str | None, forwarded_for: str | None, trusted_proxies: int) -> str | None:
    """The client's network address: the connection's own, or behind ``trusted_proxies``
    reverse proxies the entry they added to ``X-Forwarded-For`` (entries further left
    come from the client and could be made up). An IPv6 address counts as its /64 network,
    which one person usually holds whole.

    >>> client_key("203.0.113.7", "1.2.3.4", 0)
    '203.0.113.7'
    >>> client_key("10.0.0.2", "6.6.6.6, 198.51.100.9", 1)
    '198.51.100.9'
    >>> client_key("2001:db8::1:2:3:4", None, 0)
    '2001:db8::/64'
    >>> client_key(None, None, 0) is None
    True
    """
    chosen = ip
    if trusted_proxies and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        if hops:
            chosen = hops[-min(trusted_proxies, len(hops))]
    if not chosen:
        return None
    try:
        parsed = ipaddress.ip_address(chosen.strip().strip("[]"))
    except ValueError:
        return chosen.strip()[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)


def client_address() -> str | None:
    """The network address of the browser behind this session (None when unknown)."""
    from dutch_app.ui.context import resources

    proxies = resources().settings.limits.trusted_proxies
    forwarded = st.context.headers.get("X-Forwarded-For") if proxies else None
    ip = st.context.ip_address
    # Text only: a script run without a browser (a test) has no real connection.
    return client_key(
        ip if isinstance(ip, str) else None,
        forwarded if isinstance(forwarded, str) else None,
        proxies,
    )
