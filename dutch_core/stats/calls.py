"""Dutch calls: how often each player calls, how the calls turn out, who beats them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from dutch_core.stats._groups import changes, player_codes
from dutch_core.stats._util import frame_of, is_value, rate, take

OUTCOMES = ("lowest", "tied", "beaten")


def _outcomes(df: pd.DataFrame, calls: np.ndarray) -> dict[str, np.ndarray]:
    """For the callers' rows ``calls``: one boolean mask per outcome."""
    outcome = take(df["outcome"], calls)
    return {name: is_value(outcome, name) for name in OUTCOMES}


def _outcome_counts(
    groups: np.ndarray, outcomes: dict[str, np.ndarray], size: int
) -> dict[str, np.ndarray]:
    """Calls and outcome counts and rates per group code (``size`` groups)."""
    calls = np.bincount(groups, minlength=size)
    counts = {name: np.bincount(groups[mask], minlength=size) for name, mask in outcomes.items()}
    rates = {f"{name}_rate": rate(count, calls) for name, count in counts.items()}
    return {"calls": calls, **counts, **rates}


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
    codes, names = player_codes(df["player"])
    size = len(names)
    calling = df["is_caller"].to_numpy(dtype=bool)
    calls = np.flatnonzero(calling)
    callers = codes[calls]
    counted = _outcome_counts(callers, _outcomes(df, calls), size)
    call_type = take(df["call_type"], calls)
    kinds = {
        kind: np.bincount(callers[is_value(call_type, kind)], minlength=size)
        for kind in ("dutch", "auto_dutch")
    }
    penalties = {
        name: rate(
            np.bincount(callers, weights=df[column].to_numpy()[calls], minlength=size),
            counted["calls"],
        )
        for name, column in (
            ("avg_penalty_cards", "penalty_cards_due"),
            ("avg_penalty_points", "penalty_points"),
        )
    }
    caller_total = df["caller_hand_total"].to_numpy(dtype="float64", na_value=np.nan)
    faced = ~df["caller"].isna().to_numpy(dtype=bool) & ~calling
    beat = faced & (df["hand_total"].to_numpy() < caller_total)
    rounds = np.bincount(codes, minlength=size)
    faced_calls = np.bincount(codes[faced], minlength=size)
    beat_calls = np.bincount(codes[beat], minlength=size)
    return frame_of(
        {
            "player": names,
            "rounds": rounds,
            "calls": counted["calls"],
            "calls_per_round": rate(counted["calls"], rounds),
            **kinds,
            **{name: counted[name] for name in OUTCOMES},
            **{f"{name}_rate": counted[f"{name}_rate"] for name in OUTCOMES},
            **penalties,
            "faced_calls": faced_calls,
            "beat_calls": beat_calls,
            "beat_call_rate": rate(beat_calls, faced_calls),
        }
    )


def call_success_by_hand_total(df: pd.DataFrame, by_player: bool = False) -> pd.DataFrame:
    """How calls turn out by the caller's hand total: how low do you need to be?

    One row per caller's ``hand_total`` (per ``player`` and hand total when
    ``by_player``), with ``calls``, the outcome counts and rates as in
    :func:`dutch_calls`, and ``lowest_rate_at_or_below``: the success rate of
    all calls made with this hand total or a lower one.
    """
    calls = np.flatnonzero(df["is_caller"].to_numpy(dtype=bool))
    totals, hands = pd.factorize(df["hand_total"].to_numpy()[calls], sort=True)
    out: dict[str, Any] = {}
    if by_player:
        codes, names = player_codes(take(df["player"], calls))
        groups, keys = pd.factorize(codes.astype("int64") * len(hands) + totals, sort=True)
        out["player"] = names.take(keys // len(hands))
        out["hand_total"] = hands[keys % len(hands)]
        player_starts = changes(keys // len(hands))
    else:
        groups, out["hand_total"] = totals, hands
        player_starts = changes(np.zeros(len(hands), dtype=bool))
    counted = _outcome_counts(groups, _outcomes(df, calls), len(out["hand_total"]))
    out.update(counted)
    # Running totals restart at each player's first row.
    first = np.maximum.accumulate(np.where(player_starts, np.arange(len(player_starts)), 0))
    running_calls = np.cumsum(counted["calls"])
    running_lowest = np.cumsum(counted["lowest"])
    before_calls = (running_calls - counted["calls"])[first]
    before_lowest = (running_lowest - counted["lowest"])[first]
    out["lowest_rate_at_or_below"] = rate(
        running_lowest - before_lowest, running_calls - before_calls
    )
    return frame_of(out)
