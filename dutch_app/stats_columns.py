"""The columns of the Stats page's tables: which ones, under what headings, in what format.

Plain data (Streamlit's column configs are dicts; nothing is drawn here), so the
statistics' declarations (:mod:`dutch_app.stats_sections`) can name their columns
and :mod:`dutch_app.ui.stats_tables` shows them. The key figures come first and the
player's name stays pinned at the left, so on a phone the table scrolls sideways
inside its frame while the name stays in view. Headings and help are marked with
``N_`` and translated when shown.
"""

from __future__ import annotations

from streamlit import column_config
from streamlit.elements.lib.column_types import ColumnConfig

from dutch_app.i18n import N_

Column = ColumnConfig | str


def count(label: str, help: str | None = None) -> ColumnConfig:
    """A whole number."""
    return column_config.NumberColumn(label, format="%d", help=help)


SHARE_FORMAT = "%.0f%%"
"""A share column in whole percents, as `dutch_app.ui.text.percent` writes them; the
shares (0 to 1) are multiplied by 100 for it when the table is shown."""


def share(label: str, help: str | None = None) -> ColumnConfig:
    """A share (0 to 1), shown in whole percents."""
    return column_config.NumberColumn(label, format=SHARE_FORMAT, help=help)


def points(label: str, help: str | None = None) -> ColumnConfig:
    """A number of points with one decimal (an average)."""
    return column_config.NumberColumn(label, format="%.1f", help=help)


def when(label: str) -> ColumnConfig:
    """A moment, in UTC to the minute."""
    return column_config.DatetimeColumn(label, format="YYYY-MM-DD HH:mm", timezone="UTC")


PLAYER = column_config.TextColumn(N_("Player"), pinned=True)

SUMMARY: dict[str, Column] = {
    "player": PLAYER,
    "games": count(N_("Games"), N_("Games with at least one round, finished or not")),
    "wins": count(N_("Wins"), N_("Ended games won or shared the win of")),
    "win_rate": share(N_("Win rate"), N_("Wins per ended game")),
    "rounds": count(N_("Rounds")),
    "time_played": column_config.TextColumn(
        N_("Time played"), help=N_("The games this player sat in, each from start to last round")
    ),
    "avg_round_score": points(N_("Avg round")),
    "median_round_score": points(N_("Median round")),
    "best_round": count(N_("Best round"), N_("Lowest round score")),
    "worst_round": count(N_("Worst round"), N_("Highest round score")),
    "avg_game_total": points(N_("Avg game total"), N_("Final totals of ended games")),
    "best_game": count(N_("Best game"), N_("Lowest final total of an ended game")),
    "worst_game": count(N_("Worst game"), N_("Highest final total of an ended game")),
}

CALLS: dict[str, Column] = {
    "player": PLAYER,
    "calls": count(N_("Calls"), N_("Rounds this player ended, Dutch and Auto Dutch")),
    "lowest_rate": share(N_("Lowest %"), N_("Share of the calls that succeeded")),
    "calls_per_round": column_config.NumberColumn(
        N_("Calls per round"), format="%.2f", help=N_("Calls divided by rounds played")
    ),
    "auto_dutch": count(N_("Auto Dutch"), N_("Calls made by playing the last card")),
    "lowest": count(N_("Lowest"), N_("Calls with the lowest hand: success")),
    "tied": count(N_("Tied"), N_("Calls tied with another hand")),
    "beaten": count(N_("Beaten"), N_("Calls where another hand was lower")),
    "tied_rate": share(N_("Tied %")),
    "beaten_rate": share(N_("Beaten %")),
    "avg_penalty_cards": points(N_("Avg penalty cards"), N_("Per call; a success draws none")),
    "avg_penalty_points": points(N_("Avg penalty points"), N_("Per call; a success draws none")),
}

AGAINST_CALLS: dict[str, Column] = {
    "player": PLAYER,
    "faced_calls": count(N_("Others' calls"), N_("Rounds someone else ended")),
    "beat_calls": count(N_("Beat the call"), N_("This player's hand was below the caller's")),
    "beat_call_rate": share(N_("Beat %")),
}

BY_HAND_TOTAL: dict[str, Column] = {
    "hand_total": count(N_("Caller's hand")),
    "calls": count(N_("Calls")),
    "lowest": count(N_("Lowest")),
    "tied": count(N_("Tied")),
    "beaten": count(N_("Beaten")),
    "lowest_rate": share(N_("Success %"), N_("Calls with this hand total that were lowest")),
    "lowest_rate_at_or_below": share(
        N_("Success at or below"), N_("Calls with this hand total or a lower one that were lowest")
    ),
}

HEAD_TO_HEAD: dict[str, Column] = {
    "player": PLAYER,
    "opponent": column_config.TextColumn(N_("Opponent")),
    "lower_rate": share(N_("Lower %")),
    "games": count(N_("Games together"), N_("Ended games both played")),
    "lower": count(N_("Finished lower")),
    "equal": count(N_("Level")),
    "higher": count(N_("Finished higher")),
}

RECORDS: dict[str, Column] = {
    "record": column_config.TextColumn(N_("Record")),
    "player": PLAYER,
    "value": count(N_("Value"), N_("Games for a streak, points otherwise")),
    "game_started_at": when(N_("Game started (UTC)")),
}

PLAYER_RECORDS: dict[str, Column] = {
    "player": PLAYER,
    "longest_win_streak": count(N_("Longest win streak"), N_("Ended games won in a row")),
    "current_win_streak": count(N_("Current win streak")),
    "best_game": count(N_("Best game"), N_("Lowest final total of an ended game")),
    "biggest_comeback": count(
        N_("Biggest comeback"),
        N_("Most points behind the leader in a game the player went on to win"),
    ),
}

ROUND_TREND: dict[str, Column] = {
    "player": PLAYER,
    "played_at": when(N_("Played (UTC)")),
    "player_round": count(N_("Round #"), N_("The player's 1st, 2nd, ... round in this view")),
    "round_score": count(N_("Round score")),
    "rolling_avg": points(N_("Rolling average")),
}

WIN_TREND: dict[str, Column] = {
    "player": PLAYER,
    "game_started_at": when(N_("Game started (UTC)")),
    "game_number": count(N_("Game #")),
    "won": column_config.CheckboxColumn("Won"),
    "wins": count(N_("Wins so far")),
    "win_rate": share(N_("Win rate so far")),
}

CALL_TREND: dict[str, Column] = {
    "player": PLAYER,
    "played_at": when(N_("Played (UTC)")),
    "call_number": count(N_("Call #")),
    "outcome": column_config.TextColumn(N_("Outcome")),
    "success_rate": share(N_("Success so far")),
    "rolling_success_rate": share(N_("Rolling success")),
}

GAME_TOTALS: dict[str, Column] = {
    "round_number": count(N_("Round")),
    "player": PLAYER,
    "round_score": count(N_("Round score")),
    "game_total": count(N_("Game total")),
}


RATINGS: dict[str, Column] = {
    "player": PLAYER,
    "rating_text": column_config.TextColumn(
        N_("Rating"),
        help=N_(
            "Points a game the player finishes below their table's average (+ is better); "
            "settled after 5 rated games"
        ),
    ),
    "group_chance": share(
        N_("Wins against the group"),
        N_("Chance to win a game of the group's usual size against players of average skill"),
    ),
    "wins": count(N_("Wins"), N_("Ended games won or shared the win of")),
    "games_ended": count(N_("Games"), N_("Ended games")),
    "win_rate": share(N_("Win rate"), N_("Wins per ended game")),
    "mu": points(
        N_("Skill"), N_("Points a game below the table's average, also while provisional")
    ),
    "sigma": points(N_("Uncertainty"), N_("The skill's standard error, in points a game")),
    "rated_games": count(N_("Rated games"), N_("Ended games with at least two players")),
}

WIN_CHANCES: dict[str, Column] = {
    "player": PLAYER,
    "win_chance": share(
        N_("Chance to win"), N_("By the rating model, for a game of these players")
    ),
    "rating": points(N_("Skill"), N_("Points a game below the table's average")),
}

CALL_CHANCES: dict[str, Column] = {
    "hand_total": count(N_("Caller's hand")),
    "fitted": share(N_("Chance (fit)"), N_("Logistic fit over hand total and player count")),
    "lowest_rate": share(N_("Succeeded"), N_("Share of these calls that were lowest")),
    "calls": count(N_("Calls"), N_("How many calls the counted share rests on")),
    "reference": share(N_("Random hands"), N_("Chance to be lowest against random 4-card hands")),
    "expected_cost": points(
        N_("Expected score"), N_("Hand total + 6.5 points per expected penalty card")
    ),
}

CALLER_PROFILES: dict[str, Column] = {
    "player": PLAYER,
    "avg_hand_total": points(N_("Avg call at"), N_("Average hand total when calling")),
    "lowest_rate": share(N_("Own success")),
    "group_rate_at_typical": share(
        N_("Group success there"), N_("The group's success rate at that hand total (rounded)")
    ),
    "group_calls_at_typical": count(N_("Group calls there")),
    "reference_rate": share(
        N_("Random hands"), N_("Expected success of the same calls against random hands")
    ),
    "calls": count(N_("Calls")),
}

PLAYER_CALLS: dict[str, Column] = {
    "hand_total": count(N_("Hand total")),
    "calls": count(N_("Calls")),
    "lowest_rate": share(N_("Succeeded")),
    "reference": share(N_("Random hands"), N_("Chance to be lowest against random 4-card hands")),
}

PLAYER_GAMES: dict[str, Column] = {
    "game_total": count(N_("Final total")),
    "rank": count(N_("Place")),
    "players": count(N_("Players")),
    "game_started_at": when(N_("Game started (UTC)")),
}

RATING_TREND: dict[str, Column] = {
    "player": PLAYER,
    "game_started_at": when(N_("Game started (UTC)")),
    "game_number": count(N_("Game #")),
    "rank": count(N_("Place")),
    "rating": points(N_("Skill"), N_("Points a game below the table's average, after the game")),
    "sigma": points(N_("Uncertainty"), N_("The skill's standard error, in points a game")),
}

SEASONS: dict[str, Column] = {
    "season": column_config.TextColumn(N_("Season"), pinned=True),
    "leaders": column_config.TextColumn(N_("Leader"), help=N_("Most wins in the season")),
    "leader_wins": count(N_("Wins"), N_("The leader's wins")),
    "games": count(N_("Games"), N_("Games started in the season")),
}

SEASON_PLAYERS: dict[str, Column] = {
    **{name: SUMMARY[name] for name in ("player", "wins", "games", "avg_game_total")},
    "rating": points(N_("Rating at season end"), N_("Points a game below the table's average")),
    "time_played": SUMMARY["time_played"],
}
