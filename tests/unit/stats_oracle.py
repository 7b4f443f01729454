"""The statistics in plain pandas: the readable reference the fast versions are checked against.

These are the statistics of :mod:`dutch_core.stats` as they were first written,
one group-by, merge or named aggregation per idea. They are kept here, unchanged
in what they return, so that the faster statements in ``dutch_core.stats`` can
be checked against them table for table (``tests/unit/test_stats_oracle.py``).
Docstrings are short; the full descriptions live with the fast versions.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import numpy as np
import pandas as pd

OUTCOMES = ("lowest", "tied", "beaten")
GAME_RESULT_COLUMNS = [
    "game_id",
    "game_started_at",
    "game_status",
    "player_id",
    "player",
    "seat",
    "rounds",
    "game_total",
    "rank",
    "won",
]
RECORD_COLUMNS = ["record", "player", "value", "game_id", "game_started_at"]


# Helpers


def is_value(series: pd.Series, value: str) -> np.ndarray:
    """A plain boolean mask: the cells equal to ``value`` (missing cells are False)."""
    return series.eq(value).to_numpy(dtype=bool, na_value=False)


def rate(numerator: pd.Series, denominator: pd.Series) -> pd.Series:
    """``numerator / denominator`` as floats, NaN where the denominator is 0."""
    den = denominator.astype("float64")
    return numerator.astype("float64") / den.where(den > 0)


def ended_only(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of ended games."""
    return df.loc[is_value(df["game_status"], "ended")]


def only_players(table: pd.DataFrame, players: Iterable[str] | None) -> pd.DataFrame:
    """The rows of a statistics table whose ``player`` is one of ``players`` (all if None)."""
    if players is None:
        return table
    return table.loc[table["player"].isin(list(players))].reset_index(drop=True)


# Players


def game_results(df: pd.DataFrame) -> pd.DataFrame:
    """One row per player per game: the final game total, rank and whether they won."""
    last_round = df.groupby("game_id")["round_number"].transform("max")
    final = df.loc[df["round_number"].eq(last_round).to_numpy(dtype=bool)]
    final = final.rename(columns={"round_number": "rounds"})
    rank = final.groupby("game_id")["game_total"].rank(method="min")
    final = final.assign(
        rank=rank.astype("int64"),
        won=is_value(final["game_status"], "ended") & rank.eq(1).to_numpy(dtype=bool),
    )
    order = ["game_started_at", "game_id", "seat"]
    return final.sort_values(order, kind="stable", ignore_index=True)[GAME_RESULT_COLUMNS]


def _results(df: pd.DataFrame, results: pd.DataFrame | None) -> pd.DataFrame:
    return game_results(df) if results is None else results


def player_summary(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per player: games, wins and round and game scores."""
    per_round = df.groupby("player").agg(
        games=("game_id", "nunique"),
        rounds=("round_id", "size"),
        avg_round_score=("round_score", "mean"),
        median_round_score=("round_score", "median"),
        best_round=("round_score", "min"),
        worst_round=("round_score", "max"),
    )
    ended = ended_only(_results(df, results))
    per_game = ended.groupby("player").agg(
        games_ended=("game_id", "size"),
        wins=("won", "sum"),
        avg_game_total=("game_total", "mean"),
        best_game=("game_total", "min"),
        worst_game=("game_total", "max"),
    )
    games = df.groupby("game_id").agg(start=("game_started_at", "first"), end=("played_at", "max"))
    length = (games["end"] - games["start"]).clip(lower=pd.Timedelta(0))
    seated = df[["game_id", "player"]].drop_duplicates()
    seated = seated.merge(length.rename("length"), left_on="game_id", right_index=True)
    per_round["time_played"] = seated.groupby("player", observed=True)["length"].sum()
    out = per_round.join(per_game, how="left")
    out["games_ended"] = out["games_ended"].fillna(0).astype("int64")
    out["wins"] = out["wins"].fillna(0).astype("int64")
    out["win_rate"] = rate(out["wins"], out["games_ended"])
    out["best_game"] = out["best_game"].astype("Int64")
    out["worst_game"] = out["worst_game"].astype("Int64")
    columns = [
        "games",
        "games_ended",
        "wins",
        "win_rate",
        "rounds",
        "avg_round_score",
        "median_round_score",
        "best_round",
        "worst_round",
        "avg_game_total",
        "best_game",
        "worst_game",
        "time_played",
    ]
    return out[columns].astype({"avg_round_score": "float64"}).reset_index()


def head_to_head(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """For each ordered pair of players, their finishes in the ended games both played."""
    finals = ended_only(_results(df, results))[["game_id", "player", "game_total"]]
    pairs = finals.merge(finals, on="game_id", suffixes=("", "_opponent"))
    pairs = pairs.loc[pairs["player"].ne(pairs["player_opponent"]).to_numpy(dtype=bool)]
    diff = pairs["game_total"] - pairs["game_total_opponent"]
    pairs = pairs.assign(
        opponent=pairs["player_opponent"], lower=diff < 0, higher=diff > 0, equal=diff == 0
    )
    out = pairs.groupby(["player", "opponent"]).agg(
        games=("game_id", "size"),
        lower=("lower", "sum"),
        higher=("higher", "sum"),
        equal=("equal", "sum"),
    )
    out = out.astype("int64")
    out["lower_rate"] = rate(out["lower"], out["games"])
    return out.reset_index()


# Calls


def _calls(df: pd.DataFrame) -> pd.DataFrame:
    calls = df.loc[df["is_caller"].to_numpy(dtype=bool)]
    flags = {outcome: is_value(calls["outcome"], outcome) for outcome in OUTCOMES}
    flags["dutch"] = is_value(calls["call_type"], "dutch")
    flags["auto_dutch"] = is_value(calls["call_type"], "auto_dutch")
    return calls.assign(**flags)


def _outcome_counts(calls: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    out = calls.groupby(keys).agg(
        calls=("round_id", "size"), **{outcome: (outcome, "sum") for outcome in OUTCOMES}
    )
    out = out.astype("int64")
    for outcome in OUTCOMES:
        out[f"{outcome}_rate"] = rate(out[outcome], out["calls"])
    return out


def dutch_calls(df: pd.DataFrame) -> pd.DataFrame:
    """One row per player: their Dutch calls and how their hands fared against others' calls."""
    calls = _calls(df)
    counts = _outcome_counts(calls, ["player"])
    extra = calls.groupby("player").agg(
        dutch=("dutch", "sum"),
        auto_dutch=("auto_dutch", "sum"),
        avg_penalty_cards=("penalty_cards_due", "mean"),
        avg_penalty_points=("penalty_points", "mean"),
    )
    faced = df.loc[df["caller"].notna().to_numpy(dtype=bool) & ~df["is_caller"].to_numpy(bool)]
    beat = faced["hand_total"] < faced["caller_hand_total"]
    faced = faced.assign(beat=beat.to_numpy(dtype=bool, na_value=False))
    against = faced.groupby("player").agg(faced_calls=("round_id", "size"), beat=("beat", "sum"))
    out = df.groupby("player").size().rename("rounds").to_frame()
    out = out.join(counts, how="left").join(extra, how="left").join(against, how="left")
    counted = ["calls", "dutch", "auto_dutch", *OUTCOMES, "faced_calls", "beat"]
    out[counted] = out[counted].fillna(0).astype("int64")
    out["calls_per_round"] = rate(out["calls"], out["rounds"])
    out["beat_call_rate"] = rate(out["beat"], out["faced_calls"])
    out = out.rename(columns={"beat": "beat_calls"})
    columns = [
        "rounds",
        "calls",
        "calls_per_round",
        "dutch",
        "auto_dutch",
        *OUTCOMES,
        *(f"{outcome}_rate" for outcome in OUTCOMES),
        "avg_penalty_cards",
        "avg_penalty_points",
        "faced_calls",
        "beat_calls",
        "beat_call_rate",
    ]
    averages = {"avg_penalty_cards": "float64", "avg_penalty_points": "float64"}
    return out[columns].astype(averages).reset_index()


def call_success_by_hand_total(df: pd.DataFrame, by_player: bool = False) -> pd.DataFrame:
    """How calls turn out by the caller's hand total."""
    calls = _calls(df)
    keys = ["player", "hand_total"] if by_player else ["hand_total"]
    out = _outcome_counts(calls, keys).reset_index()
    if by_player:
        running = out.groupby("player")[["calls", "lowest"]].cumsum()
    else:
        running = out[["calls", "lowest"]].cumsum()
    out["lowest_rate_at_or_below"] = rate(running["lowest"], running["calls"])
    return out


# Records


def win_streaks(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per player of an ended game: ``longest_win_streak`` and ``current_win_streak``."""
    ended = ended_only(_results(df, results)).sort_values(
        ["player", "game_started_at", "game_id"], kind="stable"
    )
    won = ended["won"]
    block = (~won).astype("int64").groupby(ended["player"]).cumsum()
    last_block = block.groupby(ended["player"]).transform("max")
    streaks = pd.DataFrame(
        {
            "player": ended["player"],
            "block": block,
            "won": won,
            "current": won & block.eq(last_block),
        }
    )
    longest = streaks.groupby(["player", "block"])["won"].sum().groupby(level="player").max()
    current = streaks.groupby("player")["current"].sum()
    out = pd.DataFrame({"longest_win_streak": longest, "current_win_streak": current})
    return out.astype("int64").rename_axis("player").reset_index()


def comebacks(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per winner of an ended game: the largest deficit they overcame."""
    rows = ended_only(df)
    leader = rows.groupby("round_id")["game_total"].transform("min")
    rows = rows.assign(deficit=rows["game_total"] - leader)
    winners = _results(df, results).loc[lambda r: r["won"], ["game_id", "player", "game_total"]]
    rows = rows[["game_id", "game_started_at", "player", "round_number", "deficit"]].merge(
        winners, on=["game_id", "player"]
    )
    rows = rows.sort_values(["deficit", "round_number"], ascending=[False, True], kind="stable")
    out = rows.drop_duplicates(["game_id", "player"], keep="first")
    out = out.sort_values(["deficit", "game_started_at"], ascending=[False, True], kind="stable")
    columns = ["game_id", "game_started_at", "player", "deficit", "round_number", "game_total"]
    return out[columns].reset_index(drop=True)


def best_games(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """The winners of ended games, lowest final total first (fewer rounds first on a tie)."""
    won = _results(df, results).loc[lambda r: r["won"]]
    order = ["game_total", "rounds", "game_started_at"]
    columns = ["game_id", "game_started_at", "player", "game_total", "rounds"]
    return won.sort_values(order, kind="stable", ignore_index=True)[columns]


def records(
    df: pd.DataFrame,
    *,
    results: pd.DataFrame | None = None,
    streaks: pd.DataFrame | None = None,
    comeback_rows: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The group's records, one row per holder (ties list every holder)."""
    results = _results(df, results)
    if streaks is None:
        streaks = win_streaks(df, results=results)
    if comeback_rows is None:
        comeback_rows = comebacks(df, results=results)
    streak = _top(streaks, "longest_win_streak", largest=True)
    streak = streak.assign(
        game_id=pd.Series(pd.NA, index=streak.index, dtype="Int64"),
        game_started_at=pd.Series(pd.NaT, index=streak.index, dtype="datetime64[ns, UTC]"),
    )
    best = _top(best_games(df, results=results), "game_total", largest=False)
    comeback = _top(comeback_rows, "deficit", largest=True)
    parts = [
        _as_record(streak, "Longest winning streak", "longest_win_streak"),
        _as_record(best, "Best game", "game_total"),
        _as_record(comeback, "Biggest comeback", "deficit"),
    ]
    out = pd.concat(parts, ignore_index=True)
    return out.astype({"value": "int64", "game_id": "Int64"}).loc[:, RECORD_COLUMNS]


def _top(table: pd.DataFrame, column: str, *, largest: bool) -> pd.DataFrame:
    if table.empty:
        return table
    target = table[column].max() if largest else table[column].min()
    holders = table.loc[table[column].eq(target)]
    return holders.loc[holders[column].ne(0)] if largest else holders


def _as_record(table: pd.DataFrame, label: str, column: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "record": pd.Series(label, index=table.index, dtype="string"),
            "player": table["player"].astype("string"),
            "value": table[column].astype("int64"),
            "game_id": table["game_id"].astype("Int64"),
            "game_started_at": table["game_started_at"].astype("datetime64[ns, UTC]"),
        }
    )


# Trends


def _running(table: pd.DataFrame, column: str, window: int) -> pd.DataFrame:
    values = table[column].astype("int64")
    by_player = values.groupby(table["player"], sort=False)
    count = (by_player.cumcount() + 1).astype("int64")
    total = by_player.cumsum().astype("int64")
    rolling = by_player.rolling(window, min_periods=1).mean().reset_index(level=0, drop=True)
    return table.assign(n=count, total=total, running=total / count, rolling=rolling)


def round_score_trend(df: pd.DataFrame, window: int = 10) -> pd.DataFrame:
    """Each player's round scores in the order played, with a rolling average."""
    order = ["player", "played_at", "game_id", "round_number"]
    rounds = df[[*order, "round_score"]].sort_values(order, kind="stable", ignore_index=True)
    rounds = _running(rounds, "round_score", window)
    rounds = rounds.rename(columns={"n": "player_round", "rolling": "rolling_avg"})
    columns = [*order, "player_round", "round_score", "rolling_avg"]
    return rounds[columns]


def win_rate_trend(
    df: pd.DataFrame, window: int = 10, *, results: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Each player's win rate after each of their ended games, in start order."""
    order = ["player", "game_started_at", "game_id"]
    games = ended_only(_results(df, results))[[*order, "won"]]
    games = games.sort_values(order, kind="stable", ignore_index=True)
    games = _running(games, "won", window)
    games = games.rename(
        columns={
            "n": "game_number",
            "total": "wins",
            "running": "win_rate",
            "rolling": "rolling_win_rate",
        }
    )
    return games[[*order, "game_number", "won", "wins", "win_rate", "rolling_win_rate"]]


def call_success_trend(df: pd.DataFrame, window: int = 10) -> pd.DataFrame:
    """Each player's Dutch-call success rate after each of their calls, in the order made."""
    order = ["player", "played_at", "game_id", "round_number"]
    calls = df.loc[df["is_caller"].to_numpy(dtype=bool), [*order, "outcome"]]
    calls = calls.sort_values(order, kind="stable", ignore_index=True)
    calls = calls.assign(succeeded=is_value(calls["outcome"], "lowest"))
    calls = _running(calls, "succeeded", window)
    calls = calls.rename(
        columns={"n": "call_number", "running": "success_rate", "rolling": "rolling_success_rate"}
    )
    return calls[[*order, "call_number", "outcome", "success_rate", "rolling_success_rate"]]


# Ratings and the call analysis (the model, fit and reference line are the package's own)


def rating_history(df: pd.DataFrame) -> pd.DataFrame:
    """Ended games of two or more players in start order; after each, the ridge fit of
    every margin so far (a total less its table's average) on the players' skills."""
    from dutch_core.stats.ratings import PRIOR_GAMES

    results = game_results(df)
    ended = results.loc[is_value(results["game_status"], "ended")]
    sizes = ended.groupby("game_id")["player"].transform("size")
    names = sorted(set(ended.loc[sizes >= 2, "player"].astype(str)))  # the rated players
    column = {name: index for index, name in enumerate(names)}
    design: list[np.ndarray] = []  # one row per player per game: +1 for them, -1/n each
    margins: list[float] = []
    played: dict[str, int] = {}
    rows = []
    for _, game in ended.groupby(["game_started_at", "game_id"], sort=True):
        if len(game) < 2:
            continue
        game = game.sort_values("seat", kind="stable")
        size = len(game)
        for player, total in zip(game["player"], game["game_total"], strict=True):
            row = np.zeros(len(names))
            for other in game["player"]:
                row[column[other]] -= 1 / size
            row[column[player]] += 1
            design.append(row)
            margins.append(total - game["game_total"].mean())
        x, y = np.array(design), np.array(margins)
        # Ridge as plain least squares: sqrt(prior) * identity rows asking for skill 0.
        stacked = np.vstack([x, np.sqrt(PRIOR_GAMES) * np.eye(len(names))])
        target = np.concatenate([y, np.zeros(len(names))])
        solution = np.linalg.lstsq(stacked, target, rcond=None)[0]
        inverse = np.linalg.inv(stacked.T @ stacked)
        centre = np.eye(len(names)) - 1 / len(names)
        relative = np.diag(centre @ inverse @ centre)
        degrees = sum(len(g) - 1 for g in _games_so_far(ended, game["game_id"].iloc[0]))
        spread = np.sqrt((y**2).sum() / degrees)
        for _, result in game.iterrows():
            name = result["player"]
            played[name] = played.get(name, 0) + 1
            skill = -solution[column[name]]
            rows.append(
                {
                    "player": name,
                    "game_id": result["game_id"],
                    "game_started_at": result["game_started_at"],
                    "game_number": played[name],
                    "players": size,
                    "rank": result["rank"],
                    "mu": skill,
                    "sigma": spread * np.sqrt(relative[column[name]]),
                    "rating": skill,
                    "spread": spread,
                }
            )
    columns = [
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
    ]
    return pd.DataFrame(rows, columns=columns)


def _games_so_far(ended: pd.DataFrame, last_game: int) -> list[pd.DataFrame]:
    """The rated games (two or more players) in start order up to and with ``last_game``."""
    games = []
    for (_, game_id), game in ended.groupby(["game_started_at", "game_id"], sort=True):
        if len(game) >= 2:
            games.append(game)
        if game_id == last_game:
            break
    return games


def player_ratings(df: pd.DataFrame) -> pd.DataFrame:
    """The last rating of each player (a newcomer's without one), beside their wins."""
    from dutch_core.stats.ratings import (
        NEWCOMER_SPREAD,
        PRIOR_GAMES,
        PROVISIONAL_GAMES,
        chances_lowest,
    )

    history = rating_history(df)
    spread = history["spread"].iloc[-1] if len(history) else NEWCOMER_SPREAD
    last = history.groupby("player").agg(
        rated_games=("game_number", "size"), mu=("mu", "last"), sigma=("sigma", "last")
    )
    summary = player_summary(df).set_index("player")
    table = summary[["games_ended", "wins", "win_rate"]].join(last, how="left")
    table["rated_games"] = table["rated_games"].fillna(0).astype("int64")
    table["mu"] = table["mu"].fillna(0.0)
    table["sigma"] = table["sigma"].fillna(spread / np.sqrt(PRIOR_GAMES))
    table["rating"] = table["mu"]
    table["spread"] = spread
    table["provisional"] = table["rated_games"] < PROVISIONAL_GAMES
    # The usual table: the most common size of a rated game (the smaller on a tie).
    sizes = history.drop_duplicates("game_id")["players"]
    usual = int(sizes.value_counts().sort_index().idxmax()) if len(sizes) else 4
    chances = []
    for name in table.index:
        others = table.drop(index=name)
        if others.empty:
            chances.append(1 / usual)
            continue
        mu = [table.loc[name, "mu"]] + [others["mu"].mean()] * (usual - 1)
        sigma = [table.loc[name, "sigma"]] + [others["sigma"].mean()] * (usual - 1)
        chances.append(chances_lowest(np.array(mu), np.array(sigma), spread)[0])
    table["group_chance"] = chances
    table = table.reset_index()
    # Plain text: mapped, a categorical column would keep its categories' order.
    table["folded"] = table["player"].astype(str).map(str.casefold)
    table["rounded"] = table["rating"].round(9)
    table = table.sort_values(
        ["provisional", "rounded", "folded", "player"], ascending=[True, False, True, True]
    )
    columns = ["player", "rated_games", "mu", "sigma", "rating", "spread", "provisional"]
    return table[[*columns, "group_chance", "games_ended", "wins", "win_rate"]].reset_index(
        drop=True
    )


def _round_calls(df: pd.DataFrame, callers: Iterable[str] | None = None) -> pd.DataFrame:
    """The callers' rows (of ``callers`` only, when given), with their round's player count."""
    sizes = df.groupby("round_id")["player"].transform("size")
    calls = df.assign(players=sizes).loc[df["is_caller"].to_numpy(dtype=bool)]
    if callers is not None:
        calls = calls.loc[calls["player"].isin(list(callers)).to_numpy(dtype=bool)]
    return calls.assign(success=is_value(calls["outcome"], "lowest"))


def call_chances(df: pd.DataFrame, callers: Iterable[str] | None = None) -> pd.DataFrame:
    """Calls and successes per hand total and player count (the fitted columns left out)."""
    calls = _round_calls(df, callers)
    table = calls.groupby(["hand_total", "players"]).agg(
        calls=("success", "size"), lowest=("success", "sum")
    )
    table = table.reset_index()
    table["lowest_rate"] = rate(table["lowest"], table["calls"])
    return table


def calls_by_player(df: pd.DataFrame) -> pd.DataFrame:
    """Each player's calls per hand total, and the mean reference chance of those calls."""
    from dutch_core.stats.calling import reference_chance

    calls = _round_calls(df)
    calls = calls.assign(reference=reference_chance(calls["hand_total"], calls["players"]))
    table = calls.groupby(["player", "hand_total"]).agg(
        calls=("success", "size"), lowest=("success", "sum"), reference=("reference", "mean")
    )
    table = table.reset_index()
    table["lowest_rate"] = rate(table["lowest"], table["calls"])
    return table[["player", "hand_total", "calls", "lowest", "lowest_rate", "reference"]]


def caller_profiles(df: pd.DataFrame) -> pd.DataFrame:
    """Each caller's average hand, own success, the group's success at that total, the reference."""
    from dutch_core.stats.calling import reference_chance

    calls = _round_calls(df)
    calls = calls.assign(reference=reference_chance(calls["hand_total"], calls["players"]))
    table = calls.groupby("player").agg(
        calls=("success", "size"),
        avg_hand_total=("hand_total", "mean"),
        lowest_rate=("success", "mean"),
        reference_rate=("reference", "mean"),
    )
    table = table.reset_index()
    table["typical_total"] = np.floor(table["avg_hand_total"] + 0.5).astype("int64")
    at_total = calls.groupby("hand_total")["success"].agg(["size", "mean"])
    table["group_calls_at_typical"] = (
        table["typical_total"].map(at_total["size"]).fillna(0).astype("int64")
    )
    table["group_rate_at_typical"] = table["typical_total"].map(at_total["mean"])
    columns = [
        "player",
        "calls",
        "avg_hand_total",
        "typical_total",
        "lowest_rate",
        "group_calls_at_typical",
        "group_rate_at_typical",
        "reference_rate",
    ]
    return table[columns]


def call_advice(df: pd.DataFrame) -> pd.DataFrame:
    """Per player and table size: the highest hand total whose calls at or below it were lowest
    at least 75% of the time, once the player has made 10 calls at that size."""
    rows = []
    calls = _round_calls(df)
    for (player, players), group in calls.groupby(["player", "players"], observed=True):
        by_total = group.groupby("hand_total")["success"].agg(["size", "sum"]).cumsum()
        good = by_total.loc[by_total["sum"] >= 0.75 * by_total["size"]]
        advised = len(group) >= 10 and not good.empty
        rows.append(
            {
                "player": player,
                "players": players,
                "calls": len(group),
                "hand_total": good.index[-1] if advised else pd.NA,
                "calls_at_or_below": good["size"].iloc[-1] if advised else 0,
                "lowest_at_or_below": good["sum"].iloc[-1] if advised else 0,
            }
        )
    columns = ["player", "players", "calls", "hand_total", "calls_at_or_below"]
    return pd.DataFrame(rows, columns=[*columns, "lowest_at_or_below"])


# Seasons


def _season_key(day, kind: str, named: list[tuple[str, object]]):
    """(label, first day, end day) of the season of a local ``day``: a pandas Period for the
    calendar kinds, the latest named start on or before it otherwise (None before any)."""
    if kind == "named":
        started = [
            (start, name) for name, start in sorted(named, key=lambda s: s[1]) if start <= day
        ]
        if not started:
            return None
        start, name = started[-1]
        later = [s for _, s in named if s > start]
        return name, start, min(later) if later else None
    period = pd.Period(day, freq={"quarter": "Q", "month": "M", "year": "Y"}[kind])
    label = {
        "quarter": f"{period.year} Q{period.quarter}",
        "month": f"{period.year}-{period.month:02d}",
    }
    return (
        label.get(kind, str(period.year)),
        period.start_time.date(),
        (period + 1).start_time.date(),
    )


def season_table(df: pd.DataFrame, kind: str, zone, named=()) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each season's games and leaders, and each player's season, one group-by per idea."""
    named = [(season.name, season.starts_on) for season in named]
    seasons_columns = ["season", "first_day", "end_day", "games", "leaders", "leader_wins"]
    player_columns = [
        "season", "player", "games", "wins", "avg_game_total", "rating", "time_played", "leader"
    ]  # fmt: skip
    if df.empty:
        return pd.DataFrame(columns=seasons_columns), pd.DataFrame(columns=player_columns)
    games = df.groupby("game_id").agg(started=("game_started_at", "first"))
    games["day"] = [moment.to_pydatetime().astimezone(zone).date() for moment in games["started"]]
    games["key"] = [_season_key(day, kind, named) for day in games["day"]]
    # Every season from the first game's to the last game's, empty ones included.
    keys, day = [], games["day"].min()
    if _season_key(day, kind, named) is None:
        day = min(start for _, start in named)
    while day <= games["day"].max():
        key = _season_key(day, kind, named)
        keys.append(key)
        if key[2] is None:
            break
        day = key[2]
    if not keys:  # every game before the first named season
        return pd.DataFrame(columns=seasons_columns), pd.DataFrame(columns=player_columns)
    history = rating_history(df)
    summaries, tables = [], []
    for label, first_day, end_day in keys:
        ids = games.index[games["key"] == (label, first_day, end_day)]
        rows = df.loc[df["game_id"].isin(ids)]
        table = player_summary(rows)
        if end_day is not None:
            end = pd.Timestamp(dt.datetime.combine(end_day, dt.time(), tzinfo=zone))
            before = history.loc[history["game_started_at"] < end]
        else:
            before = history
        last = before.groupby("player")["rating"].last()
        table["rating"] = table["player"].map(last).astype("float64").fillna(0.0)
        most = table["wins"].max() if len(table) else 0
        table["leader"] = table["wins"].eq(most) & (most > 0)
        leaders = sorted(table.loc[table["leader"], "player"].astype(str))
        summaries.append([label, first_day, end_day, len(ids), ", ".join(leaders), int(most)])
        tables.append(table.assign(season=label))
    return (
        pd.DataFrame(summaries, columns=seasons_columns),
        pd.concat(tables, ignore_index=True)[player_columns],
    )
