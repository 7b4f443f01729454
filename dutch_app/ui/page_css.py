"""Styles every page takes.

- Streamlit writes a hint into a text field someone has typed in ("Press Enter to
  submit form", "Press Enter to apply"). It is English whatever the page's language,
  and on a phone it sits over the end of what was typed (a password, a player's
  name). The app does not show it: Enter still does what it says, and the buttons say
  the rest.
- The page bar (Play, Table, History, Stats) stands empty for a moment before its links
  come, 2.5rem high; it keeps that height with them, so the page under it does not move
  up as they arrive.
- The Stats page's tabs come a moment after its filters, and their charts are drawn a
  moment after that: the tabs keep the room of a section (a table and a chart or two) from
  the start, so that what follows them (the downloads) is not pushed down as they fill.
- Streamlit writes the open tab's name and a chosen pill or segment in the primary colour.
  In the dark theme that green is kept dark enough for the white label of a primary button
  (4.6:1), which leaves green text on the dark page at 3.8:1. Those names are written in
  the text colour instead; the tab's green underline and the pill's green frame still
  mark the choice.
- On a narrow screen a table (``st.dataframe``) shows its toolbar (search, download,
  full screen) above its top edge when tapped, where it covered the heading or message
  just above. Tables get room for it there instead.
"""

from __future__ import annotations

from dutch_app.ui.widgets import TABLE_KEY

NARROW = "640px"
"""Where Streamlit's layout turns into one column (its "small screen" break)."""

TOOLBAR_ROOM = "2.25rem"
"""The toolbar's height less the gap Streamlit already leaves between elements."""


TABLE = (
    '[data-testid="stElementContainer"]'
    ':has(> [data-testid="stFullScreenFrame"] > [data-testid="stDataFrame"])'
)
"""The element holding a table (not a layout block that has one somewhere inside), once
the table is drawn."""

TABLE_BLOCK = f'[class*="st-key-{TABLE_KEY}"]'
"""The block around a table drawn by ``widgets.shown_table``, there from the moment the
page shows it: its room above comes with the page style, not a step later with the table
(which then takes none of its own)."""


PAGE_BAR = ".st-key-page_bar"
"""The row of links to the table's pages at the top (``app.page_bar``)."""

STATS_TABS = ".st-key-stats_section"
"""The Stats page's tabs (``st.tabs(key="stats_section")``)."""

SECTION_ROOM = "40rem"
"""At most the height of a Stats section with its charts drawn, so no gap is left under one."""


INPUT_HINT = '[data-testid="InputInstructions"]'
"""Streamlit's hint inside a text field (see the module's text)."""

CHOSEN = (
    '[role="tab"][aria-selected="true"], '
    'button[role="radio"][aria-checked="true"][data-selected]'  # outweighs Streamlit's own rule
)
"""The open tab and the chosen pill or segment (see the module's text)."""


def page_css() -> str:
    """The ``<style>`` element of the app's own rules for every page."""
    return f"""<style>
{INPUT_HINT} {{
  display: none;
}}
{CHOSEN} {{
  color: inherit;
}}
{PAGE_BAR} {{
  min-height: 2.5rem;
  align-items: center;
}}
{STATS_TABS} {{
  min-height: {SECTION_ROOM};
}}
@media (max-width: {NARROW}) {{
  {TABLE}, {TABLE_BLOCK} {{
    margin-top: {TOOLBAR_ROOM};
  }}
  {TABLE_BLOCK} > {TABLE} {{
    margin-top: 0;
  }}
}}
</style>"""
