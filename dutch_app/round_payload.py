"""A round entry as the Play page's browser element sends it, read as untrusted input,
and checked: what is wrong with it, by field, as the element shows it.

The element (``dutch_app/ui/play_entry.js``) sends the whole entry, as JSON, to the page
for its preview (a trigger value) and to the app's round route to store it
(``dutch_app/web/round_route.py``). Both read it here: an entry of the wrong shape is
refused whole, a text longer than any hand needs is cut (the hand's own check then says
what is wrong with it), and a caller or kind of call that is not on offer counts as not
chosen. The History page's corrections and the calculator check their widgets' entry
with the same :func:`check_choices`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dutch_app.i18n import _, localized, ngettext
from dutch_core.entry import CALLER, PENALTY, ROUND, EntryCheck, check_form
from dutch_core.round_input import CallType
from dutch_core.rules import HouseRules

NO_CALLER = "\x00no caller"
"""The caller choice "nobody called": no player's name can hold a control character, so
a player who happens to be called "Nobody (the deck ran out)" is still a caller."""
CALL_VALUES = frozenset(call.value for call in CallType)
MAX_TEXT = 200
"""The longest text kept of a field (a hand of every card in two decks is shorter)."""
LARGEST_NUMBER = 2**31 - 1
"""Ids and versions are INTEGER columns: nothing larger is stored."""


@dataclass(frozen=True)
class Draft:
    """An entry as the browser holds it: a text per seat, the choices as offered."""

    hands: tuple[str, ...]
    caller: str | None  # a player's name, NO_CALLER, or None (not chosen)
    call: str | None  # a CallType value, or None
    penalty: str = ""

    @classmethod
    def empty(cls, seats: int) -> Draft:
        return cls(("",) * seats, None, None)

    def as_data(self) -> dict[str, Any]:
        return {
            "hands": list(self.hands),
            "caller": self.caller,
            "call": self.call,
            "penalty": self.penalty,
        }


def _text(value: object) -> str | None:
    return value[:MAX_TEXT] if isinstance(value, str) else None


def _number(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= LARGEST_NUMBER else None


def read_entry(value: object, players: Sequence[str], callers: Sequence[str]) -> Draft | None:
    """The entry sent, or None when it is not of the element's shape.

    >>> read_entry({"hands": ["3", "9"], "caller": "A", "call": "dutch"}, ["A", "B"], ["A", "B"])
    Draft(hands=('3', '9'), caller='A', call='dutch', penalty='')
    >>> read_entry({"hands": ["3"]}, ["A", "B"], ["A", "B"]) is None
    True
    """
    if not isinstance(value, Mapping):
        return None
    hands = value.get("hands")
    if not isinstance(hands, list) or len(hands) != len(players):
        return None
    texts = [_text(hand) for hand in hands]
    penalty = _text(value.get("penalty", ""))
    if penalty is None or any(text is None for text in texts):
        return None
    caller = value.get("caller")
    call = value.get("call")
    return Draft(
        tuple(text or "" for text in texts),
        caller if isinstance(caller, str) and caller in callers else None,
        call if isinstance(call, str) and call in CALL_VALUES else None,
        penalty,
    )


def entry_id(value: object) -> str | None:
    """The id the element gave an entry (letters and digits, at most 40), else None.

    >>> entry_id({"id": "lx3k9a1b2c"}), entry_id({"id": "<b>"}), entry_id({"id": 7})
    ('lx3k9a1b2c', None, None)
    """
    sent = value.get("id") if isinstance(value, Mapping) else None
    if isinstance(sent, str) and 0 < len(sent) <= 40 and sent.isascii() and sent.isalnum():
        return sent
    return None


def number_of(value: object, name: str) -> int | None:
    """A whole number the element sent under ``name`` (None when missing or not one)."""
    return _number(value.get(name)) if isinstance(value, Mapping) else None


@dataclass(frozen=True)
class RoundFields:
    """The raw text and choices of one round entry."""

    hand_texts: dict[str, str]
    caller: str | None
    call_type: CallType | None
    penalty_text: str


def caller_options(players: Sequence[str], rules: HouseRules) -> list[str]:
    """The caller choices: the players, and "nobody called" where the rules allow it."""
    options = list(players)
    if rules.allow_no_caller:
        options.append(NO_CALLER)
    return options


def _choice_errors(caller_choice: str | None, call_choice: CallType | None) -> dict[str, str]:
    """Save is refused until the caller and the kind of call were chosen for this round."""
    if caller_choice is None:
        return {CALLER: _("Choose who ended the round.")}
    if caller_choice != NO_CALLER and call_choice is None:
        return {
            CALLER: _("Choose how {caller} ended the round: Dutch or Auto Dutch.").format(
                caller=caller_choice
            )
        }
    return {}


def _in_field_order(players: Sequence[str], errors: Mapping[str, str]) -> list[str]:
    order = [*players, CALLER, PENALTY, ROUND]
    return sorted(errors, key=lambda field: order.index(field) if field in order else len(order))


def check_choices(
    players: Sequence[str],
    hand_texts: Mapping[str, str],
    caller_choice: str | None,
    call_choice: object,
    penalty_text: str,
    rules: HouseRules,
) -> tuple[RoundFields, EntryCheck, dict[str, str]]:
    """Check an entry as Save found it (the caller's choice may be :data:`NO_CALLER`):
    its fields, their check, and every problem in the order of the fields. The penalty
    text counts only while penalty cards are due."""
    call_type = CallType(str(call_choice)) if call_choice in CALL_VALUES else None
    caller = None if caller_choice in (None, NO_CALLER) else caller_choice
    call_type = call_type if caller is not None else None
    check = check_form(players, hand_texts, caller, call_type, penalty_text, rules)
    penalty_text = penalty_text if check.penalty_cards_due else ""
    fields = RoundFields(dict(hand_texts), caller, call_type, penalty_text)
    errors = dict(check.errors)
    choice = _choice_errors(caller_choice, call_type)
    if choice:  # an unchosen caller says so, rather than what checking without one found
        errors.pop(CALLER, None)
        errors.pop(PENALTY, None)
        errors.update(choice)
    return fields, check, {field: errors[field] for field in _in_field_order(players, errors)}


def check_draft(
    entry: Draft, players: Sequence[str], rules: HouseRules
) -> tuple[RoundFields, EntryCheck, dict[str, str]]:
    """An entry's fields, their check, and every problem (keyed as ``check_entry`` keys)."""
    hands = dict(zip(players, entry.hands, strict=True))
    return check_choices(players, hands, entry.caller, entry.call, entry.penalty, rules)


def _slot(field: str, players: Sequence[str]) -> str:
    """Where the element shows a problem: under a hand, the choices or the penalty field
    (a problem of the whole round is in the list above Save only)."""
    if field in players:
        return f"hand_{list(players).index(field)}"
    return field if field in (CALLER, PENALTY) else "round"


def _field_name(field: str, players: Sequence[str], caller_chosen: bool) -> str:
    """The field to bring into view for a problem."""
    if field in players:
        return f"hand_{list(players).index(field)}"
    if field == CALLER:
        return "call_type" if caller_chosen else "caller"
    if field == PENALTY:
        return "penalty"
    return "save"


def problems_data(
    errors: Mapping[str, object], players: Sequence[str], caller_chosen: bool
) -> dict[str, Any] | None:
    """The problems of an entry as the element shows them: each under its field, all in a
    list above Save with a heading, and the first field to bring into view (None: none).
    Texts are in this run's language."""
    if not errors:
        return None
    count = len(errors)
    heading = _("The round was not saved. Fix {problems} first:").format(
        problems=ngettext("this problem", "these {count} problems", count).format(count=count)
    )
    return {
        "fields": {_slot(field, players): localized(message) for field, message in errors.items()},
        "heading": heading,
        "lines": [localized(message) for message in errors.values()],
        "first": _field_name(next(iter(errors)), players, caller_chosen),
    }
