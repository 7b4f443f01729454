"""Drawing the app's charts."""

from __future__ import annotations

import streamlit as st

from dutch_app.charts import ChartSpec


def show_chart(spec: ChartSpec) -> None:
    """Draw a chart spec (:meth:`dutch_app.charts.ChartKind.spec`) as wide as the page.

    ``theme=None`` keeps the app's chart theme instead of Streamlit's. The spec
    is drawn as it is, without converting it again, so a cached one costs
    nothing to compute on a rerun; Streamlit copies it before changing anything.
    """
    st.vega_lite_chart(spec=spec, theme=None, width="stretch")
