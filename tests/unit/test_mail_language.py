"""The password emails speak the language of the page they were asked for on."""

import contextvars

import pytest

from dutch_app.accounts.mail import changed_message, reset_message
from dutch_app.config import SmtpSettings
from dutch_app.i18n import use_language

SMTP = SmtpSettings(host="mail.example.com", sender="scores@example.com")
LINK = "https://scores.example.com/reset_password?token=abc"


def in_language(code, make):
    """``make()`` run with ``code`` as the run's language, in a context of its own."""

    def run():
        use_language(code)
        return make()

    return contextvars.copy_context().run(run)


@pytest.mark.parametrize(
    ("code", "subject", "phrase"),
    [
        ("en", "Choose a new Dutch Scorer password", "within 30 minutes"),
        ("nl", "Kies een nieuw wachtwoord voor Dutch Scorer", "binnen 30 minuten"),
        ("de", "Wähle ein neues Passwort für Dutch Scorer", "innerhalb von 30 Minuten"),
        ("fr", "Choisissez un nouveau mot de passe Dutch Scorer", "dans les 30 minutes"),
    ],
)
def test_the_reset_email_is_in_the_language_of_the_page(code, subject, phrase):
    message = in_language(code, lambda: reset_message(SMTP, "ann@example.com", LINK, 30))
    body = message.get_content()
    assert message["Subject"] == subject
    assert phrase in body
    assert LINK in body and "ann@example.com" in body


def test_the_changed_notice_is_translated_with_its_addresses_intact():
    message = in_language(
        "nl", lambda: changed_message(SMTP, "ann@example.com", "https://scores.example.com")
    )
    body = message.get_content()
    assert message["Subject"] == "Je wachtwoord voor Dutch Scorer is gewijzigd"
    assert "ann@example.com" in body and "https://scores.example.com" in body
    assert "{" not in body
