"""The way from anywhere to a new game: the Play page's set-up, filled in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

import streamlit as st

from dutch_app.i18n import _

PLAY_GAME_KEY = "play_game_id"
"""The game the Play page shows (a game id, or absent for the newest game in progress)."""
PLAY_SETUP_KEY = "play_setting_up"
"""True while the Play page shows the set-up of a new game."""
PLAY_SETUP_CHOSEN_FOR_KEY = "play_setup_players_for"
"""The line-up the set-up's players were last filled in from (see `game_setup_form`)."""


@dataclass(frozen=True)
class GameChoice:
    """What the Play page shows at the top: the game, and the picker of games in progress."""

    shown: int | None
    """The game on show unless the picker says otherwise (None: no game, so the set-up)."""
    offered: tuple[int, ...]
    """The games in progress the picker offers, newest first; empty: no picker."""
    preselected: int | None
    """The offered game the picker starts at; None: the picker starts with none chosen."""
    picker_key: str
    """The picker's widget key."""

    def after_pick(self, picked: int | None) -> int | None:
        """The game on show once the picker has `picked` (None: nothing picked)."""
        return self.shown if picked is None else picked


def choose_game(in_progress: Sequence[int], chosen: int | None, seen: int | None) -> GameChoice:
    """The game the Play page shows, given the group's games in progress (newest first),
    the game this tab chose before (`chosen`) and the game it last showed (`seen`).

    The game chosen before stays on show; with none, the newest game in progress. A game
    this tab shows that is no longer in progress (it ended here or on another phone) stays
    on show until another is picked: its result, or the form still open on it, is not
    swapped for another game by a run of the page. The picker then offers the games in
    progress with none of them chosen, under a key of its own (a widget keeps a position in
    its list, and the list has lost a game, so the old position points at another one).

    >>> choose_game([7, 5], None, None)
    GameChoice(shown=None, offered=(7, 5), preselected=7, picker_key='play_choose_game')
    >>> choose_game([5], 7, 7)
    GameChoice(shown=7, offered=(5,), preselected=None, picker_key='play_choose_game_after_7')
    >>> choose_game([], None, None)
    GameChoice(shown=None, offered=(), preselected=None, picker_key='play_choose_game')
    """
    ids = tuple(in_progress)
    left_the_list = chosen is not None and chosen not in ids and seen == chosen
    key = f"play_choose_game_after_{chosen}" if left_the_list else "play_choose_game"
    if len(ids) > 1 or (left_the_list and ids):
        preselected = chosen if chosen in ids else None if left_the_list else ids[0]
        return GameChoice(chosen, ids, preselected, key)
    if chosen is None and ids:
        chosen = ids[0]
    return GameChoice(chosen, (), None, key)


def open_new_game() -> NoReturn:
    """Go to the Play page's set-up of a new game, filled in afresh with
    `setup.game_defaults` (not with a line-up picked there before)."""
    st.session_state[PLAY_SETUP_KEY] = True
    st.session_state.pop(PLAY_GAME_KEY, None)
    st.session_state.pop(PLAY_SETUP_CHOSEN_FOR_KEY, None)
    st.switch_page("pages/play.py")


def line_up(names: list[str]) -> str:
    """Names as a sentence's list.

    >>> line_up(["Olga", "Sam", "Liv"])
    'Olga, Sam and Liv'
    >>> line_up(["Olga"])
    'Olga'
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])}{_(' and ')}{names[-1]}"
