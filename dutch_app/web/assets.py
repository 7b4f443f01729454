"""The app's own files on the web server: the page-head script, the web manifest, the icons.

A phone that adds the app to its home screen reads the manifest (name, icon, colours) and
the Apple touch icon. Streamlit's page has no place for them in its head, so a small script
of the app's own origin (allowed by the content policy) adds the links once the page runs,
and the colour of the browser's bar in each theme (``theme-color``); the same script
applies the theme the person saved with their account. Its address carries a digest of its
text, so a browser keeps it for a year and fetches it again only when it changes; the
icons and the manifest are kept for an hour.

The colours are the themes' own, from ``.streamlit/config.toml``.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from streamlit import config

STATIC = Path(__file__).resolve().parent / "static"
ROUTE_PREFIX = "_dutch"
HEAD_SCRIPT = "app-head.js"
FILES = {
    HEAD_SCRIPT: "text/javascript; charset=utf-8",
    "icon-192.png": "image/png",
    "icon-512.png": "image/png",
}
MANIFEST = "manifest.webmanifest"
APP_NAME = "Dutch Scorer"
A_YEAR = "public, max-age=31536000, immutable"
AN_HOUR = "public, max-age=3600"


def asset_path(name: str, base_url_path: str = "") -> str:
    """The absolute path of one of the app's files or routes under ``server.baseUrlPath``.

    >>> asset_path("icon-192.png"), asset_path("app-head.js", "/dutch/")
    ('/_dutch/icon-192.png', '/dutch/_dutch/app-head.js')
    """
    base = base_url_path.strip("/")
    return f"/{base}/{ROUTE_PREFIX}/{name}" if base else f"/{ROUTE_PREFIX}/{name}"


def head_script_src(base_url_path: str = "") -> str:
    """The head script's address: its path, and a digest of its text that changes with it.

    >>> head_script_src("/dutch").startswith("/dutch/_dutch/app-head.js?v=")
    True
    """
    digest = hashlib.sha256(_file(HEAD_SCRIPT)).hexdigest()[:12]
    return f"{asset_path(HEAD_SCRIPT, base_url_path)}?v={digest}"


def bar_colours() -> dict[str, str]:
    """The colour of the browser's bar in each theme: the cloth green of the light theme,
    and the dark theme's background (a green bar would glare at a table at night)."""
    return {
        "light": config.get_option("theme.light.primaryColor"),
        "dark": config.get_option("theme.dark.backgroundColor"),
    }


def manifest(base_url_path: str = "") -> dict:
    """The web manifest: the name and icon a phone's home screen shows, and how it opens.

    >>> manifest()["start_url"], manifest("/dutch")["icons"][0]["src"]
    ('/', '/dutch/_dutch/icon-192.png')
    """
    base = base_url_path.strip("/")
    start = f"/{base}/" if base else "/"
    return {
        "name": APP_NAME,
        "short_name": "Dutch",
        "description": "Keep score for the card game Dutch at the table.",
        "start_url": start,
        "scope": start,
        "display": "standalone",
        "background_color": config.get_option("theme.light.backgroundColor"),
        "theme_color": bar_colours()["light"],
        "icons": [
            {"src": asset_path(f"icon-{size}.png", base_url_path), "sizes": f"{size}x{size}",
             "type": "image/png", "purpose": "any"}
            for size in (192, 512)
        ],
    }  # fmt: skip


@cache
def _file(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def asset_routes(base_url_path: str = "") -> list[Route]:
    """The routes serving the head script, the icons and the manifest."""

    def serve(body: bytes, media_type: str, kept: str):
        async def answer(request: Request) -> Response:
            return Response(body, media_type=media_type, headers={"Cache-Control": kept})

        return answer

    answers = {
        name: serve(_file(name), media_type, A_YEAR if name == HEAD_SCRIPT else AN_HOUR)
        for name, media_type in FILES.items()
    }
    body = json.dumps(manifest(base_url_path), indent=2).encode("utf-8")
    answers[MANIFEST] = serve(body, "application/manifest+json", AN_HOUR)
    return [
        Route(asset_path(name, base_url_path), answer, methods=["GET"])
        for name, answer in answers.items()
    ]
