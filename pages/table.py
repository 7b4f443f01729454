"""Table view: one game in large type for a phone or tablet lying in the middle of the table.

Read-only and live: the standings, the last round, who called and whose deal it
is, redrawn within seconds of a change made on any phone.
"""

import streamlit as st

from dutch_app.i18n import _
from dutch_app.services import games
from dutch_app.services.sharing import shared_view
from dutch_app.services.views import GroupView
from dutch_app.ui.connection_badge import connection_badge
from dutch_app.ui.context import active_group, call, my_groups
from dutch_app.ui.guard import guarded
from dutch_app.ui.live import follow_game, follow_group
from dutch_app.ui.next_game import PLAY_GAME_KEY  # the game the Play page shows
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.table_view import big_view_html, table_css
from dutch_app.ui.text import md
from dutch_core.game import GameStatus

ensure_routed()

TABLE_GAME_KEY = "table_game_id"  # the game this view showed last
TABLE_ROUNDS = 1  # the view shows the latest round only


def game_to_show(group_id: int) -> int | None:
    """The game on the Play page (or shown here before) while it is in progress, else the
    newest game in progress, else the game shown here last (for its final result)."""
    in_progress = [game.id for game in call(games.list_games, group_id, status=GameStatus.ACTIVE)]
    for key in (PLAY_GAME_KEY, TABLE_GAME_KEY):
        if st.session_state.get(key) in in_progress:
            return st.session_state[key]
    return in_progress[0] if in_progress else st.session_state.get(TABLE_GAME_KEY)


def show(group: GroupView, game_id: int) -> None:
    """The game in large type; an ended game keeps its result until another one starts."""
    game = call(games.get_game, game_id, TABLE_ROUNDS)
    if game.group_id != group.id:  # shown here for another group, before the switch
        for key in (PLAY_GAME_KEY, TABLE_GAME_KEY):
            st.session_state.pop(key, None)
        st.rerun()
    st.session_state[TABLE_GAME_KEY] = game.id
    view = shared_view(game)
    st.html(table_css() + big_view_html(view))
    if view.finished:
        follow_group(group)  # a rematch or a new game takes over the view
    else:
        follow_game(game.id, game.version)


st.title(_("Table view"))
connection_badge()
group = active_group(my_groups())
if group is None:
    st.info(_("You are not in a group yet: set one up on the Group page."))
    st.stop()
st.caption(
    _("Group: {name} · updates by itself; scores are entered on the Play page.").format(
        name=md(group.name)
    )
)
with guarded():
    shown = game_to_show(group.id)
    if shown is None:
        st.info(_("No game is in progress. Start one on the Play page; it will show here."))
        follow_group(group)
    else:
        show(group, shown)
st.page_link("pages/play.py", label=_("Back to Play"), icon=":material/playing_cards:")
