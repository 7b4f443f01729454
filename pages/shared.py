"""A shared game: one game's names, totals and rounds, for anyone with its read-only link."""

import streamlit as st

from dutch_app.charts import CUMULATIVE_TOTALS, player_colours
from dutch_app.services.errors import ServiceError
from dutch_app.services.sharing import QUERY_PARAMETER
from dutch_app.ui.chart_view import show_chart
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.share_result import chart_frame, open_shared, rounds_table, standings_table
from dutch_app.ui.text import md

ensure_routed()

st.title("A game of Dutch")
try:
    view = open_shared(st.query_params.get(QUERY_PARAMETER, ""))
except ServiceError as error:
    st.error(md(str(error)), icon=":material/link_off:")
    st.stop()

if view.finished and view.winners:
    names = " and ".join(md(name) for name in view.winners)
    verb = "share the win" if len(view.winners) > 1 else "won"
    st.success(f"🏆 **{names}** {verb} with {view.standings[0].game_total} points.")
elif view.rounds:
    st.info(f"This game is still going: the standings after round {view.rounds[-1].number}.")
else:
    st.info("This game has no rounds yet.")
st.dataframe(standings_table(view), hide_index=True, width="stretch")
if view.rounds:
    colours = player_colours(enumerate(view.players))
    show_chart(CUMULATIVE_TOTALS.spec(chart_frame(view)), colours)
    st.subheader("Rounds")
    st.dataframe(rounds_table(view), hide_index=True, width="stretch")
st.caption("Kept with Dutch Scorer. This link shows this one game only; the group can end it.")
