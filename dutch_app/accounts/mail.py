"""Sending the password-reset email over SMTP (the standard library's client)."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage

from dutch_app.config import SmtpSettings

TIMEOUT_SECONDS = 20


def reset_message(smtp: SmtpSettings, to: str, link: str, minutes: int) -> EmailMessage:
    """The email carrying a reset link (plain text: nothing in it is rendered)."""
    message = EmailMessage()
    message["Subject"] = "Choose a new Dutch Scorer password"
    message["From"] = smtp.sender
    message["To"] = to
    message.set_content(
        "Someone, hopefully you, asked to choose a new password for the Dutch Scorer\n"
        f"account of {to}.\n\n"
        f"Open this link within {minutes} minutes to choose it (it works once):\n\n"
        f"{link}\n\n"
        "Choosing a new password signs the account out on every device.\n"
        "If you did not ask for this, ignore this email: your password stays as it is.\n"
    )
    return message


def changed_message(smtp: SmtpSettings, to: str, base_url: str) -> EmailMessage:
    """The notice that a reset link was used, so a person who did not ask can act."""
    message = EmailMessage()
    message["Subject"] = "Your Dutch Scorer password was changed"
    message["From"] = smtp.sender
    message["To"] = to
    message.set_content(
        f"The password of the Dutch Scorer account of {to} was just changed with a\n"
        "password-reset link, and the account was signed out on every device.\n\n"
        "If that was you, there is nothing to do. If not, ask for a new link on the\n"
        f"sign-in page at {base_url} and choose another password at once.\n"
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
