"""The Play page's round entry, drawn in the browser by one element (``play_entry.js``).

At the table a round is typed on a phone while the cards are counted out loud, and the
next round should be ready the moment Save is tapped. The entry is one element whose
fields the browser owns: what is typed stays there, and the server never writes into it.

A round is stored one way: the element sends it to the round route
(:mod:`dutch_app.web.round_route`) and draws the answer itself (the next round's form,
the problems by field, or what another phone did). The page only draws the element with
the game as it stands (its version, next round number and dealer, who saved the latest
rounds, whether it ended) and answers two things the element sends, each a trigger value:

- ``draft``, after a short pause in typing: the page keeps it (so the entry survives the
  element being drawn anew, as when the page is left and opened again) and answers with
  the preview, the penalty-card count and the entry's problems as they stand;
- ``stored``: the route stored a round from this entry: the page forgets the entry it
  kept and, running again, draws the standings.

Whatever the browser sends is read as untrusted input (:func:`read_entry`): an entry of
the wrong shape is dropped, texts are cut to a length no hand needs, and a caller or kind
of call that is not on offer counts as not chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from dutch_app.i18n import LANGUAGES, N_, _, active_language, localized
from dutch_app.round_payload import (
    NO_CALLER,
    Draft,
    caller_options,
    check_draft,
    entry_id,
    number_of,
    problems_data,
    read_entry,
)
from dutch_app.ui.card_pad import CARD_KEYS
from dutch_app.ui.context import require_account
from dutch_app.ui.live import member_name, tab_name
from dutch_app.ui.round_form import CALL_LABELS, HAND_HINT, no_caller_label
from dutch_app.ui.round_preview import preview_table
from dutch_app.ui.widgets import kept_height
from dutch_app.web.round_route import round_route_path
from dutch_core.entry import preview_round
from dutch_core.game import GameStatus
from dutch_core.rules import HouseRules
from dutch_core.scoring import penalty_cards_text

FORM = "play_round"
"""The entry's name: its parts stand in boxes named ``play_round_hand_0`` and so on."""
ELEMENT_KEY = f"{FORM}_element"
ROOM_KEY = f"{FORM}_room"  # the empty block beside it that keeps its height (play_entry.css)
KEPT_KEY = f"{FORM}_kept"  # the entry as last sent (a Kept)
STORED_KEY = f"{FORM}_stored"  # (game id, round number): the route stored it from this tab
DONE_KEY = f"{FORM}_done"  # the ids of the entries stored from this tab lately
DONE_KEPT = 20  # how many such ids are kept (a late draft comes seconds after, not rounds)

DEAL_HELP = N_("The deal moves one seat on, clockwise, every round.")

ELEMENT_NAME = "dutch_round_entry"
"""The element's name, as the page's protocol messages carry it."""

_element = st.components.v2.component(
    ELEMENT_NAME,
    js=Path(__file__).with_name("play_entry.js").read_text(encoding="utf-8"),
    css=Path(__file__).with_name("play_entry.css").read_text(encoding="utf-8"),
    isolate_styles=False,  # in the page's own DOM: its styles, scripts and tests reach it
)


@dataclass(frozen=True)
class Kept:
    """An entry the element sent for the preview: for which game and line-up, its id, the
    round it is for, the number of the element's message, and the entry itself."""

    game_id: int
    players: tuple[str, ...]
    id: str
    basis: int
    seq: int
    draft: Draft


def kept_entry(game_id: int, players: Sequence[str]) -> Kept | None:
    """The entry the element last sent for this game and line-up (None: none)."""
    kept = st.session_state.get(KEPT_KEY)
    if isinstance(kept, Kept) and (kept.game_id, kept.players) == (game_id, tuple(players)):
        return kept
    return None


def keep_draft(game_id: int, players: Sequence[str], rules: HouseRules) -> None:
    """The ``draft`` callback: keep what the element sent, if it is an entry of this game."""
    value = sent("draft")
    draft = read_entry(value, players, caller_options(players, rules))
    ident, basis = entry_id(value), number_of(value, "basis")
    if draft is None or ident is None or basis is None:
        return
    if ident in st.session_state.get(DONE_KEY, ()):
        return  # sent before the entry was stored, and arrived after: it is not an entry now
    seq = number_of(value, "seq") or 0
    kept = kept_entry(game_id, players)
    if kept is not None and kept.id == ident and kept.seq > seq:
        return  # an older message of the same entry, overtaken
    st.session_state[KEPT_KEY] = Kept(game_id, tuple(players), ident, basis, seq, draft)


def forget_stored(game_id: int) -> None:
    """The ``stored`` callback: the entry the page kept was stored, so it is not kept."""
    value = sent("stored")
    ident = entry_id(value)
    if ident is None:
        return
    st.session_state[DONE_KEY] = (*st.session_state.get(DONE_KEY, ())[-DONE_KEPT + 1 :], ident)
    kept = st.session_state.get(KEPT_KEY)
    if isinstance(kept, Kept) and kept.id == ident:
        del st.session_state[KEPT_KEY]
    number = number_of(value, "number")
    if number is not None:
        st.session_state[STORED_KEY] = (game_id, number)


def stored_here(game_id: int) -> int | None:
    """The round the route just stored from this tab's entry, once (None: none)."""
    stored = st.session_state.pop(STORED_KEY, None)
    return stored[1] if stored is not None and stored[0] == game_id else None


def sent(event: str) -> object:
    """The value the element sent with ``event`` in this run (None if it sent none)."""
    state = st.session_state.get(ELEMENT_KEY)
    return None if state is None else getattr(state, event, None)


def _checked(kept: Kept | None, game, players: list[str]) -> dict[str, Any] | None:
    """The page's word on the kept entry: its preview, penalty count and problems."""
    if kept is None:
        return None
    rules = game.rules
    fields, _check, errors = check_draft(kept.draft, players, rules)
    caller, call_type = fields.caller, fields.call_type
    preview = preview_round(players, fields.hand_texts, caller, call_type, rules)
    due = preview.penalty_cards_due if caller is not None else 0
    table = preview_table(
        preview,
        players,
        fields.hand_texts,
        kept.draft.penalty,
        caller,
        call_type,
        rules,
        game.totals,
        name=lambda name: name or "",
    )
    return {
        "id": kept.id,
        "seq": kept.seq,
        "due": due or 0,
        "penaltyLabel": _penalty_label(caller, due) if due else "",
        "penaltyTarget": _("Penalty ({due})").format(due=due) if due else "",
        "preview": None
        if table is None
        else {"sentence": table.sentence, "columns": table.columns, "rows": table.rows},
        "problems": problems_data(errors, players, kept.draft.caller is not None),
    }


def play_entry(game, group, undone_here: bool = False) -> None:
    """Draw the entry of ``game`` (a game view) in ``group``, for the game's next round
    (``undone_here``: this tab just took a round back, and a typed entry follows)."""
    players = [player.name for player in game.players]
    rules = game.rules
    kept = kept_entry(game.id, players)
    language = active_language()
    data: dict[str, Any] = {
        "form": FORM,
        "account": require_account().user_id,  # the phone's outbox is kept per account
        "game": game.id,
        "version": game.version,
        "number": game.rounds_played + 1,
        "dealer": game.dealer,
        "ended": game.status is GameStatus.ENDED,
        "here": undone_here,
        "savers": {
            round_.number: member_name(group, round_.entered_by) for round_ in game.rounds[-3:]
        },
        "route": round_route_path(st.get_option("server.baseUrlPath")),
        "tab": tab_name(),
        "lang": language if language in LANGUAGES else None,
        "players": players,
        "callers": [
            [option, no_caller_label(players) if option == NO_CALLER else option]
            for option in caller_options(players, rules)
        ],
        "noCaller": NO_CALLER,
        "calls": [[call.value, _(CALL_LABELS[call])] for call in CALL_LABELS],
        "texts": _texts(),
        "pad": _pad(rules),
        "kept": None
        if kept is None
        else {"id": kept.id, "basis": kept.basis, **kept.draft.as_data()},
        "checked": _checked(kept, game, players),
    }
    with kept_height(_reserved_height(len(players)), key=ROOM_KEY):
        _element(
            key=ELEMENT_KEY,
            data=data,
            on_draft_change=lambda: keep_draft(game.id, players, rules),
            on_stored_change=lambda: forget_stored(game.id),
        )


def _reserved_height(players: int) -> int:
    """The room in pixels the entry takes once drawn, kept for it from the start: the
    element draws itself a moment after the page has placed what follows it (on a phone,
    the standings), which would otherwise jump down by the entry's height.

    A lower bound of the drawn height, so that no gap is left under it: the heading, the
    switch, the choices and Save, and one row of hand fields per player (two players a row
    from four players on, as ``play_entry.css`` lays them out).
    """
    rows = players if players <= 3 else (players + 1) // 2
    return round((19 + 4.75 * rows) * 16)  # rem, of the page's 16 px


def _penalty_label(caller: str | None, due: int) -> str:
    return _("{caller} draws {cards}: enter them").format(
        caller=caller or "", cards=localized(penalty_cards_text(due))
    )


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
        "savedBy": _("{name} just saved round {number}."),
        "savedElsewhere": _("Round {number} was just saved on another phone."),
        "savedMany": _("Rounds {first} to {last} were just saved on other phones."),
        "takenBack": _("Round {number} was just taken back on another phone."),
        "saveYours": _("Save yours as round {number}?"),
        "saveAs": _("Save it as round {number}"),
        "discard": _("Discard it"),
        "ended": _("The game has ended."),
        "reopenAndSave": _("Reopen the game and save this round"),
        "queued": _(
            "No connection: round {number} is kept on this phone and will be sent when the "
            "connection is back."
        ),
        "goOn": _("Enter round {number}"),
        "offline": _("Offline"),
        "waitingOne": _("1 round is kept on this phone, to be sent when the connection is back."),
        "waitingMany": _(
            "{count} rounds are kept on this phone, to be sent when the connection is back."
        ),
        "sending": _("Sending the rounds kept on this phone…"),
        "sent": _("Round {number} sent."),
        "keptRound": _("Round {number}, kept on this phone, was not saved:"),
        "edit": _("Fix it"),
        "signedOut": _("You are signed out: sign in again to save this round."),
        "notSaved": _("This round could not be saved. Reload the page and try again."),
    }


def _pad(rules: HouseRules) -> dict[str, list]:
    cards = [[token, _(name)] for token, name in CARD_KEYS]
    if rules.jokers:
        cards.append(["JK", _("Joker")])
    digits = [str(n) for n in (*range(1, 10), 0)]
    if rules.deck_min_total() < 0:
        digits.append("-")
    return {"cards": cards, "digits": digits}
