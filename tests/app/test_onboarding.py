"""From a new group to a started game without a dead end: members as players, the first
game in one tap, the set-up filled in from the last game, the demo group, and every
creating or destructive action saying what it did."""

from __future__ import annotations

from dutch_app.services import games, groups, players, setup
from dutch_app.services.unit_of_work import perform
from dutch_app.storage.models import User
from dutch_core import PRESETS
from tests.app.apptools import entry_data, messages, open_app
from tests.views import get_group

GROUP = "pages/group.py"
PLAY = "pages/play.py"


def click(at, key: str):
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def submit(at, form: str, label: str):
    at.button(key=f"FormSubmitter:{form}-{label}").click().run()
    assert not at.exception, at.exception
    return at


def names(table, group_id=None) -> dict[str, int | None]:
    listed = table.call(players.list_players, group_id or table.group_id)
    return {player.name: player.user_id for player in listed}


def sign_up(res, email: str, name: str):
    return res.accounts.sign_up(email, "correct horse 42", name)


def as_member(res, account, group_id):
    """``account``'s tab on the Group page of ``group_id``."""
    at = open_app(account)
    at.session_state["active_group_id"] = group_id
    at.switch_page(GROUP).run()
    assert not at.exception, at.exception
    return at


def test_a_new_group_is_one_tap_from_the_set_up_with_its_maker_chosen(app_resources):
    zoe = sign_up(app_resources, "zoe@example.com", "Zoe")
    at = open_app(zoe, GROUP)
    at.text_input(key="group_create_name").input("Tuesday club")
    submit(at, "group_create_form", "Create the group")
    assert "You created Tuesday club; it is now your active group." in messages(at)
    assert not at.toast  # the form was at the top, beside the message: said once
    click(at, "group_set_up_game")  # the run goes on in the Play page…
    at.switch_page(PLAY)  # …and AppTest's own next runs need telling
    zoes = at.multiselect(key="play_setup_players")
    assert [zoes.format_func(pid) for pid in zoes.value] == ["Zoe"]
    at.text_input(key="play_setup_new_players").input("Eve")
    click(at, "play_setup_start")
    assert entry_data(at)["number"] == 1


def test_a_newcomer_is_a_player_and_one_tap_sets_up_a_game_with_the_members(table):
    """The tap opens the set-up with the members chosen and starts nothing: a game of two
    started at once could not take a third player who sits down a minute later."""
    sam = sign_up(table.resources, "sam@example.com", "Sam")
    code = table.call(get_group, table.group_id).invite_code
    at = open_app(sam, GROUP)
    at.text_input(key="group_join_code").input(code)
    submit(at, "group_join_form", "Join the group")
    assert names(table)["Sam"] == sam.user_id
    assert at.button(key="group_set_up_game").label == "Set up a game with Ann and Sam"
    click(at, "group_set_up_game")
    at.switch_page(PLAY)
    assert table.call(games.list_games, table.group_id) == []
    chosen = at.multiselect(key="play_setup_players")
    assert [chosen.format_func(pid) for pid in chosen.value] == ["Ann", "Sam"]
    at.text_input(key="play_setup_new_players").input("Eve")
    click(at, "play_setup_start")
    (game,) = table.call(games.list_games, table.group_id, status="active")
    assert game.players == ("Ann", "Sam", "Eve")
    assert entry_data(at)["number"] == 1


def test_the_set_up_from_the_group_page_starts_from_the_members_again(table):
    """A line-up picked on the Play page's set-up earlier in the session gives way to the
    players the Group page's button named."""
    sam = sign_up(table.resources, "sam@example.com", "Sam")
    code = table.call(get_group, table.group_id).invite_code
    at = open_app(sam, GROUP)
    at.text_input(key="group_join_code").input(code)
    submit(at, "group_join_form", "Join the group")
    at.switch_page(PLAY).run()
    at.multiselect(key="play_setup_players").set_value([]).run()
    at.switch_page(GROUP).run()
    click(at, "group_set_up_game")
    at.switch_page(PLAY)
    chosen = at.multiselect(key="play_setup_players")
    assert [chosen.format_func(pid) for pid in chosen.value] == ["Ann", "Sam"]


def test_a_member_is_offered_the_guest_of_their_name_and_says_it_is_them(table):
    guest = table.call(players.add_player, table.group_id, "olivia")
    olivia = sign_up(table.resources, "olivia@example.com", "Olivia")
    with table.resources.sessions() as session:
        perform(
            session,
            groups.join_group,
            olivia.user_id,
            perform(session, get_group, table.account.user_id, table.group_id).invite_code,
        )
    assert names(table)["olivia"] is None  # never linked without asking
    at = as_member(table.resources, olivia, table.group_id)
    assert at.button(key="group_claim_player").label == "Yes, I am olivia"
    assert at.button(key="group_add_me").label == "No, add me as Olivia 2"
    click(at, "group_claim_player")
    assert names(table)["olivia"] == olivia.user_id
    assert "You play as olivia in this group." in messages(at)
    assert "group_claim_player" not in [button.key for button in at.button]
    assert guest.id in [p.id for p in table.call(players.list_players, table.group_id)]


def test_a_new_game_while_one_is_running_starts_from_its_line_up_and_rules(table):
    ids = table.player_ids
    table.call(
        setup.start_game_with_players, table.group_id, [ids["Cleo"], ids["Ann"]], PRESETS["points"]
    )
    at = open_app(table.account, PLAY)
    click(at, "play_new_game")
    chosen = at.multiselect(key="play_setup_players")
    assert [chosen.format_func(pid) for pid in chosen.value] == ["Cleo", "Ann"]
    assert at.selectbox(key="play_setup_rules_preset").value == "last_used"
    assert at.selectbox(key="play_setup_rules_preset").options[0] == "The last game's rules"
    click(at, "play_setup_start")
    newest = table.call(games.list_games, table.group_id, status="active")[0]
    assert newest.players == ("Cleo", "Ann")
    assert table.call(games.get_game, newest.id).rules == PRESETS["points"]


def test_someone_in_a_group_loads_a_demo_group_sees_it_marked_and_removes_it(table):
    at = open_app(table.account, GROUP)
    click(at, "group_load_demo")
    demo_id = at.session_state["active_group_id"]
    assert demo_id != table.group_id
    assert table.call(get_group, demo_id).is_demo
    assert any("This is a demo group." in block.value for block in at.markdown)
    click(at, "group_remove_demo")
    assert "Demo group was removed with all its games." in messages(at)
    assert [g.id for g in table.call(groups.list_groups)] == [table.group_id]


def test_a_real_group_has_no_demo_marking_and_no_one_step_removal(table):
    at = open_app(table.account, GROUP)
    assert "group_remove_demo" not in [button.key for button in at.button]
    assert not any("This is a demo group." in block.value for block in at.markdown)


def test_a_new_display_name_is_offered_to_the_players(table):
    at = open_app(table.account, "pages/account.py")
    assert "account_rename_players" not in [button.key for button in at.button]
    at.text_input(key="account_display_name").input("Annie")
    submit(at, "account_name_form", "Save the name")
    assert at.button(key="account_rename_players").label == "Rename my player to Annie"
    click(at, "account_rename_players")
    assert "Your player is now called Annie in Friday cards." in messages(at)
    assert names(table)["Annie"] == table.account.user_id
    assert "account_rename_players" not in [button.key for button in at.button]


def test_deleting_the_account_says_so_on_the_sign_in_page(table):
    at = open_app(table.account, "pages/account.py")
    at.text_input(key="account_delete_email").input("ann@example.com")
    at.text_input(key="account_delete_password").input("correct horse 42")
    submit(at, "account_delete_form", "Delete my account")
    said = [m for m in messages(at) if "was deleted" in m]
    assert said == [
        "The account ann@example.com was deleted, with its sign-in details and the groups "
        "only it belonged to. Shared groups keep their games."
    ]
    with table.resources.sessions() as session:
        assert session.get(User, table.account.user_id) is None


def test_creating_a_second_group_from_the_bottom_of_the_page_confirms_in_a_toast_alone(table):
    at = open_app(table.account, GROUP)
    at.text_input(key="group_create_name").input("Sunday lunch")
    submit(at, "group_create_form", "Create the group")
    said = "You created Sunday lunch; it is now your active group."
    assert [toast.value for toast in at.toast] == [said]
    assert said not in messages(at)


def test_leaving_a_group_from_the_bottom_of_the_page_confirms_in_a_toast(table):
    other = table.call(groups.create_group, "Sunday lunch")
    at = open_app(table.account, GROUP)
    at.session_state["active_group_id"] = other.id
    at.run()
    at.checkbox(key="group_leave_confirm").check()
    click(at, "group_leave")
    assert [toast.value for toast in at.toast] == ["You left Sunday lunch."]
    assert "You left Sunday lunch." not in messages(at)


def test_before_the_groups_first_game_the_persons_last_rules_are_offered(table):
    """A new group has no last game: the rules of the person's own last game (kept with
    their preferences) come first, with the group's members chosen."""
    ids = table.player_ids
    played = table.call(
        setup.start_game_with_players, table.group_id, [ids["Ann"], ids["Ben"]], PRESETS["points"]
    )
    table.call(games.end_game, played.id)
    fresh = table.call(groups.create_group, "Sunday lunch")
    at = open_app(table.account)
    at.session_state["active_group_id"] = fresh.id
    at.switch_page(PLAY).run()
    picker = at.selectbox(key="play_setup_rules_preset")
    assert (picker.value, picker.options[0]) == ("last_used", "The rules of my last game")
    chosen = at.multiselect(key="play_setup_players")
    assert [chosen.format_func(pid) for pid in chosen.value] == ["Ann"]
