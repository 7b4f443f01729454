"""Helpers for driving the whole app (app.py and its pages) with Streamlit's AppTest."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from dutch_app.accounts import Account
from dutch_app.services import groups, players
from dutch_app.services.unit_of_work import perform
from dutch_app.ui import play_entry
from dutch_app.ui.context import Resources, resources
from dutch_app.ui.entry_keys import entry_widget_key
from dutch_app.web.round_route import store_entry
from tests.rendering import render

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
            return perform(session, service, self.account.user_id, *args, **kwargs)


def make_table(res: Resources, email: str = "ann@example.com", name: str = "Ann") -> Table:
    """Sign someone up, give them a group and four players (the person plays as the
    player of their display name, made with the group)."""
    account = res.accounts.sign_up(email, "correct horse 42", name)
    with res.sessions() as session:
        group = perform(session, groups.create_group, account.user_id, "Friday cards")
        ids = {
            p.name: p.id for p in perform(session, players.list_players, account.user_id, group.id)
        }
    for player in ("Ann", "Ben", "Cleo", "Dan"):
        if player in ids:
            continue
        with res.sessions() as session:
            ids[player] = perform(session, players.add_player, account.user_id, group.id, player).id
    return Table(account, group.id, ids, res)


def sign_in_tab(at: AppTest, account: Account) -> None:
    """Give the tab a signed-in session, as signing in would: the account and its token."""
    at.session_state["account"] = account
    at.session_state["session_token"] = resources().accounts.issue_token(account.user_id)
    at.session_state["cookie_checked"] = True


def open_app(
    account: Account | None = None, page: str | None = None, context: dict | None = None
) -> AppTest:
    """Run app.py (signed in as ``account`` when given) and switch to ``page``; ``context``
    is what the browser tells (``{"timezone": "Europe/Berlin"}``)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.context.update(context or {})
    if account is not None:
        sign_in_tab(at, account)
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


PAGE_BAR = ["play", "table", "history", "stats"]
"""The one-tap links at the top of the pages used at the table (app.py's page bar)."""


def linked_pages(at: AppTest, with_bar: bool = False) -> list[str]:
    """The address (``play``, ``group`` …) of every page link on the page, in order; the
    page bar's links only when ``with_bar``."""
    by_hash = {calc_hash(path): path for path in PAGE_PATHS}
    by_hash[calc_hash("home")] = "play"  # Play, the home page, is named "home" inside the app
    links = [
        link.proto.page or by_hash.get(link.proto.page_script_hash, "?")
        for link in at.get("page_link")
    ]
    if not with_bar and links[: len(PAGE_BAR)] == PAGE_BAR:
        links = links[len(PAGE_BAR) :]
    return links


def shown(markdown: str) -> str:
    """The text a person sees for Markdown the app wrote (as ``tests.rendering`` renders
    it, so user text in it comes back exactly as typed)."""
    return render(markdown)[0]


def literal(markdown: str) -> str:
    """The text shown for Markdown that must hold no formatting at all (checked)."""
    text, formatting = render(markdown)
    assert formatting == [], (markdown, formatting)
    return text


UNSAFE = {"link_open", "image", "html_inline", "html_block", "code_inline", "math_inline"}


def no_markup_from_user_text(markdown: str) -> str:
    """The text shown for Markdown of the app's own, checked to make no link, image, HTML,
    code or math (the app's own Markdown never does)."""
    text, formatting = render(markdown)
    assert not UNSAFE & set(formatting), (markdown, formatting)
    return text


def shown_all(elements) -> list[str]:
    """The text shown by each of these Markdown elements (``at.error``, ``at.caption`` …)."""
    return [shown(element.value) for element in elements]


def messages(at: AppTest) -> list[str]:
    """Every error, warning, success and info text on the page, as shown."""
    return [shown(e.value) for e in (*at.error, *at.warning, *at.success, *at.info)]


def toasts(at: AppTest) -> list[str]:
    """Every toast of the last run, as shown."""
    return [shown(toast.value) for toast in at.toast]


_ENTRY_FIELD = re.compile(r"(?P<form>.+?)_(?P<name>hand_[0-9]+|caller|call_type|penalty|save)")


def entry_key(at: AppTest, name: str) -> str:
    """The widget key a round entry's field (by its lasting name: ``play_round_hand_0``,
    ``calc_round_save``) has in the entry now on the form."""
    match = _ENTRY_FIELD.fullmatch(name)
    assert match is not None, name
    entry = at.session_state[f"{match['form']}_entry"]
    return entry_widget_key(match["form"], match["name"], entry)


# The Play page's round entry is one element drawn in the browser (dutch_app/ui/play_entry.py):
# AppTest runs no JavaScript, so these helpers read the data the element is drawn with and
# send what its script sends (a trigger value, as the browser's websocket message carries it).
PLAY_ENTRY = play_entry.ELEMENT_NAME


def _entry_element(at: AppTest):
    found = [
        node
        for node in at.get("bidi_component")
        if getattr(node.proto, "component_name", None) == PLAY_ENTRY
    ]
    assert len(found) == 1, f"{len(found)} round entries on the page"
    return found[0]


def entry_data(at: AppTest) -> dict:
    """The data the Play page's round entry was last drawn with (its fields, preview,
    problems and penalty count, as the browser gets them)."""
    return json.loads(_entry_element(at).proto.json)


def send_entry(at: AppTest, event: str, value: object) -> AppTest:
    """Run the page as after the entry's script sent ``value`` as ``event`` (``draft`` or
    ``stored``), with every other widget as it stands."""
    element_id = _entry_element(at).proto.id
    states = at._tree.get_widget_states()
    trigger = states.widgets.add()
    trigger.id = _make_trigger_id(element_id, "events")
    trigger.json_trigger_value = json.dumps([{"event": event, "value": value}])
    return at._run(states)


def round_payload(at: AppTest, hands, caller=None, call=None, penalty="") -> dict:
    """What the entry's script sends for this entry (hands by seat; ``caller`` a name or
    the no-caller choice; ``call`` ``dutch`` or ``auto_dutch``): the entry the page kept,
    or a new one for the round on show."""
    data = entry_data(at)
    kept = data["kept"] or {"id": f"e{data['version']}n{data['number']}", "basis": data["number"]}
    seq = (data["checked"] or {"seq": 0})["seq"] + 1
    return {
        "id": kept["id"],
        "basis": kept["basis"],
        "seq": seq,
        "hands": list(hands),
        "caller": caller,
        "call": call,
        "penalty": penalty,
    }


def post_round(at: AppTest, account: Account, sent: dict) -> dict:
    """Send an entry to the round route as the element does; the route's answer."""
    data = entry_data(at)
    body = {"game": data["game"], "round": sent["basis"], "lang": data["lang"], **sent}
    return store_entry(resources(), account.user_id, body)


def save_round(at: AppTest, hands, caller=None, call="dutch", penalty="") -> dict:
    """Enter a whole round in the Play page's entry and tap its Save: the entry goes to the
    round route, and when it is stored the element tells the page. The route's answer."""
    sent = round_payload(at, hands, caller, call, penalty)
    answer = post_round(at, at.session_state["account"], sent)
    if answer["outcome"] == "stored":
        send_entry(at, "stored", {"id": sent["id"], "number": answer["number"]})
    return answer
