"""Sending the password-reset email over SMTP (the standard library's client)."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage

from dutch_app.config import SmtpSettings
from dutch_app.i18n import _

TIMEOUT_SECONDS = 20


def reset_message(smtp: SmtpSettings, to: str, link: str, minutes: int) -> EmailMessage:
    """The email carrying a reset link (plain text: nothing in it is rendered), in the
    language of the page it was asked for on (the message is made there)."""
    message = EmailMessage()
    message["Subject"] = _("Choose a new Dutch Scorer password")
    message["From"] = smtp.sender
    message["To"] = to
    message.set_content(
        _(
            "Someone, hopefully you, asked to choose a new password for the Dutch Scorer\n"
            "account of {address}.\n\n"
            "Open this link within {minutes} minutes to choose it (it works once):\n\n"
            "{link}\n\n"
            "Choosing a new password signs the account out on every device.\n"
            "If you did not ask for this, ignore this email: your password stays as it is.\n"
        ).format(address=to, minutes=minutes, link=link)
    )
    return message


def changed_message(smtp: SmtpSettings, to: str, base_url: str) -> EmailMessage:
    """The notice that a reset link was used, so a person who did not ask can act."""
    message = EmailMessage()
    message["Subject"] = _("Your Dutch Scorer password was changed")
    message["From"] = smtp.sender
    message["To"] = to
    message.set_content(
        _(
            "The password of the Dutch Scorer account of {address} was just changed with a\n"
            "password-reset link, and the account was signed out on every device.\n\n"
            "If that was you, there is nothing to do. If not, ask for a new link on the\n"
            "sign-in page at {address_of_app} and choose another password at once.\n"
        ).format(address=to, address_of_app=base_url)
    )
    return message


def send_mail(smtp: SmtpSettings, message: EmailMessage) -> None:
    """Hand ``message`` to the configured server; raises `OSError`/`smtplib.SMTPException`."""
    context = ssl.create_default_context()
    if smtp.tls == "ssl":
        client: smtplib.SMTP = smtplib.SMTP_SSL(
            smtp.host, smtp.port, timeout=TIMEOUT_SECONDS, context=context
        )
    else:
        client = smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT_SECONDS)
    with client:
        if smtp.tls == "starttls":
            client.starttls(context=context)
        if smtp.user:
            client.login(smtp.user, smtp.password)
        client.send_message(message)
