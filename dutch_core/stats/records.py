"""Records: winning streaks, best games and comebacks."""

from __future__ import annotations

import pandas as pd

from dutch_core.stats._util import ended_only
from dutch_core.stats.players import _results

RECORD_COLUMNS = ["record", "player", "value", "game_id", "game_started_at"]


def win_streaks(df: pd.DataFrame, *, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per player of an ended game: ``longest_win_streak`` and ``current_win_streak``.

    A streak is a run of consecutive ended games (in start order, among the
    games the player took part in) that the player won or shared the win of.
    ``results``, when given, must be ``game_results(df)``.
    """
    ended = ended_only(_results(df, results)).sort_values(
        ["player", "game_started_at", "game_id"], kind="stable"
    )
    won = ended["won"]
    # Every game not won starts a new block; the wins of one block form one streak.
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
    """One row per winner of an ended game: the largest deficit they overcame.

    The deficit of a player at a round's end is their game total minus the
    lowest game total at that moment (the leader's). A winner's ``deficit``
    is the largest one they had at any round end of the game, and
    ``round_number`` the first round where it occurred; the biggest comeback
    is the row with the largest deficit. Sorted by deficit, largest first.
    ``results`` as in :func:`win_streaks`.
    """
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
    """The rows holding the largest (or smallest) value of ``column``.

    A largest value of 0 (nobody has won, no comeback) is no record: no rows.
    """
    if table.empty:
        return table
    target = table[column].max() if largest else table[column].min()
    holders = table.loc[table[column].eq(target)]
    return holders.loc[holders[column].ne(0)] if largest else holders


def _as_record(table: pd.DataFrame, label: str, column: str) -> pd.DataFrame:
    """``table`` reshaped to the record columns under ``label``."""
    return pd.DataFrame(
        {
            "record": pd.Series(label, index=table.index, dtype="string"),
            "player": table["player"].astype("string"),
            "value": table[column].astype("int64"),
            "game_id": table["game_id"].astype("Int64"),
            "game_started_at": table["game_started_at"].astype("datetime64[ns, UTC]"),
        }
    )
