"""The active group outlasts the tab: the address names it (``?group=12``) and the account
keeps the last choice, so a reload or another device opens the same group, and never a
group the person is not a member of."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dutch_app.services import groups
from tests.app.apptools import APP, make_table, messages, open_app, sign_in_tab

PLAY = "pages/play.py"


def new_session(account, address_group: str | None = None) -> AppTest:
    """A fresh tab on the Play page (a reload, another device), its address naming
    ``address_group`` when given."""
    at = AppTest.from_file(APP, default_timeout=60)
    if address_group is not None:
        at.query_params["group"] = address_group
    sign_in_tab(at, account)
    at.run()
    assert not at.exception, at.exception
    return at


def group_shown(at) -> str:
    (caption,) = [c.value for c in at.caption if c.value.startswith("Group: ")]
    return caption.removeprefix("Group: ")


def switch_in_sidebar(at, group_id: int) -> None:
    at.sidebar.selectbox[0].set_value(group_id).run()
    assert not at.exception, at.exception


def test_the_address_names_the_active_group_and_a_reload_opens_it(table):
    sunday = table.call(groups.create_group, "Sunday lunch")
    at = open_app(table.account)
    assert at.query_params["group"] == str(table.group_id)
    switch_in_sidebar(at, sunday.id)
    assert group_shown(at) == "Sunday lunch"
    assert at.query_params["group"] == str(sunday.id)
    reloaded = new_session(table.account, str(sunday.id))
    assert group_shown(reloaded) == "Sunday lunch"


def test_a_new_session_without_an_address_opens_the_last_chosen_group(table):
    sunday = table.call(groups.create_group, "Sunday lunch")
    assert group_shown(new_session(table.account)) == "Friday cards"  # nothing chosen yet
    switch_in_sidebar(open_app(table.account), sunday.id)
    assert group_shown(new_session(table.account)) == "Sunday lunch"  # another device


def test_a_choice_on_another_device_leaves_an_open_tab_in_its_group(table):
    sunday = table.call(groups.create_group, "Sunday lunch")
    open_tab = open_app(table.account)
    assert group_shown(open_tab) == "Friday cards"
    switch_in_sidebar(new_session(table.account), sunday.id)  # the phone
    open_tab.run()
    assert group_shown(open_tab) == "Friday cards"
    assert open_tab.query_params["group"] == str(table.group_id)


def test_the_address_of_a_strangers_group_shows_ones_own_without_an_error(table):
    eve = make_table(table.resources, "eve@example.com", "Eve")
    at = new_session(eve.account, str(table.group_id))
    assert group_shown(at) == "Friday cards"  # Eve's own group of that name
    assert at.session_state["active_group_id"] == eve.group_id
    assert at.query_params["group"] == str(eve.group_id)
    assert not at.error and not at.warning


def test_an_address_that_is_no_group_id_is_ignored(table):
    for odd in ("", "abc", "-1", "99999999999999999999999", "١٢"):
        at = new_session(table.account, odd)
        assert group_shown(at) == "Friday cards"
        assert not at.error and not at.warning, odd


def test_a_left_group_kept_as_the_last_choice_opens_another(table):
    sunday = table.call(groups.create_group, "Sunday lunch")
    switch_in_sidebar(open_app(table.account), sunday.id)
    table.call(groups.leave_group, sunday.id)
    at = new_session(table.account, str(sunday.id))
    assert group_shown(at) == "Friday cards"
    assert not [m for m in messages(at) if "no longer a member" in m]
