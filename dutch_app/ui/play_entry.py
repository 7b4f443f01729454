"""The Play page's round entry, drawn in the browser by one element (``play_entry.js``).

At the table a round is typed on a phone while the cards are counted out loud, and the
next round should be ready the moment Save is tapped. Drawn as Streamlit widgets, the
entry was some twenty elements the browser drew again after every save; drawn by one
element, what is typed stays in the browser, the element empties itself as soon as the
server has stored the round (its data carries a new entry number), and the standings
are drawn again right after (the element asks for that once the next form is shown).

The element sends two things, each as a trigger value holding the whole entry and the
number of the entry it belongs to:

- ``draft``, after a short pause in typing: the server keeps it (so the entry survives
  the element being drawn anew, as when the page is left and opened again) and answers
  with the preview, the penalty-card count and, after a refused save, the problems as
  they stand;
- ``save``: checked in full, then stored in one transaction by the page's callback
  (:func:`dutch_app.ui.live_round.save_entry`), or refused with every problem listed
  above Save, named by player, the first faulty field brought into view.

Whatever the browser sends is read as untrusted input (:func:`read_entry`): an entry of
the wrong shape or for another entry number is dropped, texts are cut to a length no hand
needs, and a caller or kind of call that is not on offer counts as not chosen.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException

from dutch_app.i18n import N_, _, error_text, localized, ngettext
from dutch_app.round_payload import NO_CALLER, Draft, chosen_round, read_entry
from dutch_app.ui.card_pad import CARD_KEYS
from dutch_app.ui.entry_keys import entry_number
from dutch_app.ui.guard import unexpected_message, user_error_types
from dutch_app.ui.live import tab_name
from dutch_app.ui.round_form import (
    CALL_LABELS,
    HAND_HINT,
    RoundFields,
    caller_options,
    check_choices,
    no_caller_label,
)
from dutch_app.ui.round_preview import preview_table
from dutch_app.web.round_route import round_route_path
from dutch_core.entry import CALLER, PENALTY, ROUND, EntryCheck, preview_round
from dutch_core.rules import HouseRules
from dutch_core.scoring import penalty_cards_text

FORM = "play_round"
"""The entry's name: its parts stand in boxes named ``play_round_hand_0`` and so on."""
ELEMENT_KEY = f"{FORM}_element"
DRAFT_KEY = f"{FORM}_draft"  # (entry number, game id, players, Draft): the entry as last sent
ERRORS_KEY = f"{FORM}_errors"  # problems found by a later step (the service), by field
REFUSED_KEY = f"{FORM}_refused"  # a save was refused: its problems follow the fields
REFUSALS_KEY = f"{FORM}_refusals"  # how many saves were refused (brings the first into view)
FOCUS_KEY = f"{FORM}_focus"  # the round just stored here: its next form starts in view
SEEN_KEY = f"{FORM}_seen"  # the number of the latest entry the element sent (it counts them)
SHOWN_KEY = f"{FORM}_shown"  # the same, once the next form is drawn alone (then the game)

DEAL_HELP = N_("The deal moves one seat on, clockwise, every round.")

ELEMENT_NAME = "dutch_round_entry"
"""The element's name, as the page's protocol messages carry it."""

_element = st.components.v2.component(
    ELEMENT_NAME,
    js=Path(__file__).with_name("play_entry.js").read_text(encoding="utf-8"),
    css=Path(__file__).with_name("play_entry.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # in the page's own DOM: its styles, scripts and tests reach it
)


def _state() -> Any:
    return st.session_state


def kept_draft(game_id: int, players: Sequence[str]) -> Draft | None:
    """The entry on the form, as last sent; None when there is none for this game and
    line-up (the form was emptied, or shows another game)."""
    kept = _state().get(DRAFT_KEY)
    if kept is None or kept[:3] != (entry_number(FORM), game_id, tuple(players)):
        return None
    return kept[3]


def new_entry(game_id: int, players: Sequence[str], fill: Draft | None = None) -> Draft:
    """The form starts a new entry (empty, or holding ``fill``), which it returns: the
    element replaces what its fields hold with it, and anything still sent for the
    previous entry is dropped."""
    state = _state()
    state[f"{FORM}_entry"] = entry_number(FORM) + 1
    entry = fill or Draft.empty(len(players))
    state[DRAFT_KEY] = (entry_number(FORM), game_id, tuple(players), entry)
    for key in (ERRORS_KEY, REFUSED_KEY):
        state.pop(key, None)
    return entry


def clear_entry() -> None:
    """Empty the form: the next draw starts a new entry (after a stored or discarded round)."""
    _state().pop(DRAFT_KEY, None)


def take(
    value: object, game_id: int, players: Sequence[str], callers: Sequence[str]
) -> Draft | None:
    """Keep what the element sent, if it is for the entry on the form: the entry then."""
    read = read_entry(value, players, callers)
    if read is None or read[0] != entry_number(FORM):
        return None
    current = _state().get(DRAFT_KEY)
    if current is None or current[1:3] != (game_id, tuple(players)):
        return None
    _state()[DRAFT_KEY] = (read[0], game_id, tuple(players), read[1])
    seq = value.get("seq") if isinstance(value, Mapping) else None
    if type(seq) is int:
        _state()[SEEN_KEY] = seq
    return read[1]


def check_draft(
    entry: Draft, players: Sequence[str], rules: HouseRules
) -> tuple[RoundFields, EntryCheck, dict[str, str]]:
    """The entry's fields, their check, and every problem (keyed as ``check_entry`` keys)."""
    hands = dict(zip(players, entry.hands, strict=True))
    return check_choices(players, hands, entry.caller, entry.call, entry.penalty, rules)


def checked_save(
    value: object, game_id: int, players: Sequence[str], rules: HouseRules
) -> tuple[RoundFields, EntryCheck] | None:
    """Save's value: the fields and their good check, or None when the save is for
    another entry (dropped) or the entry has problems (kept for the element to show)."""
    callers = caller_options(players, rules)
    entry = take(value, game_id, players, callers)
    if entry is None:
        return None
    _state().pop(ERRORS_KEY, None)
    fields, check, errors = check_draft(entry, players, rules)
    if errors:
        _state()[REFUSED_KEY] = True
        _state()[REFUSALS_KEY] = _state().get(REFUSALS_KEY, 0) + 1
        return None
    return fields, check


def stored_result(value: object, players: Sequence[str], rules: HouseRules):
    """The scored round of an entry the element sent, or None when it is not a complete,
    right one."""
    read = read_entry(value, players, caller_options(players, rules))
    if read is None:
        return None
    chosen = chosen_round(read[1], players, rules)
    return None if chosen is None else chosen.check.result


def set_entry_errors(errors: Mapping[str, str]) -> None:
    """Problems a later step found (the service refused the round): shown like the
    entry's own, the first brought into view."""
    _state()[ERRORS_KEY] = dict(errors)
    _state()[REFUSALS_KEY] = _state().get(REFUSALS_KEY, 0) + 1


def entry_saved(number: int, alone: bool) -> None:
    """A round was stored from this entry: the next form starts in view; when the entry
    was drawn alone for it, the element then asks for the rest of the game."""
    _state()[FOCUS_KEY] = number
    if alone:
        _state()[SHOWN_KEY] = number


def _field_name(field: str, players: Sequence[str], caller_chosen: bool) -> str:
    if field in players:
        return f"hand_{list(players).index(field)}"
    if field == CALLER:
        return "call_type" if caller_chosen else "caller"
    if field == PENALTY:
        return "penalty"
    return "save"


def _error_slot(field: str, players: Sequence[str]) -> str:
    """Where the element shows a problem: under a hand, the choices or the penalty field
    (a problem of the whole round is in the list above Save only)."""
    if field in players:
        return f"hand_{list(players).index(field)}"
    return field if field in (CALLER, PENALTY) else "round"


def _problems(count: int) -> str:
    return ngettext("this problem", "these {count} problems", count).format(count=count)


def _plain(name: str | None) -> str:
    return name or ""


def play_entry(
    game,
    basis: int,
    on_save: Callable[[], None],
    on_stored: Callable[[], None],
    on_shown: Callable[[], None],
) -> None:
    """Draw the entry of round ``basis`` of ``game`` (a game view), under the heading of
    the game's next round. ``on_save`` stores a round the element sends (reading its
    value), ``on_stored`` takes note of one the round route stored, ``on_shown`` draws the
    rest of the game after the next form was drawn alone."""
    players = [player.name for player in game.players]
    rules = game.rules
    callers = caller_options(players, rules)
    entry = kept_draft(game.id, players)
    if entry is None:  # the form was emptied, or shows another game: a new entry
        entry = new_entry(game.id, players)
    fields, _check, errors = check_draft(entry, players, rules)
    state = _state()
    if not errors:
        state.pop(REFUSED_KEY, None)
    shown_errors = dict(errors) if state.get(REFUSED_KEY) else {}
    shown_errors.update(state.get(ERRORS_KEY, {}))
    caller = fields.caller
    call_type = fields.call_type
    preview = preview_round(players, fields.hand_texts, caller, call_type, rules)
    due = preview.penalty_cards_due if caller is not None else None
    table = preview_table(
        preview,
        players,
        fields.hand_texts,
        entry.penalty,
        caller,
        call_type,
        rules,
        game.totals,
        name=_plain,
    )
    data: dict[str, Any] = {
        "form": FORM,
        "entry": entry_number(FORM),
        "fill": entry.as_data(),
        "game": game.id,
        "basis": basis,
        "number": game.rounds_played + 1,
        "dealer": game.dealer,
        "route": round_route_path(st.get_option("server.baseUrlPath")),
        "tab": tab_name(),
        "players": players,
        "callers": [
            [option, no_caller_label(players) if option == NO_CALLER else option]
            for option in callers
        ],
        "noCaller": NO_CALLER,
        "calls": [[call.value, _(CALL_LABELS[call])] for call in CALL_LABELS],
        "texts": _texts(),
        "pad": _pad(rules),
        "due": due or 0,
        "penaltyLabel": _penalty_label(caller, due) if due else "",
        "penaltyTarget": _("Penalty ({due})").format(due=due) if due else "",
        "errors": {
            _error_slot(field, players): localized(message)
            for field, message in shown_errors.items()
        },
        "summary": _summary(shown_errors),
        "preview": None
        if table is None
        else {"sentence": table.sentence, "columns": table.columns, "rows": table.rows},
        "focus": state.pop(FOCUS_KEY, None),
        "seen": state.get(SEEN_KEY, 0),
        "shown": state.pop(SHOWN_KEY, None),
    }
    if shown_errors:
        first = next(iter(shown_errors))
        data["refusal"] = state.get(REFUSALS_KEY, 0)
        data["firstError"] = _field_name(first, players, entry.caller is not None)
    _element(
        key=ELEMENT_KEY,
        data=data,
        on_draft_change=_safely(lambda: take(sent("draft"), game.id, players, callers)),
        on_save_change=_safely(on_save),
        on_stored_change=_safely(on_stored),
        on_shown_change=_safely(on_shown),
    )


def _safely(callback: Callable[[], object]) -> Callable[[], None]:
    """The element's callback, its failures shown in the entry's list of problems: a
    message of the project's own as it is worded, anything else as an error id (logged).
    A callback runs before the page, outside the page's own guard."""

    @functools.wraps(callback)
    def run() -> None:
        try:
            callback()
        except ScriptControlException:
            raise  # Streamlit's own signals (st.rerun), not failures
        except user_error_types() as error:
            set_entry_errors({ROUND: error_text(error)})
        except Exception as error:
            set_entry_errors({ROUND: unexpected_message(error)[1]})

    return run


def sent(event: str) -> object:
    """The value the element sent with ``event`` in this run (None if it sent none)."""
    return getattr(_state()[ELEMENT_KEY], event, None)


def _penalty_label(caller: str | None, due: int) -> str:
    return _("{caller} draws {cards}: enter them").format(
        caller=caller or "", cards=localized(penalty_cards_text(due))
    )


def _summary(errors: Mapping[str, str]) -> dict[str, Any] | None:
    if not errors:
        return None
    heading = _("The round was not saved. Fix {problems} first:").format(
        problems=_problems(len(errors))
    )
    return {"heading": heading, "lines": [localized(message) for message in errors.values()]}


def _texts() -> dict[str, str]:
    return {
        "handHint": _(HAND_HINT),
        "pad": _("Card pad"),
        "padHelp": _("Tap the cards instead of typing them."),
        "caller": _("Who ended the round?"),
        "how": _("How?"),
        "penaltyHint": _("cards like 4S KD, or their total"),
        "save": _("Save the round"),
        "heading": _("Round {number}"),
        "deals": _("{dealer} deals."),
        "dealHelp": _(DEAL_HELP),
        "cardsFor": _("Cards for"),
        "cards": _("Cards"),
        "total": _("Total"),
        "removeLast": _("Remove last"),
        "next": _("Next"),
    }


def _pad(rules: HouseRules) -> dict[str, list]:
    cards = [[token, _(name)] for token, name in CARD_KEYS]
    if rules.jokers:
        cards.append(["JK", _("Joker")])
    digits = [str(n) for n in (*range(1, 10), 0)]
    if rules.deck_min_total() < 0:
        digits.append("-")
    return {"cards": cards, "digits": digits}
