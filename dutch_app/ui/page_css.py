"""Styles every page takes.

- Streamlit writes a hint into a text field someone has typed in ("Press Enter to
  submit form", "Press Enter to apply"). It is English whatever the page's language,
  and on a phone it sits over the end of what was typed (a password, a player's
  name). The app does not show it: Enter still does what it says, and the buttons say
  the rest.
- On a narrow screen a table (``st.dataframe``) shows its toolbar (search, download,
  full screen) above its top edge when tapped, where it covered the heading or message
  just above. Tables get room for it there instead.
"""

from __future__ import annotations

NARROW = "640px"
"""Where Streamlit's layout turns into one column (its "small screen" break)."""

TOOLBAR_ROOM = "2.25rem"
"""The toolbar's height less the gap Streamlit already leaves between elements."""


TABLE = (
    '[data-testid="stElementContainer"]'
    ':has(> [data-testid="stFullScreenFrame"] > [data-testid="stDataFrame"])'
)
"""The element holding a table (not a layout block that has one somewhere inside)."""


INPUT_HINT = '[data-testid="InputInstructions"]'
"""Streamlit's hint inside a text field (see the module's text)."""


def page_css() -> str:
    """The ``<style>`` element of the app's own rules for every page."""
    return f"""<style>
{INPUT_HINT} {{
  display: none;
}}
@media (max-width: {NARROW}) {{
  {TABLE} {{
    margin-top: {TOOLBAR_ROOM};
  }}
}}
</style>"""
