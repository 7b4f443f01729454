"""The game set-up form: who plays in which seat, and under which house rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from dutch_app.i18n import N_, _, error_text
from dutch_app.services.views import GameDefaults, PlayerView
from dutch_app.ui.text import md
from dutch_app.ui.widgets import labelled_choice, labelled_multiselect, shown_as
from dutch_core import EndCondition, EndKind, HouseRules, PenaltyMode
from dutch_core.errors import RulesError
from dutch_core.rules import JOKER_VALUES, KING_VALUES, MAX_JOKERS, PRESET_LABELS, PRESETS

END_LABELS = {
    EndKind.SCORE_LIMIT: N_("At a score limit"),
    EndKind.ROUNDS: N_("After a number of rounds"),
    EndKind.OPEN: N_("When we say so"),
}
PENALTY_LABELS = {
    PenaltyMode.CARDS: N_("Penalty cards (1 per tie, 2 per lower hand)"),
    PenaltyMode.POINTS: N_("A fixed number of points"),
}


@dataclass(frozen=True)
class GameSetup:
    """A filled-in set-up: seats (player ids, or names of new players), rules and notes."""

    seats: list[int | str]
    rules: HouseRules
    notes: str


def split_names(text: str) -> list[str]:
    """Names typed as a comma-separated list, trimmed, blanks dropped.

    >>> split_names(" Eve, ,Finn ")
    ['Eve', 'Finn']
    """
    return [name.strip() for name in text.split(",") if name.strip()]


def _end_condition(key: str, base: EndCondition) -> EndCondition:
    kind = labelled_choice(
        st.radio, _("The game ends"), END_LABELS, base.kind, horizontal=True, key=f"{key}_end_kind"
    )
    if kind is EndKind.ROUNDS:
        rounds = st.number_input(_("Rounds"), 1, 1000, base.rounds or 10, key=f"{key}_end_rounds")
        return EndCondition.after_rounds(int(rounds))
    if kind is EndKind.SCORE_LIMIT:
        limit = st.number_input(_("Score limit"), 1, 10_000, base.limit or 100, key=f"{key}_limit")
        halves = st.checkbox(
            _("Hitting the limit exactly halves your total"),
            value=base.exact_limit_halves,
            key=f"{key}_halves",
        )
        return EndCondition.score_limit(int(limit), halves)
    return EndCondition.open()


REMEMBERED = "last_used"
REMEMBERED_LABEL = N_("The rules of my last game")
LAST_GAME_LABEL = N_("The last game's rules")


def house_rules_picker(
    key: str, remembered: HouseRules | None = None, label: str = REMEMBERED_LABEL
) -> HouseRules | None:
    """A preset, adjustable in an expander; None (with a message) if the choice is invalid.

    ``remembered`` (the group's last game's rules, or those of the person's last game,
    kept with their preferences) is offered first under ``label``, and chosen to begin
    with, when given.
    """
    presets = dict(PRESETS) if remembered is None else {REMEMBERED: remembered, **PRESETS}
    preset = st.selectbox(
        _("House rules"),
        list(presets),
        format_func=shown_as({**PRESET_LABELS, REMEMBERED: label}),
        key=f"{key}_preset",
    )
    base = presets[preset]
    k = f"{key}_{preset}"  # a fresh set of widgets per preset, so each starts at its values
    with st.expander(_("Adjust these rules")):
        red_king = st.number_input(
            _("A red King counts"), *KING_VALUES, base.red_king_value, key=f"{k}_rk"
        )
        black_king = st.number_input(
            _("A black King counts"), *KING_VALUES, base.black_king_value, key=f"{k}_bk"
        )
        jokers = st.number_input(
            _("Jokers in the deck"), 0, MAX_JOKERS, base.jokers, key=f"{k}_jokers"
        )
        joker_value = st.number_input(
            _("A Joker counts"),
            *JOKER_VALUES,
            base.joker_value,
            key=f"{k}_jv",
            help=_("Many groups play Jokers below zero, at -1 or -2."),
        )
        mode = labelled_choice(
            st.radio,
            _("A caller who is not lowest pays with"),
            PENALTY_LABELS,
            base.penalty_mode,
            key=f"{k}_mode",
        )
        failed = base.failed_call_points
        bonus = base.success_bonus
        if mode is PenaltyMode.POINTS:
            failed = st.number_input(_("Points for a failed call"), 0, 100, failed, key=f"{k}_fail")
            bonus = st.number_input(
                _("Points taken off for a successful call"), 0, 100, bonus, key=f"{k}_bonus"
            )
        no_caller = st.checkbox(
            _("A round may end without a caller (the deck ran out)"),
            value=base.allow_no_caller,
            key=f"{k}_nocaller",
        )
        end = _end_condition(k, base.end)
    try:
        return HouseRules(
            red_king_value=int(red_king),
            black_king_value=int(black_king),
            jokers=int(jokers),
            joker_value=int(joker_value),
            penalty_mode=mode,
            failed_call_points=int(failed),
            success_bonus=int(bonus),
            allow_no_caller=no_caller,
            end=end,
        )
    except RulesError as error:
        st.error(_("House rules: {error}").format(error=md(error_text(error))))
        return None


def game_setup_form(
    key: str,
    roster: Sequence[PlayerView],
    remembered: HouseRules | None = None,
    defaults: GameDefaults | None = None,
) -> GameSetup | None:
    """The set-up widgets and a start button; returns the set-up when started.

    ``defaults`` fills it in: the group's last game's players and rules, or before its
    first game its members; ``remembered`` (the rules of the person's last game, kept
    with their preferences) pre-fills the rules when the group has no last game.
    """
    names = {player.id: player.name for player in roster}
    preset = [pid for pid in (defaults.player_ids if defaults else ()) if pid in names]
    # Chosen afresh whenever the line-up to start from changes (another group became
    # active, a game was started), not left as picked for another group's players.
    made_for = tuple(preset)
    if st.session_state.get(f"{key}_players_for") != made_for:
        st.session_state[f"{key}_players"] = preset
        st.session_state[f"{key}_players_for"] = made_for
    chosen = labelled_multiselect(
        _("Players, in seat order (pick them clockwise from the dealer)"),
        list(names),
        names,
        key=f"{key}_players",
        placeholder=_("Choose the group's players"),
    )
    new_names = st.text_input(
        _("New players (comma-separated)"),
        key=f"{key}_new_players",
        placeholder=_("e.g. Eve, Finn"),
        help=_("New players join the group and sit after the chosen players."),
    )
    if defaults is not None and defaults.rules is not None:
        rules = house_rules_picker(f"{key}_rules", defaults.rules, LAST_GAME_LABEL)
    else:
        rules = house_rules_picker(f"{key}_rules", remembered)
    notes = st.text_input(_("Notes (optional)"), key=f"{key}_notes", max_chars=500)
    if not st.button(_("Start the game"), type="primary", key=f"{key}_start"):
        return None
    if rules is None:
        return None
    return GameSetup([*chosen, *split_names(new_names)], rules, notes)
