"""Entering a round on the Play page in one pass (AppTest): the preview before saving,
choices made for every round, no half-filled round saved, errors where the eye is, the
card pad, points-mode rules and negative Jokers from set-up to CSV and back."""

from __future__ import annotations

import csv
import io

from dutch_app.services import games
from dutch_core import PRESETS, HouseRules
from tests.app.apptools import entry_key, make_table, messages, open_app, shown
from tests.app.downloads import download_file, keep_media

PLAY = "pages/play.py"
HISTORY = "pages/history.py"
SAVE = "play_round_save"
PENALTY = "play_round_penalty"


def start(table, rules=PRESETS["classic"], seats=("Ann", "Ben", "Cleo", "Dan")):
    ids = [table.player_ids[name] for name in seats]
    return table.call(games.start_game, table.group_id, ids, rules)


def type_hands(at, hands):
    for seat, text in enumerate(hands):
        at.text_input(key=entry_key(at, f"play_round_hand_{seat}")).input(text)


def choose(at, caller, call="dutch"):
    at.pills(key=entry_key(at, "play_round_caller")).set_value(caller)
    if call is not None:
        at.segmented_control(key=entry_key(at, "play_round_call_type")).set_value(call)


def save(at):
    at.button(key=entry_key(at, SAVE)).click().run()
    assert not at.exception, at.exception


def preview(at) -> str:
    """The preview's sentence and table, as Markdown (names are plain here)."""
    return " ".join(block.value.replace("\\", "") for block in at.markdown)


def penalty_field(at):
    found = [field for field in at.text_input if field.key == entry_key(at, PENALTY)]
    return found[0] if found else None


def stored(table, game):
    return table.call(games.get_game, game.id).rounds


def helper_wishes(at) -> list[str]:
    """The ``data-`` wishes of each table-script element on the page."""
    return [html.proto.body.split("<script>")[0] for html in at.get("html")]


def test_the_preview_says_how_many_penalty_cards_are_due_before_saving(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    assert penalty_field(at) is None
    type_hands(at, ["Q", "4", "5 7", "KS 8 9"])
    choose(at, "Ann")
    at.run()
    assert "Ann draws 3 penalty cards" in preview(at)
    assert "Lowest: Ben (4)." in preview(at)
    assert "| Ben | 4 | 4 | 4 |" in preview(at)  # the new game totals too
    assert "3 penalty cards" in penalty_field(at).label
    assert not at.error
    assert stored(table, game) == ()  # nothing is stored until Save


def test_a_beaten_call_is_saved_with_one_tap_of_save(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    type_hands(at, ["Q", "4", "5 7", "KS 8 9"])
    choose(at, "Ann")
    at.run()
    penalty_field(at).input("Q 3 BK")
    save(at)
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [40, 4, 12, 30]
    assert at.subheader[0].value == "Round 2"
    line = [shown(s.value) for s in at.success]
    assert any(text.startswith("Round 1 saved. Ann called Dutch, was beaten") for text in line)
    assert any(b.key and b.key.startswith("play_undo_") for b in at.button)
    assert at.text_input(key=entry_key(at, "play_round_hand_0")).value == ""
    # The next round starts unchosen and asks for its first field to be brought into view.
    assert at.pills(key=entry_key(at, "play_round_caller")).value is None
    assert at.segmented_control(key=entry_key(at, "play_round_call_type")).value is None
    assert any('data-scroll="play_round_hand_0"' in w for w in helper_wishes(at))


def test_save_is_refused_until_the_caller_and_the_call_are_chosen(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    type_hands(at, ["3", "10", "7", "25"])
    save(at)
    assert "Choose who ended the round." in messages(at)
    at.pills(key=entry_key(at, "play_round_caller")).set_value("Ann")
    save(at)
    assert any("Choose how Ann ended the round: Dutch or Auto Dutch." in m for m in messages(at))
    assert stored(table, game) == ()
    at.segmented_control(key=entry_key(at, "play_round_call_type")).set_value("dutch")
    save(at)
    assert len(stored(table, game)) == 1


def test_nobody_called_is_offered_only_where_the_rules_allow_it(table):
    start(table)
    at = open_app(table.account, PLAY)
    assert at.pills(key=entry_key(at, "play_round_caller")).options == ["Ann", "Ben", "Cleo", "Dan"]
    other = make_table(table.resources, "eve@example.com", "Eve")
    start(other, PRESETS["deck_out"])
    at = open_app(other.account, PLAY)
    assert (
        at.pills(key=entry_key(at, "play_round_caller")).options[-1] == "Nobody (the deck ran out)"
    )


def test_committing_a_field_as_enter_does_never_saves(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    choose(at, "Ann")
    type_hands(at, ["3", "10"])  # Enter in a field: the page reruns with the value
    at.run()
    type_hands(at, ["3", "10", "7", "25"])
    at.run()
    assert stored(table, game) == ()
    assert at.get("form") == []  # no form whose Enter key would submit it
    assert at.subheader[0].value == "Round 1"


def test_an_empty_hand_is_refused_with_the_players_name(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    type_hands(at, ["3", "", "7", ""])
    choose(at, "Ann")
    save(at)
    assert stored(table, game) == ()
    errors = [shown(e.value) for e in at.error]
    assert any(e.startswith("Ben: no hand entered") for e in errors)
    assert any(e.startswith("Dan: no hand entered") for e in errors)
    # The Auto Dutch caller's empty hand, and a hand typed as 0, are fine.
    type_hands(at, ["3", "", "7", "0"])
    choose(at, "Ben", "auto_dutch")
    at.run()
    penalty_field(at).input("4")  # Dan's 0 ties Ben's Auto Dutch 0
    save(at)
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [3, 4, 7, 0]


def test_a_refused_save_lists_every_problem_above_save_and_brings_the_first_into_view(table):
    start(table)
    at = open_app(table.account, PLAY)
    type_hands(at, ["3", "K", "7", ""])
    save(at)
    summary = shown(at.error[-1].value)
    assert summary.startswith("The round was not saved. Fix these 3 problems first:")
    assert "Ben: 'K' needs a colour" in summary
    assert "Dan: no hand entered" in summary
    assert "Choose who ended the round." in summary
    # Ben's field, the first faulty one, is brought into view.
    assert any('data-scroll="play_round_hand_1"' in w for w in helper_wishes(at))
    # Fixed fields drop out of the summary as they are fixed.
    type_hands(at, ["3", "KH", "7", "9"])
    at.run()
    assert shown(at.error[-1].value).endswith("first:\n\nChoose who ended the round.")


def test_a_round_entered_entirely_with_the_card_pad(table):
    game = start(table)
    at = open_app(table.account, PLAY)
    at.toggle(key="play_round_pad_on").set_value(True).run()

    def tap(name):
        at.button(key=f"play_round_pad_{name}").click().run()
        assert not at.exception, at.exception

    for hand in (["card_Q"], ["card_4"], ["card_5", "card_7"], ["card_BK", "card_8", "card_9"]):
        for name in hand:
            tap(name)
        tap("next")
    assert [at.text_input(key=entry_key(at, f"play_round_hand_{s}")).value for s in range(4)] == [
        "Q",
        "4,",  # one number card, not a total of 4
        "5 7",
        "BK 8 9",
    ]
    at.pills(key=entry_key(at, "play_round_caller")).set_value("Ann").run()
    at.segmented_control(key=entry_key(at, "play_round_call_type")).set_value("dutch").run()
    at.button(key="play_round_pad_to_penalty").click().run()  # the penalty cards next
    for name in ("card_Q", "card_3", "card_BK"):
        tap(name)
    tap("remove")
    tap("card_RK")
    assert penalty_field(at).value == "Q 3 RK"
    save(at)
    (saved,) = stored(table, game)
    assert [hand.round_score for hand in saved.hands] == [27, 4, 12, 30]
    # A total on the number pad writes the same field as typing it would.
    at.segmented_control(key="play_round_pad_mode").set_value("total").run()
    tap("digit_2")
    tap("digit_3")
    assert at.text_input(key=entry_key(at, "play_round_hand_0")).value == "23"


def test_points_mode_rules_never_show_a_penalty_field(table):
    game = start(table, PRESETS["points"])
    at = open_app(table.account, PLAY)
    type_hands(at, ["12", "4", "12", "30"])
    choose(at, "Ann")
    at.run()
    assert penalty_field(at) is None
    assert "Ann scores 10 penalty points" in preview(at)
    save(at)
    (saved,) = stored(table, game)
    assert saved.hands[0].round_score == 22


def test_negative_jokers_from_set_up_to_totals_and_through_csv(table, monkeypatch):
    media = keep_media(monkeypatch)
    at = open_app(table.account, PLAY)
    for name in ("Ann", "Ben", "Cleo"):
        at.multiselect(key="play_setup_players").select(table.player_ids[name])
    at.selectbox(key="play_setup_rules_preset").select("jokers").run()
    at.number_input(key="play_setup_rules_jokers_jv").set_value(-2)
    at.button(key="play_setup_start").click().run()
    assert not at.exception
    (summary,) = table.call(games.list_games, table.group_id)
    game = table.call(games.get_game, summary.id)
    assert game.rules == HouseRules(jokers=2, joker_value=-2)
    assert any("2 Jokers in the deck, worth -2 each." in c.value for c in at.caption)

    at.toggle(key="play_round_pad_on").set_value(True).run()
    at.button(key="play_round_pad_card_JK").click().run()  # the pad has Jokers now
    assert at.text_input(key=entry_key(at, "play_round_hand_0")).value == "JK"
    type_hands(at, ["JK JK", "3", "KH"])
    at.run()
    assert "Lowest: Ann (-4)." in preview(at)
    choose(at, "Ann")
    save(at)
    assert table.call(games.get_game, game.id).totals == {"Ann": -4, "Ben": 3, "Cleo": 0}
    type_hands(at, ["-2", "JK 5", "4"])  # a typed total below zero, as this deck allows
    choose(at, "Ann")
    save(at)
    assert table.call(games.get_game, game.id).totals == {"Ann": -6, "Ben": 6, "Cleo": 4}
    type_hands(at, ["-5", "3", "1"])  # beyond what the deck can make
    choose(at, "Cleo")
    save(at)
    refused = "Ann: a total of -5 is outside what this deck can make (-4 to 338)"
    assert any(refused in m for m in messages(at))

    at.switch_page(HISTORY).run()
    assert not at.exception
    file = download_file(at, "history_download_game", media)
    rows = list(csv.DictReader(io.StringIO(file.content.decode("utf-8"))))
    assert [(r["player"], r["cards"], r["hand_total"], r["game_total"]) for r in rows] == [
        ("Ann", "JK JK", "-4", "-4"),
        ("Ben", "3", "3", "3"),
        ("Cleo", "KH", "0", "0"),
        ("Ann", "'-2", "-2", "-6"),  # a text cell starting with "-" is kept from formulas
        ("Ben", "JK 5", "3", "6"),
        ("Cleo", "4", "4", "4"),
    ]
    assert '"joker_value":-2' in rows[0]["rules"].replace(" ", "")

    eve = make_table(table.resources, "eve@example.com", "Eve")
    at = open_app(eve.account, HISTORY)
    at.file_uploader(key="history_import_file").upload("rounds.csv", file.content, "text/csv")
    at.run()
    at.button(key="history_import").click().run()
    assert not at.exception
    assert any(text.startswith("Imported 1 game with 2 rounds.") for text in messages(at))
    (imported,) = eve.call(games.list_games, eve.group_id)
    again = eve.call(games.get_game, imported.id)
    assert again.rules == HouseRules(jokers=2, joker_value=-2)
    assert again.totals == {"Ann": -6, "Ben": 6, "Cleo": 4}


def pad_round_with_penalty_cards(at):
    """Enter round 1 on the pad, Ann beaten and drawing Q 3 BK; its penalty field."""
    at.toggle(key="play_round_pad_on").set_value(True).run()
    choose(at, "Ann")
    at.run()
    for hand in (["card_Q"], ["card_4"], ["card_5", "card_7"], ["card_BK", "card_8", "card_9"]):
        for name in hand:
            pad_tap(at, name)
        pad_tap(at, "next")
    for name in ("card_Q", "card_3", "card_BK"):
        pad_tap(at, name)
    kept = penalty_field(at)
    assert kept.value == "Q 3 BK"
    return kept


def pad_tap(at, name):
    at.button(key=f"play_round_pad_{name}").click().run()
    assert not at.exception, at.exception


def still_sent(at, field, text="Q 3 BK"):
    """A browser can still hold a hidden field's last text and send it with later taps
    (when the run that emptied the entry is cut short by the next tap, the hidden
    field's state is not dropped). Reproduced by leaving the old field on the page the
    next tap is sent from."""
    field.input(text)
    at.main.children[max(at.main.children) + 1] = field


def test_a_saved_rounds_penalty_cards_never_come_back_into_the_next_round(table):
    """Round 1 on the pad with penalty cards, saved; round 2's penalty field appears empty
    after a late pad tap, while the browser still sends round 1's penalty text."""
    game = start(table)
    at = open_app(table.account, PLAY)
    kept = pad_round_with_penalty_cards(at)
    save(at)
    assert len(stored(table, game)) == 1
    assert penalty_field(at) is None  # no caller chosen yet for round 2
    still_sent(at, kept)
    pad_tap(at, "card_Q")  # a late tap on the pad: it goes to the first player, nothing else
    assert at.text_input(key=entry_key(at, "play_round_hand_0")).value == "Q"
    assert penalty_field(at) is None
    still_sent(at, kept)
    choose(at, "Ann")
    type_hands(at, ["Q", "4", "5 7", "KS 8 9"])
    at.run()
    assert penalty_field(at).value == ""  # it appears empty, for round 2's cards
    penalty_field(at).input("Q 3 KC")
    save(at)
    assert [[hand.round_score for hand in r.hands] for r in stored(table, game)] == [
        [40, 4, 12, 30],
        [40, 4, 12, 30],
    ]
    assert [r.penalty_text for r in stored(table, game)] == ["Q 3 BK", "Q 3 KC"]


def test_a_save_before_the_penalty_field_appears_never_takes_the_last_rounds_cards(table):
    """Save tapped as soon as the last hand makes the cards due, the field not yet shown:
    Save asks for round 2's cards instead of storing round 1's."""
    game = start(table)
    at = open_app(table.account, PLAY)
    kept = pad_round_with_penalty_cards(at)
    save(at)
    choose(at, "Ann")
    type_hands(at, ["Q", "4", "5 7", "KS 8 9"])
    still_sent(at, kept)
    save(at)
    assert len(stored(table, game)) == 1
    assert penalty_field(at).value == ""
    assert any("penalty" in message.lower() for message in messages(at))


def entry_on_show(at):
    """Round entry as the page shows it: the four hands, the caller and the kind of call."""
    hands = [at.text_input(key=entry_key(at, f"play_round_hand_{s}")).value for s in range(4)]
    caller = at.pills(key=entry_key(at, "play_round_caller")).value
    return hands, caller, at.segmented_control(key=entry_key(at, "play_round_call_type")).value


def type_round_one(at):
    """Round 1 typed and shown; each field and choice of the page holds its value as the
    browser does (it sends them with every message, whatever the server has since)."""
    type_hands(at, ["3", "10", "7", "25"])
    choose(at, "Ann")
    at.run()
    for field in (
        *(at.text_input(key=entry_key(at, f"play_round_hand_{s}")) for s in range(4)),
        at.pills(key=entry_key(at, "play_round_caller")),
        at.segmented_control(key=entry_key(at, "play_round_call_type")),
    ):
        field.set_value(field.value)


def save_once(at):
    """One tap on Save. The page the browser showed stays as it was (the elements taken
    from it before the tap): its next message, sent before the browser sees the next run,
    still carries the stored entry's values (but not the tap: a tap is sent once)."""
    tapped = at.button(key=entry_key(at, SAVE)).click()
    at.run()
    assert not at.exception, at.exception
    assert at.subheader[0].value == "Round 2"
    tapped.set_value(False)
    return tapped


def test_a_field_left_just_after_save_brings_no_hand_of_the_saved_round_back(table):
    """Ben's field left again just after Save, before the browser saw round 2's empty
    entry: the message carries round 1's hands, and round 2's entry stays empty."""
    game = start(table)
    at = open_app(table.account, PLAY)
    type_round_one(at)
    ben = at.text_input(key=entry_key(at, "play_round_hand_1"))  # as the browser shows it
    save_once(at)
    ben.input("10").run()  # sent from the page the browser still showed
    assert not at.exception, at.exception
    assert entry_on_show(at) == (["", "", "", ""], None, None)
    assert not at.error
    at.button(key=entry_key(at, SAVE)).click().run()  # a hurried second Save
    assert "Choose who ended the round." in messages(at)
    assert len(stored(table, game)) == 1


def test_a_card_tapped_just_after_save_starts_the_next_round_alone(table):
    """A card-pad tap sent before the browser saw round 2's empty entry: its card is the
    first of round 2's first hand, and round 1's hands and choices stay out."""
    game = start(table)
    at = open_app(table.account, PLAY)
    at.toggle(key="play_round_pad_on").set_value(True).run()
    type_round_one(at)
    queen = at.button(key="play_round_pad_card_Q")  # as the browser shows it
    save_once(at)
    queen.click().run()
    assert not at.exception, at.exception
    assert entry_on_show(at) == (["Q", "", "", ""], None, None)
    at.button(key=entry_key(at, SAVE)).click().run()
    assert len(stored(table, game)) == 1
    assert [hand.hand_total for hand in stored(table, game)[0].hands] == [3, 10, 7, 25]


def test_the_second_tap_of_a_double_tap_on_save_stores_nothing_and_shows_no_problem(table):
    """Both taps of a double tap on Save are sent from the page showing round 1: the
    second arrives after round 1 was stored and round 2's entry drawn."""
    game = start(table)
    at = open_app(table.account, PLAY)
    type_round_one(at)
    tapped = save_once(at)
    tapped.click().run()  # the same Save of the same page, tapped again
    assert not at.exception, at.exception
    assert len(stored(table, game)) == 1
    assert entry_on_show(at) == (["", "", "", ""], None, None)
    assert not at.error
    assert at.subheader[0].value == "Round 2"
