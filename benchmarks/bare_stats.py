"""A bare Streamlit page: what the Stats page shows first, drawn from tables already in memory.

The baseline of the Stats page benchmark. It gets the statistics bundle through
``st.session_state["bench_bundle"]`` (put there by the benchmark) and draws the
same table and charts as the Stats page's first section, without signing in, the
database, the caches, filters or navigation. It draws the charts the plain way,
``st.altair_chart`` of each chart built from its table, where the Stats page
draws the specs it cached with the tables.
Keep it in step with ``show_players`` in pages/stats.py.
"""

import streamlit as st

from dutch_app import charts
from dutch_app.stats_columns import SUMMARY
from dutch_app.ui import stats_tables as tables

bundle = st.session_state["bench_bundle"]
st.title("Stats")
st.subheader("Per player")
tables.show_table(bundle.table("summary"), SUMMARY)
st.altair_chart(charts.WIN_RATE.chart(bundle.table("summary")), theme=None, width="stretch")
st.altair_chart(charts.ROUND_SCORES.chart(bundle.table("summary")), theme=None, width="stretch")
