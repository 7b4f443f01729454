"""A game's live link: the game in large type for a TV or tablet, for anyone with the link.

No account needed. The standings, the last round, who deals next and how far the game is
to its end, drawn again within seconds of a round saved on any phone; after the game its
final result and the picture of it. Nothing else of the group shows.
"""

import streamlit as st

from dutch_app.charts import CUMULATIVE_TOTALS, player_colours
from dutch_app.i18n import _, error_text
from dutch_app.services.errors import ServiceError
from dutch_app.services.sharing import QUERY_PARAMETER
from dutch_app.ui.chart_view import show_chart
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.share_result import (
    chart_frame,
    follow_link,
    full_screen_button,
    open_shared,
    rounds_table,
    shared_picture,
)
from dutch_app.ui.table_view import big_view_html, table_css
from dutch_app.ui.text import md

ensure_routed()

# Across a room the view grows with the screen (the table view's sizes are its least).
TV_CSS = """<style>
.st-key-shared_tv .dutch-table-players { font-size: clamp(1.1rem, 2.2vw, 2.2rem); }
.st-key-shared_tv .dutch-table-big { font-size: clamp(2.6rem, 5vw, 5.5rem); }
.st-key-shared_tv .dutch-table-deal { font-size: clamp(1.8rem, 3.6vw, 4rem); }
.st-key-shared_tv .dutch-table-standings { font-size: clamp(2rem, 3.6vw, 4rem); }
.st-key-shared_tv .dutch-table-last { font-size: clamp(1.4rem, 2.6vw, 2.8rem); }
.st-key-shared_tv p.dutch-table-progress { font-size: clamp(1.2rem, 2.2vw, 2.4rem); }
</style>"""

st.title(_("A game of Dutch"))
try:
    link, view = open_shared(st.query_params.get(QUERY_PARAMETER, ""))
except ServiceError as error:
    st.error(md(error_text(error)), icon=":material/link_off:")
    st.stop()

full_screen_button()
with st.container(key="shared_tv"):
    st.html(table_css() + TV_CSS + big_view_html(view))
if view.finished:
    st.image(
        shared_picture(link.digest, link.game_id, link.version),
        caption=_("The result as a picture"),
        width=520,
    )
elif view.rounds:
    show_chart(CUMULATIVE_TOTALS.spec(chart_frame(view)), player_colours(enumerate(view.players)))
if view.rounds:
    st.subheader(_("Rounds"))
    if len(view.rounds) < view.rounds_played:
        st.caption(
            _("The latest {shown} of the game's {played} rounds.").format(
                shown=len(view.rounds), played=view.rounds_played
            )
        )
    st.dataframe(rounds_table(view), hide_index=True, width="stretch")
else:
    st.info(_("This game has no rounds yet."))
st.caption(_("Kept with Dutch Scorer. This link shows this one game live; the group can end it."))
follow_link(link)
