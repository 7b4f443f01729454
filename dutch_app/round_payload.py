"""A round entry as the Play page's browser element sends it, read as untrusted input.

The element (``dutch_app/ui/play_entry.js``) sends the whole entry, as JSON, to the page
(a trigger value) and to the app's round route (``dutch_app/web/round_route.py``). Both
read it here: an entry of the wrong shape is refused whole, a text longer than any hand
needs is cut (the hand's own check then says what is wrong with it), and a caller or
kind of call that is not on offer counts as not chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dutch_core.entry import EntryCheck, check_form
from dutch_core.round_input import CallType
from dutch_core.rules import HouseRules

NO_CALLER = "\x00no caller"
"""The caller choice "nobody called": no player's name can hold a control character, so
a player who happens to be called "Nobody (the deck ran out)" is still a caller."""
CALL_VALUES = frozenset(call.value for call in CallType)
MAX_TEXT = 200
"""The longest text kept of a field (a hand of every card in two decks is shorter)."""
LARGEST_NUMBER = 2**31 - 1


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


def read_entry(
    value: object, players: Sequence[str], callers: Sequence[str]
) -> tuple[int, Draft] | None:
    """The entry number and the entry sent, or None when it is not of the element's shape.

    >>> read_entry({"entry": 2, "hands": ["3", "9"], "caller": "A", "call": "dutch"},
    ...            ["A", "B"], ["A", "B"])
    (2, Draft(hands=('3', '9'), caller='A', call='dutch', penalty=''))
    >>> read_entry({"entry": 2, "hands": ["3"]}, ["A", "B"], ["A", "B"]) is None
    True
    """
    if not isinstance(value, Mapping):
        return None
    entry = _number(value.get("entry"))
    hands = value.get("hands")
    if entry is None or not isinstance(hands, list) or len(hands) != len(players):
        return None
    texts = [_text(hand) for hand in hands]
    penalty = _text(value.get("penalty", ""))
    if penalty is None or any(text is None for text in texts):
        return None
    caller = value.get("caller")
    call = value.get("call")
    return entry, Draft(
        tuple(text or "" for text in texts),
        caller if isinstance(caller, str) and caller in callers else None,
        call if isinstance(call, str) and call in CALL_VALUES else None,
        penalty,
    )


def number_of(value: object, name: str) -> int | None:
    """A whole number the element sent under ``name`` (None when missing or not one)."""
    return _number(value.get(name)) if isinstance(value, Mapping) else None


@dataclass(frozen=True)
class ChosenRound:
    """A complete entry: the hands by player, the caller (None: nobody called), the kind
    of call, the penalty text that counts, and the check of it all."""

    hands: dict[str, str]
    caller: str | None
    call_type: CallType | None
    penalty: str
    check: EntryCheck


def chosen_round(entry: Draft, players: Sequence[str], rules: HouseRules) -> ChosenRound | None:
    """The entry as a round to store, or None while its caller or kind of call is not
    chosen (the page then says which)."""
    if entry.caller is None:
        return None
    caller = None if entry.caller == NO_CALLER else entry.caller
    if caller is not None and entry.call is None:
        return None
    call_type = CallType(entry.call) if caller is not None and entry.call else None
    hands = dict(zip(players, entry.hands, strict=True))
    check = check_form(players, hands, caller, call_type, entry.penalty, rules)
    penalty = entry.penalty if check.penalty_cards_due else ""
    return ChosenRound(hands, caller, call_type, penalty, check)
