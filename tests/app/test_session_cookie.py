"""Sign-in and sign-out hand the cookie change to the browser as a single-use ticket.

The page gets a hidden image whose address carries the ticket; the web server's route turns
it into the Set-Cookie answer (tests/unit/test_web_server.py, tests/e2e/test_web_security.py).
The token itself is never in the page, and no script is.
"""

import re
import secrets

from dutch_app.ui.context import resources
from dutch_app.web import cookie
from tests.app.test_gate import sign_in, sign_up

TICKET_IMAGE = re.compile(r'<img hidden alt="" src="/_dutch/session-cookie\?ticket=([\w-]+)">')


def ticket_images(at) -> list[str]:
    """The ticket of every cookie image on the page."""
    bodies = [element.proto.body for element in at.get("html")]
    # No script ever touches the cookie: the images carry tickets, nothing else does. (The
    # app's one script, /_dutch/app-head.js, only adds the home-screen links and the theme.)
    assert all("<script" not in body for body in bodies if "session-cookie" in body)
    assert all("ticket" not in body for body in bodies if "<script" in body)
    return [match for body in bodies for match in TICKET_IMAGE.findall(body)]


def signed_up_and_in(password: str):
    """Create the account, which signs the person in."""
    return sign_up(password)


def test_creating_an_account_hands_over_the_same_ticket_as_signing_in(app_resources):
    at = sign_up("correct horse 42")
    [ticket] = ticket_images(at)
    change = cookie.TICKETS.redeem(ticket)
    assert change.max_age == resources().settings.session_days * 86400
    assert resources().accounts.resume(change.value).display_name == "Ann"


def test_signing_in_after_signing_out_hands_over_a_new_ticket(app_resources):
    at = sign_up("correct horse 42")
    at.button(key="sidebar_sign_out").click()
    at.run()
    sign_in(at, "ann@example.com", "correct horse 42")
    [ticket] = ticket_images(at)
    assert resources().accounts.resume(cookie.TICKETS.redeem(ticket).value).display_name == "Ann"


def test_signing_in_hands_over_a_ticket_for_the_persons_session(app_resources):
    at = signed_up_and_in("correct horse 42")
    [ticket] = ticket_images(at)
    change = cookie.TICKETS.redeem(ticket)
    assert change.max_age == resources().settings.session_days * 86400
    assert change.always_secure is False  # not hosted
    assert resources().accounts.resume(change.value).display_name == "Ann"
    assert all(change.value not in element.proto.body for element in at.get("html"))


def test_the_ticket_is_handed_over_once(app_resources):
    at = signed_up_and_in("correct horse 42")
    assert len(ticket_images(at)) == 1
    at.run()
    assert ticket_images(at) == []


def test_signing_out_hands_over_a_ticket_that_removes_the_cookie(app_resources):
    at = signed_up_and_in("correct horse 42")
    at.button(key="sidebar_sign_out").click()
    at.run()
    [ticket] = ticket_images(at)
    change = cookie.TICKETS.redeem(ticket)
    assert (change.value, change.max_age) == ("", 0)


def test_a_hosted_app_asks_for_a_secure_cookie(app_resources, monkeypatch):
    monkeypatch.setenv("DUTCH_HOSTED", "true")
    monkeypatch.setenv("DUTCH_SECRET_KEY", secrets.token_urlsafe(48))
    resources.clear()
    at = signed_up_and_in("correct horse 42")
    [ticket] = ticket_images(at)
    assert cookie.TICKETS.redeem(ticket).always_secure is True
