"""The Play page: set up a game, enter rounds, undo, and finish — driven with AppTest."""

from dutch_app.services import games, groups, players, rounds
from dutch_app.services.unit_of_work import perform
from dutch_core import PRESETS, EndCondition, HouseRules
from dutch_core.game import GameStatus
from tests.app.apptools import (
    PLAY_ENTRY,
    entry_data,
    make_table,
    messages,
    open_app,
    round_payload,
    save_round,
    send_entry,
    shown,
)
from tests.views import get_group

PLAY = "pages/play.py"


def _start(table, rules=PRESETS["classic"], seats=("Ann", "Ben", "Cleo", "Dan")):
    return table.call(
        games.start_game, table.group_id, [table.player_ids[name] for name in seats], rules
    )


def _enter(at, hands, caller, call="dutch", penalty=""):
    """Fill in a round and tap Save: the round route's answer."""
    answer = save_round(at, hands, caller, call, penalty)
    assert not at.exception, at.exception
    return answer


def _entries_on_page(at) -> int:
    """How many round entries the page draws (none without a game on show)."""
    return sum(
        getattr(node.proto, "component_name", None) == PLAY_ENTRY
        for node in at.get("bidi_component")
    )


def _standings(at):
    frame = at.dataframe[0].value
    return dict(zip(frame["Player"], frame["Total"], strict=True))


def test_someone_without_a_group_is_shown_the_way_in(app_resources):
    res = app_resources
    account = res.accounts.sign_up("zoe@example.com", "correct horse 42", "Zoe")
    at = open_app(account, PLAY)
    assert "not in a group" in at.info[0].value
    at.button(key="play_load_demo").click()
    at.run()
    assert not at.exception
    with res.sessions() as session:
        (demo_group,) = perform(session, groups.list_groups, account.user_id)
    assert demo_group.data_version > 0


def test_setting_up_a_game_with_a_new_player_starts_it(table):
    at = open_app(table.account, PLAY)
    assert at.subheader[0].value == "New game"
    at.multiselect(key="play_setup_players").select(table.player_ids["Ann"])
    at.multiselect(key="play_setup_players").select(table.player_ids["Ben"])
    at.text_input(key="play_setup_new_players").input("Eve")
    at.button(key="play_setup_start").click()
    at.run()
    assert not at.exception
    (game,) = table.call(games.list_games, table.group_id)
    assert game.players == ("Ann", "Ben", "Eve")
    assert _standings(at) == {"Ann": 0, "Ben": 0, "Eve": 0}


def test_a_game_needs_two_players_and_nothing_is_half_made(table):
    at = open_app(table.account, PLAY)
    at.multiselect(key="play_setup_players").select(table.player_ids["Ann"])
    at.text_input(key="play_setup_new_players").input("Eve")
    at.number_input(key="play_setup_rules_classic_jokers").set_value(0)
    at.multiselect(key="play_setup_players").unselect(table.player_ids["Ann"])
    at.button(key="play_setup_start").click()
    at.run()
    assert not at.exception
    assert any("player" in text.lower() for text in messages(at))
    assert table.call(games.list_games, table.group_id) == []
    from dutch_app.services import players

    names = [p.name for p in table.call(players.list_players, table.group_id)]
    assert "Eve" not in names


def test_custom_house_rules_are_kept_with_the_game(table):
    at = open_app(table.account, PLAY)
    for name in ("Ann", "Ben"):
        at.multiselect(key="play_setup_players").select(table.player_ids[name])
    at.selectbox(key="play_setup_rules_preset").select("classic_open")
    at.run()
    at.number_input(key="play_setup_rules_classic_open_rk").set_value(1)
    at.button(key="play_setup_start").click()
    at.run()
    assert not at.exception
    (summary,) = table.call(games.list_games, table.group_id)
    game = table.call(games.get_game, summary.id)
    assert game.rules == HouseRules(red_king_value=1, end=EndCondition.open())


def test_entering_rounds_updates_the_standings(table):
    _start(table)
    at = open_app(table.account, PLAY)
    _enter(at, ["AH 2C", "10", "7", "25"], "Ann")
    assert _standings(at) == {"Ann": 3, "Ben": 10, "Cleo": 7, "Dan": 25}
    hands = ["12", "4", "12", "30"]
    send_entry(at, "draft", round_payload(at, hands, "Ann", "dutch"))  # typed, not saved yet
    checked = entry_data(at)["checked"]
    assert checked["due"] == 3  # the penalty field appears for Ann's three cards
    assert checked["penaltyLabel"] == "Ann draws 3 penalty cards: enter them"
    assert _enter(at, hands, "Ann", penalty="QC 3D KS")["number"] == 2
    assert _standings(at) == {"Ann": 43, "Ben": 14, "Cleo": 19, "Dan": 55}
    data = entry_data(at)
    assert (data["kept"], data["checked"], data["number"]) == (None, None, 3)


def test_the_rules_note_gives_the_call_advice_the_stats_page_last_worked_out(table):
    """Each seated player's call advice for this table size shows under the rules, taken
    from the group's statistics as last worked out (the Play page never works them out)."""
    seats = ("Ann", "Ben", "Cleo")
    past = _start(table, HouseRules(end=EndCondition.open()), seats)
    ids = table.player_ids
    for hands, penalty in [(("9", "10", "2"), None)] * 9 + [(("4", "20", "12"), "5H 6H")]:
        table.call(
            rounds.add_round,
            past.id,
            {ids[name]: hand for name, hand in zip(seats, hands, strict=True)},
            ids["Cleo"],
            "dutch",
            penalty,
        )
    table.call(games.end_game, past.id)
    _start(table, seats=seats)

    def notes(at) -> str:
        return "\n".join(shown(caption.value) for caption in at.caption)

    at = open_app(table.account, PLAY)
    assert "or less" not in notes(at)  # the Stats page has not worked it out yet
    stats_page = open_app(table.account, "pages/stats.py")
    assert not stats_page.exception
    at.run()
    assert "Cleo: call at 12 or less: with 3 players, 9 of 10 such calls were lowest." in notes(at)


def test_a_bad_hand_is_shown_next_to_it_and_nothing_is_stored(table):
    game = _start(table)
    at = open_app(table.account, PLAY)
    answer = _enter(at, ["K 2", "10", "7", "99999"], "Ann")
    assert answer["outcome"] == "invalid"
    errors = answer["fields"]
    assert errors["hand_0"].startswith("Ann") and "'K'" in errors["hand_0"]
    assert errors["hand_3"].startswith("Dan")
    assert sorted(errors) == ["hand_0", "hand_3"]
    assert table.call(games.get_game, game.id).rounds == ()


def test_an_impossible_round_is_refused(table):
    game = _start(table)
    at = open_app(table.account, PLAY)
    summary = _enter(at, ["A A", "A A", "A", "3"], "Dan")
    assert summary["outcome"] == "invalid"
    assert summary["heading"].startswith("The round was not saved.")
    assert any("a 5th 'A'" in line for line in summary["lines"])  # a deck holds four
    assert table.call(games.get_game, game.id).rounds == ()


def test_the_round_just_entered_can_be_undone(table):
    game = _start(table)
    at = open_app(table.account, PLAY)
    _enter(at, ["3", "10", "7", "25"], "Ann")
    assert len(table.call(games.get_game, game.id).rounds) == 1
    (undo,) = [b for b in at.button if b.key and b.key.startswith("play_undo_")]
    assert undo.label == "Undo round 1 (saved by Ann)"
    undo.click()
    at.run()
    assert not at.exception
    assert table.call(games.get_game, game.id).rounds == ()
    assert _standings(at) == {"Ann": 0, "Ben": 0, "Cleo": 0, "Dan": 0}


def test_reaching_the_score_limit_shows_the_winner(table):
    _start(table, HouseRules(end=EndCondition.score_limit(20)), seats=("Ann", "Ben"))
    at = open_app(table.account, PLAY)
    _enter(at, ["3", "25"], "Ann")
    assert not at.exception
    assert any("Ann" in s.value and "wins" in shown(s.value) for s in at.success)
    assert at.button(key="play_rematch") is not None


def test_another_members_round_shows_on_the_next_rerun(table):
    game = _start(table)
    at = open_app(table.account, PLAY)
    friend = table.resources.accounts.sign_up("ben@example.com", "correct horse 43", "Ben")
    invite = table.call(get_group, table.group_id).invite_code
    with table.resources.sessions() as session:
        perform(session, groups.join_group, friend.user_id, invite)
        ids = table.player_ids
        perform(
            session,
            rounds.add_round,
            friend.user_id,
            game.id,
            {ids["Ann"]: "9", ids["Ben"]: "2", ids["Cleo"]: "5", ids["Dan"]: "8"},
            ids["Ben"],
            "dutch",
        )
    at.run()
    assert not at.exception
    assert _standings(at) == {"Ann": 9, "Ben": 2, "Cleo": 5, "Dan": 8}


def test_strangers_cannot_see_a_group_by_switching_ids(table):
    stranger = make_table(table.resources, "eve@example.com", "Eve")
    at = open_app(stranger.account, PLAY)
    at.session_state["active_group_id"] = table.group_id
    at.run()
    assert not at.exception
    assert f"Group: {'Friday cards'}" in at.caption[0].value  # falls back to their own group
    assert at.session_state["active_group_id"] == stranger.group_id


def test_switching_group_shows_that_groups_game_not_the_one_shown_before(table):
    """The game on show belongs to the group it was chosen in: after a switch to a group
    with no game in progress, Play offers a new game there and the Table page says that
    no game is in progress, rather than showing the other group's game."""
    friday = _start(table)
    at = open_app(table.account, "pages/table.py")
    assert at.session_state["table_game_id"] == friday.id
    at.switch_page(PLAY)
    at.run()
    assert at.session_state["play_game_id"] == friday.id
    sunday = table.call(groups.create_group, "Sunday lunch")
    at.session_state["active_group_id"] = sunday.id
    at.run()
    assert not at.exception
    assert "Group: Sunday lunch" in at.caption[0].value
    assert [heading.value for heading in at.subheader] == ["New game"]
    assert _entries_on_page(at) == 0
    at.switch_page("pages/table.py")
    at.run()
    assert not at.exception
    assert [info.value for info in at.info] == [
        "No game is in progress. Start one on the Play page; it will show here."
    ]


def test_a_player_name_with_markup_appears_literally(table):
    from dutch_app.services import players

    evil = table.call(players.add_player, table.group_id, "<img src=x onerror=alert(1)>").id
    table.call(
        games.start_game, table.group_id, [table.player_ids["Ann"], evil], PRESETS["classic"]
    )
    at = open_app(table.account, PLAY)
    assert "<img src=x onerror=alert(1)>" in list(at.dataframe[0].value["Player"])
    # The element writes these as text (never as HTML): they must reach it as typed.
    data = entry_data(at)
    assert data["players"] == ["Ann", "<img src=x onerror=alert(1)>"]
    assert data["callers"][1] == ["<img src=x onerror=alert(1)>"] * 2


MARKDOWN_NAMES = ("**B** `c` :red[x] :smile: $1$", "[a](http://t.example) ![](http://t.example/p)")


def test_toasts_and_alerts_show_markdown_names_exactly(table):
    for player, name in zip(("Ann", "Ben"), MARKDOWN_NAMES, strict=True):
        table.call(players.rename_player, table.player_ids[player], name)
    game = _start(table, seats=("Ann", "Ben"))
    at = open_app(table.account, PLAY)
    data = _enter(at, ["K 2", "9"], MARKDOWN_NAMES[1])  # under the field, and above Save
    message = f"{MARKDOWN_NAMES[0]}: 'K' needs a colour: KH/KD (red, 0) or KS/KC (black, 13)"
    assert data["fields"] == {"hand_0": message}
    assert data["lines"] == [message]
    answer = _enter(at, ["9", "3"], MARKDOWN_NAMES[1])  # the element shows it as text
    assert answer["line"] == (
        f"Round 1 saved. {MARKDOWN_NAMES[1]} called Dutch and had the lowest hand: no penalty."
    )
    assert not at.success and not at.toast  # said once, by the element, next to Save
    assert len(table.call(games.get_game, game.id).rounds) == 1


def test_a_long_game_shows_its_latest_rounds_and_the_whole_games_standings(table):
    game = _start(table, PRESETS["classic_open"])
    hands = dict(zip(table.player_ids.values(), ("3", "10", "12", "20"), strict=True))
    for _ in range(games.PLAY_ROUNDS + 5):
        table.call(rounds.add_round, game.id, hands, table.player_ids["Ann"], "dutch")
    at = open_app(table.account, PLAY)
    assert not at.exception
    count = games.PLAY_ROUNDS + 5
    assert entry_data(at)["number"] == count + 1
    assert _standings(at) == {
        "Ann": 3 * count,
        "Ben": 10 * count,
        "Cleo": 12 * count,
        "Dan": 20 * count,
    }
    (listed,) = [e for e in at.expander if "rounds" in e.label]
    assert (
        listed.label
        == f"The last {games.PLAY_ROUNDS} of {count} rounds (the History page has them all)"
    )
    shown = at.dataframe[-1].value
    assert list(shown["Round"]) == list(range(6, count + 1))


PICKER = "play_choose_game"


def _three_games(table):
    """Three games in progress, the first ending at 20 points (between Ann and Ben)."""
    first = _start(table, HouseRules(end=EndCondition.score_limit(20)), seats=("Ann", "Ben"))
    second = _start(table, seats=("Cleo", "Dan"))
    third = _start(table, seats=("Ann", "Cleo"))
    return first, second, third


def test_a_game_finished_here_keeps_its_result_on_show_and_leaves_the_picker(table):
    """After the round that ends a game, the page's next full run (anything outside the
    game changing) still shows that game's result, not another game in progress, and the
    picker of games in progress no longer offers the finished one."""
    first, *_ = _three_games(table)
    at = open_app(table.account, PLAY)
    at.selectbox(key=PICKER).set_value(first.id)
    at.run()
    _enter(at, ["3", "25"], "Ann")
    at.run()  # a full run of the page
    assert not at.exception
    assert any("Ann" in s.value and "wins" in shown(s.value) for s in at.success)
    picker = at.selectbox(key=f"{PICKER}_after_{first.id}")
    assert sorted(picker.options) == ["Ann, Cleo — not started yet", "Cleo, Dan — not started yet"]
    assert picker.value is None  # nothing chosen: the result stays
    assert at.session_state["play_game_id"] == first.id


def test_from_a_finished_game_the_picker_leads_to_a_game_in_progress(table):
    """No dead end: with one other game in progress, the finished game's page offers it."""
    first = _start(table, HouseRules(end=EndCondition.score_limit(20)), seats=("Ann", "Ben"))
    other = _start(table, seats=("Cleo", "Dan"))
    at = open_app(table.account, PLAY)
    at.selectbox(key=PICKER).set_value(first.id)
    at.run()
    _enter(at, ["3", "25"], "Ann")
    at.run()
    assert any("wins" in shown(s.value) for s in at.success)
    at.selectbox(key=f"{PICKER}_after_{first.id}").set_value(other.id)
    at.run()
    assert not at.exception
    assert at.session_state["play_game_id"] == other.id
    assert _standings(at) == {"Cleo": 0, "Dan": 0}
    assert not at.success


def test_a_form_open_on_a_game_ended_elsewhere_stays_with_other_games_in_progress(table):
    """The form (and what was typed in it) stays when another phone ends its game, even
    with other games in progress to show instead."""
    first, *_ = _three_games(table)
    at = open_app(table.account, PLAY)
    at.selectbox(key=PICKER).set_value(first.id)
    at.run()
    send_entry(at, "draft", round_payload(at, ["7", ""]))
    table.call(games.end_game, first.id)  # on another phone
    at.run()
    assert not at.exception
    assert any("just ended on another phone" in info.value for info in at.info)
    data = entry_data(at)
    assert data["ended"] and data["kept"]["hands"] == ["7", ""]
    assert at.session_state["play_game_id"] == first.id


def test_a_game_reopened_past_its_end_beside_another_game_does_not_run_the_page_again(table):
    """A game reopened after its end (still past its limit) is in progress again and in
    the picker: the page must not keep running itself to drop it from there."""
    first, *_ = _three_games(table)
    at = open_app(table.account, PLAY)
    at.selectbox(key=PICKER).set_value(first.id)
    at.run()
    _enter(at, ["3", "25"], "Ann")
    table.call(games.reopen_game, first.id)
    at.run(timeout=10)
    assert not at.exception
    assert at.selectbox(key=PICKER).value == first.id


def test_ending_a_game_now_asks_first_and_keep_playing_changes_nothing(table):
    game = _start(table)
    at = open_app(table.account, PLAY)
    _enter(at, ["3", "10", "7", "25"], "Ann")
    at.button(key="play_end_game").click()
    at.run()
    assert not at.exception
    question = [shown(m.value) for m in at.markdown if "End the game now?" in shown(m.value)]
    assert question == ["End the game now? The lowest total wins."]
    assert table.call(games.get_game, game.id).status is GameStatus.ACTIVE
    at.button(key="play_end_keep").click()
    at.run()
    assert not at.exception
    assert not [m for m in at.markdown if "End the game now?" in m.value]
    assert table.call(games.get_game, game.id).status is GameStatus.ACTIVE
    assert _entries_on_page(at) == 1

    at.button(key="play_end_game").click()
    at.run()
    at.button(key="play_end_confirm").click()
    at.run()
    assert not at.exception
    assert table.call(games.get_game, game.id).status is GameStatus.ENDED
    assert any("Ann" in s.value and "wins" in shown(s.value) for s in at.success)


def test_a_finished_game_offers_no_undo_on_the_play_page(table):
    """A round taken back after the end would leave a finished game with a result that no
    longer follows from its rounds; History's corrections are the way to change it."""
    game = _start(table, HouseRules(end=EndCondition.score_limit(20)), seats=("Ann", "Ben"))
    at = open_app(table.account, PLAY)
    _enter(at, ["3", "25"], "Ann")
    assert any("wins" in shown(s.value) for s in at.success)
    assert not [b for b in at.button if b.key and b.key.startswith("play_undo_")]
    at.run()  # and on a later visit
    assert not [b for b in at.button if b.key and b.key.startswith("play_undo_")]
    assert len(table.call(games.get_game, game.id).rounds) == 1
