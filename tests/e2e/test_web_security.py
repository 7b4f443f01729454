"""The app's web server: the session cookie it sets, the headers it sends, and bookmarks.

The session cookie is set by the server (``HttpOnly``, ``SameSite=Strict``, ``Secure`` over
HTTPS or when hosted), through a single-use ticket the page hands to the browser. Every
answer carries a content policy that forbids framing; the app's pages work under it.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from playwright.sync_api import Page, Route, expect

from dutch_app.services import games, rounds
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    PASSWORD,
    SESSION_COOKIE,
    download,
    expect_title,
    fill,
    press,
    session_cookie_record,
    wait_for_session_cookie,
    watch_content_policy,
    widget,
)
from tests.servers import free_port

COOKIE_ROUTE = "/_dutch/session-cookie"
THIRTY_DAYS = 30 * 86400
BOOKMARKS = [
    ("play", "Play"),
    ("history", "History"),
    ("stats", "Stats"),
    ("group", "Group"),
    ("account", "Account"),
    ("calculator", "Round calculator"),
    ("rules", "Rules of Dutch"),
    ("privacy", "Privacy"),
]


@pytest.fixture(scope="module")
def ann(make_table):
    """Ann, signed up with a group of three players."""
    return make_table("Ann", "ann.web-security@example.com", "Friday cards", ["Ann", "Ben", "Cleo"])


def sign_in(page: Page, url: str, email: str = "ann.web-security@example.com") -> None:
    """Sign in through the sign-in form and wait for the Play page."""
    page.goto(url)
    expect_title(page, "Dutch Scorer")
    fill(page, "signin_email", email)
    fill(page, "signin_password", PASSWORD)
    press(page.get_by_role("button", name="Sign in"))
    expect_title(page, "Play")


def sign_up(page: Page, url: str, email: str) -> None:
    """Create an account through the sign-up form (which signs the person in), and wait for
    the Play page."""
    page.goto(url)
    page.get_by_role("tab", name="Create an account").click()
    fill(page, "signup_name", "Ann")
    fill(page, "signup_email", email)
    fill(page, "signup_password", PASSWORD)
    press(page.get_by_role("button", name="Create account"))
    expect_title(page, "Play")


def capture_ticket(page: Page) -> list[str]:
    """Keep the browser from fetching its cookie tickets; returns the list of their addresses."""
    held: list[str] = []

    def hold(route: Route) -> None:
        held.append(route.request.url)
        route.abort()

    page.route(re.compile(re.escape(COOKIE_ROUTE)), hold)
    return held


def wait_for(held: list[str], timeout: float = 20) -> str:
    """The first address in ``held``, once there is one."""
    deadline = time.monotonic() + timeout
    while not held:
        assert time.monotonic() < deadline, "the page asked for no cookie ticket"
        time.sleep(0.1)
    return held[0]


def assert_security_headers(response: requests.Response) -> None:
    """The answer forbids framing and carries the app's content policy."""
    policy = response.headers.get("Content-Security-Policy", "")
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives.get("frame-ancestors") == "'none'", policy
    assert directives.get("default-src") == "'self'", policy
    assert directives.get("object-src") == "'none'", policy
    assert "'unsafe-inline'" not in directives.get("script-src", ""), policy
    assert "'unsafe-eval'" not in directives.get("script-src", ""), policy
    assert response.headers.get("X-Frame-Options") == "DENY"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"


def test_signing_in_sets_an_http_only_strict_cookie_no_script_can_read(
    app_server, ann, browser_page
):
    """The cookie the browser keeps after sign-in is HttpOnly and SameSite=Strict, lasts the
    session's 30 days, is not Secure over plain HTTP on a server that is not hosted, and the
    page's own scripts cannot see it."""
    sign_in(browser_page, app_server.url)
    wait_for_session_cookie(browser_page, present=True)

    cookie = session_cookie_record(browser_page)
    assert cookie["httpOnly"] is True
    assert cookie["sameSite"] == "Strict"
    assert cookie["secure"] is False
    assert cookie["path"] == "/"
    assert abs(cookie["expires"] - time.time() - THIRTY_DAYS) < 600
    assert SESSION_COOKIE not in browser_page.evaluate("document.cookie")
    assert cookie["value"] not in browser_page.content()  # the token never was in the page


def test_a_hosted_server_marks_the_cookie_secure(streamlit_server, browser_page):
    """With ``hosted`` on, the cookie is Secure even on a plain-HTTP hop (the browser still
    stores it for a loopback address), and it signs the person back in after a reload."""
    hosted = {"DUTCH_HOSTED": "true", "DUTCH_SECRET_KEY": secrets.token_urlsafe(48)}
    url = streamlit_server(env={**hosted, "DUTCH_AUTH_BACKEND": "local"})
    sign_up(browser_page, url, "hosted@example.com")
    wait_for_session_cookie(browser_page, present=True)

    cookie = session_cookie_record(browser_page)
    assert (cookie["secure"], cookie["httpOnly"], cookie["sameSite"]) == (True, True, "Strict")
    browser_page.reload()
    expect_title(browser_page, "Play")
    expect(browser_page.get_by_test_id("stSidebar").get_by_text("Signed in as")).to_be_visible()


def test_a_cookie_ticket_works_once_only_from_the_app_itself_and_marks_https(
    app_server, ann, browser_page
):
    """The ticket the page hands over is refused when another site sends it; the app's own
    request over HTTPS (a proxy's X-Forwarded-Proto) gets a Secure, HttpOnly, Strict cookie;
    the same ticket a second time, or a made-up one, gets nothing."""
    held = capture_ticket(browser_page)
    sign_in(browser_page, app_server.url)
    ticket_url = wait_for(held)

    other_site = requests.get(ticket_url, headers={"Sec-Fetch-Site": "cross-site"}, timeout=10)
    assert other_site.status_code == 403
    assert "set-cookie" not in other_site.headers

    own = {"Sec-Fetch-Site": "same-origin", "X-Forwarded-Proto": "https"}
    first = requests.get(ticket_url, headers=own, timeout=10)
    assert first.status_code == 204
    set_cookie = first.headers["set-cookie"]
    name, _, value = set_cookie.split(";")[0].partition("=")
    assert name == SESSION_COOKIE
    assert ann.accounts.resume(value).user_id == ann.account.user_id  # Ann's own session
    flags = {part.strip().lower() for part in set_cookie.split(";")[1:]}
    assert {"httponly", "secure", "samesite=strict", "path=/"} <= flags, set_cookie
    assert f"max-age={THIRTY_DAYS}" in flags, set_cookie
    assert first.headers["cache-control"] == "no-store"
    assert_security_headers(first)

    again = requests.get(ticket_url, headers=own, timeout=10)
    assert again.status_code == 404 and "set-cookie" not in again.headers
    made_up = requests.get(f"{app_server.url}{COOKIE_ROUTE}?ticket=guess", timeout=10)
    assert made_up.status_code == 404 and "set-cookie" not in made_up.headers


def test_signing_out_removes_the_cookie_through_the_server(app_server, ann, browser_page):
    """Sign-out takes the cookie away (the page's scripts could not have), and a reload then
    shows the sign-in page."""
    sign_in(browser_page, app_server.url)
    wait_for_session_cookie(browser_page, present=True)

    press(browser_page.get_by_test_id("stSidebar").get_by_role("button", name="Sign out"))
    expect_title(browser_page, "Dutch Scorer")
    wait_for_session_cookie(browser_page, present=False)
    browser_page.reload()
    expect_title(browser_page, "Dutch Scorer")
    expect(browser_page.get_by_role("tab", name="Sign in")).to_be_visible()


@pytest.mark.parametrize("path", ["/", "/play", "/stats", "/history", "/sign_in", "/nowhere"])
def test_every_page_address_carries_the_security_headers(app_server, path):
    """A plain request for any page address gets the content policy and the framing ban."""
    response = requests.get(f"{app_server.url}{path}", timeout=10)
    assert response.status_code == 200
    assert_security_headers(response)


def test_the_servers_other_answers_carry_the_security_headers_too(app_server):
    """Streamlit's own routes (health check, scripts of the page) and the cookie route alike."""
    page = requests.get(app_server.url, timeout=10).text
    script = re.search(r'src="\./(static/js/[^"]+\.js)"', page).group(1)
    for path in ["/_stcore/health", f"/{script}", f"{COOKIE_ROUTE}?ticket=x"]:
        assert_security_headers(requests.get(f"{app_server.url}{path}", timeout=10))


@pytest.fixture
def other_site(app_server) -> Iterator[str]:
    """Another web site on this machine (its own port) whose page puts the app in a frame."""
    page = (
        "<!doctype html><title>Prizes</title><h1>Win a prize</h1>"
        f'<iframe src="{app_server.url}/" width="800" height="600"></iframe>'
    ).encode()

    class FramingPage(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:  # keep the test output quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), FramingPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_framed_copy_of_the_app_is_refused_by_the_browser(other_site, browser_page):
    """A page of another site that puts the app in a frame shows an empty frame: the browser
    refuses to draw the app there and says it is the app's frame-ancestors rule."""
    refusals = watch_content_policy(browser_page)
    browser_page.goto(other_site)
    expect(browser_page.get_by_role("heading", name="Win a prize")).to_be_visible()
    deadline = time.monotonic() + 20
    while not any("frame-ancestors 'none'" in text for text in refusals):
        assert time.monotonic() < deadline, f"the browser did not refuse the frame: {refusals}"
        browser_page.wait_for_timeout(100)
    expect(browser_page.frame_locator("iframe").get_by_test_id("stApp")).to_have_count(0)


def test_an_image_from_another_site_is_refused_by_the_policy(app_server, ann, browser_page):
    """Anything on a page that points at another site (a tracking pixel) is blocked before
    a request leaves the browser, and the browser reports the breach."""
    breaches = watch_content_policy(browser_page)
    fetched: list[str] = []
    browser_page.route("http://tracker.test/**", lambda route: fetched.append(route.request.url))
    sign_in(browser_page, app_server.url)
    assert breaches == []

    browser_page.evaluate(
        """() => {
            const pixel = document.createElement('img');
            pixel.src = 'http://tracker.test/pixel.png';
            document.body.appendChild(pixel);
        }"""
    )
    deadline = time.monotonic() + 20
    while not breaches:
        assert time.monotonic() < deadline, "no breach was reported"
        browser_page.wait_for_timeout(100)
    assert "img-src" in breaches[0]
    assert fetched == []


def test_a_bookmark_of_every_page_opens_that_page_when_signed_in(app_server, ann, page_factory):
    """With a valid session cookie, opening the address of each page (a bookmark) shows that
    page, never "Page not found", and nothing breaks the content policy on the way."""
    page = page_factory()
    breaches = watch_content_policy(page)
    page.context.add_cookies([ann.session_cookie(app_server.url)])
    for path, title in BOOKMARKS:
        page.goto(f"{app_server.url}/{path}")
        expect_title(page, title)
        sidebar = page.get_by_test_id("stSidebar")
        expect(sidebar.get_by_text("Signed in as")).to_be_visible()
        expect(page.get_by_text("Page not found")).to_have_count(0)
    assert breaches == []


def test_files_download_and_upload_under_the_policy(app_server, make_table, page_factory, tmp_path):
    """The History page's rounds file downloads and imports again, and the Account page's
    data download arrives, without the policy getting in the way."""
    table = make_table("Dee", "dee@example.com", "File club", ["Dee", "Eve"])
    dee, eve = table.player_ids["Dee"], table.player_ids["Eve"]
    game = table.call(games.start_game, table.group_id, [dee, eve], PRESETS["classic"])
    table.call(rounds.add_round, game.id, {dee: "3", eve: "9"}, dee, "dutch", None)
    page = page_factory()
    breaches = watch_content_policy(page)
    page.context.add_cookies([table.session_cookie(app_server.url)])

    page.goto(f"{app_server.url}/history")
    expect_title(page, "History")
    rounds_file = download(page, "history_download_rounds", tmp_path / "rounds.csv")
    assert "game_started_at" in rounds_file.read_text(encoding="utf-8").splitlines()[0]
    widget(page, "history_import_file").locator("input[type='file']").set_input_files(rounds_file)
    press(page.get_by_role("button", name="Import the file"))
    expect(page.get_by_text("Skipped 1 game already stored in this group.")).to_be_visible()

    page.goto(f"{app_server.url}/account")
    expect_title(page, "Account")
    archive = download(page, "account_download_data", tmp_path / "data.zip")
    assert archive.read_bytes()[:2] == b"PK"
    assert breaches == []
