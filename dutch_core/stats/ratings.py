"""Skill ratings: who is really the best, taking the opponents into account.

Each player has a Bayesian skill estimate (Weng–Lin, the ``openskill``
package): a mean ``mu`` and an uncertainty ``sigma``. Every ended game updates
the ratings of its players once, in start order, with the players ranked by
their final game total (lower is better; equal totals are tied). The model is
the full-pairing Bradley–Terry one, which treats a tie as a tie: two players
sharing the win come out level and above everyone behind them, whatever order
they are listed in (the package's default Plackett–Luce model does not).

The rating shown is the conservative ``mu - 3·sigma``: what the player is
almost certainly at least as good as. It starts at 0 and rises with good
results and with the number of games, so it is called provisional until a
player has :data:`PROVISIONAL_GAMES` rated games. The ratings are a pure
function of the game results: changing any past game changes the history that
they are worked out from again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import overload

import numpy as np
import pandas as pd
from openskill.models import BradleyTerryFull
from pandas.api.extensions import ExtensionArray

from dutch_core.stats._groups import changes, codes_in, player_codes, starts
from dutch_core.stats._util import frame_of, is_value, rate, take
from dutch_core.stats.players import _results

PROVISIONAL_GAMES = 5
"""Rated games a player needs before their conservative rating is shown as settled."""
MODEL = BradleyTerryFull()
"""The rating model: default prior (mu 25, sigma 25/3) and settings of the package; its
predictions give the win chances."""

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
)


@overload
def conservative(mu: float, sigma: float) -> float: ...
@overload
def conservative(mu: np.ndarray, sigma: np.ndarray) -> np.ndarray: ...
def conservative(mu: np.ndarray | float, sigma: np.ndarray | float) -> np.ndarray | float:
    """The conservative rating ``mu - 3·sigma``."""
    return mu - 3 * sigma


def rating_history(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every player's rating after each of their rated games, in the order the games were played.

    A rated game is an ended game of at least two players. One row per player
    per rated game (games in start order, players in seat order): ``player``,
    ``game_id``, ``game_started_at``, ``game_number`` (the player's 1st, 2nd,
    ... rated game), ``players`` (in that game), ``rank`` (1 for the lowest
    total, equal totals share a rank), and the rating after the game: ``mu``,
    ``sigma`` and ``rating`` (mu - 3·sigma). ``results``, when given, must be
    ``game_results(df)``.
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
    mu, sigma = _rate_games(codes.tolist(), ranks.tolist(), first.tolist(), sizes.tolist(), names)
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
            "rating": conservative(mu, sigma),
        }
    )


def _rate_games(
    codes: list[int], ranks: list[int], first: list[int], sizes: list[int], names: ExtensionArray
) -> tuple[np.ndarray, np.ndarray]:
    """Rate the games one after another; each row's ``mu`` and ``sigma`` after its game.

    This is the package's Bradley-Terry full-pairing update (its ``rate``, default
    settings, one player per team) on plain floats: the package copies every
    rating and gives it a fresh id on each call, which costs ten times the
    arithmetic. A test checks that both give the same ratings.
    """
    mus = [MODEL.mu] * len(names)
    variances = [MODEL.sigma**2] * len(names)
    tau2 = MODEL.tau**2
    two_beta2 = 2 * MODEL.beta**2
    kappa = MODEL.kappa
    sqrt, exp = math.sqrt, math.exp
    mu_out = [0.0] * len(codes)
    sigma_out = [0.0] * len(codes)
    for start, size in zip(first, sizes, strict=True):
        end = start + size
        players = codes[start:end]
        places = ranks[start:end]
        mu = [mus[code] for code in players]
        var = [variances[code] + tau2 for code in players]  # widened by tau before the game
        root = [sqrt(v) for v in var]
        weight = [r * v for r, v in zip(root, var, strict=True)]  # sqrt(var) * var
        omega = [0.0] * size
        delta = [0.0] * size
        # Each pair once: i beats q with chance p, q beats i with 1 - p, and both players'
        # updates share the pair's c and p * (1 - p).
        for i in range(size - 1):
            mu_i, var_i, place_i = mu[i], var[i], places[i]
            for q in range(i + 1, size):
                c2 = var_i + var[q] + two_beta2
                c = sqrt(c2)
                p = 1 / (1 + exp((mu[q] - mu_i) / c))
                place_q = places[q]
                won = 1.0 if place_q > place_i else 0.5 if place_q == place_i else 0.0
                omega[i] += var_i / c * (won - p)
                omega[q] += var[q] / c * (p - won)  # (1 - won) - (1 - p)
                spread = p * (1 - p) / (c2 * c)
                delta[i] += weight[i] * spread
                delta[q] += weight[q] * spread
        for i, code in enumerate(players):
            row = start + i
            mu_out[row] = mus[code] = mu[i] + omega[i]
            sigma = root[i] * sqrt(max(1 - delta[i], kappa))
            sigma_out[row] = sigma
            variances[code] = sigma * sigma
    return np.array(mu_out, dtype="float64"), np.array(sigma_out, dtype="float64")


def player_ratings(
    df: pd.DataFrame,
    *,
    results: pd.DataFrame | None = None,
    history: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per player of the frame: their current rating beside their plain record.

    Columns: ``player``; ``rated_games``; ``mu``, ``sigma`` and ``rating``
    (mu - 3·sigma) after their latest rated game (the prior, 25 and 25/3,
    for a player without one); ``provisional`` (fewer than
    :data:`PROVISIONAL_GAMES` rated games); ``games_ended``, ``wins`` and
    ``win_rate``. Sorted best first: settled ratings by rating, then the
    provisional ones by rating; then by name. ``history``, when given, must be
    ``rating_history(df)``.
    """
    results = _results(df, results)
    history = rating_history(df, results=results) if history is None else history
    names = player_codes(df["player"])[1]
    size = len(names)
    mu = np.full(size, MODEL.mu)
    sigma = np.full(size, MODEL.sigma)
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
    rating = conservative(mu, sigma)
    provisional = games < PROVISIONAL_GAMES
    folded = np.asarray([str(name).casefold() for name in names], dtype=object)
    order = np.lexsort((np.asarray(names, dtype=object), folded, -rating, provisional))
    return frame_of(
        {
            "player": names.take(order),
            "rated_games": games[order],
            "mu": mu[order],
            "sigma": sigma[order],
            "rating": rating[order],
            "provisional": provisional[order],
            "games_ended": games_ended[order],
            "wins": wins[order],
            "win_rate": rate(wins, games_ended)[order],
        }
    )


def _codes_among(players: pd.Series, names: ExtensionArray) -> np.ndarray:
    """Each row's player as a code into ``names`` (which hold every one), as int64."""
    if len(players) == 0:
        return np.zeros(0, dtype="int64")
    return codes_in(players, names).astype("int64")


def win_chances(ratings: pd.DataFrame, lineup: Sequence[str]) -> pd.DataFrame:
    """Each player's chance to win the next game of ``lineup``, by the rating model.

    ``ratings`` is :func:`player_ratings`; a player it lacks plays with the
    prior rating of a newcomer. One row per player of the line-up, in its
    order: ``player``, ``mu``, ``sigma``, ``rating``, ``win_chance`` (the
    chances add up to 1).
    """
    known = dict(
        zip(
            ratings["player"].tolist(),
            zip(ratings["mu"].tolist(), ratings["sigma"].tolist(), strict=True),
            strict=True,
        )
    )
    players = list(lineup)
    prior = (MODEL.mu, MODEL.sigma)
    values = [known.get(player, prior) for player in players]
    mu = np.array([value[0] for value in values], dtype="float64")
    sigma = np.array([value[1] for value in values], dtype="float64")
    if len(players) >= 2:
        teams = [[MODEL.rating(mu=m, sigma=s)] for m, s in zip(mu, sigma, strict=True)]
        chance = np.array(MODEL.predict_win(teams), dtype="float64")
    else:
        chance = np.ones(len(players))
    return frame_of(
        {
            "player": pd.array(players, dtype="string"),
            "mu": mu,
            "sigma": sigma,
            "rating": conservative(mu, sigma),
            "win_chance": chance,
        }
    )
