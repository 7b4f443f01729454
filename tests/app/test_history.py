"""The History page: filters, one game round by round, corrections, deletions, CSV out and in."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest

from dutch_app.services import games, groups, players, rounds
from dutch_app.services.csv_export import export_rounds
from dutch_core import PRESETS
from tests.app.apptools import (
    entry_key,
    linked_pages,
    make_table,
    messages,
    no_markup_from_user_text,
    open_app,
    shown_all,
    toasts,
)
from tests.app.downloads import Media, download_file, keep_media
from tests.views import get_group

PAGE = "pages/history.py"
EDIT = "history_edit"


@pytest.fixture
def media(monkeypatch) -> Media:
    """The file stores behind download buttons."""
    return keep_media(monkeypatch)


def downloaded(at, key: str, media: Media) -> list[dict[str, str]]:
    """The rows of the CSV file behind a download button."""
    file = download_file(at, key, media)
    assert file.mimetype == "text/csv" and file.filename.endswith(".csv")
    return list(csv.DictReader(io.StringIO(file.content.decode("utf-8"))))


def play(table, names, hands_by_round, *, started_at=None, end=False) -> int:
    """A game of ``names`` with rounds given as (hands, caller, penalty) tuples; its id."""
    ids = [table.player_ids[name] for name in names]
    game = table.call(
        games.start_game, table.group_id, ids, PRESETS["classic_open"], started_at=started_at
    )
    for hands, caller, penalty in hands_by_round:
        table.call(
            rounds.add_round,
            game.id,
            {table.player_ids[name]: text for name, text in zip(names, hands, strict=True)},
            table.player_ids[caller] if caller else None,
            "dutch" if caller else None,
            penalty,
        )
    if end:
        table.call(games.end_game, game.id)
    return game.id


def grid(at, index: int = -1) -> list[dict]:
    """The records of a dataframe on the page (the last one unless told)."""
    return at.dataframe[index].value.to_dict("records")


def round_table(at) -> list[dict]:
    """The round-by-round table: the one with a 'Called by' column."""
    for frame in at.dataframe:
        if "Called by" in frame.value.columns:
            return frame.value.to_dict("records")
    raise AssertionError("no round-by-round table on the page")


def listed_games(at) -> list[str]:
    """The games listed, newest first, each as its players and totals ("Ann 3 · Ben 10")."""
    for frame in at.dataframe:
        if "Totals" in frame.value.columns:
            return list(frame.value["Totals"])
    return []


def options(at, key: str) -> list:
    """The values a selectbox offers (by its format, the labels shown)."""
    return at.selectbox(key=key).options


@pytest.fixture
def two_rounds(table) -> int:
    """An open game of Ann and Ben: round 1 Ann 3 / Ben 10 (Ann called, lowest),
    round 2 Ann 12 / Ben 4 (Ann called and was beaten, drew 2 cards worth 9)."""
    return play(table, ["Ann", "Ben"], [(("3", "10"), "Ann", None), (("12", "4"), "Ann", "9")])


def test_a_group_without_games_explains_and_points_to_the_play_page(table):
    at = open_app(table.account, PAGE)
    assert any("no games yet" in text for text in messages(at))
    assert linked_pages(at) == ["play"]
    assert at.file_uploader(key="history_import_file") is not None


def test_someone_without_a_group_is_sent_to_the_group_page(app_resources):
    account = app_resources.accounts.sign_up("zoe@example.com", "correct horse 42", "Zoe")
    at = open_app(account, PAGE)
    assert any("not in a group yet" in text for text in messages(at))
    assert linked_pages(at) == ["group"]


def test_the_round_by_round_table_shows_scores_running_totals_and_the_call(table, two_rounds):
    at = open_app(table.account, PAGE)
    assert round_table(at) == [
        {
            "Round": 1,
            "Ann": 3,
            "Ann total": 3,
            "Ben": 10,
            "Ben total": 10,
            "Called by": "Ann",
            "Call": "Dutch",
            "Outcome": "lowest hand",
            "Penalty cards": 0,
        },
        {
            "Round": 2,
            "Ann": 21,
            "Ann total": 24,
            "Ben": 4,
            "Ben total": 14,
            "Called by": "Ann",
            "Call": "Dutch",
            "Outcome": "beaten",
            "Penalty cards": 2,
        },
    ]


def test_filters_by_date_player_and_status(table):
    play(table, ["Ann", "Ben"], [], started_at=datetime(2025, 5, 3, 20, tzinfo=UTC))
    play(table, ["Cleo", "Dan"], [], started_at=datetime(2025, 6, 7, 20, tzinfo=UTC))
    play(table, ["Ann", "Dan"], [], started_at=datetime(2025, 7, 5, 20, tzinfo=UTC), end=True)
    may, june, july = "Ann 0 · Ben 0", "Cleo 0 · Dan 0", "Ann 0 · Dan 0"
    at = open_app(table.account, PAGE)
    assert listed_games(at) == [july, june, may]

    at.date_input(key="history_filter_dates").set_value((date(2025, 6, 1), date(2025, 7, 31)))
    at.run()
    assert not at.exception
    assert listed_games(at) == [july, june]

    at.selectbox(key="history_filter_player").set_value(table.player_ids["Dan"]).run()
    at.selectbox(key="history_filter_status").set_value("active").run()
    assert not at.exception
    assert listed_games(at) == [june]

    at.selectbox(key="history_filter_status").set_value("ended").run()
    assert listed_games(at) == [july]

    at.selectbox(key="history_filter_player").set_value(table.player_ids["Cleo"]).run()
    assert not at.exception
    assert "No games match these filters." in messages(at)


def test_each_game_lists_its_length_from_start_to_last_round(table, two_rounds):
    started = datetime(2025, 5, 3, 20, tzinfo=UTC)
    game = play(table, ["Cleo", "Dan"], [], started_at=started)
    ids = table.player_ids
    for minutes in (40, 85):
        hands = {ids["Cleo"]: "3", ids["Dan"]: "10"}
        entered = started + timedelta(minutes=minutes)
        table.call(rounds.add_round, game, hands, ids["Cleo"], "dutch", entered_at=entered)
    table.call(games.end_game, game)  # ended later: the last round marks the end of play
    at = open_app(table.account, PAGE)
    lengths = {row["Totals"]: row["Length"] for row in grid(at, 0)}
    assert lengths["Cleo 6 · Dan 20"] == "1h 25 mins"  # English the British way


def test_the_player_filter_starts_on_everyone(table):
    """Not on an empty picker, which shows Streamlit's own placeholder, in English."""
    play(table, ["Ann", "Ben"], [])
    at = open_app(table.account, PAGE)
    for _run in range(2):
        picker = at.selectbox(key="history_filter_player")
        assert (picker.index, picker.options[0]) == (0, "Everyone")
        at.run()
    assert listed_games(at) == ["Ann 0 · Ben 0"]


def test_a_correction_changes_the_round_and_the_totals(table, two_rounds):
    at = open_app(table.account, PAGE)
    assert at.selectbox(key="history_round").value == 2
    assert at.text_input(key=entry_key(at, f"{EDIT}_hand_0")).value == "12"
    assert at.text_input(key=entry_key(at, f"{EDIT}_penalty")).value == "9"
    at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).input("20")
    at.text_input(key=entry_key(at, f"{EDIT}_penalty")).input("")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert not at.exception
    assert "Round 2 corrected: Ann 21 → 12, Ben 4 → 20." in messages(at)
    last = round_table(at)[-1]
    assert (last["Ann"], last["Ann total"], last["Ben total"]) == (12, 15, 30)
    assert last["Outcome"] == "lowest hand"
    stored = table.call(games.get_game, two_rounds).rounds[1]
    assert [hand.round_score for hand in stored.hands] == [12, 20]


def test_a_correction_with_a_bad_hand_is_refused_under_the_field(table, two_rounds):
    at = open_app(table.account, PAGE)
    at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).input("7 K")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert not at.exception
    assert any("'K'" in text for text in messages(at))
    stored = table.call(games.get_game, two_rounds).rounds[1]
    assert [hand.hand_text for hand in stored.hands] == ["12", "4"]


def test_a_stale_correction_shows_the_conflict_and_overwrites_nothing(table, two_rounds):
    at = open_app(table.account, PAGE)
    first = table.call(games.get_game, two_rounds).rounds[1]
    ids = table.player_ids
    table.call(  # someone else corrects round 2 meanwhile
        rounds.edit_round,
        first.id,
        first.version,
        {ids["Ann"]: "2", ids["Ben"]: "30"},
        ids["Ann"],
        "dutch",
        None,
    )
    at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).input("20")
    at.text_input(key=entry_key(at, f"{EDIT}_penalty")).input("")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert not at.exception
    assert any("changed by someone else" in text for text in shown_all(at.error))
    stored = table.call(games.get_game, two_rounds).rounds[1]
    assert [hand.hand_text for hand in stored.hands] == ["2", "30"]

    at.button(key="history_reload_round").click().run()
    assert not at.exception
    assert not any("changed by someone else" in text for text in shown_all(at.error))
    assert at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).value == "30"
    at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).input("31")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert "Round 2 corrected: Ben 30 → 31." in messages(at)
    assert round_table(at)[-1]["Ben"] == 31


def test_deleting_a_round_needs_the_box_ticked(table, two_rounds):
    at = open_app(table.account, PAGE)
    at.selectbox(key="history_round").set_value(1).run()
    at.button(key="history_delete_round").click().run()
    assert not at.exception
    assert "Tick the box above to confirm; nothing was deleted." in shown_all(at.error)
    assert len(round_table(at)) == 2

    at.checkbox(key="history_delete_round_confirm").check().run()
    at.button(key="history_delete_round").click().run()
    assert not at.exception
    assert any("Round 1 was deleted" in text for text in messages(at))
    assert round_table(at) == [
        {
            "Round": 1,
            "Ann": 21,
            "Ann total": 21,
            "Ben": 4,
            "Ben total": 4,
            "Called by": "Ann",
            "Call": "Dutch",
            "Outcome": "beaten",
            "Penalty cards": 2,
        }
    ]


def test_ending_and_reopening_a_game(table, two_rounds):
    at = open_app(table.account, PAGE)
    at.button(key="history_end_game").click().run()
    assert not at.exception
    assert table.call(games.get_game, two_rounds).status == "ended"
    assert "The game is marked as ended." in messages(at)
    at.button(key="history_reopen_game").click().run()
    assert not at.exception
    assert table.call(games.get_game, two_rounds).status == "active"


def test_deleting_a_game_needs_the_box_ticked(table, two_rounds):
    play(table, ["Cleo", "Dan"], [(("1", "2"), "Cleo", None)])
    other, mine = "Cleo 1 · Dan 2", "Ann 24 · Ben 14"
    at = open_app(table.account, PAGE)
    at.selectbox(key="history_game").set_value(two_rounds).run()
    assert at.checkbox(key="history_delete_game_confirm").label == (
        "Yes, delete this game and its 2 rounds"
    )
    at.button(key="history_delete_game").click().run()
    assert "Tick the box above to confirm; nothing was deleted." in shown_all(at.error)
    assert listed_games(at) == [other, mine]

    at.checkbox(key="history_delete_game_confirm").check().run()
    at.button(key="history_delete_game").click().run()
    assert not at.exception
    assert toasts(at) == ["The game and its 2 rounds were deleted."]
    assert listed_games(at) == [other]


def test_only_the_owner_or_the_starter_may_delete_a_game(table, two_rounds):
    code = table.call(get_group, table.group_id).invite_code
    ben = make_table(table.resources, "ben@example.com", "Ben")
    ben.call(groups.join_group, code)
    at = open_app(ben.account)
    at.session_state["active_group_id"] = table.group_id
    at.switch_page(PAGE).run()
    at.checkbox(key="history_delete_game_confirm").check().run()
    at.button(key="history_delete_game").click().run()
    assert not at.exception
    assert any("Only the group's owner" in text for text in shown_all(at.error))
    assert table.call(games.get_game, two_rounds).rounds


def test_downloads_hold_the_groups_rounds_and_games(table, two_rounds, media):
    play(table, ["Cleo", "Dan"], [(("1", "2"), "Cleo", None)], end=True)
    at = open_app(table.account, PAGE)

    all_rounds = downloaded(at, "history_download_rounds", media)
    assert len(all_rounds) == 6
    assert {row["player"] for row in all_rounds} == {"Ann", "Ben", "Cleo", "Dan"}
    all_games = downloaded(at, "history_download_games", media)
    assert sorted((row["player"], row["game_total"]) for row in all_games) == [
        ("Ann", "24"),
        ("Ben", "14"),
        ("Cleo", "1"),
        ("Dan", "2"),
    ]
    one_game = downloaded(at, "history_download_game", media)  # the newest game is open
    assert [(row["player"], row["round_score"]) for row in one_game] == [
        ("Cleo", "1"),
        ("Dan", "2"),
    ]

    at.selectbox(key="history_filter_status").set_value("active").run()
    filtered = downloaded(at, "history_download_filtered", media)
    assert [(row["round"], row["player"], row["game_total"]) for row in filtered] == [
        ("1", "Ann", "3"),
        ("1", "Ben", "10"),
        ("2", "Ann", "24"),
        ("2", "Ben", "14"),
    ]


def test_the_filtered_download_appears_only_with_a_filter(table, two_rounds):
    at = open_app(table.account, PAGE)
    assert "history_download_filtered" not in [b.key for b in at.download_button]


def test_importing_a_rounds_file_adds_its_games_and_says_what_it_did(table, two_rounds):
    table.call(players.rename_player, table.player_ids["Ben"], "Bea")
    data = table.call(export_rounds, table.group_id)
    eve = make_table(table.resources, "eve@example.com", "Eve")  # has an Ann, no Bea
    at = open_app(eve.account, PAGE)
    at.file_uploader(key="history_import_file").upload("rounds.csv", data, "text/csv")
    at.run()
    at.button(key="history_import").click().run()
    assert not at.exception
    assert any(
        text.startswith("Imported 1 game with 2 rounds.") and "New players: Bea." in text
        for text in messages(at)
    )
    assert round_table(at)[-1]["Ann total"] == 24

    at.button(key="history_import").click().run()  # the same file again
    assert not at.exception
    assert any("Skipped 1 game already stored" in text for text in messages(at))
    assert listed_games(at) == ["Ann 24 · Bea 14"]


def test_a_bad_file_lists_every_problem_with_its_line_and_imports_nothing(table, two_rounds):
    data = table.call(export_rounds, table.group_id).decode("utf-8")
    lines = data.splitlines()
    lines[2] = lines[2].replace(",Ben,10,10,", ",Ben,10 ZZ,10,")  # no such card
    lines[4] = lines[4].replace(",dutch,", ",shout,")  # no such call
    bad = ("\n".join(lines) + "\n").encode("utf-8")
    eve = make_table(table.resources, "eve@example.com", "Eve")
    at = open_app(eve.account, PAGE)
    at.file_uploader(key="history_import_file").upload("rounds.csv", bad, "text/csv")
    at.run()
    at.button(key="history_import").click().run()
    assert not at.exception
    assert any("was not imported" in text for text in shown_all(at.error))
    problems = grid(at)
    assert {row["Line"] for row in problems} == {3, 5}
    assert any("ZZ" in row["Problem"] for row in problems)
    assert eve.call(games.list_games, eve.group_id) == []


def test_user_text_appears_literally(table, two_rounds):
    table.call(groups.rename_group, table.group_id, "**bold**")
    table.call(players.rename_player, table.player_ids["Ben"], "<img src=x onerror=alert(1)>")
    at = open_app(table.account, PAGE)
    assert "Group: **bold**" in shown_all(at.caption)
    shown = [*round_table(at)[0], *options(at, "history_game")]
    assert "<img src=x onerror=alert(1)>" in shown
    assert any("<img src=x onerror=alert(1)>" in label for label in options(at, "history_game"))
    for element in (*at.markdown, *at.caption, *at.success, *at.info, *at.error):
        text = no_markup_from_user_text(element.value)
        assert "bold" not in text or "**bold**" in text


def test_switching_groups_shows_the_other_groups_games(table, two_rounds):
    other = table.call(groups.create_group, "Sunday lunch")
    eve = table.call(players.add_player, other.id, "Eve").id
    finn = table.call(players.add_player, other.id, "Finn").id
    game = table.call(games.start_game, other.id, [eve, finn], PRESETS["classic"])
    table.call(rounds.add_round, game.id, {eve: "1", finn: "5"}, eve, "dutch")
    at = open_app(table.account, PAGE)
    at.selectbox(key="history_filter_player").set_value(table.player_ids["Ben"]).run()
    at.selectbox(key="history_round").set_value(1).run()
    at.session_state["active_group_id"] = other.id
    at.run()
    assert not at.exception
    assert at.selectbox(key="history_filter_player").index == 0  # everyone
    assert listed_games(at) == ["Eve 1 · Finn 5"]
    assert at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).value == "5"


@pytest.mark.parametrize(
    ("browser", "shown"),
    [
        ({"timezone": "Europe/Berlin", "timezone_offset": -120}, "10 May 2025, 20:30"),
        ({"timezone": "America", "timezone_offset": 240}, "10 May 2025, 14:30"),
        ({"timezone": "Europe", "timezone_offset": None}, "10 May 2025, 18:30"),
        ({"timezone": "../../etc/passwd", "timezone_offset": 99_999}, "10 May 2025, 18:30"),
        ({"timezone": "localtime"}, "10 May 2025, 18:30"),
    ],
)
def test_an_odd_browser_time_zone_falls_back_to_its_offset_or_utc(table, browser, shown):
    """A time zone the browser names only by region (``America``) or not at all uses the
    browser's offset from UTC, else UTC; the page never fails."""
    started = datetime(2025, 5, 10, 18, 30, tzinfo=UTC)
    play(table, ["Ann", "Ben"], [(("3", "10"), "Ann", None)], started_at=started)
    at = open_app(table.account, PAGE, context=browser)
    assert not at.exception
    assert any(shown in subheader.value for subheader in at.subheader)


def test_the_upload_box_states_and_enforces_the_imports_own_limit(table, monkeypatch):
    from dutch_app import csv_io

    assert csv_io.MAX_BYTES == csv_io.MAX_UPLOAD_MB * 1024 * 1024
    at = open_app(table.account, PAGE)
    uploader = at.file_uploader(key="history_import_file")
    assert uploader.proto.max_upload_size_mb == csv_io.MAX_UPLOAD_MB
    assert any("Files up to 5 MB and 100,000 rows" in c.value for c in at.caption)
    monkeypatch.setattr(csv_io, "MAX_UPLOAD_MB", 3)  # the one setting moves the box's limit
    at = open_app(table.account, PAGE)
    assert at.file_uploader(key="history_import_file").proto.max_upload_size_mb == 3
    assert any("Files up to 3 MB" in c.value for c in at.caption)


def test_a_long_game_shows_a_page_of_rounds_and_every_round_stays_reachable(
    table, monkeypatch, rounds_read
):
    monkeypatch.setattr(games, "HISTORY_ROUNDS", 2)
    hands = [((str(n), "10"), "Ann", None) for n in range(1, 6)]
    game_id = play(table, ["Ann", "Ben"], hands)
    at = open_app(table.account, PAGE)
    rounds_read.clear()
    at.run()
    assert rounds_read == [2]  # the latest page of rounds, not the whole game
    assert [row["Round"] for row in round_table(at)] == [4, 5]
    assert options(at, "history_round") == ["Round 4", "Round 5"]
    assert options(at, "history_rounds_page") == ["Rounds 1 to 1", "Rounds 2 to 3", "Rounds 4 to 5"]
    at.selectbox(key="history_rounds_page").set_value(1).run()
    assert not at.exception
    assert [row["Round"] for row in round_table(at)] == [1]
    assert at.text_input(key=entry_key(at, f"{EDIT}_hand_0")).value == "1"
    at.text_input(key=entry_key(at, f"{EDIT}_hand_0")).input("2")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert not at.exception
    assert "Round 1 corrected: Ann 1 → 2." in messages(at)
    game = table.call(games.get_game, game_id)
    assert game.totals == {"Ann": 16, "Ben": 50}
    standings = next(frame.value for frame in at.dataframe if "Rank" in frame.value.columns)
    assert standings["Total"].tolist() == [16, 50]  # the whole game's, from an older page


def classic_to_100(table) -> int:
    """A classic game (to 100) of Ann and Ben, ten rounds of Ann 3 (calling) and Ben 9."""
    ids = [table.player_ids["Ann"], table.player_ids["Ben"]]
    game = table.call(games.start_game, table.group_id, ids, PRESETS["classic"])
    for _round in range(10):
        hands = dict(zip(ids, ("3", "9"), strict=True))
        table.call(rounds.add_round, game.id, hands, ids[0], "dutch")
    return game.id


def correct_round_8_past_the_limit(at) -> None:
    at.selectbox(key="history_round").set_value(8).run()
    at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).input("42")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert not at.exception


@pytest.mark.parametrize("choice", ["history_end_there", "history_play_on"])
def test_a_correction_past_the_limit_mid_game_asks_before_anything_changes(table, choice):
    game_id = classic_to_100(table)
    at = open_app(table.account, PAGE)
    correct_round_8_past_the_limit(at)
    warned = " ".join(w.value for w in at.warning)
    assert "Ben reaches 105 points in round 8" in warned and "rounds 9 to 10" in warned
    stored = table.call(games.get_game, game_id)
    assert stored.rounds_played == 10 and stored.totals["Ben"] == 90  # nothing changed yet
    assert at.button(key="history_end_there").label == "End the game after round 8"

    at.button(key=choice).click().run()
    assert not at.exception
    assert not at.warning
    game = table.call(games.get_game, game_id)
    if choice == "history_end_there":
        assert any("ended after round 8" in text for text in messages(at))
        assert [row["Round"] for row in round_table(at)][-1] == 8
        assert (game.rounds_played, game.totals["Ben"], game.status.value) == (8, 105, "ended")
    else:
        assert any("open game" in text for text in messages(at))
        assert (game.rounds_played, game.totals["Ben"], game.status.value) == (10, 123, "active")


def test_a_new_correction_replaces_the_question(table):
    game_id = classic_to_100(table)
    at = open_app(table.account, PAGE)
    correct_round_8_past_the_limit(at)
    assert at.warning
    at.text_input(key=entry_key(at, f"{EDIT}_hand_1")).input("10")
    at.button(key=entry_key(at, f"{EDIT}_save")).click().run()
    assert not at.exception and not at.warning
    assert table.call(games.get_game, game_id).totals["Ben"] == 91
