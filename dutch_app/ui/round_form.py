"""The round entry of the History page's corrections and the calculator, made of Streamlit's
widgets (the Play page's entry is drawn in the browser: :mod:`dutch_app.ui.play_entry`).

A text field per player (cards such as ``7 KH Q``, or a total), an optional card pad
that writes into the same fields, who ended the round and how (tap targets that start
unchosen every round), a live preview of what the round adds up to, the penalty-card
field when (and only when) cards are due, and Save. There is no ``st.form``: the Enter
key commits a field and never saves, and the preview follows every field as it is
typed. Pages draw it inside an ``st.fragment``, so typing reruns only the entry.

Save checks every field with :func:`dutch_core.entry.check_entry`; a refused save lists
each problem above the Save button, with the player's name, shows it under its field
too, and brings the first faulty field into view. Nothing is kept until the whole round
is right.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from dutch_app.i18n import N_, _, localized, ngettext
from dutch_app.labels import CALL_TYPE_LABELS
from dutch_app.round_payload import NO_CALLER, RoundFields, caller_options, check_choices
from dutch_app.ui.browser import table_helper
from dutch_app.ui.card_pad import card_pad, forget_written, settle_fields
from dutch_app.ui.entry_keys import new_entry, widget_key
from dutch_app.ui.round_preview import preview_table, show_preview
from dutch_app.ui.text import md
from dutch_app.ui.widgets import shown_as
from dutch_core.entry import CALLER, PENALTY, EntryCheck, preview_round
from dutch_core.round_input import CallType
from dutch_core.rules import HouseRules
from dutch_core.scoring import penalty_cards_text

NOBODY = N_("Nobody (the deck ran out)")
CALL_LABELS = {
    CallType.DUTCH: CALL_TYPE_LABELS[CallType.DUTCH],
    CallType.AUTO_DUTCH: N_("Auto Dutch (no cards left)"),
}
"""The call choices of the form (Auto Dutch with what it means; translate with ``_``)."""
HAND_HINT = N_("cards like 7 KH Q, or a total like 23")
ENTRY_CHOICES = ("caller", "call_type", "penalty", "save")
"""The entry's widgets besides its hands (each in a container of that lasting name)."""


def no_caller_label(players: Sequence[str]) -> str:
    """How "nobody called" is shown: never the same as a player's name."""
    label = _(NOBODY)
    while label in players:
        label = _("{label} (no caller)").format(label=label)
    return label


def fill_round_form(key: str, players: Sequence[str], fields: RoundFields | None) -> None:
    """Put these values (or an empty entry when None) into the form, before it is drawn.

    It is a new entry, with widget keys of its own (see :mod:`dutch_app.ui.entry_keys`):
    what the browser still sends for the previous entry's widgets is dropped. An empty
    entry has no caller and no kind of call chosen: they are chosen afresh for every round.
    """
    seats = max(len(players), len(st.session_state.get(f"{key}_players", ())))
    new_entry(key, (*(f"hand_{seat}" for seat in range(seats)), *ENTRY_CHOICES))
    for seat, player in enumerate(players):
        text = fields.hand_texts.get(player, "") if fields else ""
        st.session_state[widget_key(key, f"hand_{seat}")] = text
    st.session_state[widget_key(key, "penalty")] = fields.penalty_text if fields else ""
    st.session_state[f"{key}_penalty_start"] = fields.penalty_text if fields else ""
    st.session_state[f"{key}_penalty_shown"] = False
    st.session_state[widget_key(key, "caller")] = (fields.caller or NO_CALLER) if fields else None
    st.session_state[widget_key(key, "call_type")] = fields.call_type if fields else None
    st.session_state[f"{key}_players"] = tuple(players)
    st.session_state[f"{key}_pad_for"] = 0
    forget_written(key)
    st.session_state.pop(f"{key}_errors", None)
    st.session_state.pop(f"{key}_refused", None)


def _prepare(
    key: str, players: Sequence[str], options: list[str], initial: RoundFields | None
) -> None:
    """Seed the form the first time, and again when the players changed."""
    if st.session_state.get(f"{key}_players") != tuple(players):
        fill_round_form(key, players, initial)
    caller, call_type = widget_key(key, "caller"), widget_key(key, "call_type")
    if st.session_state.get(caller) not in (*options, None):
        st.session_state[caller] = None
    if st.session_state.get(call_type) not in (*CALL_LABELS, None):
        st.session_state[call_type] = None


def tap_save(key: str) -> None:
    """Note a tap on Save (a button's callback): the next run checks the entry as it is."""
    st.session_state[f"{key}_tapped"] = True


def field_key(key: str, players: Sequence[str], error_field: str, caller_chosen: bool) -> str:
    """The lasting name of the field an error belongs to (to bring it into view): the
    key of the container it stands in, the same for every entry."""
    if error_field in players:
        return f"{key}_hand_{list(players).index(error_field)}"
    if error_field == CALLER:
        return f"{key}_caller" if not caller_chosen else f"{key}_call_type"
    if error_field == PENALTY:
        return f"{key}_penalty"
    return f"{key}_save"


def _penalty_text(key: str) -> str:
    """The penalty field's text, or while it is off screen the text it will appear with.

    A field that is not drawn has no value of its own: what the session holds for it then
    can be a text the browser still sends from before it was hidden (the previous round's
    penalty cards, when the run that emptied the entry was cut short by the next tap, so
    the hidden field's state was never dropped). It would appear with that text, and a
    Save before it appeared would store it.
    """
    if st.session_state.get(f"{key}_penalty_shown"):
        return st.session_state.get(widget_key(key, "penalty")) or ""
    return st.session_state.get(f"{key}_penalty_start", "")


def _show_penalty(key: str, due: bool) -> None:
    """Before the penalty field is drawn (or left out): as it appears, it gets the text
    it starts with (see :func:`_penalty_text`), never one the browser still sends."""
    if not due:
        st.session_state[f"{key}_penalty_shown"] = False
    elif not st.session_state.get(f"{key}_penalty_shown"):
        st.session_state[widget_key(key, "penalty")] = st.session_state.get(
            f"{key}_penalty_start", ""
        )


def _current(key: str, players: Sequence[str]) -> tuple[dict[str, str], str | None, object]:
    """The entry as it stands in the session (before or after its widgets are drawn)."""
    state = st.session_state
    hands = {
        player: state.get(widget_key(key, f"hand_{seat}")) or ""
        for seat, player in enumerate(players)
    }
    return hands, state.get(widget_key(key, "caller")), state.get(widget_key(key, "call_type"))


def _check(
    key: str, players: Sequence[str], rules: HouseRules
) -> tuple[RoundFields, EntryCheck, dict[str, str]]:
    """Check the entry as Save found it: the fields, their check, and every problem."""
    hand_texts, caller_choice, call_choice = _current(key, players)
    return check_choices(players, hand_texts, caller_choice, call_choice, _penalty_text(key), rules)


def _hand_fields(
    key: str, players: Sequence[str], errors: Mapping[str, str], problems, live: bool
) -> None:
    per_row = 2 if len(players) > 3 else 1
    for start in range(0, len(players), per_row):
        # One row of columns at a time, so a phone stacks the fields in seat order.
        row = st.columns(per_row)
        for seat in range(start, min(start + per_row, len(players))):
            player = players[seat]
            with row[seat - start], st.container(key=f"{key}_hand_{seat}"):
                st.text_input(
                    md(player),
                    key=widget_key(key, f"hand_{seat}"),
                    placeholder=_(HAND_HINT),
                    autocomplete="off",
                    live=live,
                )
                message = errors.get(player) or problems.get(player)
                if message:
                    st.error(md(localized(message)))


def round_form(
    key: str,
    players: Sequence[str],
    rules: HouseRules,
    submit_label: str | None = None,
    initial: RoundFields | None = None,
    live: bool = True,
) -> tuple[RoundFields, EntryCheck] | None:
    """Draw the entry; return its fields and their good check once Save is tapped on a
    complete, valid round (else None, with the problems shown).

    ``key`` prefixes every widget key (``calc_round``, ``history_edit``), so two entries
    never clash; the fields, choices and Save carry the entry's number too, inside a
    container with the lasting name (``calc_round_hand_0``, see
    :mod:`dutch_app.ui.entry_keys`). ``initial`` fills a fresh entry (see also
    :func:`fill_round_form`). ``live`` updates the preview while a field is typed in
    (after a short pause), not only when it is left; for pages drawn as a fragment.
    """
    submit_label = submit_label or _("Score the round")
    options = caller_options(players, rules)
    _prepare(key, players, options, initial)
    settle_fields(key)
    tapped = st.session_state.pop(f"{key}_tapped", False)
    submitted = None
    refused_key = f"{key}_refused"
    if tapped:
        st.session_state.pop(f"{key}_errors", None)
        fields, check, errors = _check(key, players, rules)
        st.session_state[refused_key] = bool(errors)
        st.session_state[f"{key}_refusals"] = st.session_state.get(f"{key}_refusals", 0) + 1
        if not errors:
            submitted = fields, check
    elif st.session_state.get(refused_key):
        # After a refused save the problems follow the fields as they are fixed.
        errors = _check(key, players, rules)[2]
        st.session_state[refused_key] = bool(errors)
    else:
        errors = {}
    errors = {**errors, **st.session_state.get(f"{key}_errors", {})}  # from a later step

    hand_texts, caller_choice, call_choice = _current(key, players)
    caller = None if caller_choice in (None, NO_CALLER) else caller_choice
    call_type = CallType(str(call_choice)) if caller is not None and call_choice else None
    preview = preview_round(players, hand_texts, caller, call_type, rules)
    _show_penalty(key, bool(preview.penalty_cards_due))
    _hand_fields(key, players, errors, preview.problems, live)
    if st.toggle(
        _("Card pad"), key=f"{key}_pad_on", help=_("Tap the cards instead of typing them.")
    ):
        card_pad(key, players, rules, preview.penalty_cards_due or 0, caller)
    nobody = no_caller_label(players)
    with st.container(key=f"{key}_caller"):
        caller_choice = st.pills(
            _("Who ended the round?"),
            options,
            format_func=lambda option: nobody if option == NO_CALLER else md(option),
            key=widget_key(key, "caller"),
        )
    if caller_choice != NO_CALLER:
        with st.container(key=f"{key}_call_type"):
            st.segmented_control(
                _("How?"),
                list(CALL_LABELS),
                format_func=shown_as(CALL_LABELS),
                key=widget_key(key, "call_type"),
            )
    if CALLER in errors:
        st.error(md(localized(errors[CALLER])))
    penalty_now = st.session_state.get(widget_key(key, "penalty")) or ""
    table = preview_table(
        preview, players, hand_texts, penalty_now, caller, call_type, rules, totals=None
    )
    show_preview(table, key)
    due = preview.penalty_cards_due or 0
    if due:
        with st.container(key=f"{key}_penalty"):
            st.text_input(
                _("{caller} draws {cards}: enter them").format(
                    caller=md(caller), cards=localized(penalty_cards_text(due))
                ),
                key=widget_key(key, "penalty"),
                placeholder=_("cards like 4S KD, or their total"),
                autocomplete="off",
                live=live,
            )
        st.session_state[f"{key}_penalty_shown"] = True  # drawn with its text: it is its own
        st.session_state.pop(f"{key}_penalty_start", None)  # hidden and shown again: empty
    if PENALTY in errors:
        st.error(md(localized(errors[PENALTY])))
    if errors:
        lines = "\n".join(f"- {md(localized(message))}" for message in errors.values())
        heading = _("The round was not saved. Fix {problems} first:").format(
            problems=_problems(len(errors))
        )
        st.error(f"{heading}\n\n{lines}")
    save_button(key, submit_label, tap_save, (key,))
    if tapped and errors:
        first = next(iter(errors))
        target = field_key(key, players, first, caller_choice is not None)
        table_helper(scroll_to=target, nonce=st.session_state[f"{key}_refusals"])
    return submitted


def save_button(key: str, label: str, on_click: Callable[..., None], args: tuple) -> None:
    """The entry's Save: a widget of the entry on the form (see ``entry_keys``), in a
    container with the lasting name ``<key>_save``."""
    with st.container(key=f"{key}_save"):
        st.button(label, type="primary", key=widget_key(key, "save"), on_click=on_click, args=args)


def _problems(count: int) -> str:
    return ngettext("this problem", "these {count} problems", count).format(count=count)


def set_round_errors(key: str, errors: dict[str, str]) -> None:
    """Show messages from a later step (e.g. storage) with the form's fields, then rerun."""
    st.session_state[f"{key}_errors"] = errors
    st.rerun()
