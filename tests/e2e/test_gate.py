"""Addresses of signed-in pages, opened while signed out."""

from playwright.sync_api import expect


def test_a_bookmarked_page_asks_to_sign_in_and_then_shows_that_page(streamlit_server, browser_page):
    """Opening /history signed out shows the sign-in form (no "page not found"); creating
    an account there signs in and lands on the History page itself."""
    page = browser_page
    page.goto(streamlit_server() + "/history")
    expect(page.get_by_role("tab", name="Create an account")).to_be_visible()
    assert page.get_by_text("Page not found").count() == 0

    page.get_by_role("tab", name="Create an account").click()
    page.locator(".st-key-signup_name input").fill("Ann")
    page.locator(".st-key-signup_email input").fill("ann@example.com")
    page.locator(".st-key-signup_password input").fill("correct horse 42")
    page.get_by_role("button", name="Create account").click()  # which signs Ann in

    expect(page.get_by_role("heading", name="History")).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
