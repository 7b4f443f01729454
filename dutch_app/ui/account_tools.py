"""Account page helpers: the personal data download and the deletion check."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from dutch_app.accounts.export import export_user_data
from dutch_app.i18n import _
from dutch_app.services.views import PlayerRename
from dutch_app.ui.context import run_service
from dutch_app.ui.text import md


def my_data_maker(user_id: int) -> Callable[[], bytes]:
    """What the download button calls: the ZIP of everything kept about ``user_id``.

    It runs when the button is clicked, outside the page's script run, so the
    person's id is passed in rather than read from the session.
    """
    return partial(run_service, export_user_data, user_id)


def confirms_email(typed: str, email: str) -> bool:
    """True when the typed address is the account's (case and outer spaces aside).

    >>> confirms_email(" Ann@Example.com ", "ann@example.com"), confirms_email("", "a@b.c")
    (True, False)
    """
    return typed.strip().casefold() == email.casefold()


def deleted_text(email: str) -> str:
    """What the sign-in page says after an account was deleted (Markdown, address escaped)."""
    return _(
        "The account {email} was deleted, with its sign-in details and the groups only "
        "it belonged to. Shared groups keep their games."
    ).format(email=md(email))


def rename_offer_text(offered: Sequence[PlayerRename]) -> str:
    """The offer to rename a person's players after their new display name (Markdown).

    >>> from dutch_app.services.views import PlayerRename
    >>> print(rename_offer_text([PlayerRename("Friday club", "Olivia", "Liv", True)]))
    You play as **Olivia** in Friday club. Rename your player to **Liv**, your display name?
    """
    free = [rename for rename in offered if rename.renamed]
    where = "; ".join(
        _("as **{name}** in {group}").format(name=md(r.old_name), group=md(r.group_name))
        for r in free
    )
    text = _("You play {where}. Rename your player to **{name}**, your display name?").format(
        where=where, name=md(free[0].new_name)
    )
    taken = [md(rename.group_name) for rename in offered if not rename.renamed]
    if taken:
        text += " " + _(
            "(In {groups} another player is called {name}: rename yours there on the Group page.)"
        ).format(groups=", ".join(taken), name=md(free[0].new_name))
    return text


def renamed_text(done: Sequence[PlayerRename]) -> str:
    """What renaming the players did (Markdown)."""
    renamed = [md(r.group_name) for r in done if r.renamed]
    if not renamed:
        return _("Nothing was renamed: another player already has that name.")
    return _("Your player is now called {name} in {groups}.").format(
        name=md(done[0].new_name), groups=", ".join(renamed)
    )
