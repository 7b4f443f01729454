"""A first evening in Dutch: a browser set to Dutch gets the whole app in Dutch.

Someone whose browser speaks Dutch (``nl-NL``) signs up, creates a group with its players,
starts a game, plays a round in which Ann's Dutch call is beaten (the form asks for her
penalty cards in Dutch), and opens the statistics. Every label the test clicks or waits for
is the Dutch one, so a page left in English fails here. The tests run in file order in one
tab, each continuing from where the previous one left it.
"""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import DESKTOP
from tests.e2e.streamlit_ui import (
    PASSWORD,
    data_frame,
    expect_rows,
    expect_title,
    fill,
    fill_round,
    open_page,
    press,
    save_button,
    wait_for_session_cookie,
    widget,
)

EMAIL = "anne@example.nl"
SEATS = ["Ann", "Ben", "Cleo", "Dan"]


@pytest.fixture(scope="module")
def module_context(browser: Browser) -> Iterator[BrowserContext]:
    """A desktop browser whose language is Dutch, as in the Netherlands."""
    context = browser.new_context(viewport=DESKTOP, locale="nl-NL")
    yield context
    context.close()


def expect_stand(page: Page, rows: list[tuple[int, str, int]]) -> None:
    """The standings, under their Dutch headings."""
    expect_rows(data_frame(page, "Plaats", "Speler", "Totaal"), rows)


def test_sign_up_in_dutch(app_server, tab: Page):
    """The sign-in page, the sign-up form and the Play page it opens speak Dutch."""
    tab.goto(app_server.url)
    expect_title(tab, "Dutch Scorer")
    expect(tab.get_by_text("Houd aan tafel de score van Dutch bij")).to_be_visible()

    tab.get_by_role("tab", name="Account aanmaken").click()
    fill(tab, "signup_name", "Ann")
    fill(tab, "signup_email", EMAIL)
    fill(tab, "signup_password", PASSWORD)
    # Streamlit's own hint in a typed-in field is English only: the app shows none.
    expect(tab.locator('[data-testid="InputInstructions"]')).to_have_count(1)
    expect(tab.get_by_text("Press Enter to submit form")).to_be_hidden()
    press(tab.get_by_role("button", name="Account aanmaken"))
    expect_title(tab, "Spelen")
    expect(tab.get_by_test_id("stSidebar").get_by_text("Ingelogd als")).to_be_visible()
    expect(tab.get_by_text("Je zit nog niet in een groep.")).to_be_visible()
    wait_for_session_cookie(tab, present=True)


def test_a_group_with_players_in_dutch(tab: Page):
    """The Group page creates the group (with Ann, who made it, as its first player),
    offers the first game and adds the other players, answering in Dutch."""
    open_page(tab, "Groep")
    fill(tab, "group_create_name", "Vrijdagavond")
    press(tab.get_by_role("button", name="Groep aanmaken"))
    # The message at the top, beside the form it was made with (once, no toast).
    said = tab.get_by_test_id("stAlertContentSuccess").get_by_text(
        "Je hebt Vrijdagavond aangemaakt"
    )
    expect(said).to_be_visible()
    expect(tab.get_by_role("button", name="Het eerste spel opzetten")).to_be_visible()
    for name in SEATS[1:]:
        fill(tab, "group_add_player_name", name)
        press(tab.get_by_role("button", name="Speler toevoegen"))
        expect(tab.get_by_text(f"{name} is aan de spelers toegevoegd.")).to_be_visible()


def test_a_beaten_dutch_call_asks_for_penalty_cards_in_dutch(tab: Page):
    """Ann calls Dutch with 12 but Ben has 4 and Dan 12: the form says in Dutch that she
    must draw 3 penalty cards, and once they are entered the standings add up."""
    open_page(tab, "Spelen")
    chosen = widget(tab, "play_setup_players").locator("[data-tag]")
    expect(chosen).to_have_text(["Ann"])  # the group's one member is chosen already
    for name in SEATS[1:]:
        press(widget(tab, "play_setup_players").locator("input"))
        tab.get_by_role("option", name=name, exact=True).click()
    tab.keyboard.press("Escape")  # close the list of players
    press(tab.get_by_role("button", name="Spel beginnen"))
    expect(tab.get_by_role("heading", name="Ronde 1")).to_be_visible()
    expect(tab.get_by_text("Ann deelt.")).to_be_visible()

    fill_round(tab, "play_round", ["12", "4", "30", "12"], "Ann")
    penalty = widget(tab, "play_round_penalty")
    expect(penalty.get_by_text("Ann trekt 3 strafkaarten: vul ze in")).to_be_visible()
    expect(tab.get_by_text("Ann riep Dutch en is verslagen")).to_be_visible()
    expect(tab.get_by_role("heading", name="Ronde 1")).to_be_visible()

    fill(tab, "play_round_penalty", "QC 3D KS")
    save = save_button(tab)
    expect(save).to_have_text("Ronde opslaan")
    press(save)
    expect(tab.get_by_role("heading", name="Ronde 2")).to_be_visible()
    expect(tab.get_by_text("Ann riep Dutch, werd verslagen door 1 speler")).to_be_visible()
    expect_stand(tab, [(1, "Ben", 4), (2, "Dan", 12), (3, "Cleo", 30), (4, "Ann", 40)])


def test_the_stats_page_in_dutch(tab: Page):
    """Stats names its sections, tables and chart titles in Dutch."""
    open_page(tab, "Statistieken")
    expect(tab.get_by_role("tab", name="Spelers")).to_be_visible()
    expect(tab.get_by_role("tab", name="Dutch roepen")).to_be_visible()
    expect(tab.get_by_role("heading", name="Per speler")).to_be_visible()
    expect(tab.get_by_text("Rondescore (lager is beter)").first).to_be_visible()
    expect(tab.get_by_text("1 spel en 1 ronde in deze weergave")).to_be_visible()
