"""The signed-in person's preferences in the UI: read once a run of the page (so a choice
made on another device shows at the next run), shown on the Account page, and applied to
every page (the theme and the language)."""

from __future__ import annotations

from html import escape

import streamlit as st

from dutch_app.i18n import N_
from dutch_app.services import preferences
from dutch_app.services.preferences import DEFAULTS, Preferences
from dutch_app.ui.context import call, current_account
from dutch_app.web.assets import HEAD_SCRIPT, asset_path, bar_colours, head_script_src

PREFERENCES_KEY = "my_preferences"
THEME_LABELS = {"auto": N_("Like my device"), "light": N_("Light"), "dark": N_("Dark")}
# What Streamlit's own theme menu calls each choice (see dutch_app/web/static/app-head.js).
STREAMLIT_THEME_NAMES = {"auto": "System", "light": "Light", "dark": "Dark"}


def my_preferences() -> Preferences:
    """The signed-in person's preferences (the defaults before sign-in), read once a run
    (one query by primary key), so a choice made on another device shows at the next run."""
    if current_account() is None:
        return DEFAULTS
    kept = st.session_state.get(PREFERENCES_KEY)
    if kept is None:
        kept = call(preferences.get_preferences)
        st.session_state[PREFERENCES_KEY] = kept
    return kept


def save_my_preferences(*, language: str | None, theme: str, keep_awake: bool) -> Preferences:
    """Store the choices with the account and use them from now on in this session."""
    saved = call(
        preferences.save_preferences, language=language, theme=theme, keep_awake=keep_awake
    )
    st.session_state[PREFERENCES_KEY] = saved
    return saved


def read_again_next_run() -> None:
    """The next run reads the preferences afresh (see :func:`my_preferences`)."""
    st.session_state.pop(PREFERENCES_KEY, None)


def page_head(theme: str | None) -> None:
    """The app's own script: home-screen links and the bar colours in the page head, and
    ``theme`` when given."""
    base_url_path = st.get_option("server.baseUrlPath")
    src = head_script_src(base_url_path)
    base = asset_path(HEAD_SCRIPT, base_url_path).removesuffix(f"/_dutch/{HEAD_SCRIPT}")
    colours = bar_colours()
    chosen = f' data-theme="{STREAMLIT_THEME_NAMES[theme]}"' if theme else ""
    st.html(
        f'<script src="{escape(src)}" data-base="{escape(base)}"'
        f' data-light-colour="{escape(colours["light"])}"'
        f' data-dark-colour="{escape(colours["dark"])}"{chosen}></script>',
        unsafe_allow_javascript=True,
    )
