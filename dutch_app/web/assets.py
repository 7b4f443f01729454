"""The app's own files on the web server: the page-head script, the web manifest, the icons.

A phone that adds the app to its home screen reads the manifest (name, icon, colours) and
the Apple touch icon. Streamlit's page has no place for them in its head, so a small script
of the app's own origin (allowed by the content policy) adds the links once the page runs;
the same script applies the theme the person saved with their account.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

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
CLOTH_GREEN, CARD_WHITE = "#1B7A46", "#FBFAF6"


def asset_path(name: str, base_url_path: str = "") -> str:
    """The absolute path of one of the app's files under ``server.baseUrlPath``.

    >>> asset_path("icon-192.png"), asset_path("app-head.js", "/dutch/")
    ('/_dutch/icon-192.png', '/dutch/_dutch/app-head.js')
    """
    base = base_url_path.strip("/")
    return f"/{base}/{ROUTE_PREFIX}/{name}" if base else f"/{ROUTE_PREFIX}/{name}"


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
        "background_color": CARD_WHITE,
        "theme_color": CLOTH_GREEN,
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
    cached = {"Cache-Control": "public, max-age=3600"}

    def serve(name: str):
        async def answer(request: Request) -> Response:
            return Response(_file(name), media_type=FILES[name], headers=cached)

        return answer

    body = json.dumps(manifest(base_url_path), indent=2).encode("utf-8")

    async def serve_manifest(request: Request) -> Response:
        return Response(body, media_type="application/manifest+json", headers=cached)

    routes = [
        Route(asset_path(name, base_url_path), serve(name), methods=["GET"]) for name in FILES
    ]
    routes.append(Route(asset_path(MANIFEST, base_url_path), serve_manifest, methods=["GET"]))
    return routes
