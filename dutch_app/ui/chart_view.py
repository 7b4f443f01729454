"""Drawing the app's charts."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from dutch_app.charts import ChartSpec, coloured, player_colours
from dutch_app.services.views import GroupView
from dutch_app.ui.cache import roster


def group_colours(group: GroupView) -> dict[str, str]:
    """Each of the group's players' colour (see :func:`dutch_app.charts.player_colours`)."""
    return player_colours((player.id, player.name) for player in roster(group))


def show_chart(spec: ChartSpec, colours: Mapping[str, str] | None = None) -> None:
    """Draw a chart spec (:meth:`dutch_app.charts.ChartKind.spec`) as wide as the page.

    ``theme=None`` keeps the app's chart theme instead of Streamlit's. The spec
    is drawn as it is, without converting it again, so a cached one costs
    nothing to compute on a rerun; Streamlit copies it before changing anything.
    With ``colours`` (player name -> colour, :func:`group_colours`), each player
    is drawn in their own colour.
    """
    st.vega_lite_chart(spec=coloured(spec, colours), theme=None, width="stretch")
