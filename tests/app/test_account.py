"""The Account page: profile, password, the data download, and deleting the account."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from dutch_app.accounts import AuthFailed
from tests.app.apptools import linked_pages, messages, open_app, shown_all
from tests.app.downloads import Media, download_file, keep_media

PAGE = "pages/account.py"
PASSWORD = "correct horse 42"


@pytest.fixture
def media(monkeypatch) -> Media:
    """The file stores behind download buttons."""
    return keep_media(monkeypatch)


def submit(at, form: str, label: str):
    """Press a form's submit button and run the app."""
    at.button(key=f"FormSubmitter:{form}-{label}").click().run()
    assert not at.exception, at.exception
    return at


def change_password(at, current: str, new: str, again: str | None = None):
    at.text_input(key="account_current_password").input(current)
    at.text_input(key="account_new_password").input(new)
    at.text_input(key="account_new_password_again").input(new if again is None else again)
    return submit(at, "account_password_form", "Change the password")


def signs_in(table, password: str) -> bool:
    try:
        table.resources.accounts.sign_in("ann@example.com", password)
    except AuthFailed:
        return False
    return True


def test_the_profile_shows_the_email_and_the_display_name(table):
    at = open_app(table.account, PAGE)
    assert "ann@example.com" in at.text.values
    assert at.text_input(key="account_display_name").value == "Ann"


def test_changing_the_display_name_shows_everywhere(table):
    at = open_app(table.account, PAGE)
    at.text_input(key="account_display_name").input("Ann Marie")
    submit(at, "account_name_form", "Save the name")
    assert "Your display name is now Ann Marie." in messages(at)
    assert at.session_state["account"].display_name == "Ann Marie"
    assert table.resources.accounts.sign_in("ann@example.com", PASSWORD).display_name == (
        "Ann Marie"
    )


def test_an_empty_display_name_is_refused(table):
    at = open_app(table.account, PAGE)
    at.text_input(key="account_display_name").input("   ")
    submit(at, "account_name_form", "Save the name")
    assert at.error, "an error message is shown"
    assert at.session_state["account"].display_name == "Ann"


def test_a_display_name_appears_literally(table):
    at = open_app(table.account, PAGE)
    at.text_input(key="account_display_name").input("**bold** <img src=x>")
    submit(at, "account_name_form", "Save the name")
    assert "Your display name is now **bold** <img src=x>." in messages(at)
    assert at.session_state["account"].display_name == "**bold** <img src=x>"


def test_changing_the_password_keeps_this_tab_signed_in(table):
    at = open_app(table.account, PAGE)
    change_password(at, PASSWORD, "a new horse 43")
    assert any("Your password was changed" in text for text in messages(at))
    assert signs_in(table, "a new horse 43")
    assert not signs_in(table, PASSWORD)
    assert at.session_state["account"].user_id == table.account.user_id


def test_a_wrong_current_password_changes_nothing(table):
    at = open_app(table.account, PAGE)
    change_password(at, "not my password", "a new horse 43")
    assert "Current password: this is not your password." in shown_all(at.error)
    assert signs_in(table, PASSWORD)


def test_the_new_password_must_be_typed_twice_alike(table):
    at = open_app(table.account, PAGE)
    change_password(at, PASSWORD, "a new horse 43", again="a new horse 44")
    assert "The two new passwords differ; nothing was changed." in shown_all(at.error)
    assert signs_in(table, PASSWORD)


def test_a_weak_new_password_is_refused(table):
    at = open_app(table.account, PAGE)
    change_password(at, PASSWORD, "short")
    assert at.error, "the weak password is refused with a message"
    assert signs_in(table, PASSWORD)


def test_with_firebase_accounts_the_password_is_changed_by_email(table, monkeypatch):
    backend = table.resources.accounts
    sent: list[str] = []
    monkeypatch.setattr(backend, "password_reset_by_email", True)
    monkeypatch.setattr(backend, "send_password_reset", sent.append)
    at = open_app(table.account, PAGE)
    assert "account_current_password" not in [field.key for field in at.text_input]
    at.button(key="account_reset_password").click().run()
    assert not at.exception
    assert sent == ["ann@example.com"]
    assert "A link is on its way to ann@example.com." in messages(at)


def test_the_privacy_policy_is_linked(table):
    at = open_app(table.account, PAGE)
    assert "privacy" in linked_pages(at)


def test_my_data_downloads_as_a_zip(table, media):
    at = open_app(table.account, PAGE)
    file = download_file(at, "account_download_data", media)
    assert file.filename.startswith("dutch-scorer-data-") and file.filename.endswith(".zip")
    archive = zipfile.ZipFile(io.BytesIO(file.content))
    profile = json.loads(archive.read("dutch-scorer-data/profile.json"))
    assert profile["email"] == "ann@example.com"
    groups = json.loads(archive.read("dutch-scorer-data/groups.json"))
    assert [group["name"] for group in groups] == ["Friday cards"]


def delete(at, email: str, password: str):
    at.text_input(key="account_delete_email").input(email)
    at.text_input(key="account_delete_password").input(password)
    return submit(at, "account_delete_form", "Delete my account")


def test_deleting_needs_the_right_email(table):
    at = open_app(table.account, PAGE)
    delete(at, "someone@example.com", PASSWORD)
    assert "The email address does not match your account's; nothing was deleted." in (
        shown_all(at.error)
    )
    assert signs_in(table, PASSWORD)


def test_deleting_needs_the_right_password(table):
    at = open_app(table.account, PAGE)
    delete(at, "ann@example.com", "not my password")
    assert "Password: this is not your password." in shown_all(at.error)
    assert signs_in(table, PASSWORD)


def test_deleting_the_account_signs_out(table):
    at = open_app(table.account, PAGE)
    delete(at, " ANN@example.com ", PASSWORD)
    assert "account" not in at.session_state
    at.switch_page("pages/sign_in.py").run()
    assert not at.exception
    assert at.text_input(key="signin_email") is not None
    assert not signs_in(table, PASSWORD)
