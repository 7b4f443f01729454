"""The Account page's preferences: language, theme and the screen staying awake."""

from __future__ import annotations

import streamlit as st

from dutch_app.i18n import LANGUAGES, N_, _
from dutch_app.ui.flash import flash, show_flash
from dutch_app.ui.guard import guarded
from dutch_app.ui.preferences import THEME_LABELS, my_preferences, save_my_preferences
from dutch_app.ui.widgets import labelled_choice

FOLLOW_BROWSER = N_("Like my browser")


def preferences_section() -> None:
    """A form with the person's preferences, kept with the account on every device."""
    st.subheader(_("Preferences"))
    show_flash("account_preferences")
    st.caption(_("Kept with your account, so every phone and computer you sign in on uses them."))
    current = my_preferences()
    languages: list[str | None] = [None, *LANGUAGES]
    with st.form("account_preferences_form"):
        language = st.selectbox(
            _("Language"),
            languages,
            index=languages.index(current.language) if current.language in languages else 0,
            format_func=lambda code: _(FOLLOW_BROWSER) if code is None else LANGUAGES[code],
            key="account_language",
        )
        theme = labelled_choice(
            st.radio, _("Theme"), THEME_LABELS, current.theme, horizontal=True, key="account_theme"
        )
        keep_awake = st.toggle(
            _("Keep the screen on while a game is open"),
            value=current.keep_awake,
            key="account_keep_awake",
        )
        submitted = st.form_submit_button(_("Save the preferences"))
    if current.last_rules is not None:
        st.caption(_("Your last game's house rules are offered first when you start a new game."))
    if submitted:
        with guarded():
            save_my_preferences(language=language, theme=theme, keep_awake=keep_awake)
            flash(_("Your preferences are saved."), "account_preferences")
