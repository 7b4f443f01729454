"""The round-entry form shared by the calculator and the Play page.

One ``st.form``: a text field per player (cards such as ``7 KH Q``, or a total),
who ended the round and how, and the penalty cards. Submitting checks every field
with :func:`dutch_core.entry.check_entry`; problems appear under the field they
concern and nothing is kept until the whole round is right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from dutch_app.i18n import N_, _, localized
from dutch_app.ui.labels import CALL_TYPE_LABELS
from dutch_app.ui.text import md
from dutch_core.entry import CALLER, PENALTY, ROUND, EntryCheck, check_entry
from dutch_core.round_input import CallType
from dutch_core.rules import HouseRules

NOBODY = N_("Nobody (the deck ran out)")
# The caller box's value for "nobody called": no player's name can hold a control character,
# so a player who happens to be called "Nobody (the deck ran out)" is still a caller.
NO_CALLER = "\x00no caller"
CALL_LABELS = {
    CallType.DUTCH: CALL_TYPE_LABELS[CallType.DUTCH],
    CallType.AUTO_DUTCH: N_("Auto Dutch (no cards left)"),
}
"""The call choices of the form (Auto Dutch with what it means; translate with ``_``)."""


@dataclass(frozen=True)
class RoundFields:
    """The raw text and choices of one submitted round form."""

    hand_texts: dict[str, str]
    caller: str | None
    call_type: CallType | None
    penalty_text: str


def _caller_options(players: Sequence[str], rules: HouseRules) -> list[str]:
    options = list(players)
    if rules.allow_no_caller:
        options.append(NO_CALLER)
    return options


def _no_caller_label(players: Sequence[str]) -> str:
    """How "nobody called" is shown: never the same as a player's name, since the
    browser hands the choice back by its label."""
    label = _(NOBODY)
    while label in players:
        label = _("{label} (no caller)").format(label=label)
    return label


def fill_round_form(key: str, players: Sequence[str], fields: RoundFields | None) -> None:
    """Put these values (or empty fields when None) into the form, before it is drawn.

    Values are set rather than widget keys deleted: only a set value reaches the
    browser, a deleted key leaves the old text on screen.
    """
    for seat, player in enumerate(players):
        st.session_state[f"{key}_hand_{seat}"] = fields.hand_texts.get(player, "") if fields else ""
    st.session_state[f"{key}_penalty"] = fields.penalty_text if fields else ""
    if fields is not None:
        st.session_state[f"{key}_caller"] = fields.caller if fields.caller else NO_CALLER
        st.session_state[f"{key}_call_type"] = fields.call_type or CallType.DUTCH
    st.session_state[f"{key}_players"] = tuple(players)
    st.session_state.pop(f"{key}_errors", None)


def clear_round_form(key: str) -> None:
    """Empty the form's fields on its next run (after a round was stored)."""
    st.session_state[f"{key}_clear"] = True


def _prepare(
    key: str, players: Sequence[str], options: list[str], initial: RoundFields | None
) -> bool:
    """Empty the form when asked to or when the players changed; seed it the first time.

    Whether it was emptied because a round was just stored (see :func:`clear_round_form`).
    """
    cleared = st.session_state.pop(f"{key}_clear", False)
    if cleared or st.session_state.get(f"{key}_players") != tuple(players):
        fill_round_form(key, players, None if cleared else initial)
    if st.session_state.get(f"{key}_caller") not in options:
        st.session_state[f"{key}_caller"] = options[0]
    if st.session_state.get(f"{key}_call_type") not in CALL_LABELS:
        st.session_state[f"{key}_call_type"] = CallType.DUTCH
    return cleared


def round_form(
    key: str,
    players: Sequence[str],
    rules: HouseRules,
    submit_label: str | None = None,
    initial: RoundFields | None = None,
) -> tuple[RoundFields, EntryCheck] | None:
    """Show the form; return the fields and their good check once a valid round is submitted.

    A submitted round with problems reruns the page so that each message shows
    under its field, and returns nothing. ``key`` prefixes every widget key
    (``play_round``, ``calc_round``), so tests can drive the form and two forms
    never clash. ``initial`` fills a fresh form (see also :func:`fill_round_form`).
    """
    submit_label = submit_label or _("Score the round")
    options = _caller_options(players, rules)
    cleared = _prepare(key, players, options, initial)
    errors: dict[str, str] = st.session_state.get(f"{key}_errors", {})
    with st.form(key=f"{key}_form", clear_on_submit=False, enter_to_submit=True):
        hand_texts: dict[str, str] = {}
        per_row = 2 if len(players) > 3 else 1
        for start in range(0, len(players), per_row):
            # One row of columns at a time, so a phone stacks the fields in seat order.
            row = st.columns(per_row)
            for seat in range(start, min(start + per_row, len(players))):
                player = players[seat]
                with row[seat - start]:
                    hand_texts[player] = st.text_input(
                        md(player),
                        key=f"{key}_hand_{seat}",
                        placeholder=_("cards like 7 KH Q, or a total like 23"),
                    )
                    if player in errors:
                        st.error(md(localized(errors[player])))
        nobody = _no_caller_label(players)
        caller_choice = st.selectbox(
            _("Who ended the round?"),
            options,
            format_func=lambda option: nobody if option == NO_CALLER else option,
            key=f"{key}_caller",
        )
        call_choice = st.radio(
            _("How?"),
            list(CALL_LABELS),
            format_func={c: _(label) for c, label in CALL_LABELS.items()}.__getitem__,
            horizontal=True,
            key=f"{key}_call_type",
        )
        if CALLER in errors:
            st.error(md(localized(errors[CALLER])))
        penalty_text = st.text_input(
            _("Penalty cards the caller drew (only when the call was tied or beaten)"),
            key=f"{key}_penalty",
            placeholder=_("e.g. 4S KD, or their total"),
        )
        if PENALTY in errors:
            st.error(md(localized(errors[PENALTY])))
        if ROUND in errors:
            st.error(md(localized(errors[ROUND])))
        submitted = st.form_submit_button(submit_label, type="primary")
    if not submitted or cleared:
        # A submission in the run that empties the form after a stored round is a second
        # tap on the same Save: that round is stored already.
        return None
    caller = None if caller_choice == NO_CALLER else caller_choice
    fields = RoundFields(
        hand_texts=hand_texts,
        caller=caller,
        call_type=CallType(call_choice) if caller is not None else None,
        penalty_text=penalty_text,
    )
    check = check_entry(players, hand_texts, fields.caller, fields.call_type, penalty_text, rules)
    st.session_state[f"{key}_errors"] = dict(check.errors)
    if not check.ok:
        st.rerun()
    return fields, check


def set_round_errors(key: str, errors: dict[str, str]) -> None:
    """Show messages from a later step (e.g. storage) under the form's fields, then rerun."""
    st.session_state[f"{key}_errors"] = errors
    st.rerun()
