"""Play: set up a game, enter rounds at the table, and watch the standings."""

import streamlit as st

from dutch_app.charts import CUMULATIVE_TOTALS
from dutch_app.services import demo, games, rounds, setup
from dutch_app.services.errors import ServiceError
from dutch_app.services.views import GroupView
from dutch_app.ui.cache import roster
from dutch_app.ui.chart_view import group_colours, show_chart
from dutch_app.ui.context import active_group, call, my_groups, set_active_group
from dutch_app.ui.game_setup import game_setup_form
from dutch_app.ui.game_tables import rounds_frame, running_totals_frame, standings_frame
from dutch_app.ui.guard import guarded
from dutch_app.ui.history_view import service_input
from dutch_app.ui.round_form import clear_round_form, round_form, set_round_errors
from dutch_app.ui.round_view import call_summary
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.text import distinct_labels, md

ensure_routed()

GAME_KEY = "play_game_id"
SETUP_KEY = "play_setting_up"
LAST_ROUND_KEY = "play_last_round"


def no_group_yet() -> None:
    """A first visit: no group, so offer the ways to get one."""
    st.info(
        "You are not in a group yet. A group is the circle of friends you play with: "
        "create one or join one with an invite code on the Group page."
    )
    st.page_link("pages/group.py", label="Set up your group", icon=":material/group_add:")
    st.write("Or look around first with a demo group full of past games:")
    if st.button("Load a demo group", key="play_load_demo"):
        with guarded():
            set_active_group(call(demo.load_demo_group).id)
            st.rerun()


def choose_game(group_id: int) -> int | None:
    """The game on show: the one chosen before, else the newest game in progress."""
    in_progress = call(games.list_games, group_id, status="active")
    chosen = st.session_state.get(GAME_KEY)
    if len(in_progress) > 1:
        ids = [game.id for game in in_progress]
        labels = distinct_labels(
            {g.id: f"{', '.join(g.players)} — round {g.rounds_played}" for g in in_progress}
        )
        current = chosen if chosen in ids else ids[0]
        chosen = st.selectbox(
            "Games in progress",
            ids,
            index=ids.index(current),
            format_func=labels.__getitem__,
            key="play_choose_game",
        )
    elif chosen is None and in_progress:
        chosen = in_progress[0].id
    st.session_state[GAME_KEY] = chosen
    return chosen


def set_up_game(group: GroupView) -> None:
    """The set-up form; starting a game shows it."""
    st.subheader("New game")
    started = game_setup_form("play_setup", roster(group))
    if started is not None:
        with guarded():
            game = call(
                setup.start_game_with_players, group.id, started.seats, started.rules, started.notes
            )
            st.session_state[GAME_KEY] = game.id
            st.session_state[SETUP_KEY] = False
            st.rerun()


def enter_round(game) -> None:
    """The round form; a stored round clears it and can be undone."""
    names = [player.name for player in game.players]
    st.subheader(f"Round {game.core.rounds_played + 1}")
    submitted = round_form("play_round", names, game.rules, submit_label="Save the round")
    if submitted is None:
        return
    fields, check = submitted
    try:
        stored = call(rounds.add_round, game.id, *service_input(game, fields))
    except ServiceError as error:
        set_round_errors("play_round", {"round": str(error)})
        return
    st.session_state[LAST_ROUND_KEY] = (game.id, stored.id, stored.version, stored.number)
    st.session_state["play_saved"] = f"Round {stored.number} saved. {call_summary(check.result)}"
    clear_round_form("play_round")
    st.rerun()


def undo_last_round(game) -> None:
    """Offer to take back the round this person just entered."""
    last = st.session_state.get(LAST_ROUND_KEY)
    if not last or last[0] != game.id:
        return
    _, round_id, version, number = last
    if st.button(f"Undo round {number}", key="play_undo", icon=":material/undo:"):
        with guarded():
            call(rounds.delete_round, round_id, version)
            st.session_state.pop(LAST_ROUND_KEY, None)
            st.session_state["play_saved"] = f"Round {number} was taken back."
            st.rerun()


def show_standings(game) -> None:
    """The standings table, the totals chart and the rounds so far."""
    st.dataframe(standings_frame(game), hide_index=True, width="stretch")
    if game.rounds:
        show_chart(CUMULATIVE_TOTALS.spec(running_totals_frame(game)), COLOURS)
        count = len(game.rounds)
        with st.expander(f"All {count} rounds" if count > 1 else "The round so far"):
            st.dataframe(rounds_frame(game), hide_index=True, width="stretch")


def game_over(game, just_finished: bool) -> None:
    """The end-of-game screen: the winner, the final standings, what next."""
    total = game.core.totals()[game.winners[0]]
    winners = " and ".join(md(name) for name in game.winners)
    verb = "share the win" if len(game.winners) > 1 else "wins"
    st.success(f"🏆 **{winners}** {verb} with {total} points!")
    if just_finished:
        st.balloons()
    show_standings(game)
    undo_last_round(game)
    again, reopen, new = st.columns(3)
    if again.button("Rematch: same players and rules", key="play_rematch", type="primary"):
        with guarded():
            seats = [player.id for player in game.players]
            rematch = call(setup.start_game_with_players, game.group_id, seats, game.rules)
            st.session_state[GAME_KEY] = rematch.id
            st.rerun()
    if game.status == "ended" and reopen.button("Reopen this game", key="play_reopen"):
        with guarded():
            call(games.reopen_game, game.id)
            st.rerun()
    if new.button("Set up a different game", key="play_new_after_end"):
        st.session_state[SETUP_KEY] = True
        st.session_state.pop(GAME_KEY, None)
        st.rerun()


def show_game(game_id: int) -> None:
    """A game in progress (or just finished)."""
    game = call(games.get_game, game_id)
    st.caption(" · ".join(md(line) for line in game.rules.describe()))
    saved = st.session_state.pop("play_saved", None)
    if saved:
        st.toast(saved)
    if game.status == "ended" or game.is_over:
        game_over(game, just_finished=bool(saved))
        return
    entry, standings = st.columns([3, 2])  # on a phone the entry form comes first
    with entry:
        enter_round(game)
        undo_last_round(game)
    with standings:
        st.subheader("Standings")
        show_standings(game)
        left, right = st.columns(2)
        if left.button("New game", key="play_new_game", icon=":material/add:"):
            st.session_state[SETUP_KEY] = True
            st.rerun()
        if right.button("End this game now", key="play_end_game"):
            with guarded():
                call(games.end_game, game.id)
                st.session_state["play_saved"] = "The game has ended."
                st.rerun()


st.title("Play")
group = active_group(my_groups())
if group is None:
    no_group_yet()
    st.stop()
st.caption(f"Group: {md(group.name)}")
COLOURS = group_colours(group)  # each player's colour, the same as on the Stats page

game_id = None if st.session_state.get(SETUP_KEY) else choose_game(group.id)
if game_id is None:
    set_up_game(group)
    if st.session_state.get(SETUP_KEY) and st.button("Back to the game", key="play_cancel_setup"):
        st.session_state[SETUP_KEY] = False
        st.rerun()
else:
    with guarded():
        show_game(game_id)
