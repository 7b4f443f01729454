"""The round calculator scores a round in a real browser, before anyone signs in."""

from playwright.sync_api import expect


def _field(page, key):
    return page.locator(f".st-key-{key} input")


def test_a_visitor_scores_a_beaten_dutch_call(streamlit_server, browser_page):
    """Ann calls with 12, Ben has 4 and Cleo 12: three penalty cards are asked for and added."""
    page = browser_page
    page.goto(streamlit_server())
    page.get_by_role("link", name="Round calculator").click()
    expect(page.get_by_role("heading", name="Round calculator")).to_be_visible()
    for seat, hand in enumerate(["12", "4", "12", "30"]):
        _field(page, f"calc_round_hand_{seat}").fill(hand)
    page.get_by_role("button", name="Score the round").click()
    expect(page.get_by_text("Ann must draw 3 penalty cards")).to_be_visible()

    _field(page, "calc_round_penalty").fill("QC 3D KS")
    page.get_by_role("button", name="Score the round").click()

    expect(page.get_by_text("was beaten by 1 player and tied with 1 player")).to_be_visible()
    expect(page.get_by_text("drew 3 penalty cards worth 28")).to_be_visible()
    table = page.get_by_test_id("stDataFrame")
    expect(table).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
