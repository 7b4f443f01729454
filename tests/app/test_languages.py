"""The app in each of its languages: picked from the browser, or by the person, and complete.

Every page is opened in Dutch, German and French, and no text it shows may be an English
message that the catalogue translates: whatever a page draws passes through the catalogue.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from streamlit.testing.v1 import AppTest

from dutch_app import i18n
from dutch_app.csv_io import ROUND_COLUMNS
from dutch_app.services import csv_export, games, preferences, rounds
from dutch_core.rules import PRESETS
from tests.app.apptools import APP, open_app, sign_in_tab

TRANSLATED = [code for code in i18n.LANGUAGES if code != "en"]
BROWSERS = {"nl": "nl-NL", "de": "de-DE", "fr": "fr-BE"}
PAGES = ["play", "table", "history", "stats", "group", "account", "calculator", "rules"]


@pytest.fixture(scope="module")
def english_messages(messages_template) -> set[str]:
    """Every English message of the app that reads as words (not a lone name or code)."""
    return {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in messages_template
        if message.id
    }


def in_language(language: str, message: str) -> str:
    return i18n.translations(language).gettext(message)


def texts(at) -> list[str]:
    """The text of every title, heading, paragraph, alert, caption and widget label."""
    shown = []
    for kind in ("title", "header", "subheader", "markdown", "caption"):
        shown += [element.value for element in getattr(at, kind)]
    for kind in ("error", "warning", "info", "success"):
        shown += [element.value for element in getattr(at, kind)]
    for kind in ("button", "text_input", "selectbox", "checkbox", "radio", "number_input"):
        shown += [element.label for element in getattr(at, kind)]
    shown += [tab.label for tab in at.tabs]
    shown += [expander.label for expander in at.expander]
    return shown


def untranslated(at, language: str, english: set[str]) -> list[str]:
    """Texts on the page that are English messages with a different translation."""
    return [text for text in texts(at) if text in english and in_language(language, text) != text]


def a_played_game(table) -> int:
    """A game of four with one round in which Ann's Dutch call was beaten."""
    ids = [table.player_ids[name] for name in ("Ann", "Ben", "Cleo", "Dan")]
    game = table.call(
        games.start_game,
        table.group_id,
        ids,
        PRESETS["classic"],
        started_at=datetime(2025, 5, 10, 18, 30, tzinfo=UTC),
    )
    hands = dict(zip(ids, ["QS", "4", "5 7", "KC 8 9"], strict=True))
    table.call(rounds.add_round, game.id, hands, ids[0], "dutch", "QC 3D KS")
    return game.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_sign_in_page_speaks_the_browsers_language(app_resources, language, english_messages):
    """Before anyone signs in, the browser's language decides the page's."""
    at = open_app(context={"locale": BROWSERS[language]})
    assert [tab.label for tab in at.tabs] == [
        in_language(language, "Sign in"),
        in_language(language, "Create an account"),
    ]
    assert at.tabs[0].label != "Sign in"
    assert untranslated(at, language, english_messages) == []


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_is_translated(table, language, page, english_messages):
    """Each page, with a game played, draws no English message that has a translation."""
    a_played_game(table)
    at = open_app(table.account, f"pages/{page}.py", context={"locale": BROWSERS[language]})
    assert not at.exception
    assert untranslated(at, language, english_messages) == []


def test_the_stats_sections_are_translated(table, english_messages):
    """Every Stats tab, in Dutch, with its tables and charts."""
    a_played_game(table)
    at = open_app(table.account, "pages/stats.py", context={"locale": "nl-NL"})
    sections = at.tabs
    assert [tab.label for tab in sections][:2] == ["Spelers", "Ratings"]
    assert untranslated(at, "nl", english_messages) == []


def test_the_round_sentence_and_dates_follow_the_locale(table):
    """The History page says what the call cost in Dutch and writes the date the Dutch way."""
    a_played_game(table)
    at = open_app(table.account, "pages/history.py", context={"locale": "nl-NL"})
    labels = at.selectbox(key="history_game").options
    assert labels[0].startswith("10 mei 2025")
    assert "Ronde" in str(at.dataframe[-1].value.columns.tolist())


@pytest.mark.parametrize(
    ("browser", "written"),
    [
        ("de-DE", "DD.MM.YYYY"),
        ("nl-NL", "DD-MM-YYYY"),
        ("fr-BE", "DD/MM/YYYY"),
        ("en-US", "MM/DD/YYYY"),
    ],
)
def test_date_fields_write_dates_as_the_locale_does(table, browser, written):
    """The date filters of History and Stats take and show dates in the locale's order,
    with its mark between the parts (not the ISO form whatever the language)."""
    a_played_game(table)
    for page, key in (("history", "history_filter_dates"), ("stats", "stats_dates")):
        at = open_app(table.account, f"pages/{page}.py", context={"locale": browser})
        assert at.date_input(key=key).proto.format == written


def test_a_chosen_language_wins_over_the_browsers(table):
    """A person who picked German sees German in a Dutch browser."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.context.update({"locale": "nl-NL"})
    sign_in_tab(at, table.account)
    at.session_state[i18n.CHOICE_KEY] = "de"
    at.run()
    assert not at.exception
    assert at.title[0].value == "Spielen"


def test_a_language_the_app_does_not_speak_falls_back_to_english(table):
    """A Swedish browser gets English."""
    at = open_app(table.account, "pages/play.py", context={"locale": "sv-SE"})
    assert at.title[0].value == "Play"


def test_csv_files_stay_in_english_whatever_the_language(table):
    """The rounds file keeps its documented English columns and ISO dates in Dutch."""
    a_played_game(table)
    i18n.use_language("nl")
    try:
        data = table.call(csv_export.export_rounds, table.group_id)
    finally:
        i18n.use_language("en")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == list(ROUND_COLUMNS)
    assert rows[1][rows[0].index("game_started_at")] == "2025-05-10T18:30:00Z"
    assert rows[1][rows[0].index("outcome")] == "beaten"


def test_the_language_stored_with_the_account_wins_over_the_browsers(table):
    """French saved on the Account page is the app's language on a Dutch browser too."""
    table.call(preferences.save_preferences, language="fr", theme="auto", keep_awake=True)
    at = open_app(table.account, "pages/play.py", context={"locale": "nl-NL"})
    assert at.title[0].value == "Jouer"


def test_a_language_chosen_on_another_device_shows_at_the_next_run(table):
    """Preferences are read on every run of the page, not once a session: French chosen
    on the phone shows on the laptop's open tab as soon as it runs again."""
    at = open_app(table.account, "pages/play.py", context={"locale": "en-GB"})
    assert at.title[0].value == "Play"
    table.call(preferences.save_preferences, language="fr", theme="auto", keep_awake=True)
    at.run()
    assert not at.exception
    assert at.title[0].value == "Jouer"


def test_the_language_picker_lists_each_language_in_its_own_name(table):
    """The Account page offers the four languages by their own names, after the browser's."""
    at = open_app(table.account, "pages/account.py", context={"locale": "de-DE"})
    picker = at.selectbox(key="account_language")
    assert picker.options == ["Wie mein Browser", "English", "Nederlands", "Deutsch", "Français"]
