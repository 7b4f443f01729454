"""Account page helpers: the personal data download and the deletion check."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from dutch_app.accounts.export import export_user_data
from dutch_app.ui.context import resources


def _my_data_zip(user_id: int) -> bytes:
    with resources().sessions() as session:
        return export_user_data(session, user_id)


def my_data_maker(user_id: int) -> Callable[[], bytes]:
    """What the download button calls: the ZIP of everything kept about ``user_id``.

    It runs when the button is clicked, outside the page's script run, so the
    person's id is passed in rather than read from the session.
    """
    return partial(_my_data_zip, user_id)


def confirms_email(typed: str, email: str) -> bool:
    """True when the typed address is the account's (case and outer spaces aside).

    >>> confirms_email(" Ann@Example.com ", "ann@example.com"), confirms_email("", "a@b.c")
    (True, False)
    """
    return typed.strip().casefold() == email.casefold()
