"""Account page helpers: the personal data download and the deletion check."""

from __future__ import annotations

from datetime import UTC, datetime

from dutch_app.accounts.export import export_file_name, export_user_data
from dutch_app.ui.context import require_account, resources


def my_data_zip() -> tuple[str, bytes]:
    """The file name and the ZIP of everything kept about the signed-in person."""
    account = require_account()
    with resources().sessions() as session:
        data = export_user_data(session, account.user_id)
    return export_file_name(datetime.now(UTC)), data


def confirms_email(typed: str, email: str) -> bool:
    """True when the typed address is the account's (case and outer spaces aside).

    >>> confirms_email(" Ann@Example.com ", "ann@example.com"), confirms_email("", "a@b.c")
    (True, False)
    """
    return typed.strip().casefold() == email.casefold()
