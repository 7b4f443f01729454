"""The Group page: members, invite code, other groups, leaving, and the group's players."""

from __future__ import annotations

import pytest

from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS
from tests.app.apptools import (
    literal,
    make_table,
    messages,
    no_markup_from_user_text,
    open_app,
    shown,
    shown_all,
    toasts,
)
from tests.views import get_group

PAGE = "pages/group.py"


def submit(at, form: str, label: str):
    """Press a form's submit button and run the app."""
    at.button(key=f"FormSubmitter:{form}-{label}").click().run()
    assert not at.exception, at.exception
    return at


def click(at, key: str):
    """Press a button and run the app."""
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def roster(table) -> list[str]:
    return [player.name for player in table.call(players.list_players, table.group_id)]


def table_column(at, column: str) -> list:
    for frame in at.dataframe:
        if column in frame.value.columns:
            return list(frame.value[column])
    raise AssertionError(f"no table with a {column!r} column")


@pytest.fixture
def loner(app_resources):
    """Someone signed up who is in no group yet."""
    return app_resources.accounts.sign_up("zoe@example.com", "correct horse 42", "Zoe")


def my_group_names(res, account) -> list[str]:
    with res.sessions() as session:
        return [group.name for group in perform(session, groups.list_groups, account.user_id)]


def join(table, email: str, name: str):
    """A second person, with a group of their own, who also joins the table's group."""
    other = make_table(table.resources, email, name)
    other.call(groups.join_group, table.call(get_group, table.group_id).invite_code)
    return other


def test_someone_without_a_group_can_create_one(loner, app_resources):
    at = open_app(loner, PAGE)
    assert any("not in a group yet" in text for text in messages(at))
    at.text_input(key="group_create_name").input("Tuesday club")
    submit(at, "group_create_form", "Create the group")
    assert my_group_names(app_resources, loner) == ["Tuesday club"]
    assert at.subheader[0].value == "Tuesday club"
    assert at.session_state["active_group_id"] is not None


def test_a_group_needs_a_name(loner, app_resources):
    at = open_app(loner, PAGE)
    at.text_input(key="group_create_name").input("   ")
    submit(at, "group_create_form", "Create the group")
    assert "The name cannot be empty." in shown_all(at.error)
    assert my_group_names(app_resources, loner) == []


def test_joining_with_a_wrong_code_says_so_and_the_right_code_joins(table, loner):
    at = open_app(loner, PAGE)
    at.text_input(key="group_join_code").input("WRONG123")
    submit(at, "group_join_form", "Join the group")
    assert "No group with invite code 'WRONG123'." in shown_all(at.error)
    code = table.call(get_group, table.group_id).invite_code
    at.text_input(key="group_join_code").input(f" {code[:4].lower()}-{code[4:]} ")
    submit(at, "group_join_form", "Join the group")
    assert at.session_state["active_group_id"] == table.group_id
    assert table_column(at, "Member") == ["Ann", "Zoe (you)"]
    assert table_column(at, "Role") == ["Owner", "Member"]


def test_a_demo_group_can_be_loaded_from_the_empty_page(loner, app_resources):
    at = open_app(loner, PAGE)
    click(at, "group_load_demo")
    assert my_group_names(app_resources, loner) == ["Demo group"]
    assert at.subheader[0].value == "Demo group"
    assert len(table_column(at, "Player")) >= 2


def test_the_owner_sees_the_invite_link_its_qr_code_and_the_code_and_can_replace_them(table):
    at = open_app(table.account, PAGE)
    old = table.call(get_group, table.group_id).invite_code
    assert [code.value for code in at.code[:2]] == [f"http://localhost:8501/?join={old}", old]
    assert len(at.get("image")) == 1  # the QR code of the link
    click(at, "group_rotate_code")
    new = table.call(get_group, table.group_id).invite_code
    assert new != old
    assert [code.value for code in at.code[:2]] == [f"http://localhost:8501/?join={new}", new]
    assert any("new invite code and link" in text for text in messages(at))


def test_a_member_does_not_see_the_invite_code(table):
    ben = join(table, "ben@example.com", "Ben")
    at = open_app(ben.account)
    at.session_state["active_group_id"] = table.group_id
    at.switch_page(PAGE).run()
    assert not at.exception
    code = table.call(get_group, table.group_id).invite_code
    assert not any(
        code in element.value for element in (*at.markdown, *at.caption, *at.code, *at.text)
    )
    assert any("Only the group's owner" in text for text in shown_all(at.caption))
    assert "group_rotate_code" not in [button.key for button in at.button]
    assert "group_rename_name" not in [field.key for field in at.text_input]


def test_the_owner_renames_the_group(table):
    at = open_app(table.account, PAGE)
    at.text_input(key="group_rename_name").input("Friday night cards")
    submit(at, "group_rename_form", "Rename the group")
    assert at.subheader[0].value == "Friday night cards"
    at.text_input(key="group_rename_name").input("")
    submit(at, "group_rename_form", "Rename the group")
    assert "The name cannot be empty." in shown_all(at.error)
    assert table.call(get_group, table.group_id).name == "Friday night cards"


def test_the_rename_field_follows_the_active_group(table):
    other = table.call(groups.create_group, "Sunday lunch")
    at = open_app(table.account, PAGE)
    assert at.text_input(key="group_rename_name").value == "Friday cards"
    at.session_state["active_group_id"] = other.id
    at.run()
    assert at.text_input(key="group_rename_name").value == "Sunday lunch"


def test_creating_and_joining_another_group_switch_to_it(table):
    eve = make_table(table.resources, "eve@example.com", "Eve")
    at = open_app(table.account, PAGE)
    at.text_input(key="group_create_name").input("Sunday lunch")
    submit(at, "group_create_form", "Create the group")
    assert at.subheader[0].value == "Sunday lunch"
    code = eve.call(get_group, eve.group_id).invite_code
    at.text_input(key="group_join_code").input(code)
    submit(at, "group_join_form", "Join the group")
    assert at.session_state["active_group_id"] == eve.group_id
    assert sorted(my_group_names(table.resources, table.account)) == [
        "Friday cards",
        "Friday cards",
        "Sunday lunch",
    ]


def test_leaving_needs_the_box_ticked_and_passes_ownership_on(table):
    join(table, "ben@example.com", "Ben")
    at = open_app(table.account, PAGE)
    assert any(
        "Ownership passes to the longest-standing member (Ben)" in shown(m.value)
        for m in at.markdown
    )
    click(at, "group_leave")
    assert "Tick the box above to confirm; you are still a member." in shown_all(at.error)
    at.checkbox(key="group_leave_confirm").check().run()
    click(at, "group_leave")
    assert toasts(at) == ["You left Friday cards."]
    assert my_group_names(table.resources, table.account) == []
    assert any("not in a group yet" in text for text in messages(at))


def test_the_last_member_is_warned_that_the_group_goes(table):
    at = open_app(table.account, PAGE)
    assert any("leaving deletes the group" in shown(m.value) for m in at.markdown)


def test_adding_players_refuses_a_name_already_taken(table):
    at = open_app(table.account, PAGE)
    at.text_input(key="group_add_player_name").input("Eve")
    submit(at, "group_add_player_form", "Add the player")
    assert "Eve was added to the players." in messages(at)
    assert at.text_input(key="group_add_player_name").value == ""
    assert "Eve" in table_column(at, "Player")
    at.text_input(key="group_add_player_name").input("ann")
    submit(at, "group_add_player_form", "Add the player")
    assert "The group already has a player called 'Ann'." in shown_all(at.error)
    assert sorted(roster(table)) == ["Ann", "Ben", "Cleo", "Dan", "Eve"]


def test_renaming_a_player_and_the_clash_with_another_name(table):
    at = open_app(table.account, PAGE)
    at.selectbox(key="group_rename_player").set_value(table.player_ids["Dan"])
    at.text_input(key="group_rename_player_name").input("Daniel")
    submit(at, "group_rename_player_form", "Rename the player")
    assert "Dan is now called Daniel in every game." in messages(at)
    at.selectbox(key="group_rename_player").set_value(table.player_ids["Cleo"])
    at.text_input(key="group_rename_player_name").input("BEN")
    submit(at, "group_rename_player_form", "Rename the player")
    assert "The group already has a player called 'Ben'." in shown_all(at.error)
    assert sorted(roster(table)) == ["Ann", "Ben", "Cleo", "Daniel"]


def test_merging_moves_the_history_after_a_confirmation(table):
    ids = table.player_ids
    game = table.call(
        games.start_game, table.group_id, [ids["Ann"], ids["Dan"]], PRESETS["classic"]
    )
    table.call(rounds.add_round, game.id, {ids["Ann"]: "3", ids["Dan"]: "9"}, ids["Ann"], "dutch")
    at = open_app(table.account, PAGE)
    at.selectbox(key="group_merge_source").set_value(ids["Dan"]).run()
    at.selectbox(key="group_merge_target").set_value(ids["Cleo"]).run()
    assert any("moves to Cleo" in text for text in shown_all(at.caption))
    click(at, "group_merge")
    assert "Tick the box above to confirm; nothing was merged." in shown_all(at.error)
    assert "Dan" in roster(table)

    at.checkbox(key="group_merge_confirm").check().run()
    click(at, "group_merge")
    assert "Dan's games now belong to Cleo." in messages(at)
    assert "Dan" not in roster(table)
    assert table.call(games.get_game, game.id).players[1].name == "Cleo"


def test_players_who_sat_together_cannot_be_merged(table):
    ids = table.player_ids
    table.call(games.start_game, table.group_id, [ids["Ann"], ids["Ben"]], PRESETS["classic"])
    at = open_app(table.account, PAGE)
    at.selectbox(key="group_merge_source").set_value(ids["Ben"]).run()
    at.selectbox(key="group_merge_target").set_value(ids["Ann"]).run()
    at.checkbox(key="group_merge_confirm").check().run()
    click(at, "group_merge")
    assert any("cannot be merged" in text for text in shown_all(at.error))
    assert "Ben" in roster(table)


def test_linking_a_player_to_a_member(table):
    ben = join(table, "ben@example.com", "Ben")
    ids = table.player_ids
    at = open_app(table.account, PAGE)
    at.selectbox(key="group_link_player").set_value(ids["Ben"])
    at.selectbox(key="group_link_member").set_value(ben.account.user_id)
    click(at, "group_link")
    assert "Ben is now linked to Ben." in messages(at)
    assert table_column(at, "Linked to")[roster(table).index("Ben")] == "Ben"

    at.selectbox(key="group_link_player").set_value(ids["Cleo"])
    at.selectbox(key="group_link_member").set_value(ben.account.user_id)
    click(at, "group_link")
    assert "That member is already linked to 'Ben'." in shown_all(at.error)


def test_user_text_appears_literally(table):
    table.call(groups.rename_group, table.group_id, "**bold**")
    table.call(players.rename_player, table.player_ids["Ben"], "<img src=x onerror=alert(1)>")
    at = open_app(table.account, PAGE)
    assert literal(at.subheader[0].value) == "**bold**"
    assert "<img src=x onerror=alert(1)>" in table_column(at, "Player")
    leave = at.checkbox(key="group_leave_confirm").label
    assert literal(leave) == "Yes, I want to leave **bold**"
    at.selectbox(key="group_merge_source").set_value(table.player_ids["Ben"]).run()
    merge = literal(at.checkbox(key="group_merge_confirm").label)
    assert merge.startswith("Yes, merge <img src=x onerror=alert(1)> into")
    for element in (*at.markdown, *at.caption, *at.subheader, *at.checkbox):
        text = (
            element.value
            if hasattr(element, "value") and isinstance(element.value, str)
            else element.label
        )
        text = no_markup_from_user_text(text)
        assert "bold" not in text or "**bold**" in text


def member_tab(table, member, page=PAGE):
    """``member``'s open tab, working in the table's group."""
    at = open_app(member.account)
    at.session_state["active_group_id"] = table.group_id
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert at.session_state["active_group_id"] == table.group_id
    return at


def test_the_owner_removes_a_member_after_a_confirmation(table):
    ben = join(table, "ben@example.com", "Ben")
    at = open_app(table.account, PAGE)
    assert at.selectbox(key="group_remove_member").options == ["Ben"]
    assert any("their player stays" in m.value for m in at.markdown)
    click(at, "group_remove")
    assert "Tick the box above to confirm; nobody was removed." in at.error.values
    assert len(table.call(get_group, table.group_id).members) == 2
    at.checkbox(key="group_remove_confirm").check().run()
    click(at, "group_remove")
    assert "Ben is no longer a member of Friday cards. The group has a new invite code." in (
        messages(at)
    )
    assert toasts(at) == []  # said once, in place
    assert table_column(at, "Member") == ["Ann (you)"]
    assert [g.id for g in ben.call(groups.list_groups)] == [ben.group_id]
    assert at.code[1].value == table.call(get_group, table.group_id).invite_code
    assert "You are the only member: nobody else to remove." in at.caption.values


def test_a_removed_members_open_tab_says_they_are_no_longer_in_the_group(table):
    ben = join(table, "ben@example.com", "Ben")
    tab = member_tab(table, ben, "pages/play.py")
    table.call(groups.remove_member, table.group_id, ben.account.user_id)
    tab.run()
    assert not tab.exception, tab.exception
    assert any("no longer a member of the group Friday cards" in w.value for w in tab.warning)
    assert tab.session_state["active_group_id"] == ben.group_id
    tab.run()
    assert not tab.warning


def test_a_removed_member_who_is_in_no_other_group_sees_the_first_visit_page(table, loner):
    from tests.app.apptools import Table

    code = table.call(get_group, table.group_id).invite_code
    zoe = Table(loner, table.group_id, {}, table.resources)
    zoe.call(groups.join_group, code)
    tab = member_tab(table, zoe)
    table.call(groups.remove_member, table.group_id, loner.user_id)
    tab.run()
    assert not tab.exception, tab.exception
    assert any("no longer a member" in w.value for w in tab.warning)
    assert any("not in a group yet" in text for text in messages(tab))


def test_members_cannot_remove_anyone_and_owners_not_themselves(table):
    ben = join(table, "ben@example.com", "Ben")
    tab = member_tab(table, ben)
    assert "group_remove" not in [button.key for button in tab.button]
    alone = open_app(table.account, PAGE)
    assert "Ben" in alone.selectbox(key="group_remove_member").options
    assert "Ann" not in alone.selectbox(key="group_remove_member").options


def test_leaving_a_group_yourself_gives_no_removed_notice(table):
    join(table, "ben@example.com", "Ben")
    at = open_app(table.account, PAGE)
    at.checkbox(key="group_leave_confirm").check().run()
    click(at, "group_leave")
    assert toasts(at) == ["You left Friday cards."]
    assert not at.warning


def test_service_errors_and_flashes_quote_markdown_names_literally(table):
    """A service's error (through the page's guard) and the success message after an
    action both show a Markdown name exactly as typed."""
    name = "**Eve** [x](http://t.invalid) :red[y] www.t.invalid"
    at = open_app(table.account, PAGE)
    at.text_input(key="group_add_player_name").input(name)
    submit(at, "group_add_player_form", "Add the player")
    (added,) = at.success
    assert literal(added.value) == f"{name} was added to the players."
    at.text_input(key="group_add_player_name").input(name)
    submit(at, "group_add_player_form", "Add the player")
    (refused,) = at.error
    assert literal(refused.value) == f"The group already has a player called {name!r}."
