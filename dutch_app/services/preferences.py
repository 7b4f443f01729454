"""A person's preferences for the app itself, kept with their account across sessions.

The language, the theme, whether the screen stays awake during a game, the house
rules of the last game they started (offered when they start the next one), the
group they last chose to work in (a new session on any device opens in it), and the period
they last tapped on Stats or History (this season, last season, all games). A person who
never chose anything gets :data:`DEFAULTS`; nothing is stored until they save or start
a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from dutch_app.services._access import acting_user, membership
from dutch_app.services.errors import ValidationError
from dutch_app.services.unit_of_work import writes
from dutch_app.storage.models import Membership, UserPreferences, utcnow
from dutch_core import HouseRules
from dutch_core.errors import DutchError

LANGUAGE_CODES = ("en", "nl", "de", "fr")
"""The languages a person can pick; None follows the browser."""
THEMES = ("auto", "light", "dark")
"""``auto`` follows the device's light or dark setting."""
SEASON_CHOICES = ("this", "last", "all")
"""The periods Stats and History offer at one tap: this season, last season, all games."""


@dataclass(frozen=True)
class Preferences:
    """What a person chose; every field has a default for someone who chose nothing."""

    language: str | None = None
    """A code of :data:`LANGUAGE_CODES`, or None to follow the browser's language."""
    theme: str = "auto"
    """One of :data:`THEMES`."""
    keep_awake: bool = True
    """Whether the phone's screen stays on while a game is open."""
    last_rules: HouseRules | None = None
    """The house rules of the last game the person started, or None."""
    last_group_id: int | None = None
    """The group the person last chose to work in, or None (read it with
    :func:`last_group`, which checks that they are still a member)."""
    season_choice: str | None = None
    """The period of :data:`SEASON_CHOICES` the person last tapped on Stats or History, or
    None (all games)."""


DEFAULTS = Preferences()


def _rules(stored: dict[str, Any] | None) -> HouseRules | None:
    if stored is None:
        return None
    try:
        return HouseRules.from_dict(stored)
    except (DutchError, TypeError, ValueError, KeyError):
        return None  # rules of an older version that no longer make sense: offer none


def _view(row: UserPreferences | None) -> Preferences:
    if row is None:
        return DEFAULTS
    return Preferences(
        row.language,
        row.theme,
        row.keep_awake,
        _rules(row.last_rules),
        row.last_group_id,
        row.season_choice if row.season_choice in SEASON_CHOICES else None,
    )


def _row(session: Session, user_id: int) -> UserPreferences:
    row = session.get(UserPreferences, user_id)
    if row is None:
        row = UserPreferences(user_id=user_id, theme=DEFAULTS.theme, keep_awake=DEFAULTS.keep_awake)
        session.add(row)
    return row


def get_preferences(session: Session, user_id: int) -> Preferences:
    """The person's preferences (the defaults for anything never chosen)."""
    acting_user(session, user_id)
    return _view(session.get(UserPreferences, user_id))


def check_choices(language: object, theme: object, keep_awake: object) -> None:
    """Refuse a language, theme or keep-awake value the app does not offer."""
    if language is not None and language not in LANGUAGE_CODES:
        codes = ", ".join(LANGUAGE_CODES)
        raise ValidationError(
            "language", f"language must be one of {codes} (or none), not {language!r}."
        )
    if theme not in THEMES:
        raise ValidationError("theme", f"theme must be one of {', '.join(THEMES)}, not {theme!r}.")
    if not isinstance(keep_awake, bool):
        raise ValidationError("keep_awake", f"keep_awake must be yes or no, not {keep_awake!r}.")


@writes
def save_preferences(
    session: Session,
    user_id: int,
    *,
    language: str | None,
    theme: str,
    keep_awake: bool,
) -> Preferences:
    """Keep the person's language, theme and keep-awake choice (the rules stay as they were)."""
    acting_user(session, user_id)
    check_choices(language, theme, keep_awake)
    row = _row(session, user_id)
    row.language, row.theme, row.keep_awake = language, theme, keep_awake
    row.updated_at = utcnow()
    session.flush()
    return _view(row)


@writes
def remember_rules(session: Session, user_id: int, rules: HouseRules) -> None:
    """Keep ``rules`` as the person's last used house rules (inside the caller's transaction)."""
    row = _row(session, user_id)
    row.last_rules = rules.to_dict()
    row.updated_at = utcnow()
    session.flush()


@writes
def remember_group(session: Session, user_id: int, group_id: int) -> None:
    """Keep ``group_id`` as the group the person last chose (they must be a member)."""
    membership(session, user_id, group_id)
    row = _row(session, user_id)
    if row.last_group_id != group_id:
        row.last_group_id = group_id
        row.updated_at = utcnow()
        session.flush()


@writes
def remember_season_choice(session: Session, user_id: int, choice: str | None) -> Preferences:
    """Keep the period the person tapped on Stats or History (None: all games)."""
    acting_user(session, user_id)
    if choice is not None and choice not in SEASON_CHOICES:
        choices = ", ".join(SEASON_CHOICES)
        raise ValidationError(
            "season_choice", f"season_choice must be one of {choices} (or none), not {choice!r}."
        )
    row = _row(session, user_id)
    if row.season_choice != choice:
        row.season_choice = choice
        row.updated_at = utcnow()
        session.flush()
    return _view(row)


def last_group(session: Session, user_id: int) -> int | None:
    """The group the person last chose, while they are still a member of it; else None."""
    acting_user(session, user_id)
    row = session.get(UserPreferences, user_id)
    if row is None or row.last_group_id is None:
        return None
    found = session.get(Membership, (row.last_group_id, user_id))
    return None if found is None else row.last_group_id
