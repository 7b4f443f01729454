"""Security headers on every HTTP answer of the app: no framing, and a content policy.

``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` keep any other site from showing
the app in a frame and tricking a click on one of its buttons. The content policy lets the
page load only the app's own scripts, fonts, images and connections: Streamlit's page needs
its one small inline script (allowed by its hash, read from the installed Streamlit), the
modules of the app's own components (Streamlit loads a component's script from a ``blob:``
address it makes in the page, so only script already running in the page can add one),
and inline styles (its components style themselves at run time), and nothing else.
The app's own inline script (:mod:`dutch_app.web.table_script`) is allowed by its hash.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import streamlit
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dutch_app.web.table_script import TABLE_SCRIPT

STREAMLIT_INDEX = Path(streamlit.__file__).parent / "static" / "index.html"
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL)


def inline_script_hashes(page: str) -> list[str]:
    """The CSP sources (``'sha256-…'``) of each inline script in an HTML page.

    >>> inline_script_hashes("<script>a()</script><script src='x.js'></script>")
    ["'sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4='"]
    """
    return [script_hash(body) for body in _INLINE_SCRIPT.findall(page)]


def script_hash(body: str) -> str:
    """The CSP source (``'sha256-…'``) that allows an inline script with this text."""
    digest = hashlib.sha256(body.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_security_policy(script_hashes: Iterable[str]) -> str:
    """The app's content policy, allowing the given inline scripts.

    >>> "frame-ancestors 'none'" in content_security_policy([])
    True
    """
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", *script_hashes, "blob:"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "frame-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


@cache
def security_headers() -> tuple[tuple[str, str], ...]:
    """The headers every answer carries (the policy built for the installed Streamlit)."""
    hashes = inline_script_hashes(STREAMLIT_INDEX.read_text(encoding="utf-8"))
    hashes.append(script_hash(TABLE_SCRIPT))
    return (
        ("Content-Security-Policy", content_security_policy(hashes)),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
    )


class SecurityHeaders:
    """ASGI middleware that puts :func:`security_headers` on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = security_headers()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers:
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
