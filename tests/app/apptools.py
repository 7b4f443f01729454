"""Helpers for driving the whole app (app.py and its pages) with Streamlit's AppTest."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from dutch_app.accounts import Account
from dutch_app.services import groups, players
from dutch_app.ui.context import Resources

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


@dataclass(frozen=True)
class Table:
    """A signed-up person with a group of four players (Ann, Ben, Cleo, Dan)."""

    account: Account
    group_id: int
    player_ids: dict[str, int]
    resources: Resources

    def call(self, service, *args, **kwargs):
        """Run a service as this person, as a page would."""
        with self.resources.sessions() as session:
            return service(session, self.account.user_id, *args, **kwargs)


def make_table(res: Resources, email: str = "ann@example.com", name: str = "Ann") -> Table:
    """Sign someone up, give them a group and four players."""
    account = res.accounts.sign_up(email, "correct horse 42", name)
    with res.sessions() as session:
        group = groups.create_group(session, account.user_id, "Friday cards")
    ids = {}
    for player in ("Ann", "Ben", "Cleo", "Dan"):
        with res.sessions() as session:
            ids[player] = players.add_player(session, account.user_id, group.id, player).id
    return Table(account, group.id, ids, res)


def open_app(account: Account | None = None, page: str | None = None) -> AppTest:
    """Run app.py (signed in as ``account`` when given) and switch to ``page``."""
    at = AppTest.from_file(APP, default_timeout=60)
    if account is not None:
        at.session_state["account"] = account
        at.session_state["cookie_checked"] = True
    at.run()
    if page is not None:
        at.switch_page(page)
        at.run()
    assert not at.exception, at.exception
    return at


PAGE_PATHS = (
    "play",
    "table",
    "history",
    "stats",
    "group",
    "account",
    "calculator",
    "rules",
    "privacy",
)


def linked_pages(at: AppTest) -> list[str]:
    """The address (``play``, ``group`` …) of every page link on the page, in order."""
    by_hash = {calc_hash(path): path for path in PAGE_PATHS}
    return [
        link.proto.page or by_hash.get(link.proto.page_script_hash, "?")
        for link in at.get("page_link")
    ]


def messages(at: AppTest) -> list[str]:
    """Every error, warning, success and info text on the page."""
    return [e.value for e in (*at.error, *at.warning, *at.success, *at.info)]
