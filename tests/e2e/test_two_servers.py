"""Two app servers on one PostgreSQL database, as when the app is hosted behind a load balancer.

Ann's browser talks to server A and Ben's to server B; each server keeps its own caches.
What one of them stores, the other shows on its next rerun, and a correction made on one
server that clashes with a correction made on the other is refused without losing either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from dutch_app.accounts import Account, AccountBackend, make_backend
from dutch_app.config import load_settings
from dutch_app.services import games, groups, players, rounds
from dutch_app.storage.db import get_engine, make_session_factory
from dutch_core import PRESETS
from tests.e2e.streamlit_ui import (
    PASSWORD,
    SESSION_COOKIE,
    expect_clean_page,
    expect_standings,
    expect_title,
    fill,
    fill_round,
    open_page,
    press,
    widget,
)

SECRET_KEY = "two-servers-secret-key-shared-by-every-server"
NAMES = ("Ann", "Ben", "Cleo")


@dataclass(frozen=True)
class SharedDatabase:
    """Two servers on one database, Ann and Ben in one group, and a game of three going on."""

    server_a: str
    server_b: str
    accounts: AccountBackend
    sessions: object
    ann: Account
    ben: Account
    player_ids: dict[str, int]
    game_id: int

    def as_ann(self, service, *args):
        """Run a service as Ann, straight on the database."""
        with self.sessions() as session:
            return service(session, self.ann.user_id, *args)

    def standings(self) -> list[tuple[int, str, int]]:
        """(rank, player, game total) of the game as stored now."""
        game = self.as_ann(games.get_game, self.game_id)
        return [(s.rank, s.player, s.game_total) for s in game.standings]


@pytest.fixture
def shared(fresh_postgres_database, streamlit_server):
    """A fresh PostgreSQL database served by two ``streamlit run`` processes."""
    url = fresh_postgres_database()
    env = {"DUTCH_DATABASE_URL": url, "DUTCH_SECRET_KEY": SECRET_KEY, "DUTCH_AUTH_BACKEND": "local"}
    engine = get_engine(url)  # migrated once, before the servers start (docs/hosting.md)
    sessions = make_session_factory(engine)
    accounts = make_backend(sessions, load_settings(secrets={}, environ=env))
    ann = accounts.sign_up("ann@example.com", PASSWORD, "Ann")
    ben = accounts.sign_up("ben@example.com", PASSWORD, "Ben")
    with sessions() as session:
        group = groups.create_group(session, ann.user_id, "Friday cards")
        groups.join_group(session, ben.user_id, group.invite_code)
        ids = {name: players.add_player(session, ann.user_id, group.id, name).id for name in NAMES}
        game = games.start_game(
            session, ann.user_id, group.id, [ids[name] for name in NAMES], PRESETS["classic"]
        )
    server_a = streamlit_server(env=env)
    server_b = streamlit_server(env=env)
    yield SharedDatabase(server_a, server_b, accounts, sessions, ann, ben, ids, game.id)
    engine.dispose()


def signed_in(page: Page, server: str, shared: SharedDatabase, account: Account) -> Page:
    """``page`` on ``server``, signed in as ``account`` through the session cookie."""
    token = shared.accounts.issue_token(account.user_id)
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": server}])
    page.goto(server)
    expect_title(page, "Play")
    return page


def correct_hands(page: Page, hands: list[str]) -> None:
    """Type new hands into the History page's correction form (the caller stays as loaded)."""
    for seat, hand in enumerate(hands):
        fill(page, f"history_edit_hand_{seat}", hand)


def test_a_round_saved_through_one_server_shows_on_the_other_at_its_next_rerun(
    shared, page_factory
):
    """Ann saves a round on server A; Ben's Play and Stats pages on server B, both shown
    (and Stats cached) before, show it as soon as they rerun."""
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    ben = signed_in(page_factory(), shared.server_b, shared, shared.ben)
    open_page(ben, "Stats")
    expect(ben.get_by_text("This group has no rounds yet")).to_be_visible()
    open_page(ben, "Play")
    expect_standings(ben, [(1, "Ann", 0), (1, "Ben", 0), (1, "Cleo", 0)])

    fill_round(ann, "play_round", ["3", "10", "12"], "Ann")
    press(ann.get_by_role("button", name="Save the round"))
    stored = [(1, "Ann", 3), (2, "Ben", 10), (3, "Cleo", 12)]
    expect_standings(ann, stored)
    assert shared.standings() == stored

    open_page(ben, "Play")  # Ben's next rerun, on the other server
    expect_standings(ben, stored)
    expect(ben.get_by_role("heading", name="Round 2")).to_be_visible()
    open_page(ben, "Stats")
    expect(ben.get_by_text(re.compile(r"\b1 games? and 1 rounds? in this view"))).to_be_visible()
    expect_clean_page(ben)


def test_clashing_corrections_on_two_servers_one_is_refused_and_nothing_is_lost(
    shared, page_factory
):
    """Ann and Ben open round 1 for correction on different servers. Ann saves first; Ben's
    correction, made to the round as it was before, is refused and Ann's stays stored. Ben
    can then load the round as it is now."""
    ids = shared.player_ids
    shared.as_ann(
        rounds.add_round,
        shared.game_id,
        {ids["Ann"]: "3", ids["Ben"]: "10", ids["Cleo"]: "12"},
        ids["Ann"],
        "dutch",
    )
    ann = signed_in(page_factory(), shared.server_a, shared, shared.ann)
    ben = signed_in(page_factory(), shared.server_b, shared, shared.ben)
    for page in (ann, ben):
        open_page(page, "History")
        expect(widget(page, "history_edit_hand_1").locator("input")).to_have_value("10")

    correct_hands(ann, ["3", "8", "12"])
    press(ann.get_by_role("button", name="Save the correction"))
    expect(ann.get_by_text("Round 1 saved")).to_be_visible()
    corrected = [(1, "Ann", 3), (2, "Ben", 8), (3, "Cleo", 12)]
    assert shared.standings() == corrected

    correct_hands(ben, ["3", "10", "20"])
    press(ben.get_by_role("button", name="Save the correction"))
    expect(ben.get_by_text("was changed by someone else")).to_be_visible()
    assert shared.standings() == corrected
    (stored,) = shared.as_ann(games.get_game, shared.game_id).rounds
    assert [hand.round_score for hand in stored.hands] == [3, 8, 12]
    assert stored.version == 2

    press(ben.get_by_role("button", name="Load the round as it is now"))
    expect(widget(ben, "history_edit_hand_1").locator("input")).to_have_value("8")
    expect_standings(ben, corrected)
    expect_clean_page(ben)
