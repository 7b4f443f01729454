"""A card pad: tap the cards of a hand instead of typing them.

The pad writes into the very text fields the keyboard does (a player's hand and the
penalty cards of the entry on the form), in the notation the parser reads (``Q 5 BK``),
so both ways make the same hand and either can finish what the other began. It enters
for one player at a time (chosen with a tap; "Next" moves one seat on, then to the
penalty cards when they are due). In total mode it is a number pad for a hand whose
cards were not written down.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import streamlit as st

from dutch_app.i18n import N_, _
from dutch_app.ui.entry_keys import widget_key
from dutch_app.ui.text import md
from dutch_core.rules import HouseRules

PENALTY_TARGET = -1
"""The pad's target for the caller's penalty cards (players are their seat numbers)."""
CARD_KEYS = (
    ("A", "A"),
    *((str(n), str(n)) for n in range(2, 11)),
    ("J", "J"),
    ("Q", "Q"),
    ("RK", N_("Red K")),
    ("BK", N_("Black K")),
)
_WHOLE = re.compile(r"-?[0-9]*")  # a total, or the start of one


def _field(key: str) -> str:
    target = st.session_state.get(f"{key}_pad_for", 0)  # not a widget: see _text
    return widget_key(key, "penalty" if target == PENALTY_TARGET else f"hand_{target}")


def _text(key: str, field: str) -> str:
    """The field's text as the pad should build on it.

    Taps can come faster than the page is redrawn: a second tap then arrives with the
    field as the browser last showed it, before the first tap's card. So the pad keeps
    what it wrote into each field, and a field showing one of those earlier texts is
    taken to hold the latest of them; any other text was typed, and is taken as it is.
    """
    shown = (st.session_state.get(field) or "").strip()
    written = st.session_state.get(f"{key}_pad_written", {}).get(field, [])
    return written[-1] if shown in written else shown


def _write(key: str, field: str, before: str, text: str) -> None:
    """Write ``text`` into the field, where the pad found ``before``."""
    written = st.session_state.setdefault(f"{key}_pad_written", {})
    earlier = written.get(field) or [before]  # what the field held before the first tap too
    written[field] = [*earlier[-20:], text]
    st.session_state[field] = text


def settle_fields(key: str) -> None:
    """Put back what the pad last wrote into any field that still shows an earlier text
    of the pad's (see :func:`_text`): a tap on Save, or on anything else, that arrives
    before the page was redrawn after a card tap must not lose that card. Call it before
    the entry's widgets are drawn, or from a callback."""
    for field, written in st.session_state.get(f"{key}_pad_written", {}).items():
        shown = (st.session_state.get(field) or "").strip()
        if written and shown in written and shown != written[-1]:
            st.session_state[field] = written[-1]


def forget_written(key: str) -> None:
    """A new entry starts: nothing the pad wrote before counts any more."""
    st.session_state.pop(f"{key}_pad_written", None)


def _is_total(text: str) -> bool:
    return _WHOLE.fullmatch(text.strip()) is not None


def _as_cards(tokens: list[str]) -> str:
    """Cards as the parser reads them: a single number card gets its trailing comma, so
    it is the card and not a total (as :meth:`dutch_core.hand.Hand.text` writes it)."""
    text = " ".join(tokens)
    return f"{text}," if text and _is_total(text) else text


def add_card(key: str, token: str) -> None:
    """Add a card to the hand being entered (a button's callback)."""
    field = _field(key)
    text = _text(key, field)
    # A lone number is a total, not a card: a tapped card starts the hand again.
    tokens = [] if _is_total(text) else text.rstrip(",").split()
    _write(key, field, text, _as_cards([*tokens, token]))


def add_digit(key: str, digit: str) -> None:
    """Add a digit (or the minus sign) to the total being entered (a button's callback)."""
    field = _field(key)
    text = _text(key, field)
    if not _is_total(text):
        text = ""  # cards were entered: a typed total replaces them
    if digit == "-":
        _write(key, field, text, text[1:] if text.startswith("-") else f"-{text}")
    else:
        _write(key, field, text, f"{text}{digit}")


def remove_last(key: str, total_mode: bool) -> None:
    """Take back the last card (or digit) of the hand being entered (a button's callback)."""
    field = _field(key)
    text = _text(key, field)
    if total_mode and _is_total(text):
        _write(key, field, text, text[:-1])
    else:
        _write(key, field, text, _as_cards(text.rstrip(",").split()[:-1]))


def choose_target(key: str, target: int) -> None:
    """Enter for this player (a seat) or the penalty cards (a button's callback)."""
    st.session_state[f"{key}_pad_for"] = target


def next_target(key: str, players: int, penalty_due: bool) -> None:
    """Move the pad on to the next player, then to the penalty cards (a button's callback)."""
    target = st.session_state.get(f"{key}_pad_for", 0)
    if target == PENALTY_TARGET:
        target = 0
    elif target + 1 < players:
        target += 1
    else:
        target = PENALTY_TARGET if penalty_due else 0
    st.session_state[f"{key}_pad_for"] = target


def card_pad(
    key: str, players: Sequence[str], rules: HouseRules, penalty_due: int, caller: str | None
) -> None:
    """Draw the pad for the entry with key prefix ``key``."""
    targets = list(range(len(players)))
    if penalty_due and caller is not None:
        targets.append(PENALTY_TARGET)
    if st.session_state.get(f"{key}_pad_for") not in targets:
        st.session_state[f"{key}_pad_for"] = 0

    def label(target: int) -> str:
        if target == PENALTY_TARGET:
            return _("Penalty ({due})").format(due=penalty_due)
        return md(players[target])

    with st.container(border=True, key=f"{key}_pad"):
        # Buttons rather than a choice widget: a tap is a one-off signal, so a quick card
        # tap after it can never bring back the previous player as a stale choice would.
        current = st.session_state[f"{key}_pad_for"]
        with st.container(horizontal=True, gap="small", key=f"{key}_pad_targets"):
            st.caption(_("Cards for"))
            for target in targets:
                name = "penalty" if target == PENALTY_TARGET else str(target)
                st.button(
                    label(target),
                    key=f"{key}_pad_to_{name}",
                    type="primary" if target == current else "secondary",
                    on_click=choose_target,
                    args=(key, target),
                )
        total_mode = (
            st.segmented_control(
                _("Enter"),
                ["cards", "total"],
                format_func=lambda mode: _("Cards") if mode == "cards" else _("Total"),
                key=f"{key}_pad_mode",
                default="cards",
                required=True,
                label_visibility="collapsed",
            )
            == "total"
        )
        with st.container(horizontal=True, key=f"{key}_pad_keys", gap="small"):
            if total_mode:
                digits = [str(n) for n in (*range(1, 10), 0)]
                if rules.deck_min_total() < 0:
                    digits.append("-")
                for digit in digits:
                    st.button(
                        digit, key=f"{key}_pad_digit_{digit}", on_click=add_digit, args=(key, digit)
                    )
            else:
                keys = list(CARD_KEYS)
                if rules.jokers:
                    keys.append(("JK", N_("Joker")))
                for token, name in keys:
                    st.button(
                        _(name), key=f"{key}_pad_card_{token}", on_click=add_card, args=(key, token)
                    )
            st.button(
                _("Remove last"),
                key=f"{key}_pad_remove",
                icon=":material/backspace:",
                on_click=remove_last,
                args=(key, total_mode),
            )
            st.button(
                _("Next"),
                key=f"{key}_pad_next",
                icon=":material/arrow_forward:",
                on_click=next_target,
                args=(key, len(players), bool(penalty_due and caller is not None)),
            )
