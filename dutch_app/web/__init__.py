"""The web server around the Streamlit app: its own route and headers (see ``serve.py``).

Streamlit serves the app through Starlette; ``st.App`` lets the app add routes and
middleware without changing Streamlit. The app adds the route that sets the session
cookie (:mod:`dutch_app.web.cookie`), its own files (the page-head script, the web manifest
and the icons, :mod:`dutch_app.web.assets`), the route open pages wait on for a change of
their game (:mod:`dutch_app.web.live`), the route the Play page's entry stores a round
through (:mod:`dutch_app.web.round_route`), the security headers of every answer
(:mod:`dutch_app.web.headers`) and the compression of the answers Streamlit sends as they
are (:func:`middleware`); its lifespan (:mod:`dutch_app.web.lifespan`) ends the live
route's waits when the server stops.
"""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Route

from dutch_app.web.assets import asset_routes
from dutch_app.web.cookie import cookie_routes
from dutch_app.web.headers import SecurityHeaders
from dutch_app.web.lifespan import lifespan
from dutch_app.web.live import LiveRoute
from dutch_app.web.round_route import RoundRoute

__all__ = ["LiveRoute", "RoundRoute", "lifespan", "middleware", "routes"]


def routes(
    base_url_path: str = "",
    live: LiveRoute | None = None,
    round_route: RoundRoute | None = None,
) -> list[Route]:
    """The routes the app adds to Streamlit's own (and ``live``'s and ``round_route``'s,
    when given)."""
    extra = [] if live is None else live.routes(base_url_path)
    if round_route is not None:
        extra += round_route.routes(base_url_path)
    return [*cookie_routes(base_url_path), *asset_routes(base_url_path), *extra]


def middleware() -> list[Middleware]:
    """The middleware the app puts in front of Streamlit's own: the security headers, and
    gzip for the answers Streamlit leaves uncompressed.

    Streamlit gzips its own routes but sends the page (``/``) and its scripts and styles
    (``/static/…``, two thirds of a first visit's bytes) as they are, leaving compression
    to a proxy; a phone reaching ``streamlit run serve.py`` directly would wait on 1.6 MB it
    need not. Starlette's ``GZipMiddleware`` compresses them here: whatever is compressed
    already (Streamlit's own routes, pictures, fonts) and small answers (the live route's
    ``{"version": N}``, sent in one piece the moment it is known) pass through untouched,
    and websockets are not HTTP answers at all. Level 6 gives nearly level 9's size for
    two thirds of the time, and each 64 KiB piece of a file is compressed off the event loop.
    """
    return [
        Middleware(SecurityHeaders),
        Middleware(GZipMiddleware, compresslevel=6, thread_minimum_size=64 * 1024),
    ]
