"""Styles every page takes on a narrow screen.

A table (``st.dataframe``) shows its toolbar (search, download, full screen) above its
top edge when tapped; on a phone that toolbar covered the heading or message just above.
Tables get room for it there instead.
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


def phone_css() -> str:
    """The ``<style>`` element of the app's narrow-screen rules."""
    return f"""<style>
@media (max-width: {NARROW}) {{
  {TABLE} {{
    margin-top: {TOOLBAR_ROOM};
  }}
}}
</style>"""
