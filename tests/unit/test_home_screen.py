"""The app on a phone's home screen: the manifest, the icons and the head script, served by the
app's own routes with its security headers, in a real Starlette application."""

from __future__ import annotations

import io

from PIL import Image
from streamlit import config

from dutch_app.web.assets import asset_path, head_script_src, manifest
from tests.unit.test_web_server import server  # noqa: F401 - the shared fixture


def test_the_manifest_names_the_app_and_its_icons(server):  # noqa: F811
    response = server.get("/_dutch/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    served = response.json()
    assert (served["name"], served["short_name"], served["display"]) == (
        "Dutch Scorer",
        "Dutch",
        "standalone",
    )
    assert served["start_url"] == "/"
    for icon in served["icons"]:
        picture = server.get(icon["src"])
        assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
        width, height = Image.open(io.BytesIO(picture.content)).size
        assert f"{width}x{height}" == icon["sizes"]
    assert {icon["sizes"] for icon in served["icons"]} == {"192x192", "512x512"}


def test_the_head_script_comes_from_the_apps_own_origin_under_its_policy(server):  # noqa: F811
    response = server.get("/_dutch/app-head.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert 'rel: "manifest"' in response.text and "apple-touch-icon" in response.text
    # script-src 'self' allows it: no inline script and no other origin needed.
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_files_live_under_the_servers_base_path():
    assert asset_path("icon-512.png", "/scores/") == "/scores/_dutch/icon-512.png"
    assert manifest("scores")["start_url"] == "/scores/"
    assert manifest("scores")["icons"][1]["src"] == "/scores/_dutch/icon-512.png"


def test_the_manifest_takes_its_colours_from_the_light_theme(server):  # noqa: F811
    served = server.get("/_dutch/manifest.webmanifest").json()
    assert served["theme_color"] == config.get_option("theme.light.primaryColor")
    assert served["background_color"] == config.get_option("theme.light.backgroundColor")


def test_the_head_script_is_kept_a_year_at_an_address_that_changes_with_it(server):  # noqa: F811
    src = head_script_src()
    assert src.startswith("/_dutch/app-head.js?v=")
    response = server.get(src)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "theme-color" in response.text and "prefers-color-scheme: dark" in response.text
