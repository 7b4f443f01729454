"""Entering rounds on a game that other phones change at the same time.

The Play page's round form is for one round number, its *basis*: the next round
when the form was last emptied. The basis stays put while other phones save
rounds, so a half-typed entry is never stored under a number it was not meant
for; the page says what happened and the person keeps the entry for the next
round or discards it. Every save names its basis (``for_round``) and the
service refuses a stale one; the refused entry is kept here with the message,
so the page can offer to save it as the next round (or reopen an ended game
and save it). Undo names the round and version on show and is refused unless
that round is still the latest.

Buttons act through callbacks whose arguments are those of the run that drew
them, and whose keys name the round they offer, so a tap on a button the page
has since replaced never acts on another round. Each of those callbacks ends by
rerunning the game's part of the page by name (:func:`game_action`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple, ParamSpec

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dutch_app.i18n import _, error_text
from dutch_app.round_payload import number_of
from dutch_app.services import games, rounds
from dutch_app.services.errors import GameEnded, ServiceError, StaleRound
from dutch_app.services.views import GroupView
from dutch_app.ui.context import call
from dutch_app.ui.entry_keys import entry_number
from dutch_app.ui.history_view import service_input
from dutch_app.ui.live import changed_here, member_name
from dutch_app.ui.play_entry import (
    FORM,
    checked_save,
    clear_entry,
    entry_saved,
    sent,
    set_entry_errors,
    stored_result,
)
from dutch_app.ui.round_form import RoundFields
from dutch_app.ui.round_view import call_summary
from dutch_app.ui.text import md
from dutch_core.entry import ROUND
from dutch_core.errors import DutchError
from dutch_core.game import GameStatus, end_reached

BASIS_KEY = "play_round_basis"  # (game id, the round number the form's entry is for)
REFUSED_KEY = "play_refused"  # a Refused save, kept with its entry
UNDO_KEY = "play_undo_refused"  # (game id, why an undo was refused)
SAVED_KEY = "play_saved"  # a message for the next run's toast
LAST_KEY = "play_last_saved"  # (game id, round number, one line about the round saved here)
JUST_KEY = "play_just_saved"  # the round just stored from this tab (its next form starts)
GAME_FRAGMENT = "play_game"  # the key of the Play page's game fragment (pages/play.py)
ENTRY_FRAGMENT = "play_entry"  # the key of its entry's fragment, inside the game's
ENTRY_GAME_KEY = "play_entry_game"  # the game as the entry last drew it
TOLD_KEY = "play_told_stored"  # (game id, round number, entry): the element stored a round
REREAD_KEY = "play_entry_reread"  # a save was tapped: the entry reads the game again

P = ParamSpec("P")


def game_action(callback: Callable[P, None]) -> Callable[P, None]:
    """A callback of a button in the game's part of the page: after it, that part reruns.

    Streamlit reruns the fragment it credits with a tap, and that is not always the
    button's own. A tap on Save while a hand field still holds text the browser has not
    sent travels with that text, and is credited to the entry's fragment: the entry
    alone would rerun, empty, under the saved round's heading, Undo and standings, until
    something else ran the page (a second or more later). So when the tap came with
    another fragment, the callback ends by naming the game's fragment to rerun instead;
    either way a tap costs one run of the game's part of the page.
    """

    @functools.wraps(callback)
    def act(*args: P.args, **kwargs: P.kwargs) -> None:
        callback(*args, **kwargs)
        if _credited_elsewhere():
            st.rerun(scope=GAME_FRAGMENT)

    return act


def _credited_elsewhere() -> bool:
    """Whether this run reruns fragments other than the game's (a full run draws it all).

    It reads Streamlit's run context (the fragments of this run, the ids behind a
    fragment's key), which is not public API: the browser tests of a save (the entry
    drawn alone, then the game) fail should that change under a new Streamlit.
    """
    return _runs_this(GAME_FRAGMENT) is False


def entry_runs_alone() -> bool:
    """Whether this run is the entry's fragment alone (not the game's, not the page's)."""
    return bool(_runs_this(ENTRY_FRAGMENT))


def _runs_this(key: str) -> bool | None:
    """Whether this fragment run includes the fragment with this key (None: a full run, or
    the fragment is not on the page)."""
    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return None
    try:
        ids = ctx.fragment_storage.resolve_target(key)
    except StreamlitAPIException:  # the fragment is not on the page any more
        return None
    return bool(set(ids) & set(ctx.fragment_ids_this_run))


class Refused(NamedTuple):
    """A save the game refused because it had moved on: what happened, and the entry."""

    game_id: int
    kind: str  # "stale" (the round number was taken), "ended" or "error"
    message: str
    fields: RoundFields
    next_number: int | None


def form_basis(game) -> int:
    """The round number the form's entry is for: the next round when the form was emptied.

    It stays put while other phones save rounds, so a half-typed entry is never
    stored under a number it was not meant for; the person moves it on.
    """
    basis = st.session_state.get(BASIS_KEY)
    if basis is None or basis[0] != game.id:
        basis = (game.id, game.rounds_played + 1)
        st.session_state[BASIS_KEY] = basis
    return basis[1]


def entry_game(game):
    """The game as the entry draws it. Drawn with the game's part of the page, the game
    that part read; drawn alone, the game as this tab last saw it, or, right after a save
    from this entry, the game read again (only its latest round: the entry shows no more
    of it). Nothing else changes the game between the page's runs: another phone's
    change, an undo and the notice's buttons all run the game's part of the page."""
    if not entry_runs_alone():
        st.session_state[ENTRY_GAME_KEY] = game
        return game
    shown = st.session_state.get(ENTRY_GAME_KEY)
    if st.session_state.pop(REREAD_KEY, False) or shown is None or shown.id != game.id:
        shown = call(games.get_game, game.id, 1)
        st.session_state[ENTRY_GAME_KEY] = shown
    return shown


def set_basis(game_id: int, number: int, clear: bool = False) -> None:
    """The form is now for round ``number``; ``clear`` empties it on the next run too."""
    st.session_state[BASIS_KEY] = (game_id, number)
    st.session_state.pop(REFUSED_KEY, None)
    if clear:
        clear_entry()


def save_entry(game, basis: int) -> None:
    """Save's callback: store the entry the element sent as round ``basis`` if it is
    complete and right.

    The tap is the entry's, so the entry's fragment reruns after it on its own: the next
    round's form is drawn at once, and the element then asks for the rest of the game
    (:func:`show_rest`). A save that ends the game reruns the game's part of the page
    instead, for the final result. A problem is left for the entry to show; a round the
    game has moved past is kept with what happened. A second tap sent before the browser
    saw the emptied form names an entry that is no longer on the form, and is dropped.
    """
    st.session_state[REREAD_KEY] = True  # stored, refused or moved on: read it again
    names = [player.name for player in game.players]
    checked = checked_save(sent("save"), game.id, names, game.rules)
    if checked is None:
        return
    fields, check = checked
    try:
        stored = call(rounds.add_round, game.id, *service_input(game, fields), for_round=basis)
    except (StaleRound, GameEnded) as error:
        refuse(game.id, error, fields)
        if entry_runs_alone():  # the game moved on: its standings too, not the entry alone
            st.rerun(scope=GAME_FRAGMENT)
        return
    except (ServiceError, DutchError) as error:
        set_entry_errors({ROUND: error_text(error)})
        return
    alone = entry_runs_alone()
    saved(game.id, stored, check.result, alone=alone)
    totals = {hand.player: hand.game_total for hand in stored.hands}
    if alone and end_reached(game.rules, stored.number, totals):
        st.rerun(scope=GAME_FRAGMENT)


@game_action
def took_stored(game, basis: int) -> None:
    """The round route stored round ``basis`` from this entry (a callback of the element,
    which shows the next round's form already): keep the element's word, and rerun the
    game's part of the page, which reads the game anyway and believes the word only when
    the round is there (:func:`note_stored`)."""
    value = sent("stored")
    if number_of(value, "number") != basis or number_of(value, "entry") != entry_number(FORM):
        return  # not the entry on this form: the game's part of the page draws what is
    st.session_state[TOLD_KEY] = (game.id, basis, value)


def note_stored(game) -> None:
    """After :func:`took_stored`, with the game as the game's part of the page read it:
    a round the element said it stored is noted as a save from this tab when the game's
    latest round is that round. The line about it says how the call went only when the
    entry the element sent scores what was stored."""
    told = st.session_state.pop(TOLD_KEY, None)
    if told is None or told[0] != game.id:
        return
    _game_id, number, value = told
    latest = game.rounds[-1] if game.rounds else None
    if latest is None or latest.number != number:
        return
    names = [player.name for player in game.players]
    result = stored_result(value, names, game.rules)
    if result is not None and result.as_dict() != {h.player: h.round_score for h in latest.hands}:
        result = None
    saved(game.id, replace(latest, game_version=game.version), result)


@game_action
def show_rest() -> None:
    """The element drew the next round's form: now the game's part of the page (a
    callback: :func:`game_action` reruns the game's fragment)."""


def saved(game_id: int, stored, result=None, alone: bool = False) -> None:
    """After a round was stored: note it in one line, empty the form and make it the next
    round's, whose first field the next run brings into view (``alone``: that run is the
    entry's alone, and the rest of the game follows it)."""
    changed_here(game_id, stored.game_version)  # the next run draws it: no live wake-up
    entry_saved(stored.number, alone)
    summary = f" {md(call_summary(result))}" if result is not None else ""
    message = _("Round {number} saved.").format(number=stored.number) + summary
    st.session_state[LAST_KEY] = (game_id, stored.number, message)
    st.session_state[JUST_KEY] = (game_id, stored.number)
    set_basis(game_id, stored.number + 1, clear=True)


def stored_here(game_id: int) -> bool:
    """Whether this tab stored a round of the game in the previous run."""
    just = st.session_state.get(JUST_KEY)
    return just is not None and just[0] == game_id


def just_saved(game_id: int) -> int | None:
    """The number of the round this tab stored in the previous run, once (else None)."""
    just = st.session_state.get(JUST_KEY)
    if just is None or just[0] != game_id:
        return None
    del st.session_state[JUST_KEY]
    return just[1]


@game_action
def store_round(game_id: int, fields: RoundFields, number: int, reopen: bool = False) -> None:
    """Save a kept entry as round ``number`` (a button's callback); reopen the game first."""
    try:
        game = call(games.get_game, game_id)
        if reopen:
            call(games.reopen_game, game_id)
        stored = call(rounds.add_round, game_id, *service_input(game, fields), for_round=number)
    except (StaleRound, GameEnded) as error:
        refuse(game_id, error, fields)
        return
    except (ServiceError, DutchError) as error:
        st.session_state[REFUSED_KEY] = Refused(game_id, "error", error_text(error), fields, None)
        return
    saved(game_id, stored)


def refuse(game_id: int, error: ServiceError, fields: RoundFields) -> None:
    """Keep a refused entry with what happened, to show with the choices it leaves."""
    kind = "ended" if isinstance(error, GameEnded) else "stale"
    number = error.next_number if isinstance(error, StaleRound) else None
    st.session_state[REFUSED_KEY] = Refused(game_id, kind, error_text(error), fields, number)


@game_action
def keep_for(game_id: int, number: int) -> None:
    """The entry on the form is for round ``number`` after all (a button's callback)."""
    set_basis(game_id, number)


@game_action
def discard(game_id: int, number: int) -> None:
    """Throw the entry away; the empty form is for round ``number`` (a button's callback)."""
    set_basis(game_id, number, clear=True)


def moved_on(game, group: GroupView, basis: int) -> str:
    """What other phones did since the form's entry was begun, in one sentence."""
    following = game.rounds_played + 1
    if basis > following:
        return _("Round {number} was just taken back on another phone.").format(number=following)
    if following - basis > 1:
        return _("Rounds {first} to {last} were just saved on other phones.").format(
            first=basis, last=following - 1
        )
    by = member_name(group, game.rounds[basis - 1].entered_by)
    if by:
        return _("Round {number} was just saved by {name} on another phone.").format(
            number=basis, name=md(by)
        )
    return _("Round {number} was just saved on another phone.").format(number=basis)


def round_notice(game, group: GroupView, basis: int) -> None:
    """Above the form: a refused save or a game that moved on, with what can be done."""
    following = game.rounds_played + 1
    refused = st.session_state.get(REFUSED_KEY)
    if refused is not None and refused.game_id != game.id:
        refused = None
    if refused is None and basis == following:
        return
    kept = _("Anything you typed is still in the form.")
    if refused is None:
        st.warning(f"{moved_on(game, group, basis)} {kept}", icon=":material/sync:")
        keep, drop = st.columns(2)
        keep.button(
            _("Keep it for round {number}").format(number=following),
            key=f"play_keep_entry_{following}",  # a stale tap never keeps it for another
            on_click=keep_for,
            args=(game.id, following),
        )
        drop.button(
            _("Discard it"), key="play_discard_entry", on_click=discard, args=(game.id, following)
        )
        return
    st.warning(f"{md(refused.message)} {kept}", icon=":material/sync_problem:")
    again, drop = st.columns(2)
    if refused.kind == "ended" and game.status is GameStatus.ENDED:
        again.button(
            _("Reopen the game and save this round"),
            key="play_reopen_and_save",
            type="primary",
            on_click=store_round,
            args=(game.id, refused.fields, following, True),
        )
    elif game.status is not GameStatus.ENDED and not game.is_over:
        again.button(
            _("Save it as round {number}").format(number=following),
            key=f"play_save_as_next_{following}",
            type="primary",
            on_click=store_round,
            args=(game.id, refused.fields, following),
        )
    drop.button(
        _("Discard it"), key="play_discard_entry", on_click=discard, args=(game.id, following)
    )


@game_action
def undo(game_id: int, round_id: int, version: int, number: int) -> None:
    """Take back round ``number`` if it is still the latest (a button's callback)."""
    try:
        call(rounds.undo_round, game_id, round_id, version)
    except ServiceError as error:
        st.session_state[UNDO_KEY] = (game_id, error_text(error))
        return
    st.session_state[SAVED_KEY] = _("Round {number} was taken back.").format(number=number)
    basis = st.session_state.get(BASIS_KEY)
    if basis == (game_id, number + 1):
        st.session_state[BASIS_KEY] = (game_id, number)


def undo_last_round(game, group: GroupView) -> None:
    """Offer every member to take back the game's latest round, saying whose it is; when
    this tab saved it, its one-line summary stands beside the button."""
    refused = st.session_state.pop(UNDO_KEY, None)
    if refused is not None and refused[0] == game.id:
        st.warning(md(refused[1]), icon=":material/undo:")
    if not game.rounds:
        return
    latest = game.rounds[-1]
    by = member_name(group, latest.entered_by)
    if by:
        label = _("Undo round {number} (saved by {name})").format(number=latest.number, name=md(by))
    else:
        label = _("Undo round {number}").format(number=latest.number)
    last = st.session_state.get(LAST_KEY)
    with st.container(horizontal=True, vertical_alignment="center", key="play_last_round"):
        if last is not None and last[:2] == (game.id, latest.number):
            st.success(last[2], icon=":material/check_circle:", width=360)
        _undo_button(game, latest, label)


def _undo_button(game, latest, label: str) -> None:
    st.button(
        label,
        # The key names the round as shown, so a tap on a button the page has since
        # replaced can never take back a different round.
        key=f"play_undo_{latest.id}_{latest.version}",
        icon=":material/undo:",
        on_click=undo,
        args=(game.id, latest.id, latest.version, latest.number),
    )
