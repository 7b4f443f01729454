"""Records: winning streaks, best games and comebacks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dutch_core.stats._groups import (
    changes,
    codes_in,
    codes_of,
    find,
    group_codes,
    group_max,
    group_min,
    player_codes,
    stable_order,
    starts,
)
from dutch_core.stats._util import frame_of, is_value, moments, nullable, take
from dutch_core.stats.players import _results

RECORDS = np.array(["Longest winning streak", "Best game", "Biggest comeback"], dtype=object)


def win_streaks(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per player of an ended game: ``longest_win_streak`` and ``current_win_streak``.

    A streak is a run of consecutive ended games (in start order, among the
    games the player took part in) that the player won or shared the win of.
    ``results``, when given, must be ``game_results(df)``.
    """
    results = _results(df, results)
    ended = np.flatnonzero(is_value(results["game_status"], "ended"))
    codes, names = player_codes(take(results["player"], ended))
    started = moments(results["game_started_at"])[ended]
    order = stable_order(codes, started, results["game_id"].to_numpy()[ended])
    codes, won = codes[order], results["won"].to_numpy()[ended][order]
    # A player's first game and every game not won start a new run; a run's wins are a streak.
    run = np.cumsum(changes(codes) | ~won) - 1
    runs = run[-1] + 1 if len(run) else 0
    streak = np.bincount(run[won], minlength=runs)
    counts = np.bincount(codes, minlength=len(names))
    last_run = run[starts(counts) + counts - 1]
    return frame_of(
        {
            "player": names,
            "longest_win_streak": group_max(codes[changes(run)], streak, len(names)),
            "current_win_streak": streak[last_run],
        }
    )


def comebacks(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per winner of an ended game: the largest deficit they overcame.

    The deficit of a player at a round's end is their game total minus the
    lowest game total at that moment (the leader's). A winner's ``deficit``
    is the largest one they had at any round end of the game, and
    ``round_number`` the first round where it occurred; the biggest comeback
    is the row with the largest deficit. Sorted by deficit, largest first.
    ``results`` as in :func:`win_streaks`.
    """
    rows = np.flatnonzero(is_value(df["game_status"], "ended"))
    totals = df["game_total"].to_numpy()[rows]
    rounds, round_ids = group_codes(df["round_id"].to_numpy()[rows])
    deficit = totals - group_min(rounds, totals, len(round_ids))[rounds]
    results = _results(df, results)
    winners = np.flatnonzero(results["won"].to_numpy())
    keys, winner_keys = _game_player_keys(df, rows, results, winners)
    # The winners' rows, and for each the first of the winner's rows in the results.
    distinct, first = np.unique(winner_keys, return_index=True)
    winner = find(keys, distinct)
    mine = np.flatnonzero(winner >= 0)
    numbers = df["round_number"].to_numpy()[rows]
    # Per winner, the largest deficit, at its first round (then the first such row).
    order = mine[stable_order(keys[mine], -deficit[mine], numbers[mine])]
    best = np.sort(order[changes(keys[order])])
    # Largest deficit first, then earlier games, then as above.
    started = moments(df["game_started_at"])[rows]
    best = best[stable_order(-deficit[best], started[best], numbers[best])]
    return frame_of(
        {
            "game_id": take(df["game_id"], rows[best]),
            "game_started_at": take(df["game_started_at"], rows[best]),
            "player": take(df["player"], rows[best]),
            "deficit": deficit[best],
            "round_number": numbers[best],
            "game_total": results["game_total"].to_numpy()[winners][first[winner[best]]],
        }
    )


def _game_player_keys(
    df: pd.DataFrame, rows: np.ndarray, results: pd.DataFrame, winners: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One integer per (game, player) of the frame's ``rows`` and the results' ``winners``."""
    codes, names = player_codes(df["player"])
    games, game_ids = group_codes(df["game_id"].to_numpy()[rows])
    winner_games = codes_of(results["game_id"].to_numpy()[winners], game_ids)
    winner_codes = codes_in(take(results["player"], winners), names)
    size = max(len(names), 1)
    keys = games.astype("int64") * size + codes[rows]
    return keys, winner_games.astype("int64") * size + winner_codes


def best_games(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """The winners of ended games, lowest final total first (fewer rounds first on a tie)."""
    results = _results(df, results)
    won = np.flatnonzero(results["won"].to_numpy())
    order = stable_order(
        results["game_total"].to_numpy()[won],
        results["rounds"].to_numpy()[won],
        moments(results["game_started_at"])[won],
    )
    columns = ["game_id", "game_started_at", "player", "game_total", "rounds"]
    return frame_of({name: take(results[name], won[order]) for name in columns})


def records(
    df: pd.DataFrame,
    *,
    results: pd.DataFrame | None = None,
    streaks: pd.DataFrame | None = None,
    comeback_rows: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The group's records, one row per holder (ties list every holder).

    ``record`` is one of "Longest winning streak" (``value`` in games),
    "Best game" (the lowest final total of an ended game) and "Biggest
    comeback" (the largest deficit to the leader at a round end that the
    eventual winner overcame, in points; see :func:`comebacks`). ``game_id``
    and ``game_started_at`` are missing for streaks. Records that no game
    has set yet (e.g. no comeback when every winner led throughout) are left out.

    A caller that already has them passes ``game_results(df)``,
    ``win_streaks(df)`` and ``comebacks(df)`` as ``results``, ``streaks`` and
    ``comeback_rows``.
    """
    results = _results(df, results)
    if streaks is None:
        streaks = win_streaks(df, results=results)
    if comeback_rows is None:
        comeback_rows = comebacks(df, results=results)
    best = best_games(df, results=results)
    held = [
        (streaks, "longest_win_streak", _top(streaks["longest_win_streak"], largest=True)),
        (best, "game_total", _top(best["game_total"], largest=False)),
        (comeback_rows, "deficit", _top(comeback_rows["deficit"], largest=True)),
    ]
    sizes = [len(rows) for _, _, rows in held]
    players = [np.asarray(take(table["player"], rows), dtype=object) for table, _, rows in held]
    values = [table[column].to_numpy()[rows] for table, column, rows in held]
    # Streaks are not set in one game: no game id, no start.
    game_ids = [np.zeros(sizes[0], dtype="int64")]
    started = [np.full(sizes[0], np.datetime64("NaT", "ns")).view("int64")]
    for table, _, rows in held[1:]:
        game_ids.append(table["game_id"].to_numpy()[rows])
        started.append(moments(table["game_started_at"])[rows])
    return frame_of(
        {
            "record": pd.array(np.repeat(RECORDS, sizes), dtype="string"),
            "player": pd.array(np.concatenate(players), dtype="string"),
            "value": np.concatenate(values).astype("int64"),
            "game_id": nullable(np.concatenate(game_ids), np.arange(sum(sizes)) >= sizes[0]),
            "game_started_at": pd.to_datetime(
                np.concatenate(started).view("datetime64[ns]"), utc=True
            ),
        }
    )


def _top(column: pd.Series, *, largest: bool) -> np.ndarray:
    """The rows holding the largest (or smallest) value of ``column``.

    A largest value of 0 (nobody has won, no comeback) is no record: no rows.
    """
    values = column.to_numpy()
    if len(values) == 0:
        return np.zeros(0, dtype="int64")
    rows = np.flatnonzero(values == (values.max() if largest else values.min()))
    return rows[values[rows] != 0] if largest else rows


def player_records(
    summary: pd.DataFrame, streaks: pd.DataFrame, comeback_rows: pd.DataFrame
) -> pd.DataFrame:
    """Per player: longest and current winning streak, best game and biggest comeback.

    ``streaks`` and ``comeback_rows`` are the view's :func:`win_streaks`
    and :func:`comebacks`.
    """
    players = summary["player"]
    by_player = streaks.set_index("player")
    longest = by_player["longest_win_streak"].reindex(players, fill_value=0).to_numpy()
    current = by_player["current_win_streak"].reindex(players, fill_value=0).to_numpy()
    comebacks = comeback_rows.groupby("player")["deficit"].max().reindex(players)
    return pd.DataFrame(
        {
            "player": players,
            "longest_win_streak": longest.astype("int64"),
            "current_win_streak": current.astype("int64"),
            "best_game": summary["best_game"],
            "biggest_comeback": comebacks.astype("Int64").array,
        }
    )
