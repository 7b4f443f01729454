"""Play: set up a game, enter rounds at the table, and watch the standings."""

import streamlit as st

from dutch_app.charts import CUMULATIVE_TOTALS
from dutch_app.i18n import _, localized
from dutch_app.services import demo, games, setup
from dutch_app.services.views import GameSummary, GroupView
from dutch_app.ui.anonymous import keep_banner
from dutch_app.ui.browser import table_helper
from dutch_app.ui.cache import roster
from dutch_app.ui.call_advice import advice_lines
from dutch_app.ui.chart_view import group_colours, show_chart
from dutch_app.ui.context import (
    active_group,
    call,
    my_groups,
    require_account,
    set_active_group,
)
from dutch_app.ui.end_game import end_confirmed
from dutch_app.ui.game_setup import game_setup_form
from dutch_app.ui.game_tables import rounds_frame, running_totals_frame, standings_frame
from dutch_app.ui.guard import guarded
from dutch_app.ui.history_view import in_progress_label
from dutch_app.ui.live import follow_game, follow_group
from dutch_app.ui.live_round import SAVED_KEY, undo_last_round, undone_here
from dutch_app.ui.next_game import PLAY_GAME_KEY, PLAY_SETUP_KEY, GameChoice, choose_game
from dutch_app.ui.play_entry import play_entry, stored_here
from dutch_app.ui.preferences import my_preferences, read_again_next_run
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.share_result import share_result, tv_link
from dutch_app.ui.stats_cache import cached_call_advice
from dutch_app.ui.text import distinct_labels, md
from dutch_app.ui.widgets import labelled_selectbox, shown_table
from dutch_core.game import GameStatus

ensure_routed()

GAME_KEY = PLAY_GAME_KEY
SETUP_KEY = PLAY_SETUP_KEY
SEEN_KEY = "play_seen"  # (game id, "active" or "ended"): what this tab last showed
LISTED_KEY = "play_listed"  # the picker's games in the last full run: {game id: rounds played}


def no_group_yet() -> None:
    """A first visit: no group, so offer the ways to get one."""
    st.info(
        _(
            "You are not in a group yet. A group is the circle of friends you play with: "
            "create one or join one with an invite code on the Group page."
        )
    )
    st.page_link("pages/group.py", label=_("Set up your group"), icon=":material/group_add:")
    st.write(_("Or look around first with a demo group full of past games:"))
    if st.button(_("Load a demo group"), key="play_load_demo"):
        with guarded():
            set_active_group(call(demo.load_demo_group).id)
            st.rerun()


def game_on_show(group_id: int) -> int | None:
    """The game on show (see `next_game.choose_game`), with the picker when there is one."""
    in_progress = call(games.list_games, group_id, status=GameStatus.ACTIVE)
    seen = st.session_state.get(SEEN_KEY)
    choice = choose_game(
        [game.id for game in in_progress],
        st.session_state.get(GAME_KEY),
        None if seen is None else seen[0],
    )
    played = {game.id: game.rounds_played for game in in_progress}
    st.session_state[LISTED_KEY] = {game_id: played[game_id] for game_id in choice.offered}
    shown = choice.after_pick(game_picker(choice, in_progress)) if choice.offered else choice.shown
    st.session_state[GAME_KEY] = shown
    return shown


def game_picker(choice: GameChoice, in_progress: list[GameSummary]) -> int | None:
    """The picker of games in progress; the game picked in it (None: none picked)."""
    index = None if choice.preselected is None else choice.offered.index(choice.preselected)
    return labelled_selectbox(
        _("Games in progress"),
        choice.offered,
        distinct_labels({game.id: in_progress_label(game) for game in in_progress}),
        key=choice.picker_key,
        index=index,
        placeholder=_("Go to a game in progress"),
    )


def set_up_game(group: GroupView) -> None:
    """The set-up form; starting a game shows it."""
    st.subheader(_("New game"))
    # The group's last game (its line-up and rules) comes first; before the group's first
    # game, its members and the rules of the person's last game (kept with their preferences).
    defaults = call(setup.game_defaults, group.id)
    started = game_setup_form("play_setup", roster(group), my_preferences().last_rules, defaults)
    if started is not None:
        with guarded():
            game = call(
                setup.start_game_with_players, group.id, started.seats, started.rules, started.notes
            )
            read_again_next_run()  # these rules are now the last used
            st.session_state[GAME_KEY] = game.id
            st.session_state[SETUP_KEY] = False
            st.rerun()


def show_standings(game) -> None:
    """The standings table, the totals chart and the rounds so far."""
    shown_table(standings_frame(game), "standings")
    if game.rounds:
        show_chart(CUMULATIVE_TOTALS.spec(running_totals_frame(game)), COLOURS)
        count, shown = game.rounds_played, len(game.rounds)
        label = _("All {count} rounds").format(count=count) if count > 1 else _("The round so far")
        if shown < count:
            label = _("The last {shown} of {count} rounds (the History page has them all)").format(
                shown=shown, count=count
            )
        with st.expander(label):
            st.dataframe(rounds_frame(game), hide_index=True, width="stretch")


def winner_line(game) -> str:
    """``**Ann** wins with 40 points!`` (Markdown, names escaped)."""
    total = game.totals[game.winners[0]]
    winners = _(" and ").join(f"**{md(name)}**" for name in game.winners)
    if len(game.winners) > 1:
        return "🏆 " + _("{names} share the win with {total} points!").format(
            names=winners, total=total
        )
    return "🏆 " + _("{names} wins with {total} points!").format(names=winners, total=total)


def game_over(game, just_finished: bool) -> None:
    """The end-of-game screen: the winner, the final standings, what next."""
    st.success(winner_line(game))
    if just_finished:
        st.balloons()
    show_standings(game)
    keep_banner(require_account())
    share_result(game, COLOURS)
    again, reopen, new = st.columns(3)
    if again.button(_("Rematch: same players and rules"), key="play_rematch", type="primary"):
        with guarded():
            seats = [player.id for player in game.players]
            rematch = call(setup.start_game_with_players, game.group_id, seats, game.rules)
            read_again_next_run()  # its rules are now the last used
            st.session_state[GAME_KEY] = rematch.id
            st.rerun()
    if game.status is GameStatus.ENDED and reopen.button(_("Reopen this game"), key="play_reopen"):
        with guarded():
            call(games.reopen_game, game.id)
            st.rerun()
    if new.button(_("Set up a different game"), key="play_new_after_end"):
        st.session_state[SETUP_KEY] = True
        st.session_state.pop(GAME_KEY, None)
        st.rerun()


def ended_elsewhere(game) -> None:
    """The game ended on another phone while this one had the form open: say who won,
    and leave the form (and what was typed in it) where it is."""
    st.info(
        _("The game was just ended on another phone. {result}").format(result=winner_line(game))
    )
    reopen, result = st.columns(2)
    if game.status is GameStatus.ENDED and reopen.button(
        _("Reopen the game"), key="play_reopen_here"
    ):
        with guarded():
            call(games.reopen_game, game.id)
            st.rerun()
    if result.button(_("Show the final result"), key="play_show_result", type="primary"):
        st.session_state[SEEN_KEY] = (game.id, "ended")
        st.rerun()


@st.fragment
def game_area(game_id: int, group: GroupView) -> None:
    """The game on show, as a fragment: the entry's messages (a pause in typing, a round
    stored) and Undo rerun this part of the page alone (the game read again), not the page
    around it (the session, the group and game lists, the navigation). Anything that
    changes more than the game reruns the whole page, as does the live component when
    another phone changed the game."""
    with guarded():
        show_game(game_id, group)


def show_game(game_id: int, group: GroupView) -> None:
    """A game in progress (or just finished), followed live."""
    game = call(games.get_game, game_id, games.PLAY_ROUNDS)
    if game.group_id != group.id:  # chosen in another group, before the group was switched
        st.session_state.pop(GAME_KEY, None)
        st.rerun()
    listed = st.session_state.get(LISTED_KEY, {})
    if game.id in listed and (
        game.status is GameStatus.ENDED or listed[game.id] != game.rounds_played
    ):
        # the picker above the game offers it as it was (in progress, so many rounds played):
        # run the page, so the picker tells what is so
        st.rerun()
    st.caption(" · ".join(md(localized(line)) for line in game.rules.describe()))
    advice = cached_call_advice(group)  # from the Stats page's last figures: no history read
    with st.container():  # always here, so the entry below keeps its place when advice comes
        if advice is not None:
            names = [player.name for player in game.players]
            lines = advice_lines(advice, len(names), names)
            if lines:
                st.caption("  \n".join(lines))
    message = st.session_state.pop(SAVED_KEY, None)
    if message:
        st.toast(message)
    just_stored = stored_here(game.id)
    over = game.status is GameStatus.ENDED or game.is_over
    seen = st.session_state.get(SEEN_KEY)
    # The form stays while the game ends under it; the final result comes when asked for,
    # or straight away when this tab saw the game end (or came to it ended).
    form_open = seen == (game.id, "active") and just_stored is None and not message
    if over and not form_open:
        st.session_state[SEEN_KEY] = (game.id, "ended")
        game_over(game, just_finished=just_stored is not None)
        follow_game(game.id, game.version)
        return
    st.session_state[SEEN_KEY] = (game.id, "active")
    notice = st.container()  # always here, so the columns below keep their place
    if over:
        with notice:
            ended_elsewhere(game)
    entry, standings = st.columns([3, 2])  # on a phone the entry form comes first
    with entry:
        with st.container():  # always here, so the entry below keeps its place (and its text)
            undo_last_round(game, group)
        play_entry(game, group, undone_here=undone_here(game.id) is not None)
    with standings:
        st.subheader(_("Standings"))
        show_standings(game)
        st.page_link("pages/table.py", label=_("Table view"), icon=":material/tv:")
        tv_link(game)
        left, right = st.columns(2)
        if left.button(_("New game"), key="play_new_game", icon=":material/add:"):
            st.session_state[SETUP_KEY] = True
            st.rerun()
        if not over and end_confirmed(right, game.id):
            with guarded():
                call(games.end_game, game.id)
                st.session_state[SEEN_KEY] = (game.id, "ended")
                st.rerun()
        awake = st.toggle(
            _("Keep the screen on"),
            value=my_preferences().keep_awake,  # the Account page's choice, for a start
            key="play_keep_awake",
            help=_(
                "While a game is open here, the phone's screen does not turn off "
                "(where the browser allows it)."
            ),
        )
        table_helper(wake=awake)
    follow_game(game.id, game.version)


st.title(_("Play"))
group = active_group(my_groups())
if group is None:
    no_group_yet()
    st.stop()
st.caption(_("Group: {name}").format(name=md(group.name)))
COLOURS = group_colours(group)  # each player's colour, the same as on the Stats page

game_id = None if st.session_state.get(SETUP_KEY) else game_on_show(group.id)
if game_id is None:
    set_up_game(group)
    if st.session_state.get(SETUP_KEY):
        if st.button(_("Back to the game"), key="play_cancel_setup"):
            st.session_state[SETUP_KEY] = False
            st.rerun()
    else:
        follow_group(group)  # a game started on another phone shows up here
else:
    game_area(game_id, group)
