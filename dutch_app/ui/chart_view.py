"""Drawing the app's charts, in the colours of the active light or dark theme."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from dutch_app.charts import ChartSpec, coloured, for_theme, highlighted, player_colours
from dutch_app.services.views import GroupView
from dutch_app.ui.cache import roster


def dark_theme_shown() -> bool:
    """Whether the page shows the dark theme (as the browser last told the server).

    Streamlit infers it from the page's background; right after the page loads or the
    theme changes it can lag one rerun behind, so charts then follow at the next rerun.
    """
    return st.context.theme.type == "dark"


def group_colours(group: GroupView) -> dict[str, str]:
    """Each of the group's players' colour (see :func:`dutch_app.charts.player_colours`)."""
    return player_colours((player.id, player.name) for player in roster(group))


def show_chart(
    spec: ChartSpec, colours: Mapping[str, str] | None = None, highlight: str | None = None
) -> None:
    """Draw a chart spec (:meth:`dutch_app.charts.ChartKind.spec`) as wide as the page.

    ``theme=None`` keeps the app's chart theme instead of Streamlit's, with the dark
    theme's text, grid and palette when the page is dark. The spec is drawn as it is,
    without converting it again, so a cached one costs nothing to compute on a rerun;
    Streamlit copies it before changing anything. With ``colours`` (player name ->
    colour, :func:`group_colours`), each player is drawn in their own colour. With
    ``highlight``, a line chart of many players draws that player's line alone in colour
    (:func:`dutch_app.charts.highlighted`).
    """
    shown = coloured(highlighted(spec, highlight), colours)
    st.vega_lite_chart(spec=for_theme(shown, dark_theme_shown()), theme=None, width="stretch")
