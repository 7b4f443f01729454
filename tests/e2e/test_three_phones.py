"""Three phones take turns at one table: Ann saves round 1, Finn round 2, Gus round 3, …

This is how most tables play. Each phone types a round only once its own screen shows
that round, and taps Save once: every save is stored with that one tap, no phone shows a
refusal or an error id, each round appears on the two other phones without anyone
touching them within the live promise, and the database holds rounds 1 to 9 once each.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from dutch_app.services import games, groups
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.conftest import PHONE_VIEWPORT
from tests.e2e.streamlit_ui import (
    PASSWORD,
    UNEXPECTED_ERROR,
    expect_clean_page,
    expect_title,
    fill_round,
    save_button,
    widget,
)
from tests.views import get_group

# The promise is a deadline, measured on a machine no other browser test shares.
pytestmark = pytest.mark.deadline

NAMES = ("Ann", "Ben", "Cleo")
ROUNDS = 9
LIVE_PROMISE_MS = 3_000


def _phone(page_factory) -> Page:
    return page_factory(*PHONE_VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)


@pytest.fixture
def three_phones(app_server, make_table, page_factory):
    """Ann's game of Ann, Ben and Cleo; Finn and Gus joined the group; three phones on Play."""
    stamp = f"{time.monotonic_ns()}"
    ann = make_table("Ann", f"ann{stamp}@example.com", "Card night", list(NAMES))
    invite = ann.call(get_group, ann.group_id).invite_code
    members = [ann.account.user_id]
    for name in ("Finn", "Gus"):
        account = ann.accounts.sign_up(f"{name.lower()}{stamp}@example.com", PASSWORD, name)
        with ann.sessions() as session:
            perform(session, groups.join_group, account.user_id, invite)
        members.append(account.user_id)
    seats = [ann.player_ids[name] for name in NAMES]
    game = ann.call(games.start_game, ann.group_id, seats, PRESETS["classic_open"])
    phones = []
    for user_id in members:  # the three phones load at once, as at a table
        page = _phone(page_factory)
        token = ann.accounts.issue_token(user_id)
        page.context.add_cookies([{"name": "dutch_session", "value": token, "url": app_server.url}])
        page.goto(app_server.url, wait_until="commit")
        phones.append(page)
    for page in phones:
        expect_title(page, "Play")
        expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    return ann, game.id, phones


def _seen_within(page: Page, number: int, since: float) -> float:
    """Seconds from ``since`` until ``page`` shows round ``number``'s form by itself, within
    the live promise."""
    left = LIVE_PROMISE_MS - (time.monotonic() - since) * 1000
    heading = page.get_by_role("heading", name=f"Round {number}", exact=True)
    expect(heading).to_be_visible(timeout=max(left, 1))
    return time.monotonic() - since


def test_three_phones_taking_turns_save_nine_rounds_with_nine_taps(three_phones):
    ann, game_id, phones = three_phones
    posts: list[int] = []
    for phone in phones:
        phone.on(
            "request",
            lambda request: (
                posts.append(1)
                if "/_dutch/round" in request.url and request.method == "POST"
                else None
            ),
        )
    delays: list[float] = []
    for number in range(1, ROUNDS + 1):
        phone = phones[(number - 1) % 3]
        # Typed only once this phone's own screen shows the round.
        expect(phone.get_by_role("heading", name=f"Round {number}", exact=True)).to_be_visible()
        caller = number % 3  # the caller has the lowest hand: no penalty cards to enter
        hands = [
            str(1 + number % 2) if seat == caller else str(5 + seat + number % 4)
            for seat in range(3)
        ]
        fill_round(phone, "play_round", hands, NAMES[caller])
        save_button(phone).tap()  # one tap
        since = time.monotonic()
        expect(widget(phone, "play_round_notice")).to_contain_text(f"Round {number} saved.")
        others = [other for other in phones if other is not phone]
        delays.extend(_seen_within(other, number + 1, since) for other in others)
    assert len(posts) == ROUNDS  # one request a save: no refusal, no second tap
    for phone in phones:
        expect(phone.get_by_text(UNEXPECTED_ERROR)).to_have_count(0)
        expect(phone.get_by_text("just saved round")).to_have_count(0)
        expect_clean_page(phone)
    stored = ann.call(games.get_game, game_id).rounds
    assert [r.number for r in stored] == list(range(1, ROUNDS + 1))
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(
        f"live delay over {len(delays)} updates: median {delays[len(delays) // 2]:.2f} s, "
        f"p95 {p95:.2f} s, max {delays[-1]:.2f} s"
    )
    assert p95 <= LIVE_PROMISE_MS / 1000
