"""The web server around the Streamlit app: its own route and headers (see ``serve.py``).

Streamlit serves the app through Starlette; ``st.App`` lets the app add routes and
middleware without changing Streamlit. The app adds the route that sets the session
cookie (:mod:`dutch_app.web.cookie`), its own files (the page-head script, the web manifest
and the icons, :mod:`dutch_app.web.assets`) and the security headers of every answer
(:mod:`dutch_app.web.headers`).
"""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.routing import Route

from dutch_app.web.assets import asset_routes
from dutch_app.web.cookie import cookie_routes
from dutch_app.web.headers import SecurityHeaders


def routes(base_url_path: str = "") -> list[Route]:
    """The routes the app adds to Streamlit's own."""
    return [*cookie_routes(base_url_path), *asset_routes(base_url_path)]


def middleware() -> list[Middleware]:
    """The middleware the app puts in front of Streamlit's own."""
    return [Middleware(SecurityHeaders)]
