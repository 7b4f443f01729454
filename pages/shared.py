"""A shared game: one game's names, totals and rounds, for anyone with its read-only link."""

import streamlit as st

from dutch_app.charts import CUMULATIVE_TOTALS, player_colours
from dutch_app.i18n import _, error_text
from dutch_app.services.errors import ServiceError
from dutch_app.services.sharing import QUERY_PARAMETER
from dutch_app.ui.chart_view import show_chart
from dutch_app.ui.game_tables import standings_frame
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.share_result import chart_frame, open_shared, rounds_table
from dutch_app.ui.text import md

ensure_routed()

st.title(_("A game of Dutch"))
try:
    view = open_shared(st.query_params.get(QUERY_PARAMETER, ""))
except ServiceError as error:
    st.error(md(error_text(error)), icon=":material/link_off:")
    st.stop()

if view.finished and view.winners:
    names = _(" and ").join(f"**{md(name)}**" for name in view.winners)
    total = view.standings[0].game_total
    if len(view.winners) > 1:
        result = _("{names} shared the win with {total} points.")
    else:
        result = _("{names} won with {total} points.")
    st.success("🏆 " + result.format(names=names, total=total))
elif view.rounds:
    st.info(
        _("This game is still going: the standings after round {number}.").format(
            number=view.rounds_played
        )
    )
else:
    st.info(_("This game has no rounds yet."))
st.dataframe(standings_frame(view), hide_index=True, width="stretch")
if view.rounds:
    colours = player_colours(enumerate(view.players))
    show_chart(CUMULATIVE_TOTALS.spec(chart_frame(view)), colours)
    st.subheader(_("Rounds"))
    if len(view.rounds) < view.rounds_played:
        st.caption(
            _("The latest {shown} of the game's {played} rounds.").format(
                shown=len(view.rounds), played=view.rounds_played
            )
        )
    st.dataframe(rounds_table(view), hide_index=True, width="stretch")
st.caption(_("Kept with Dutch Scorer. This link shows this one game only; the group can end it."))
