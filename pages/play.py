"""Play: set up a game, enter rounds at the table, and watch the standings."""

from typing import NamedTuple

import streamlit as st

from dutch_app.charts import CUMULATIVE_TOTALS
from dutch_app.services import demo, games, rounds, setup
from dutch_app.services.errors import GameEnded, ServiceError, StaleRound
from dutch_app.services.views import GroupView
from dutch_app.ui.cache import roster
from dutch_app.ui.chart_view import show_chart
from dutch_app.ui.context import active_group, call, my_groups, set_active_group
from dutch_app.ui.game_setup import game_setup_form
from dutch_app.ui.game_tables import rounds_frame, running_totals_frame, standings_frame
from dutch_app.ui.guard import guarded
from dutch_app.ui.history_view import service_input
from dutch_app.ui.live import follow_game, follow_group, member_name
from dutch_app.ui.round_form import RoundFields, clear_round_form, round_form, set_round_errors
from dutch_app.ui.round_view import call_summary
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.text import distinct_labels, md
from dutch_core.errors import DutchError

ensure_routed()

GAME_KEY = "play_game_id"
SETUP_KEY = "play_setting_up"
BASIS_KEY = "play_round_basis"  # (game id, the round number the form's entry is for)
SEEN_KEY = "play_seen"  # (game id, "active" or "ended"): what this tab last showed
REFUSED_KEY = "play_refused"  # a Refused save, kept with its entry
UNDO_KEY = "play_undo_refused"  # (game id, why an undo was refused)
DEAL_HELP = "The deal moves one seat on, clockwise, every round."


class Refused(NamedTuple):
    """A save the game refused because it had moved on: what happened, and the entry."""

    game_id: int
    kind: str  # "stale" (the round number was taken), "ended" or "error"
    message: str
    fields: RoundFields
    next_number: int | None


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


def form_basis(game) -> int:
    """The round number the form's entry is for: the next round when the form was emptied.

    It stays put while other phones save rounds, so a half-typed entry is never
    stored under a number it was not meant for; the person moves it on.
    """
    basis = st.session_state.get(BASIS_KEY)
    if basis is None or basis[0] != game.id:
        basis = (game.id, game.core.rounds_played + 1)
        st.session_state[BASIS_KEY] = basis
    return basis[1]


def set_basis(game_id: int, number: int, clear: bool = False) -> None:
    """The form is now for round ``number``; ``clear`` empties it on the next run too."""
    st.session_state[BASIS_KEY] = (game_id, number)
    st.session_state.pop(REFUSED_KEY, None)
    if clear:
        clear_round_form("play_round")


def saved(game_id: int, stored, result=None) -> None:
    """After a round was stored: say so, empty the form and make it the next round's."""
    summary = f" {call_summary(result)}" if result is not None else ""
    st.session_state["play_saved"] = f"Round {stored.number} saved.{summary}"
    set_basis(game_id, stored.number + 1, clear=True)


def store_round(game_id: int, fields: RoundFields, number: int, reopen: bool = False) -> None:
    """Save a kept entry as round ``number`` (a button's callback); reopen the game first."""
    try:
        game = call(games.get_game, game_id)
        if reopen:
            call(games.reopen_game, game_id)
        stored = call(rounds.add_round, game_id, *service_input(game, fields), for_round=number)
    except (StaleRound, GameEnded) as error:
        refuse(game_id, error, fields)
        return
    except (ServiceError, DutchError) as error:
        st.session_state[REFUSED_KEY] = Refused(game_id, "error", str(error), fields, None)
        return
    saved(game_id, stored)


def refuse(game_id: int, error: ServiceError, fields: RoundFields) -> None:
    """Keep a refused entry with what happened, to show with the choices it leaves."""
    kind = "ended" if isinstance(error, GameEnded) else "stale"
    number = error.next_number if isinstance(error, StaleRound) else None
    st.session_state[REFUSED_KEY] = Refused(game_id, kind, str(error), fields, number)


def keep_for(game_id: int, number: int) -> None:
    """The entry on the form is for round ``number`` after all (a button's callback)."""
    set_basis(game_id, number)


def discard(game_id: int, number: int) -> None:
    """Throw the entry away; the empty form is for round ``number`` (a button's callback)."""
    set_basis(game_id, number, clear=True)


def moved_on(game, group: GroupView, basis: int) -> str:
    """What other phones did since the form's entry was begun, in one sentence."""
    following = game.core.rounds_played + 1
    if basis > following:
        return f"Round {following} was just taken back on another phone."
    if following - basis > 1:
        return f"Rounds {basis} to {following - 1} were just saved on other phones."
    by = member_name(group, game.rounds[basis - 1].entered_by)
    return f"Round {basis} was just saved{f' by {md(by)}' if by else ''} on another phone."


def round_notice(game, group: GroupView, basis: int) -> None:
    """Above the form: a refused save or a game that moved on, with what can be done."""
    following = game.core.rounds_played + 1
    refused = st.session_state.get(REFUSED_KEY)
    if refused is not None and refused.game_id != game.id:
        refused = None
    if refused is None and basis == following:
        return
    kept = "Anything you typed is still in the form."
    if refused is None:
        st.warning(f"{moved_on(game, group, basis)} {kept}", icon=":material/sync:")
        keep, drop = st.columns(2)
        keep.button(
            f"Keep it for round {following}",
            key=f"play_keep_entry_{following}",  # a stale tap never keeps it for another
            on_click=keep_for,
            args=(game.id, following),
        )
        drop.button(
            "Discard it", key="play_discard_entry", on_click=discard, args=(game.id, following)
        )
        return
    st.warning(f"{md(refused.message)} {kept}", icon=":material/sync_problem:")
    again, drop = st.columns(2)
    if refused.kind == "ended" and game.status == "ended":
        again.button(
            "Reopen the game and save this round",
            key="play_reopen_and_save",
            type="primary",
            on_click=store_round,
            args=(game.id, refused.fields, following, True),
        )
    elif game.status != "ended" and not game.is_over:
        again.button(
            f"Save it as round {following}",
            key=f"play_save_as_next_{following}",
            type="primary",
            on_click=store_round,
            args=(game.id, refused.fields, following),
        )
    drop.button("Discard it", key="play_discard_entry", on_click=discard, args=(game.id, following))


def enter_round(game, group: GroupView) -> None:
    """The round form, for the round its entry was begun for; a stored round clears it."""
    names = [player.name for player in game.players]
    following = game.core.rounds_played + 1
    st.subheader(f"Round {following}")
    st.caption(f"{md(game.core.dealer)} deals.", help=DEAL_HELP)
    basis = form_basis(game)
    with st.container():  # always here, so the form below keeps its place (and its text)
        round_notice(game, group, basis)
    submitted = round_form("play_round", names, game.rules, submit_label="Save the round")
    if submitted is None:
        return
    fields, check = submitted
    try:
        stored = call(rounds.add_round, game.id, *service_input(game, fields), for_round=basis)
    except (StaleRound, GameEnded) as error:
        refuse(game.id, error, fields)
        st.rerun()
    except ServiceError as error:
        set_round_errors("play_round", {"round": str(error)})
        return
    saved(game.id, stored, check.result)
    st.rerun()


def undo(game_id: int, round_id: int, version: int, number: int) -> None:
    """Take back round ``number`` if it is still the latest (a button's callback)."""
    try:
        call(rounds.undo_round, game_id, round_id, version)
    except ServiceError as error:
        st.session_state[UNDO_KEY] = (game_id, str(error))
        return
    st.session_state["play_saved"] = f"Round {number} was taken back."
    basis = st.session_state.get(BASIS_KEY)
    if basis == (game_id, number + 1):
        st.session_state[BASIS_KEY] = (game_id, number)


def undo_last_round(game, group: GroupView) -> None:
    """Offer every member to take back the game's latest round, saying whose it is."""
    refused = st.session_state.pop(UNDO_KEY, None)
    if refused is not None and refused[0] == game.id:
        st.warning(md(refused[1]), icon=":material/undo:")
    if not game.rounds:
        return
    latest = game.rounds[-1]
    by = member_name(group, latest.entered_by)
    label = f"Undo round {latest.number}" + (f" (saved by {md(by)})" if by else "")
    st.button(
        label,
        # The key names the round as shown, so a tap on a button the page has since
        # replaced can never take back a different round.
        key=f"play_undo_{latest.id}_{latest.version}",
        icon=":material/undo:",
        on_click=undo,
        args=(game.id, latest.id, latest.version, latest.number),
    )


def show_standings(game) -> None:
    """The standings table, the totals chart and the rounds so far."""
    st.dataframe(standings_frame(game), hide_index=True, width="stretch")
    if game.rounds:
        show_chart(CUMULATIVE_TOTALS.spec(running_totals_frame(game)))
        count = len(game.rounds)
        with st.expander(f"All {count} rounds" if count > 1 else "The round so far"):
            st.dataframe(rounds_frame(game), hide_index=True, width="stretch")


def winner_line(game) -> str:
    """``**Ann** wins with 40 points!`` (Markdown, names escaped)."""
    total = game.core.totals()[game.winners[0]]
    winners = " and ".join(md(name) for name in game.winners)
    verb = "share the win" if len(game.winners) > 1 else "wins"
    return f"🏆 **{winners}** {verb} with {total} points!"


def game_over(game, group: GroupView, just_finished: bool) -> None:
    """The end-of-game screen: the winner, the final standings, what next."""
    st.success(winner_line(game))
    if just_finished:
        st.balloons()
    show_standings(game)
    undo_last_round(game, group)
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


def ended_elsewhere(game) -> None:
    """The game ended on another phone while this one had the form open: say who won,
    and leave the form (and what was typed in it) where it is."""
    st.info(f"The game was just ended on another phone. {winner_line(game)}")
    reopen, result = st.columns(2)
    if game.status == "ended" and reopen.button("Reopen the game", key="play_reopen_here"):
        with guarded():
            call(games.reopen_game, game.id)
            st.rerun()
    if result.button("Show the final result", key="play_show_result", type="primary"):
        st.session_state[SEEN_KEY] = (game.id, "ended")
        st.rerun()


def show_game(game_id: int, group: GroupView) -> None:
    """A game in progress (or just finished), followed live."""
    game = call(games.get_game, game_id)
    st.caption(" · ".join(md(line) for line in game.rules.describe()))
    saved_now = st.session_state.pop("play_saved", None)
    if saved_now:
        st.toast(saved_now)
    over = game.status == "ended" or game.is_over
    seen = st.session_state.get(SEEN_KEY)
    # The form stays while the game ends under it; the final result comes when asked for,
    # or straight away when this tab saw the game end (or came to it ended).
    form_open = seen == (game.id, "active") and not saved_now
    if over and not form_open:
        st.session_state[SEEN_KEY] = (game.id, "ended")
        game_over(game, group, just_finished=bool(saved_now))
        follow_game(game.id, game.version)
        return
    st.session_state[SEEN_KEY] = (game.id, "active")
    notice = st.container()  # always here, so the columns below keep their place
    if over:
        with notice:
            ended_elsewhere(game)
    entry, standings = st.columns([3, 2])  # on a phone the entry form comes first
    with entry:
        enter_round(game, group)
        undo_last_round(game, group)
    with standings:
        st.subheader("Standings")
        show_standings(game)
        st.page_link("pages/table.py", label="Table view", icon=":material/tv:")
        left, right = st.columns(2)
        if left.button("New game", key="play_new_game", icon=":material/add:"):
            st.session_state[SETUP_KEY] = True
            st.rerun()
        if not over and right.button("End this game now", key="play_end_game"):
            with guarded():
                call(games.end_game, game.id)
                st.session_state[SEEN_KEY] = (game.id, "ended")
                st.session_state["play_saved"] = "The game has ended."
                st.rerun()
    follow_game(game.id, game.version)


st.title("Play")
group = active_group(my_groups())
if group is None:
    no_group_yet()
    st.stop()
st.caption(f"Group: {md(group.name)}")

game_id = None if st.session_state.get(SETUP_KEY) else choose_game(group.id)
if game_id is None:
    set_up_game(group)
    if st.session_state.get(SETUP_KEY):
        if st.button("Back to the game", key="play_cancel_setup"):
            st.session_state[SETUP_KEY] = False
            st.rerun()
    else:
        follow_group(group)  # a game started on another phone shows up here
else:
    with guarded():
        show_game(game_id, group)
