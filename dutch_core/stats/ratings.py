"""Skill ratings: who is really the best, taking the opponents into account.

A player's skill is how many points a game they finish below the average of
their table: a model of the game totals themselves, not just the finishing
order, so a narrow win counts for less than a wide one. Each ended game of two
or more players counts once, in start order: each player's final total minus
their table's average total is their skill minus the table's average skill,
plus luck. The skills are the ridge (regularised least-squares) solution of all
those equations so far: :data:`PRIOR_GAMES` imaginary games at skill 0 pull a
short record towards the average, and equal totals are equal margins, so a tie
stays a tie. This model was chosen by ``benchmarks/stats_evaluation.py``: at
predicting each game's winner from the games before it, it did better than the
``openskill`` models it was tried against (see ``docs/statistics.md``).

``mu`` is the skill (points a game below the table average: higher is better),
``sigma`` its standard error, and ``rating`` is the skill as shown. A player is
provisional until they have :data:`PROVISIONAL_GAMES` rated games. The ratings
are a pure function of the game results: changing any past game changes them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from pandas.api.extensions import ExtensionArray

from dutch_core.stats._groups import changes, codes_in, player_codes, starts
from dutch_core.stats._util import frame_of, is_value, rate, take
from dutch_core.stats.players import _results

PROVISIONAL_GAMES = 5
"""Rated games a player needs before their rating is shown as settled."""
PRIOR_GAMES = 1.0
"""The ridge penalty: how many games at the table's average a player's record starts with."""
NEWCOMER_SPREAD = 10.0
"""Points: the spread of a game total around the table's average before any game is known."""

HISTORY_RATING_COLUMNS = (
    "player",
    "game_id",
    "game_started_at",
    "game_number",
    "players",
    "rank",
    "mu",
    "sigma",
    "rating",
    "spread",
)


def rating_history(
    df: pd.DataFrame, *, results: pd.DataFrame | None = None, prior_games: float = PRIOR_GAMES
) -> pd.DataFrame:
    """Every player's rating after each of their rated games, in the order the games were played.

    A rated game is an ended game of at least two players. One row per player
    per rated game (games in start order, players in seat order): ``player``,
    ``game_id``, ``game_started_at``, ``game_number`` (the player's 1st, 2nd,
    ... rated game), ``players`` (in that game), ``rank`` (1 for the lowest
    total, equal totals share a rank), and the rating after the game: ``mu``,
    ``sigma`` and ``rating`` (the skill as shown: ``mu``). ``results``, when given,
    must be ``game_results(df)``; ``prior_games`` sets the ridge penalty (for trying others).
    """
    results = _results(df, results)
    ended = np.flatnonzero(is_value(results["game_status"], "ended"))
    games = results["game_id"].to_numpy()[ended]
    first = np.flatnonzero(changes(games))
    sizes = np.diff(np.append(first, len(games)))
    rated = np.repeat(sizes >= 2, sizes)
    rows = ended[rated]
    first, sizes = np.flatnonzero(changes(games[rated])), sizes[sizes >= 2]
    codes, names = player_codes(take(results["player"], rows))
    ranks = results["rank"].to_numpy()[rows]
    totals = results["game_total"].to_numpy()[rows].astype("float64")
    mu, sigma, spread = _rate_games(codes, totals, first, sizes, len(names), prior_games)
    # A player's n-th rated game: the running count of their rows (one per game).
    order = np.argsort(codes, kind="stable")
    per_player = np.bincount(codes, minlength=len(names))
    game_number = np.empty(len(rows), dtype="int64")
    game_number[order] = np.arange(len(rows)) - np.repeat(starts(per_player), per_player) + 1
    return frame_of(
        {
            "player": names.take(codes),
            "game_id": results["game_id"].to_numpy()[rows],
            "game_started_at": take(results["game_started_at"], rows),
            "game_number": game_number,
            "players": np.repeat(sizes, sizes).astype("int64"),
            "rank": ranks,
            "mu": mu,
            "sigma": sigma,
            "rating": mu,
            "spread": spread,
        }
    )


def _rate_games(
    codes: np.ndarray,
    totals: np.ndarray,
    first: np.ndarray,
    sizes: np.ndarray,
    players: int,
    prior_games: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rate the games one after another; each row's ``mu``, ``sigma`` and ``spread``
    after its game.

    The normal equations of the ridge fit are kept as they grow: each game adds its
    centring matrix (one minus 1/n on the diagonal, minus 1/n elsewhere) to ``A`` and
    its players' margins to ``b``; the skills solve ``A·x = b`` (negated: lower totals
    are better). ``sigma`` is the standard error of a skill against the group's
    average: the spread of a total around its table's average (pooled over the games
    so far) times the root of the diagonal of ``A``'s inverse, the all-equal
    direction (which no game can tell) taken out.
    """
    normal = np.eye(players) * prior_games
    margins = np.zeros(players)
    squares = degrees = 0.0
    mu_out = np.zeros(len(codes))
    sigma_out = np.zeros(len(codes))
    spread_out = np.zeros(len(codes))
    for start, size in zip(first.tolist(), sizes.tolist(), strict=True):
        rows = slice(start, start + size)
        seated = codes[rows]
        margin = totals[rows] - totals[rows].mean()
        # add.at: two players of a game may share a name (and so a code).
        np.add.at(normal, (seated[:, None], seated[None, :]), np.eye(size) - 1 / size)
        np.add.at(margins, seated, margin)
        squares += float(margin @ margin)
        degrees += size - 1
        inverse = np.linalg.inv(normal)
        spread = math.sqrt(squares / degrees)
        spread_out[rows] = spread
        mu_out[rows] = -(inverse[seated] @ margins)
        # Only differences of skill are known: the doubt about each player's skill
        # against the group's average (the inverse with the all-equal direction taken out).
        relative = inverse[seated, seated] - 2 * inverse[seated].mean(axis=1) + inverse.mean()
        sigma_out[rows] = spread * np.sqrt(np.maximum(relative, 0.0))
    return mu_out, sigma_out, spread_out


def player_ratings(
    df: pd.DataFrame,
    *,
    results: pd.DataFrame | None = None,
    history: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per player of the frame: their current rating beside their plain record.

    Columns: ``player``; ``rated_games``; ``mu``, ``sigma`` and ``rating`` after
    their latest rated game (0, and the newcomer's uncertainty, for a player without
    one); ``spread`` (how far a total strays from its table's average by luck, over
    all rated games); ``provisional`` (fewer than :data:`PROVISIONAL_GAMES` rated
    games); ``group_chance`` (the chance to win a game of the group's usual size
    against players of the group's average skill, see :func:`group_chances`);
    ``games_ended``, ``wins`` and ``win_rate``. Sorted best first: settled ratings
    by rating, then the provisional ones by rating; then by name. ``history``, when
    given, must be ``rating_history(df)``.
    """
    results = _results(df, results)
    history = rating_history(df, results=results) if history is None else history
    names = player_codes(df["player"])[1]
    size = len(names)
    spread = float(history["spread"].iloc[-1]) if len(history) else NEWCOMER_SPREAD
    mu = np.zeros(size)
    sigma = np.full(size, spread / math.sqrt(PRIOR_GAMES))
    rated_codes = _codes_among(history["player"], names)
    # The rows are in game order: the last row of each player holds their current rating.
    last = np.full(size, -1)
    np.maximum.at(last, rated_codes, np.arange(len(rated_codes)))
    rated = last >= 0
    mu[rated] = history["mu"].to_numpy()[last[rated]]
    sigma[rated] = history["sigma"].to_numpy()[last[rated]]
    games = np.bincount(rated_codes, minlength=size)
    ended = is_value(results["game_status"], "ended")
    ended_codes = _codes_among(results["player"], names)[ended]
    games_ended = np.bincount(ended_codes, minlength=size)
    wins = np.bincount(ended_codes[results["won"].to_numpy()[ended]], minlength=size)
    provisional = games < PROVISIONAL_GAMES
    table_size = _usual_table(history)
    folded = np.asarray([str(name).casefold() for name in names], dtype=object)
    # Rounded: equal skills (worked out along different paths) sort by name.
    order = np.lexsort((np.asarray(names, dtype=object), folded, -np.round(mu, 9), provisional))
    return frame_of(
        {
            "player": names.take(order),
            "rated_games": games[order],
            "mu": mu[order],
            "sigma": sigma[order],
            "rating": mu[order],
            "spread": np.full(size, spread),
            "provisional": provisional[order],
            "group_chance": group_chances(mu, sigma, spread, table_size)[order],
            "games_ended": games_ended[order],
            "wins": wins[order],
            "win_rate": rate(wins, games_ended)[order],
        }
    )


def games_to_settle(rated_games: int) -> int:
    """How many more rated games a player needs before their rating is settled.

    >>> games_to_settle(2), games_to_settle(PROVISIONAL_GAMES), games_to_settle(40)
    (3, 0, 0)
    """
    return max(PROVISIONAL_GAMES - int(rated_games), 0)


def _usual_table(history: pd.DataFrame) -> int:
    """The most common number of players of the rated games (4 before any; the smaller
    on a tie)."""
    if history.empty:
        return 4
    sizes = history.drop_duplicates("game_id")["players"].to_numpy()
    counts = np.bincount(sizes)
    return int(np.argmax(counts))


def group_chances(mu: np.ndarray, sigma: np.ndarray, spread: float, players: int) -> np.ndarray:
    """Each player's chance to win a game of ``players`` players against opponents of the
    group's average: the others' mean skill and mean uncertainty (everyone alike when the
    group has one player)."""
    count = len(mu)
    out = np.full(count, 1 / max(players, 1))
    if count < 2 or players < 2:
        return out
    for index in range(count):
        others = np.delete(np.arange(count), index)
        table_mu = np.array([mu[index], *[mu[others].mean()] * (players - 1)])
        table_sigma = np.array([sigma[index], *[sigma[others].mean()] * (players - 1)])
        out[index] = chances_lowest(table_mu, table_sigma, spread)[0]
    return out


def _codes_among(players: pd.Series, names: ExtensionArray) -> np.ndarray:
    """Each row's player as a code into ``names`` (which hold every one), as int64."""
    if len(players) == 0:
        return np.zeros(0, dtype="int64")
    return codes_in(players, names).astype("int64")


_ERF = np.frompyfunc(math.erf, 1, 1)
GRID = 2001


def chances_lowest(mu: np.ndarray, sigma: np.ndarray, spread: float) -> np.ndarray:
    """Each player's chance to finish with the lowest total of a table.

    A player's total, less the table's average, is taken as normal around ``-mu``
    with variance ``spread² + sigma²`` (luck and the doubt about the skill), each
    independent of the others'; the chance that it is the lowest is integrated on a
    fine grid. The chances add up to 1.
    """
    mu = np.asarray(mu, dtype="float64")
    if len(mu) < 2:
        return np.ones(len(mu))
    scale = np.sqrt(spread**2 + np.asarray(sigma, dtype="float64") ** 2)
    scale = np.maximum(scale, 1e-9)
    grid = np.linspace((-mu - 8 * scale).min(), (-mu + 8 * scale).max(), GRID)
    z = (grid[None, :] + mu[:, None]) / scale[:, None]
    density = np.exp(-(z**2) / 2) / (scale[:, None] * math.sqrt(2 * math.pi))
    above = 0.5 * (1 - _ERF(z / math.sqrt(2)).astype("float64"))  # P(total > x)
    above = np.maximum(above, 1e-300)
    everyone = np.exp(np.log(above).sum(axis=0))
    chance: np.ndarray = (density * everyone / above).sum(axis=1)
    return np.asarray(chance / chance.sum(), dtype="float64")


def win_chances(ratings: pd.DataFrame, lineup: Sequence[str]) -> pd.DataFrame:
    """Each player's chance to win the next game of ``lineup``, by the rating model.

    ``ratings`` is :func:`player_ratings`; a player it lacks plays as a newcomer
    (skill 0, the newcomer's uncertainty). One row per player of the line-up, in its
    order: ``player``, ``mu``, ``sigma``, ``rating``, ``win_chance`` (the chances add
    up to 1; see :func:`chances_lowest`).
    """
    spread = float(ratings["spread"].iloc[0]) if len(ratings) else NEWCOMER_SPREAD
    known = dict(
        zip(
            ratings["player"].tolist(),
            zip(ratings["mu"].tolist(), ratings["sigma"].tolist(), strict=True),
            strict=True,
        )
    )
    players = list(lineup)
    newcomer = (0.0, spread / math.sqrt(PRIOR_GAMES))
    values = [known.get(player, newcomer) for player in players]
    mu = np.array([value[0] for value in values], dtype="float64")
    sigma = np.array([value[1] for value in values], dtype="float64")
    return frame_of(
        {
            "player": pd.array(players, dtype="string"),
            "mu": mu,
            "sigma": sigma,
            "rating": mu,
            "win_chance": chances_lowest(mu, sigma, spread),
        }
    )
