"""The way from anywhere to a new game: the Play page's set-up, filled in, or a game
started at once with the group's members."""

from __future__ import annotations

from typing import NoReturn

import streamlit as st

from dutch_app.i18n import _
from dutch_app.services import setup
from dutch_app.services.views import GameDefaults, GroupView
from dutch_app.ui.context import call
from dutch_core import HouseRules

PLAY_GAME_KEY = "play_game_id"
"""The game the Play page shows (a game id, or absent for the newest game in progress)."""
PLAY_SETUP_KEY = "play_setting_up"
"""True while the Play page shows the set-up of a new game."""


def open_new_game() -> NoReturn:
    """Go to the Play page's set-up of a new game (filled in with `setup.game_defaults`)."""
    st.session_state[PLAY_SETUP_KEY] = True
    st.session_state.pop(PLAY_GAME_KEY, None)
    st.switch_page("pages/play.py")


def start_game_now(group: GroupView, defaults: GameDefaults) -> NoReturn:
    """Start a game with the default line-up and rules, and go to it on the Play page."""
    rules = defaults.rules or HouseRules()
    game = call(setup.start_game_with_players, group.id, list(defaults.player_ids), rules)
    st.session_state[PLAY_GAME_KEY] = game.id
    st.session_state[PLAY_SETUP_KEY] = False
    st.switch_page("pages/play.py")


def line_up(names: list[str]) -> str:
    """Names as a sentence's list.

    >>> line_up(["Olga", "Sam", "Liv"])
    'Olga, Sam and Liv'
    >>> line_up(["Olga"])
    'Olga'
    """
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])}{_(' and ')}{names[-1]}"
