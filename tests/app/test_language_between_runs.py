"""What runs without the page's script picking the language: a fragment's rerun, and a
callback before the script. Both take the session's last language and the browser's region
with it, so a Belgian phone keeps writing numbers and dates the Belgian way after a save
reruns only the game's part of Play.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script() -> None:
    import contextvars

    import streamlit as st

    from dutch_app import i18n

    i18n.use_language(browser=st.session_state.get("browser", "nl-BE"))

    def rerun_without_the_script() -> tuple[str, str, str]:
        # What a fragment's rerun meets: a run of the session in which nothing has picked
        # the language yet.
        return (i18n.active_language(), i18n.active_locale(), i18n._("Standings"))

    st.session_state["seen"] = contextvars.Context().run(rerun_without_the_script)


def test_a_rerun_without_the_script_keeps_the_language_and_the_region():
    app = AppTest.from_function(_script).run()
    assert not app.exception
    language, locale, heading = app.session_state["seen"]
    assert (language, locale) == ("nl", "nl_BE")
    assert heading == "Stand"


def test_the_next_full_run_picks_again():
    app = AppTest.from_function(_script)
    app.session_state["browser"] = "de-AT"
    app.run()
    assert app.session_state["seen"][:2] == ("de", "de_AT")
    app.session_state["browser"] = "fr-CH"
    app.run()
    assert app.session_state["seen"][:2] == ("fr", "fr_CH")


def test_outside_a_page_the_language_is_english():
    import contextvars

    from dutch_app import i18n

    seen = contextvars.Context().run(lambda: (i18n.active_language(), i18n.active_locale()))
    assert seen == ("en", "en_GB")
