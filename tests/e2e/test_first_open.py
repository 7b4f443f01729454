"""The first open on a phone: what a real ``streamlit run serve.py`` sends, and how it is kept.

The page and Streamlit's scripts come back gzipped to a browser that asks for it, the
content-hashed files are kept for a year and the page is asked for again each time, the
live route still answers a waiting page the moment its game moves, and the browser's bar
takes the colour of the app's theme.
"""

from __future__ import annotations

import re
import threading
import time

import pytest
import requests
from playwright.sync_api import Page, expect
from streamlit import config

from dutch_app.services import games, rounds
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import SESSION_COOKIE, expect_title
from tests.servers import IDENTITY, largest_script, sent_bytes

GZIP = {"Accept-Encoding": "gzip"}
A_YEAR = 365 * 24 * 3600


@pytest.fixture(scope="module")
def ann(make_table):
    """Ann, with a group of three players."""
    return make_table("Ann", "ann.first-open@example.com", "Friday cards", ["Ann", "Ben", "Cleo"])


@pytest.mark.parametrize("path", ["/", "/play", "LARGEST_SCRIPT"])
def test_the_page_and_the_largest_script_come_back_gzipped(app_server, path):
    """Asked with ``Accept-Encoding: gzip``, the page (at the root and at a page address) and
    the largest script arrive gzipped, at most a third of their size, with the security
    headers still on; a client that does not ask gets them as they are."""
    url = largest_script(app_server.url) if path == "LARGEST_SCRIPT" else app_server.url + path
    plain, plain_size = sent_bytes(url, IDENTITY)
    zipped, zipped_size = sent_bytes(url, GZIP)
    assert plain.status_code == zipped.status_code == 200
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["vary"]
    assert zipped_size * 3 < plain_size, (zipped_size, plain_size)
    assert "frame-ancestors 'none'" in zipped.headers["content-security-policy"]
    assert zipped.headers["x-content-type-options"] == "nosniff"


def test_fonts_and_pictures_are_sent_as_they_are(app_server):
    """Files compressed already (the fonts, the icons) are not gzipped a second time."""
    page = requests.get(f"{app_server.url}/", timeout=30).text
    font = re.search(r'href="\./(static/media/[^"]+\.woff2)"', page)
    assert font is not None
    for path in (font.group(1), "_dutch/icon-192.png"):
        response, _size = sent_bytes(f"{app_server.url}/{path}", GZIP)
        assert response.status_code == 200
        assert "content-encoding" not in response.headers, path


def test_hashed_files_are_kept_a_year_and_the_page_is_asked_for_each_time(app_server):
    """Streamlit's content-hashed scripts and the app's own head script (its address carries
    a digest of its text) are cached for a year as immutable; the page is revalidated."""
    script = requests.get(largest_script(app_server.url), headers=GZIP, timeout=30)
    assert _cache_control(script) == {"public", "immutable", f"max-age={A_YEAR}"}
    for path in ("/", "/play"):
        page = requests.get(app_server.url + path, headers=GZIP, timeout=30)
        assert _cache_control(page) == {"no-cache"}


def test_the_head_script_is_asked_for_by_its_digest_and_kept_a_year(app_server, phone_page):
    """The page loads the app's head script at an address with a digest of its text, and
    that answer may be kept for a year."""
    page = phone_page
    with page.expect_response(re.compile(r"/_dutch/app-head\.js\?v=[0-9a-f]{12}$")) as loaded:
        page.goto(app_server.url)
    expect_title(page, "Dutch Scorer")
    response = loaded.value
    assert response.status == 200
    assert _cache_control(response) == {"public", "immutable", f"max-age={A_YEAR}"}


def _cache_control(response) -> set[str]:
    headers = response.headers if hasattr(response, "status_code") else response.all_headers()
    return {part.strip() for part in headers["cache-control"].split(",")}


@pytest.mark.deadline  # a 3 s promise: measured on a machine no other browser test loads
def test_a_waiting_page_hears_of_a_round_at_once_through_the_compression(app_server, ann):
    """A request held on the live route with ``Accept-Encoding: gzip`` is answered within
    the watcher's beat of a round being saved, as it was before the compression: nothing
    holds the answer back."""
    seats = list(ann.player_ids.values())
    game = ann.call(games.start_game, ann.group_id, seats, PRESETS["classic"])
    version = ann.call(games.game_version, game.id)
    cookies = {SESSION_COOKIE: ann.accounts.issue_token(ann.account.user_id)}
    answered: list[tuple[requests.Response, float]] = []

    def wait_like_a_page() -> None:
        response = requests.get(
            f"{app_server.url}/_dutch/live",
            params={"game": game.id, "since": version},
            headers=GZIP,
            cookies=cookies,
            timeout=60,
        )
        answered.append((response, time.monotonic()))

    waiting = threading.Thread(target=wait_like_a_page)
    waiting.start()
    time.sleep(1.5)  # the request is in and waiting: nothing moves in this game
    assert answered == []
    saved_at = time.monotonic()
    hands = {ann.player_ids["Ann"]: "3", ann.player_ids["Ben"]: "9", ann.player_ids["Cleo"]: "7"}
    ann.call(rounds.add_round, game.id, hands, ann.player_ids["Ann"], "dutch", for_round=1)
    waiting.join(timeout=30)
    (response, at), *_ = answered
    assert response.status_code == 200
    assert response.json() == {"version": ann.call(games.game_version, game.id)}
    assert at - saved_at < 3.0  # one watcher beat (1 s) and the trip, not the 40 s wait


def test_the_browser_bar_takes_the_colour_of_each_theme(app_server, phone_page: Page):
    """The sign-in page names a bar colour for a light and for a dark device: the themes'
    own colours from ``.streamlit/config.toml``."""
    page = phone_page
    page.goto(app_server.url)
    expect_title(page, "Dutch Scorer")
    light = page.locator('meta[name="theme-color"][media="(prefers-color-scheme: light)"]')
    dark = page.locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]')
    expect(light).to_have_attribute("content", config.get_option("theme.light.primaryColor"))
    expect(dark).to_have_attribute("content", config.get_option("theme.dark.backgroundColor"))
