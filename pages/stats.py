"""Stats: how each player is doing, how their Dutch calls turn out, who beats whom, and trends.

Filters (date range, players) narrow the view; every table is worked out in
one cached call per view (:mod:`dutch_app.ui.stats_cache`). The sections are
tabs, so a phone shows one section at a time, each chart with its table under it.
"""

from collections.abc import Callable
from datetime import tzinfo
from functools import partial
from typing import cast

import pandas as pd
import streamlit as st

from dutch_app import stats_columns as columns
from dutch_app.charts import ROUND_SCORES, WIN_CHANCES, WIN_RATE, ChartSpec
from dutch_app.i18n import N_, _, format_moment, format_number
from dutch_app.services.views import GroupView, SeasonsView
from dutch_app.stats_sections import BY_KEY, SECTIONS, TABS, Section, TrendWindows
from dutch_app.stats_view import StatsBundle, StatsFilters
from dutch_app.ui import rating_words as words
from dutch_app.ui import stats_tables as tables
from dutch_app.ui.cache import my_player, roster
from dutch_app.ui.call_advice import advice_lines
from dutch_app.ui.chart_view import group_colours, show_chart
from dutch_app.ui.context import active_group, my_groups, require_account
from dutch_app.ui.guard import guarded
from dutch_app.ui.highlight import Highlight, first_choice
from dutch_app.ui.history_files import csv_download
from dutch_app.ui.history_view import STATUS_LABELS, date_range, games_word, rounds_word
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.seasons import (
    group_seasons,
    local_bounds,
    period_picker,
    show_season_table,
    viewer_zone,
)
from dutch_app.ui.stats_cache import game_totals, games_csv, rounds_csv, stats_bundle
from dutch_app.ui.text import distinct_labels, md, percent
from dutch_app.ui.widgets import (
    date_range_field,
    field_room,
    labelled_multiselect,
    labelled_selectbox,
)
from dutch_core import stats

ensure_routed()

WINDOWS = (3, 5, 10, 20, 50, 100)
WINDOW_KEY = "stats_rolling"  # outlives the slider while the Trends tab is closed
PICKABLE_GAMES = 300  # the newest games offered by the one-game picker


def filters_for(group: GroupView, kinds: SeasonsView, tz: tzinfo) -> StatsFilters:
    """The period, date range and player filters, as chosen on the page (the dates as
    days of the person's time zone)."""
    names = {player.id: player.name for player in roster(group)}
    period_picker("stats", "stats_dates", kinds, tz)
    dates_column, players_column = st.columns(2)
    with dates_column, field_room():
        dates = date_range_field(
            _("Games started between"),
            key="stats_dates",
            help=_("Leave empty for all games; pick one day twice for a single day."),
        )
    with players_column, field_room():
        chosen = labelled_multiselect(
            _("Players"),
            list(names),
            names,
            key="stats_players",
            placeholder=_("All players"),
            help=_("Show the games these players took part in, and only their rows."),
            wrap=False,  # one row, scrolled sideways when full: the field keeps its height
        )
    date_from, date_to = local_bounds(*date_range(dates), tz)
    return StatsFilters(
        date_from=date_from,
        date_to=date_to,
        player_ids=tuple(sorted(chosen)) if chosen else None,
    )


def explain_empty(filters: StatsFilters) -> None:
    """Say why there is nothing to show, and where to go next."""
    if filters != StatsFilters():
        st.info(
            _(
                "No games match these filters. Widen the date range or choose other players "
                "(an empty player list means everyone)."
            )
        )
        return
    st.info(
        _(
            "This group has no rounds yet, so there is nothing to count. Play a game and the "
            "numbers appear here after the first round; or load a demo group on the Group page "
            "to see what the Stats page can show."
        )
    )
    st.page_link("pages/play.py", label=_("Play a game"), icon=":material/playing_cards:")
    st.page_link("pages/group.py", label=_("Load a demo group"), icon=":material/group:")


def said(text: str | None) -> str:
    """A section's sentence (marked with ``N_``) in this run's language."""
    return _(text) if text else ""


COLOURS: dict[str, str] = {}  # the group's player colours for this run, set by show_stats
HIGHLIGHT = Highlight()  # who the crowded line charts highlight, offered by show_stats


def chart(spec: ChartSpec) -> None:
    """Draw a chart with each player in their own colour (one player highlighted when
    the chart has many lines)."""
    show_chart(spec, COLOURS, HIGHLIGHT.of(spec))


def show_players(bundle: StatsBundle) -> None:
    """Games, wins and scores per player."""
    section = BY_KEY["summary"]
    summary = bundle.table("summary")
    st.subheader(said(section.title))
    tables.show_table(summary, section.columns)
    st.caption(said(section.caption))
    specs = bundle.charts["summary"]
    if summary["games_ended"].sum() > 0:
        chart(specs[WIN_RATE])
    else:
        st.info(_("No game in this view has ended yet, so there are no wins to show."))
    chart(specs[ROUND_SCORES])


def show_calls(bundle: StatsBundle) -> None:
    """Dutch calls: how often and how they turn out, and who never called."""
    show_section(BY_KEY["calls"], bundle)
    calls = bundle.table("calls")
    never = calls.loc[calls["calls"] == 0, "player"].tolist()
    if never:
        st.caption(_("Never called in this view: ") + md(", ".join(never)))


def show_by_hand_total(bundle: StatsBundle) -> None:
    """How low a hand needs to be, with the chances for a chosen number of players."""
    section = BY_KEY["by_hand_total"]
    by_hand_total = bundle.table("by_hand_total")
    st.subheader(said(section.title))
    if by_hand_total.empty:
        st.info(said(section.empty))
    else:
        show_should_i_call(bundle)
        for spec in bundle.charts["by_hand_total"].values():
            chart(spec)
        tables.show_table(by_hand_total, section.columns)


def show_should_i_call(bundle: StatsBundle) -> None:
    """The chance a call succeeds at each hand total, for a chosen number of players."""
    specs = bundle.charts["call_chances"]
    call_chances = bundle.table("call_chances")
    counts = sorted(specs)
    by_players = call_chances.groupby("players")["calls"].sum()
    common = int(cast(int, by_players.idxmax()))  # a player count: the index holds ints
    players = st.selectbox(
        _("Players at the table"),
        counts,
        index=counts.index(common),
        key="stats_call_players",
        help=_("The chances depend on how many hands the caller must beat."),
    )
    chart(specs[players])
    advice = advice_lines(bundle.table("call_advice"), players)
    if advice:
        st.markdown("\n".join(f"- {line}" for line in advice))
        st.caption(
            _(
                "Call advice: the highest hand total at which at least {share} of a player's "
                "own calls with this many players were lowest, once they have made {needed}."
            ).format(share=percent(stats.ADVICE_RATE), needed=stats.ADVICE_MIN_CALLS)
        )
    rows = call_chances.loc[call_chances["players"] == players]
    tables.show_table(rows, BY_KEY["call_chances"].columns)
    st.caption(
        _(
            "Points: this group's calls (bigger points rest on more calls). Solid line: a "
            "logistic fit to all the group's calls over hand total and player count, which "
            "smooths totals with few calls (leaning on the dashed line where calls are few). "
            "Dashed "
            "line: the chance to be strictly lowest when everyone else holds four random "
            "cards. Expected score = hand total + 6.5 points per expected penalty card."
        )
    )
    profiles = bundle.table("caller_profiles")
    lines = [caller_sentence(row) for row in tables.records(profiles) if row.calls > 0]
    if lines:
        st.markdown("\n".join(f"- {line}" for line in lines))
        tables.show_table(profiles, BY_KEY["caller_profiles"].columns)


def caller_sentence(row) -> str:
    """One player's calls in words, against the group's record and random hands."""
    text = _("{player} calls at {total} on average").format(
        player=f"**{md(row.player)}**", total=format_number(row.avg_hand_total, digits=1)
    )
    if row.group_calls_at_typical:
        text += _(
            "; calls at {total} succeed {rate} of the time in this group ({calls} calls)"
        ).format(
            total=row.typical_total,
            rate=percent(row.group_rate_at_typical),
            calls=format_number(row.group_calls_at_typical),
        )
    text += _(". Own success {rate} of {calls} calls").format(
        rate=percent(row.lowest_rate), calls=format_number(row.calls)
    )
    if row.reference_rate == row.reference_rate:  # not NaN
        text += _("; against random hands the same calls would succeed {rate}").format(
            rate=percent(row.reference_rate)
        )
    return text + "."


def show_ratings(me: str | None, bundle: StatsBundle) -> None:
    """Skill ratings in words, their history, and the chances of a chosen line-up; ``me``
    is the signed-in person's player, if they have one."""
    section = BY_KEY["ratings"]
    st.subheader(said(section.title))
    ratings = bundle.table("ratings")
    if ratings["rated_games"].sum() == 0:
        st.info(_("Ratings start with the first ended game of two or more players."))
        return
    show_standings(ratings)
    labels = [
        words.rating_label(row.rating, row.provisional, row.rated_games)
        for row in tables.records(ratings)
    ]
    tables.show_table(ratings.assign(rating_text=labels), section.columns)
    st.caption(
        _(
            "How the rating works: in every ended game each player's final total is compared "
            "with their table's average, and the rating is the number of points a game a "
            "player finishes below that average (+ is better), worked out from all the games "
            "at once so that who you played against counts, and pulled towards 0 while a "
            "record is short."
        )
    )
    show_section(BY_KEY["rating_trend"], bundle)
    show_next_game(me, bundle, ratings)


def show_standings(ratings) -> None:
    """Who is best in a sentence; then each settled player, best first, and below them
    the provisional ones with how many more games each needs."""
    st.markdown(words.leader_sentence(ratings))
    rows = list(tables.records(ratings))
    settled = [words.standing_line(row) for row in rows if not row.provisional]
    provisional = [words.standing_line(row) for row in rows if row.provisional]
    if settled:
        st.markdown("\n".join(f"- {line}" for line in settled))
    if provisional:
        st.markdown(
            _("Provisional, until {needed} rated games:").format(needed=stats.PROVISIONAL_GAMES)
            + "\n"
            + "\n".join(f"- {line}" for line in provisional)
        )


def show_next_game(me: str | None, bundle: StatsBundle, ratings) -> None:
    """Each player's chance to win the next game of a chosen line-up (the latest game's
    players unless changed), in words, as a chart and as a table."""
    st.subheader(_("Who wins the next game?"))
    names = ratings["player"].tolist()
    latest = bundle.table("latest_game")["player"].tolist()
    lineup = st.multiselect(
        _("Line-up"),
        names,
        default=[name for name in latest if name in names],
        key="stats_lineup",
        help=_("Choose the players of the next game; at first, the players of the latest game."),
    )
    if len(lineup) < 2:
        st.info(_("Choose at least two players."))
        return
    chances = stats.win_chances(ratings, lineup)
    pairs = list(zip(chances["player"].tolist(), chances["win_chance"].tolist(), strict=True))
    if me is not None and me in lineup:
        st.markdown(words.your_chance(me, dict(pairs)[me]))
    st.markdown("\n".join(f"- {words.chance_line(player, chance)}" for player, chance in pairs))
    chart(WIN_CHANCES.spec(chances))
    tables.show_table(chances, columns.WIN_CHANCES)


def rival(head_to_head, column: str) -> str | None:
    """The opponent with the most games where ``column`` (lower / higher) happened."""
    if head_to_head.empty or head_to_head[column].max() == 0:
        return None
    best = head_to_head.sort_values([column, "games"], ascending=[False, True]).iloc[0]
    return _("{opponent} ({count} of {games} games)").format(
        opponent=md(best["opponent"]), count=best[column], games=best["games"]
    )


def show_one_player(bundle: StatsBundle) -> None:
    """One chosen player: rating, record, rivals, calls against random hands, best and worst."""
    player = st.selectbox(_("Player"), list(bundle.players), key="stats_one_player")
    if player is None:
        return
    st.subheader(md(player))

    def players_rows(key: str) -> pd.DataFrame:
        table = bundle.table(key)
        return table.loc[table["player"] == player]

    rating, summary = players_rows("ratings"), players_rows("summary")
    left, middle, right = st.columns(3)
    if not rating.empty:
        row = rating.iloc[0]
        left.metric(
            _("Rating"),
            words.rating_label(row["rating"], row["provisional"], row["rated_games"]),
        )
    if not summary.empty:
        row = summary.iloc[0]
        middle.metric(
            _("Wins"), _("{wins} of {games}").format(wins=row["wins"], games=row["games_ended"])
        )
        right.metric(_("Win rate"), percent(row["win_rate"]))
    mine = players_rows("head_to_head")
    beats = rival(mine, "lower")
    beaten_by = rival(mine, "higher")
    nobody = _("nobody yet")
    st.markdown(
        "- "
        + _("Beats most often: {rival}").format(rival=beats or nobody)
        + "\n- "
        + _("Beaten most often by: {rival}").format(rival=beaten_by or nobody)
    )
    st.subheader(_("Calls against random hands"))
    calls = players_rows("calls_by_player")
    if calls.empty:
        st.info(_("No calls in this view."))
    else:
        st.markdown(caller_sentence(next(players_rows("caller_profiles").itertuples())))
        tables.show_table(calls, BY_KEY["calls_by_player"].columns)
    st.subheader(_("Best and worst games"))
    ended_games = bundle.table("ended_games")
    games = ended_games.loc[ended_games["player"] == player]
    if games.empty:
        st.info(_("No ended games in this view."))
        return
    sizes = ended_games.groupby("game_id")["player"].size()
    games = games.assign(players=games["game_id"].map(sizes).to_numpy())
    order = ["game_total", "game_started_at"]
    best, worst = st.columns(2)
    with best:
        st.caption(_("Best (lowest totals)"))
        tables.show_table(games.sort_values(order).head(3), BY_KEY["ended_games"].columns)
    with worst:
        st.caption(_("Worst (highest totals)"))
        worst_games = games.sort_values(order, ascending=[False, True]).head(3)
        tables.show_table(worst_games, BY_KEY["ended_games"].columns)


def show_section(section: Section, bundle: StatsBundle) -> None:
    """A section as every section is shown: its title, charts and table (or why there
    is nothing to show), its caption, and for a trend how much of it is shown."""
    if section.window is not None:
        window_slider(section.window)
    if section.title is not None:
        st.subheader(_(section.title))
    rows = section.shown_rows(bundle.table(section.key))
    if rows.empty and section.empty is not None:
        st.info(_(section.empty))
        return
    for spec in bundle.charts.get(section.key, {}).values():
        chart(spec)
    tables.show_table(rows, section.columns)
    if section.caption is not None:
        st.caption(_(section.caption))
    if section.trend is not None and section.thinned is not None:
        trend = bundle.trend(section.key)
        if trend.thinned:
            st.caption(
                _(section.thinned).format(stride=trend.stride, events=format_number(trend.events))
            )


def show_game_totals(group: GroupView, filters: StatsFilters, bundle: StatsBundle) -> None:
    """The running game totals of one chosen game."""
    section = BY_KEY["games"]
    st.subheader(said(section.title))
    all_games = bundle.table("games")
    games = all_games.head(PICKABLE_GAMES)  # newest first
    labels = distinct_labels(
        {
            row.game_id: f"{format_moment(row.game_started_at)} · {row.players} · "
            f"{rounds_word(row.rounds)} · {_(STATUS_LABELS.get(row.game_status, row.game_status))}"
            for row in tables.records(games)
        }
    )
    game_id = labelled_selectbox(_("Game"), list(labels), labels, key="stats_game")
    if len(all_games) > PICKABLE_GAMES:
        st.caption(
            _(
                "The newest {shown} of {games} games in this view; narrow the dates above to "
                "pick an older one."
            ).format(shown=PICKABLE_GAMES, games=format_number(len(all_games)))
        )
    if game_id is None:
        return
    totals, totals_chart = game_totals(group, filters, game_id)
    chart(totals_chart)
    tables.show_table(totals, section.columns)


def rolling_windows() -> TrendWindows:
    """How many of each player's latest rounds, games and calls the three rolling
    averages take (each chosen with its own slider)."""
    return st.session_state.get(WINDOW_KEY, TrendWindows())


def remember_window(what: str) -> None:
    chosen = st.session_state[f"stats_window_{what}"]
    st.session_state[WINDOW_KEY] = rolling_windows()._replace(**{what: chosen})


# The rolling windows' sliders, by trend (translate with ``_``).
WINDOW_LABELS = {
    "rounds": N_("Rolling average over each player's latest rounds"),
    "games": N_("Rolling average over each player's latest games"),
    "calls": N_("Rolling average over each player's latest calls"),
}


def window_slider(what: str) -> None:
    """The rolling window of one trend: its latest rounds, games or calls."""
    st.select_slider(
        _(WINDOW_LABELS[what]),
        options=WINDOWS,
        value=getattr(rolling_windows(), what),
        key=f"stats_window_{what}",
        on_change=remember_window,
        args=(what,),
    )


def show_downloads(group: GroupView, filters: StatsFilters) -> None:
    """The rounds and games files of exactly this view, made when clicked."""
    st.subheader(_("Download this view"))
    key = (require_account().user_id, group.id, group.cache_stamp, filters)
    csv_download(
        _("Rounds CSV"), partial(rounds_csv, *key), "dutch-rounds.csv", "stats_download_rounds"
    )
    csv_download(
        _("Games CSV"), partial(games_csv, *key), "dutch-games.csv", "stats_download_games"
    )
    st.caption(_("The rounds file can be imported again; both hold only the games shown above."))


def show_stats() -> None:
    """The whole page."""
    require_account()
    st.title(_("Stats"))
    group = active_group(my_groups())
    if group is None:
        st.info(_("You are not in a group yet. Create or join one on the Group page."))
        st.page_link("pages/group.py", label=_("Go to Group"), icon=":material/group:")
        return
    st.caption(_("Group: {name}").format(name=md(group.name)))
    COLOURS.clear()
    COLOURS.update(group_colours(group))
    kinds, tz = group_seasons(group), viewer_zone()
    filters = filters_for(group, kinds, tz)
    bundle = stats_bundle(group, filters, rolling_windows())
    if bundle.is_empty:
        explain_empty(filters)
        return
    HIGHLIGHT.offer(bundle.players, first_choice(group, bundle.players, bundle.table("summary")))
    st.caption(
        _("{games} and {rounds} in this view. Lower scores are better.").format(
            games=games_word(bundle.games_played), rounds=rounds_word(bundle.rounds_played)
        )
    )
    # The sections the page draws in a way of their own; every other one by show_section.
    own_drawing: dict[str, Callable[[StatsBundle], None]] = {
        "summary": show_players,
        "ratings": partial(show_ratings, my_player(group)),
        "calls": show_calls,
        "by_hand_total": show_by_hand_total,
        "games": partial(show_game_totals, group, filters),
        "ended_games": show_one_player,
    }
    tabs = st.tabs([_(tab.title) for tab in TABS], key="stats_section", on_change="rerun")
    for tab, shown in zip(tabs, TABS, strict=True):
        if tab.open:
            with tab, guarded(tab):
                for section in SECTIONS:
                    if section.tab == shown.key:
                        draw = own_drawing.get(section.key, partial(show_section, section))
                        draw(bundle)
    show_season_table(group, filters, kinds, tz)
    show_downloads(group, filters)


with guarded():
    show_stats()
