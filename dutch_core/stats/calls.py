"""Dutch calls: how often each player calls, how the calls turn out, who beats them."""

from __future__ import annotations

import pandas as pd

from dutch_core.stats._util import is_value, rate

OUTCOMES = ("lowest", "tied", "beaten")


def _calls(df: pd.DataFrame) -> pd.DataFrame:
    """The callers' rows, with one boolean column per outcome and per call type."""
    calls = df.loc[df["is_caller"].to_numpy(dtype=bool)]
    flags = {outcome: is_value(calls["outcome"], outcome) for outcome in OUTCOMES}
    flags["dutch"] = is_value(calls["call_type"], "dutch")
    flags["auto_dutch"] = is_value(calls["call_type"], "auto_dutch")
    return calls.assign(**flags)


def _outcome_counts(calls: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Calls and outcome counts and rates per group of ``keys``."""
    out = calls.groupby(keys).agg(
        calls=("round_id", "size"), **{outcome: (outcome, "sum") for outcome in OUTCOMES}
    )
    out = out.astype("int64")
    for outcome in OUTCOMES:
        out[f"{outcome}_rate"] = rate(out[outcome], out["calls"])
    return out


def dutch_calls(df: pd.DataFrame) -> pd.DataFrame:
    """One row per player: their Dutch calls and how their hands fared against others' calls.

    Columns: ``player``, ``rounds``, ``calls``, ``calls_per_round``,
    ``dutch`` (manual calls), ``auto_dutch``; ``lowest`` / ``tied`` /
    ``beaten`` counts and ``lowest_rate`` / ``tied_rate`` / ``beaten_rate``
    (a call succeeds when its outcome is lowest); ``avg_penalty_cards`` and
    ``avg_penalty_points``, averaged over all the player's calls (a
    successful call draws nothing); ``faced_calls`` (rounds someone else
    called), ``beat_calls`` (of those, the player's hand was strictly below
    the caller's) and ``beat_call_rate``. Rates are missing where the count
    they divide by is 0.
    """
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
    """How calls turn out by the caller's hand total: how low do you need to be?

    One row per caller's ``hand_total`` (per ``player`` and hand total when
    ``by_player``), with ``calls``, the outcome counts and rates as in
    :func:`dutch_calls`, and ``lowest_rate_at_or_below``: the success rate of
    all calls made with this hand total or a lower one.
    """
    calls = _calls(df)
    keys = ["player", "hand_total"] if by_player else ["hand_total"]
    out = _outcome_counts(calls, keys).reset_index()
    if by_player:
        running = out.groupby("player")[["calls", "lowest"]].cumsum()
    else:
        running = out[["calls", "lowest"]].cumsum()
    out["lowest_rate_at_or_below"] = rate(running["lowest"], running["calls"])
    return out
