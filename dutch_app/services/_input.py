"""Checks of plain input shared by services: ids, names, times, invite codes."""

from __future__ import annotations

import secrets
import unicodedata
from datetime import UTC, date, datetime, time, timedelta

from dutch_app.i18n import N_, _
from dutch_app.services.errors import ValidationError
from dutch_app.storage.models import as_utc
from dutch_app.text_input import text_problem

SMALLEST_ID, LARGEST_ID = -(2**63), 2**63 - 1
"""What an id column holds (64-bit integers on every database)."""
NO_SUCH_ID = -1
"""An id no row has: what an id too large for any column is looked up as."""


def check_id(field: str, value: object) -> int:
    """``value`` as an id, or a ValidationError naming ``field``.

    An id beyond 64 bits cannot be stored, so no row has it: it becomes
    :data:`NO_SUCH_ID`, and the lookup answers as for any other missing id.

    >>> check_id("game_id", "7")
    Traceback (most recent call last):
    dutch_app.services.errors.ValidationError: game_id must be a whole number, not '7'.
    >>> check_id("game_id", 2**64)
    -1
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(field, f"{field} must be a whole number, not {value!r}.")
    if not SMALLEST_ID <= value <= LARGEST_ID:
        return NO_SUCH_ID
    return value


def clean_text(field: str, value: object, longest: int, *, lines: bool = False) -> str:
    r"""Typed text as stored (trimmed, NFC), or a ValidationError naming ``field``.

    >>> clean_text("notes", " Cup final ", 500)
    'Cup final'
    >>> try:
    ...     clean_text("notes", "Cup\x00", 500)
    ... except ValidationError as error:
    ...     print(error)
    Notes: contains a control character (U+0000) at position 4.
    """
    if not isinstance(value, str):
        raise ValidationError(field, f"{field} must be text, not {value!r}.")
    text = value.strip()
    problem = text_problem(text, longest, lines=lines)
    if problem is not None:
        label = _field_label(field)
        raise ValidationError(field, f"{label[:1].upper()}{label[1:]}: {problem}.")
    return unicodedata.normalize("NFC", text)


FIELD_LABELS = {
    "name": N_("name"),
    "player": N_("player"),
    "notes": N_("notes"),
    "season_name": N_("season name"),
}
"""How messages name the text fields they are about (translate with ``_``)."""


def _field_label(field: str) -> str:
    label = FIELD_LABELS.get(field)
    return _(label) if label else field.replace("_", " ")


def clean_name(field: str, value: object, longest: int) -> str:
    """A name with spaces tidied; refused when empty, too long, not text, or holding what
    :func:`~dutch_app.text_input.text_problem` refuses.

    >>> clean_name("name", "  Ann   Marie ", 60)
    'Ann Marie'
    """
    if not isinstance(value, str):
        raise ValidationError(field, f"{field} must be text, not {value!r}.")
    name = " ".join(value.split())
    if not name:
        raise ValidationError(
            field, _("The {field} cannot be empty.").format(field=_field_label(field))
        )
    if len(name) > longest:
        shown = name if len(name) <= 2 * longest else name[:longest] + "…"
        raise ValidationError(
            field,
            _("The {field} {name!r} is longer than {most} characters.").format(
                field=_field_label(field), name=shown, most=longest
            ),
        )
    return clean_text(field, name, longest)


def name_key(name: str) -> str:
    """The form in which names are compared: case does not matter.

    >>> name_key("Ann") == name_key("ANN")
    True
    """
    return name.casefold()


def moment(field: str, value: object, upper: bool = False) -> datetime | None:
    """A filter bound as an aware UTC datetime: the first moment included, or with
    ``upper`` the first moment excluded (a date as upper bound includes that whole day)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return as_utc(value) + timedelta(microseconds=1) if upper else as_utc(value)
    if isinstance(value, date):
        day = value + timedelta(days=1) if upper else value
        return datetime.combine(day, time(), tzinfo=UTC)
    raise ValidationError(field, f"{field} must be a date or a datetime, not {value!r}.")


# No 0/O or 1/I: codes are read aloud and typed in.
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 8


def new_invite_code() -> str:
    """A fresh random invite code, e.g. ``'K7QXM2PD'``."""
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def normalise_invite_code(code: object) -> str:
    """An invite code as typed (any case, spaces or dashes) in its stored form.

    >>> normalise_invite_code(" k7qx-m2pd ")
    'K7QXM2PD'
    """
    if not isinstance(code, str):
        raise ValidationError("invite_code", f"invite_code must be text, not {code!r}.")
    return "".join(char for char in code.upper() if char.isalnum())
