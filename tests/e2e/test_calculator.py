"""The round calculator scores a round in a real browser, before anyone signs in."""

from playwright.sync_api import expect

from tests.e2e.streamlit_ui import tap_choice


def _field(page, key):
    return page.locator(f".st-key-{key} input")


def test_a_visitor_scores_a_beaten_dutch_call(streamlit_server, browser_page):
    """Ann calls with 12, Ben has 4 and Cleo 12: the three penalty cards are asked for
    before scoring, and one tap of Score adds them."""
    page = browser_page
    page.goto(streamlit_server())
    page.get_by_role("link", name="Round calculator").click()
    expect(page.get_by_role("heading", name="Round calculator")).to_be_visible()
    for seat, hand in enumerate(["12", "4", "12", "30"]):
        _field(page, f"calc_round_hand_{seat}").fill(hand)
    tap_choice(page, "calc_round_caller", "Ann")
    tap_choice(page, "calc_round_call_type", "Dutch")
    expect(page.get_by_text("Ann draws 3 penalty cards: enter them")).to_be_visible()
    expect(page.get_by_test_id("stAlertContentError")).to_have_count(0)

    _field(page, "calc_round_penalty").fill("QC 3D KS")
    page.get_by_role("button", name="Score the round").click()

    expect(page.get_by_text("was beaten by 1 player and tied with 1 player")).to_be_visible()
    expect(page.get_by_text("drew 3 penalty cards worth 28")).to_be_visible()
    table = page.get_by_test_id("stDataFrame")
    expect(table).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
